#!/usr/bin/env bash
# On the GPU machine (through the device tool), one call: build, the tests of
# TESTS on every device, compute-sanitizer memcheck on SAN_TESTS' CUDA
# instances, then the matrix set (scripts/gpu-spmv-matrices.sh) with what
# time is left before DEADLINE (s) unless MATRICES=0.
#   TESSERA_COMMIT=<HEAD> TESTS='*SpmvDevice*' SAN_TESTS='*SpmvDevice.RandomMatricesDouble*' \
#     NNZ=4000000 DEADLINE=560 scripts/gpu-sparse-check.sh
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/gpu-common.sh
export TESSERA_CACHE_DIR=/tmp/tessera-cache
gpu_build build/gpu tessera_cli tessera_tests
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/card.txt"
summary=()
left() { echo $(( ${DEADLINE:-560} - SECONDS )); }
if [[ -n ${TESTS:-} ]]; then
  timeout $(( $(left) - ${SAN_RESERVE:-200} )) build/gpu/bin/tessera_tests --gtest_filter="$TESTS" > "$OUT/tests.log" 2>&1
  summary+=("tests: exit $? $(grep -E '^\[  (PASSED|FAILED)  \]' "$OUT/tests.log" | tr '\n' ' ')")
  grep -E '^\[  FAILED  \]' "$OUT/tests.log" | head -20
fi
if [[ -n ${SAN_TESTS:-} ]]; then
  filter=$(echo "$SAN_TESTS" | sed 's|\([^:]*\)|\1/cuda_*|g')
  timeout $(( $(left) - 150 )) compute-sanitizer --tool memcheck --error-exitcode 99 --print-limit 20 \
    build/gpu/bin/tessera_tests --gtest_filter="$filter" > "$OUT/memcheck.log" 2>&1
  summary+=("memcheck: exit $? $(grep -E 'ERROR SUMMARY' "$OUT/memcheck.log" | tail -1) $(grep -E '^\[  PASSED' "$OUT/memcheck.log")")
fi
[[ ${MATRICES:-1} == 1 ]] && TIMEOUT=$(( $(left) - 10 )) scripts/gpu-spmv-matrices.sh
printf '%s\n' "${summary[@]}"
