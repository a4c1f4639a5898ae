#!/usr/bin/env bash
# On the GPU machine (through the device tool): issue 42's csr-merge check
# in one call on a cold machine. Builds tessera_cli and tessera_tests without
# the modules SpMV does not need (BUILD, default build/gpu-merge), runs the
# SpMV tests given in TESTS (a gtest filter; none by default) within
# TEST_TIMEOUT, csr-merge alone on QUICK_FAMILIES (specs), then the
# matrix set of `tessera bench spmv --param parts=matrices` on cuda:0 with
# cuSPARSE in the same run (NNZ 10000000, PRECISIONS, ROW_SECONDS 0.3),
# stopped at DEADLINE seconds after the start (default 400) so that the
# call ends in time; everything goes to $OUT/merge.tar.gz.
#   TESSERA_COMMIT=<HEAD> PRECISIONS=double scripts/gpu-spmv-merge.sh   # there
# A helper's worktree travels as an ignored copy of its commit inside the
# session's checkout: `git archive HEAD | tar -x -C build-X/src` here, carry
# build-X, and run build-X/src/scripts/gpu-spmv-merge.sh there.
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/gpu-common.sh
export TESSERA_CACHE_DIR=/tmp/tessera-cache
deadline=${DEADLINE:-400}
dir=${BUILD:-build/gpu-merge}
log=$OUT/merge
mkdir -p "$log"
pack() { tar -czf "$OUT/merge.tar.gz" -C "$OUT" merge && rm -rf "$log"; }
trap pack EXIT
# build/gpu (the other scripts' full build, kept on a warm machine) is
# only brought up to date; any other BUILD is configured without the
# modules this check does not need, for a cold machine.
if [[ $dir == build/gpu ]]; then
  gpu_build "$dir" tessera_cli ${TESTS:+tessera_tests}
else
  { cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DTESSERA_CUDA_ARCHITECTURES=90 \
      -DTESSERA_ENABLE_MPI=OFF -DTESSERA_EXCLUDE_MODULES="demo;lbm;swe;skeleton;krylov" &&
    cmake --build "$dir" -j"$(nproc)" --target tessera_cli ${TESTS:+tessera_tests}; } > "$log/build.log" 2>&1 ||
    { echo "build FAILED"; tail -30 "$log/build.log"; exit 1; }
fi
echo "build: $SECONDS s"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$log/card.txt"
"$dir/bin/tessera" devices | tee "$log/devices.txt"
if [[ -n ${TESTS:-} ]]; then
  timeout "${TEST_TIMEOUT:-90}" "$dir/bin/tessera_tests" --gtest_filter="$TESTS" > "$log/tests.log" 2>&1
  echo "tests: exit $? $(grep -E '^\[  (PASSED|FAILED)  \]' "$log/tests.log" | tr '\n' ' ') ($SECONDS s)"
  grep -E '^\[  FAILED  \]|Failure' "$log/tests.log" | head -20
fi
# csr-merge alone on the families of the issue (checked, timed): figures
# that come back even when a bench below is cut
for spec in ${QUICK_FAMILIES:-}; do
  for p in ${QUICK_PRECISIONS:-double}; do
    "$dir/bin/tessera" sparse spmv --generate "$spec" --kernel csr-merge --device cuda:0 \
      --precision $p --reps 50 > "$log/spmv.tmp" 2>&1
    echo "$spec $p exit $?: $(grep -iE 'ms|error' "$log/spmv.tmp" | tr -s ' ' | tr '\n' ';')"
    cat "$log/spmv.tmp" >> "$log/spmv-merge.log"
  done
done
for p in ${PRECISIONS:-double float}; do
  left=$((deadline - SECONDS))
  ((left > 30)) || { echo "bench $p: not run ($left s left)"; continue; }
  timeout "$left" "$dir/bin/tessera" bench spmv --device cuda:0 --param parts=matrices \
    --param nnz="${NNZ:-10000000}" --param precisions="$p" --row-seconds "${ROW_SECONDS:-0.3}" \
    --json "$log/matrices-$p.json" > "$log/matrices-$p.md" 2> "$log/matrices-$p.err"
  echo "bench $p: exit $? ($SECONDS s)"
  grep -E "csr-merge \||cusparse-csr-alg1 \||^\| auto:" "$log/matrices-$p.md" |
    awk -F'|' '{gsub(/ +/," ",$2); print $2 "|" $5 "|" $10}' | sed -E 's/picks ([a-z-]+) \(.*\)\);/picks \1;/'
done
