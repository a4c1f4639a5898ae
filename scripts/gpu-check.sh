#!/usr/bin/env bash
# On the GPU machine (run through the device tool): build for sm_90, register
# NVIDIA's OpenCL driver, run the tests, the sanitizer and the benchmarks.
# Full logs and JSON go to $OUT; a short table is printed last.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT="${OUT:-/tmp/tessera-out}"; mkdir -p "$OUT"
export PATH="/usr/local/cuda/bin:$PATH"
# NVIDIA's OpenCL ICD is installed but not registered with the loader.
mkdir -p /tmp/icd
echo libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd
[ -f /etc/OpenCL/vendors/pocl.icd ] && cp /etc/OpenCL/vendors/pocl.icd /tmp/icd/
export OCL_ICD_VENDORS=/tmp/icd
export TESSERA_CACHE_DIR=/tmp/tessera-cache
STEPS="${STEPS:-build test bench}"
summary=()
if [[ $STEPS == *build* ]]; then
  { cmake --preset sm90 -DTESSERA_BUILD_TESTS=ON && cmake --build build -j16; } > "$OUT/build.log" 2>&1 \
    && summary+=("build: ok") || { summary+=("build: FAILED"); tail -40 "$OUT/build.log"; }
fi
build/bin/tessera devices > "$OUT/devices.txt" 2>&1; cat "$OUT/devices.txt"
if [[ $STEPS == *test* ]]; then
  (cd build && ctest -j8 --output-on-failure ${CTEST_ARGS:-}) > "$OUT/ctest.log" 2>&1
  summary+=("ctest: $(grep -E 'tests passed|tests failed' "$OUT/ctest.log" | tail -1)")
  grep -E '^\s+[0-9]+ - .*\((Failed|Timeout|SEGFAULT|Subprocess)' "$OUT/ctest.log" | head -20
fi
if [[ $STEPS == *sanitize* ]]; then
  for tool in memcheck racecheck; do
    compute-sanitizer --tool $tool --error-exitcode 9 build/bin/tessera_tests --gtest_filter='*cuda*' \
      > "$OUT/sanitizer-$tool.log" 2>&1
    summary+=("compute-sanitizer $tool: exit $? ($(grep -E 'ERROR SUMMARY' "$OUT/sanitizer-$tool.log" | tail -1))")
  done
fi
ids=$(build/bin/tessera devices --json | python3 -c 'import json,sys; print(" ".join("--device "+d["id"] for d in json.load(sys.stdin) if d["is_gpu"]))')
# SUITES: which `tessera bench` suites to run on every GPU device (default: stream)
for suite in ${SUITES:-stream}; do
  [[ $STEPS == *bench* ]] || break
  build/bin/tessera bench $suite $ids ${BENCH_ARGS:-} --json "$OUT/$suite.json" > "$OUT/$suite.md" 2>&1
  summary+=("bench $suite: exit $?")
  cat "$OUT/$suite.md"
done
# POCL_SUITES: suites also run on PoCL (the OpenCL CPU device), with POCL_ARGS
pocl=$(build/bin/tessera devices --json | python3 -c 'import json,sys; print(" ".join("--device "+d["id"] for d in json.load(sys.stdin) if d["backend"]=="opencl" and not d["is_gpu"]))')
for suite in ${POCL_SUITES:-}; do
  [[ -n $pocl ]] || break
  build/bin/tessera bench $suite $pocl ${POCL_ARGS:-} --json "$OUT/$suite-pocl.json" > "$OUT/$suite-pocl.md" 2>&1
  summary+=("bench $suite on PoCL: exit $?")
done
printf '%s\n' "${summary[@]}"
