#!/usr/bin/env bash
# On the GPU machine (through the device tool): the backend parity suite
# (`ctest -L parity`, tests/reliability/tests.cmake) on every device there:
# CPU, CUDA and NVIDIA OpenCL (registered here through OCL_ICD_VENDORS).
# $OUT gets build.log and parity.log; the last lines are the summary.
# The device machine's copy of .git may be older than the tree it runs: put
# TESSERA_COMMIT=<local HEAD> in the command so the build records the right commit.
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/gpu-common.sh
B=${BUILD_DIR:-build/gpu}
gpu_build "$B" tessera_tests
echo "commit ${TESSERA_COMMIT:-$(git rev-parse --short=12 HEAD 2>/dev/null)}"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
"$B/bin/tessera_tests" --gtest_list_tests --gtest_filter='*cuda_0*:*opencl_1*' | grep -c '^  ' | sed 's/^/GPU test instances: /'
t0=$SECONDS
# PARITY_SKIP=pattern leaves devices out (e.g. '*opencl_0_0' for PoCL, which
# CI covers and which compiles every kernel on the CPU here: minutes).
if [ -n "${PARITY_SKIP:-}" ]; then
  f=$(cd "$B" && ctest -L parity -N -V | sed -n 's/.*--gtest_filter=\([^" ]*\).*/\1/p' | head -1)
  TESSERA_CACHE_DIR=$B/test-cache timeout -k 5 "${PARITY_S:-180}" "$B/bin/tessera_tests" --gtest_filter="$f-$PARITY_SKIP" > "$OUT/parity.log" 2>&1
else
  (cd "$B" && timeout -k 5 "${PARITY_S:-180}" ctest -L parity -V) > "$OUT/parity.log" 2>&1
fi
echo "ctest -L parity: exit $? in $((SECONDS - t0)) s"
grep -E '^\[  (PASSED|FAILED) |tests passed' "$OUT/parity.log" | sort -u | head -20
echo "passed test instances per device:"
grep -oE '^\[       OK \] [^ ]+/[a-z]+_[0-9_]+ ' "$OUT/parity.log" | sed -E 's|.*/||' | sort | uniq -c
