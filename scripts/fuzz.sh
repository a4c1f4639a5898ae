#!/usr/bin/env bash
# Builds the libFuzzer harnesses (tests/fuzz, clang) and runs each for a time.
#   scripts/fuzz.sh [seconds per harness, default 60] [harness ...]
#   FUZZ_RUNS=1000000 scripts/fuzz.sh 3600   stops each harness after that many
#                                            executions (the seconds cap it)
# Each harness starts from its committed seeds (tests/fuzz/corpus/<harness>/);
# what it discovers goes to build-fuzz/corpus/<harness>/ (not committed), a
# crash, leak, timeout or sanitizer report to build-fuzz/artifacts/ and makes
# the script fail. The executions of each run are printed (docs/reliability.md).
# Needs clang and its fuzzer runtime (Debian: clang-14 libclang-rt-14-dev, or
# clang-16 libclang-rt-16-dev; CXX=clang++-16 picks another clang).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
build=build-fuzz
cxx=${CXX:-}
if [ -z "$cxx" ]; then
  for c in clang++ clang++-16 clang++-14; do command -v "$c" >/dev/null && { cxx=$c; break; }; done
fi
[ -n "$cxx" ] || { echo "fuzz.sh: no clang++ found (Debian: apt-get install clang libclang-rt-14-dev)" >&2; exit 2; }
launcher=(); command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S tests/fuzz -B "$build" -G Ninja -DCMAKE_CXX_COMPILER="$cxx" "${launcher[@]}" >/dev/null
cmake --build "$build" -j"${FUZZ_BUILD_JOBS:-2}"
harnesses=("$@")
if [ ${#harnesses[@]} -eq 0 ]; then
  for d in tests/fuzz/corpus/*/; do h=$(basename "$d"); [ -x "$build/$h" ] && harnesses+=("$h"); done
fi
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
mkdir -p "$build/artifacts" "$build/logs"
status=0
for h in "${harnesses[@]}"; do
  mkdir -p "$build/corpus/$h"
  log="$build/logs/$h.log"
  # -rss_limit_mb also caps single allocations (malloc_limit_mb defaults to
  # it): a reader asking for gigabytes because a header says so is a bug.
  if "./$build/$h" "$build/corpus/$h" "tests/fuzz/corpus/$h" -max_total_time="$seconds" ${FUZZ_RUNS:+-runs=$FUZZ_RUNS} ${FUZZ_SEED:+-seed=$FUZZ_SEED} \
       -timeout=10 -rss_limit_mb=2048 -max_len=8192 -print_final_stats=1 \
       -artifact_prefix="$build/artifacts/$h-" >"$log" 2>&1; then
    result=clean
  else
    result=FAILED; status=1
  fi
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
  printf '%-22s %-7s %12s executions in %ss (%s)  log: %s\n' "$h" "$result" "${execs:-?}" "$seconds" \
         "$(date -u +%Y-%m-%d)" "$log"
  [ "$result" = clean ] || grep -E 'ERROR|runtime error|SUMMARY|Test unit written' "$log" | head -5
done
exit $status
