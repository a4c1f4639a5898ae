#!/usr/bin/env bash
# On the GPU machine (through the device tool), one call for issue 43: build,
# the geometry/TRT/case-file/backend tests on every device, compute-sanitizer
# memcheck on the voxelizer's CUDA instances, then `bench lbm --param
# geometry=1` (a body of 10% of the box against the empty box, FP32 and FP16S;
# 1.3M triangles voxelized into 512^3) on cuda:0 and NVIDIA OpenCL.
#   TESSERA_COMMIT=<HEAD> DEADLINE=560 scripts/gpu-lbm-geometry.sh
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/gpu-common.sh
export TESSERA_CACHE_DIR=/tmp/tessera-cache
gpu_build build/gpu tessera_cli tessera_tests
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/card.txt"
left() { echo $(( ${DEADLINE:-560} - SECONDS )); }
summary=()
timeout $(( $(left) - 330 )) build/gpu/bin/tessera_tests \
  --gtest_filter="${TESTS:-*Voxel*:*Placement*:LbmTrt*:LbmCaseFile*:*LbmBackends*:LbmOutput*}" > "$OUT/tests.log" 2>&1
summary+=("tests: exit $? $(grep -E '^\[  (PASSED|FAILED)  \]' "$OUT/tests.log" | tr '\n' ' ')")
grep -E '^\[  FAILED  \]' "$OUT/tests.log" | head -20
timeout $(( $(left) - 250 )) compute-sanitizer --tool memcheck --error-exitcode 99 --print-limit 20 \
  build/gpu/bin/tessera_tests --gtest_filter='*Voxelize*/cuda_*' > "$OUT/memcheck.log" 2>&1
summary+=("memcheck: exit $? $(grep -E 'ERROR SUMMARY' "$OUT/memcheck.log" | tail -1) $(grep -E '^\[  PASSED' "$OUT/memcheck.log")")
for dev in cuda:0 opencl:1:0; do
  tag=geometry-${dev//:/_}
  timeout $(( $(left) - 10 )) build/gpu/bin/tessera bench lbm --device $dev --param thesis=0 \
    --param precisions=fp32,fp16s --param geometry=1 --json "$OUT/$tag.json" > "$OUT/$tag.md" 2>&1
  summary+=("bench $tag: exit $?")
  grep -E "empty box|solid|voxelize|copy bandwidth" "$OUT/$tag.md" | cut -c1-160
done
printf '%s\n' "${summary[@]}"
