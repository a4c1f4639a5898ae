#!/usr/bin/env bash
# On the GPU machine, one call that does what the card lent allows:
#  - an H200: the issue targets that need one (LBM 256^3 FP32/FP16S on CUDA
#    and NVIDIA OpenCL; GMRES TRACE case 4, resident and fused; mg-kernels),
#    through scripts/gpu-bench.sh;
#  - otherwise (H100): `bench mg-kernels` in the build variants VARIANTS
#    (scripts/gpu-mg-sweep.sh) on CUDA and NVIDIA OpenCL, and with BENCH_MG=1
#    `bench mg` (thesis, resident, streaming, row cache, transfers).
# PROBE=1 ends the call on any other card at once.
# Put TESSERA_COMMIT=<local HEAD> in the command.
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/gpu-common.sh
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
echo "gpu: $GPU"
if [[ $GPU == *H200* && ${FORCE_H100_BRANCH:-0} != 1 ]]; then
  BENCH=${H200_BENCH:-'lbm --device cuda:0 --device opencl:1:0 --param thesis=0;gmres --device cuda:0 --device opencl:1:0 --param cases=4 --param modes=resident,fused --param ortho=cgs2 --param ghosts=keep,drop --param tosolve=0 --param poisson=0;mg-kernels -d cuda:0 -d opencl:1:0'} \
    scripts/gpu-bench.sh
  exit
fi
# PROBE=1: only an H200 was wanted; an H100 ends the call at once (cheap)
[[ ${PROBE:-0} == 1 ]] && { echo "not an H200: nothing run"; exit 0; }
VARIANTS=${VARIANTS:-'default:'} DEVICES='-d cuda:0 -d opencl:1:0' NCU=0 scripts/gpu-mg-sweep.sh
mkdir -p /tmp/round && mv "$OUT/results.tgz" /tmp/round/mg-sweep.tgz
if [[ ${BENCH_MG:-0} == 1 ]]; then  # bench mg: thesis, resident, streaming, row cache, transfers
  bin=build/gpu-${VARIANTS%%:*}/bin/tessera
  export TESSERA_CACHE_DIR=/tmp/tessera-cache
  timeout 300 "$bin" bench mg -d cuda:0 -d opencl:1:0 --json /tmp/round/mg.json > /tmp/round/mg.md 2>&1
  echo "bench mg: exit $?"
  grep -E '^\|' /tmp/round/mg.md | grep -E 'row cache|streaming 10|thesis 10|V\(1,1\)' | cut -c1-160
fi
tar czf "$OUT/round.tgz" -C /tmp/round .
