#!/usr/bin/env bash
# On the GPU machine: the fused red-black sweep in build variants chosen by
# compile flags, each its own build of tessera_cli, then `bench mg-kernels`
# on DEVICES (default '-d cuda:0'; '-d cuda:0 -d opencl:1:0' adds NVIDIA's
# OpenCL, which gets the same TS_MG_FY); the first variant also under Nsight Compute
# (per-SASS stall samples of the double sweep).
#   VARIANTS='fy16:;fy8:-DTS_MG_FY=8'   (name:flags, separated by ';')
# NCU=0 skips the profile. Put TESSERA_COMMIT=<local HEAD> in the command.
# Results: $OUT/results.tgz (mg-NAME.md/.json, build logs, ncu-NAME*).
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/gpu-common.sh
export TESSERA_CACHE_DIR=/tmp/tessera-cache
IFS=';' read -ra vs <<< "${VARIANTS:-fy16:}"
first=1
for v in "${vs[@]}"; do
  name=${v%%:*}; flags=${v#*:}
  CXXFLAGS="$flags" CUDAFLAGS="$flags" gpu_build "build/gpu-$name" tessera_cli
  mv "$OUT/build.log" "$OUT/build-$name.log"
  bin=build/gpu-$name/bin/tessera
  timeout 200 "$bin" bench mg-kernels ${DEVICES:--d cuda:0} --json "$OUT/mg-$name.json" > "$OUT/mg-$name.md" 2>&1
  echo "== $name ($flags): exit $?"
  grep -E "^\| (fused|two-pass|V\\(1,1\\))" "$OUT/mg-$name.md" | cut -c1-150
  if [[ $first == 1 && ${NCU:-1} == 1 ]]; then
    timeout 200 ncu --kernel-name-base mangled -k "regex:gauss_seidel_fused_kIdLi0" --launch-skip 20 --launch-count 1 \
      --section SpeedOfLight --section Occupancy --section WarpStateStats --section SchedulerStats \
      --section SourceCounters -o "$OUT/ncu-$name" -f "$bin" bench mg-kernels -d cuda:0 > "$OUT/ncu-$name.log" 2>&1
    ncu -i "$OUT/ncu-$name.ncu-rep" --page details > "$OUT/ncu-$name.txt" 2>&1
    ncu -i "$OUT/ncu-$name.ncu-rep" --page source --csv --print-source sass > "$OUT/ncu-$name-sass.csv" 2>&1
    rm -f "$OUT/ncu-$name.ncu-rep"
    grep -E "Duration|DRAM Throughput|No Eligible|Warp Cycles Per Issued" "$OUT/ncu-$name.txt" | head
  fi
  first=0
done
tar czf /tmp/mg-sweep.tgz -C "$OUT" . && rm -rf "${OUT:?}"/* && mv /tmp/mg-sweep.tgz "$OUT/results.tgz"
