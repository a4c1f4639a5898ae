#!/usr/bin/env bash
# On a GPU machine with two or more GPUs (through the device tool, kind
# nvidia-h100-x2 / nvidia-h200-x2): what a one-GPU machine cannot check.
#   1. every multi-part test (skeleton, distributed SWE/LBM, checkpoints on
#      another part count, fold) on CUDA and NVIDIA OpenCL, where a part is a
#      GPU: one GPU against two, bitwise where promised;
#   2. the parity label (ctest -L parity's filter), PoCL left out;
#   3. compute-sanitizer (all four tools) on the multi-device CUDA tests, which
#      skip on one GPU;
#   4. HISTORIES_IN=<report folder>: the report's convergence histories again
#      (tessera report --suites none --keep) when this machine's GPU is the
#      one that report was measured on.
# The four run side by side (each in its own folder and cache; a test machine
# with 32 cores and a GPU each has room); each is cut off after MULTI_S s.
# MULTI_TESTS=0 leaves out parts 1 and 2; MULTI_TOOLS picks the sanitizer tools.
# $OUT gets one log per part, multi.tgz (the logs and the histories) and a summary.
# Put TESSERA_COMMIT=<local HEAD> in the command (the device's .git may be older).
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
source scripts/gpu-common.sh
B=${BUILD_DIR:-$ROOT/build/gpu}
case $B in /*) ;; *) B=$ROOT/$B ;; esac
gpu_build "$B" tessera_tests tessera_cli
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
echo "commit ${TESSERA_COMMIT:-?}; $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | sort | uniq -c | tr -s ' ')"
"$B/bin/tessera" devices 2>&1 | tee "$OUT/devices.txt" | tail -8
S=${MULTI_S:-300}
L=/tmp/multi-logs; rm -rf "$L"; mkdir -p "$L"
NOPOCL='-*opencl_0_0*:*/cpu'
MULTI='*Distributed*:*Skeleton*:*SlabsOnSeveralDevices*:*Checkpoint*:*Restart*:*Fold*'
PARITY=$(sed -n '/set(PARITY_FILTER/,/)/p' tests/reliability/tests.cmake | grep -o '"[^"]*"' | tr -d '"\n')
# the CUDA tests that use several GPUs (they skip on one)
CS_MULTI='*Distributed*/cuda_0:*SkeletonExchange*/cuda_0:*OneToFourParts*/cuda_0:*SlabsOnSeveralDevices*/cuda_0'

run_in() {  # name timeout cmd...: in its own folder, cache and TMPDIR
  local name=$1 s=$2; shift 2
  mkdir -p "/tmp/multi-$name/tmp"
  (cd "/tmp/multi-$name" && TESSERA_CACHE_DIR=/tmp/multi-$name/cache TMPDIR=/tmp/multi-$name/tmp \
     timeout -k 5 "$s" "$@" > "$L/$name.log" 2>&1; echo "exit $?" >> "$L/$name.log")
}
t0=$SECONDS
if [ "${MULTI_TESTS:-1}" != 0 ]; then
  run_in multi "$S" "$B/bin/tessera_tests" --gtest_filter="$MULTI$NOPOCL" &
  run_in parity "$S" "$B/bin/tessera_tests" --gtest_filter="$PARITY$NOPOCL" &
fi
for tool in ${MULTI_TOOLS-memcheck racecheck initcheck synccheck}; do
  opts="--tool $tool"
  [ $tool = memcheck ] && opts="$opts --leak-check full"
  [ $tool = racecheck ] && opts="$opts --racecheck-report hazard"
  run_in "cs-$tool" "$S" compute-sanitizer --error-exitcode 99 --print-limit 50 $opts \
    "$B/bin/tessera_tests" --gtest_filter="$CS_MULTI" &
done
if [ -n "${HISTORIES_IN:-}" ] && [ -f "$HISTORIES_IN/results/index.json" ]; then
  want=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['device']['name'])" "$HISTORIES_IN/results/index.json")
  if [ "$want" = "$GPU" ]; then
    rm -rf /tmp/multi-hist-report && mkdir -p /tmp/multi-hist-report && cp -r "$HISTORIES_IN/results" /tmp/multi-hist-report/
    run_in histories "$S" "$B/bin/tessera" report --device cuda:0 --suites none --keep --no-python \
      --out /tmp/multi-hist-report &
  else
    echo "histories: this GPU is '$GPU', the report's is '$want': not recomputed" > "$L/histories.log"
  fi
fi
wait
echo "side by side: $((SECONDS - t0)) s"
[ -d /tmp/multi-hist-report/results ] && cp /tmp/multi-hist-report/results/histories.json /tmp/multi-hist-report/results/index.json "$L/" 2>/dev/null
{
  for f in "$L"/*.log; do
    n=$(basename "$f" .log)
    printf '%-14s %-8s %s %s %s\n' "$n" "$(tail -1 "$f")" \
      "$(grep -E '^\[  PASSED  \]' "$f" | tail -1)" "$(grep -E '^\[  FAILED  \] [0-9]+ test' "$f" | tail -1)" \
      "$(grep -E '(ERROR|RACECHECK) SUMMARY' "$f" | tail -1)"
    grep -E '^\[  FAILED  \] [A-Za-z]' "$f" | sort -u | head -10
  done
  echo "passed instances per device (multi, parity):"
  cat "$L/multi.log" "$L/parity.log" 2>/dev/null | grep -oE '^\[       OK \] [^ ]+/[a-z]+_[0-9_]+ ' | sed -E 's|.*/||' | sort | uniq -c
} | tee "$OUT/summary.txt"
tar -czf "$OUT/multi.tgz" -C "$L" .
