#!/usr/bin/env bash
# A few seconds of every fuzz harness (CI): skipped, with a note, when no clang
# with the libFuzzer runtime is installed.
set -euo pipefail
cd "$(dirname "$0")/.."
cxx=""
for c in clang++ clang++-16 clang++-14; do command -v "$c" >/dev/null && { cxx=$c; break; }; done
if [ -z "$cxx" ] || ! echo 'extern "C" int LLVMFuzzerTestOneInput(const char*, unsigned long) { return 0; }' |
     "$cxx" -x c++ -fsanitize=fuzzer - -o /tmp/tessera-fuzz-probe.$$ 2>/dev/null; then
  echo "fuzz-smoke: skipped (needs clang and libclang-rt-14-dev or newer)"
  exit 0
fi
rm -f /tmp/tessera-fuzz-probe.$$
# a fixed seed and a fixed number of runs: the same inputs on every CI run (a
# time-limited random run could meet a new crash by chance and fail CI for no
# change of ours; long runs, scripts/fuzz.sh, look for those)
FUZZ_SEED=${FUZZ_SEED:-1} FUZZ_RUNS=${FUZZ_RUNS:-20000} CXX=$cxx exec scripts/fuzz.sh "${FUZZ_SMOKE_SECONDS:-30}"
