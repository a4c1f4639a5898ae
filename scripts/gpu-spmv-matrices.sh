#!/usr/bin/env bash
# On the GPU machine (through the device tool), after a gpu_build of
# build/gpu (scripts/gpu-plumbing.sh builds it): issue 42's matrix set,
# `tessera bench spmv --param parts=matrices`, on each device of DEVICES
# (default cuda:0), then the best:/auto: rows as a short table.
#   NNZ (10000000), PRECISIONS (double,float), ROW_SECONDS (0.5),
#   BIN (build/gpu/bin/tessera; e.g. build-new/src/build/gpu/bin/tessera)
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/gpu-common.sh
export TESSERA_CACHE_DIR=/tmp/tessera-cache
bin=${BIN:-build/gpu/bin/tessera}
[[ -x $bin ]] || gpu_build build/gpu tessera_cli
for dev in ${DEVICES:-cuda:0}; do
  tag=matrices-${dev//:/_}
  timeout ${TIMEOUT:-540} $bin bench spmv --device "$dev" --param parts=matrices \
    --param nnz=${NNZ:-10000000} --param precisions=${PRECISIONS:-double,float} \
    --row-seconds ${ROW_SECONDS:-0.5} --json "$OUT/$tag.json" > "$OUT/$tag.md" 2>&1
  echo "$tag: exit $?"
  grep -E "^\| (best|auto):" "$OUT/$tag.md" | cut -d'|' -f2,10 | sed 's/  */ /g'
done
