#!/usr/bin/env bash
# On the GPU machine (through the device tool): the SpMV kernels of the large
# TRACE cases on CUDA and NVIDIA OpenCL (`tessera bench spmv`, modern set), the
# device tests of SpMV and the skeleton checkpoints on cuda_0 and opencl_1_0,
# and compute-sanitizer memcheck on the same CUDA tests.
#   TESSERA_COMMIT=<HEAD> SPMV_CASES=4,5,6 scripts/gpu-spmv-check.sh
# $OUT gets spmv.json, the logs and a short table.
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/gpu-common.sh
export TESSERA_CACHE_DIR=/tmp/tessera-cache TESSERA_PROGRESS=log
B=${BUILD_DIR:-build/gpu}
gpu_build "$B" tessera_cli tessera_tests
echo "commit ${TESSERA_COMMIT:-?}; $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"
TESTS='*SpmvDevice*:*SkeletonCheckpoint*'
( timeout 200 "$B/bin/tessera_tests" --gtest_filter="$TESTS-*opencl_0_0*" > "$OUT/tests.log" 2>&1; echo "exit $?" >> "$OUT/tests.log" ) &
( timeout 300 compute-sanitizer --tool memcheck --error-exitcode 99 --print-limit 20 "$B/bin/tessera_tests" \
    --gtest_filter='*SpmvDevice*/cuda_0:*SkeletonCheckpoint*/cuda_0' > "$OUT/memcheck.log" 2>&1; echo "exit $?" >> "$OUT/memcheck.log" ) &
wait
timeout 300 "$B/bin/tessera" bench spmv --device cuda:0 --device opencl:1:0 --param cases="${SPMV_CASES:-4,5,6}" \
  --param parts=modern --row-seconds 3 --json "$OUT/spmv.json" > "$OUT/bench.log" 2>&1
echo "bench exit $?"
for f in tests memcheck; do
  echo "$f: $(tail -1 "$OUT/$f.log") $(grep -E '^\[  (PASSED|FAILED)  \]' "$OUT/$f.log" | tr '\n' ' ') $(grep -E 'ERROR SUMMARY' "$OUT/$f.log" | tail -1)"
done
python3 - "$OUT/spmv.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for dv in d["devices"]:
    print(dv["device"]["id"], "copy GB/s", round(dv["copy_gbps"]))
    for r in dv["results"]:
        if r.get("median_ms") and ("bell" in r["kernel"] or "cusparse" in r["kernel"]):
            print(f"  {r['kernel']:32s} {r['median_ms']:.4f} ms  {r.get('note', '')[:48]}")
PY
