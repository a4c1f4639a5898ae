#!/usr/bin/env bash
# On the GPU machine (through the device tool): every CUDA test instance of
# tessera_tests (`*/cuda_*`) under compute-sanitizer memcheck, racecheck,
# initcheck and synccheck, plus the CUDA fault-injection runs.
#   scripts/gpu-sanitizer.sh                 # all four tools
#   CS_TOOLS="memcheck initcheck" CS_SHARDS=6 CS_S=400 scripts/gpu-sanitizer.sh
#   CS_LIST=file scripts/gpu-sanitizer.sh   # lines "tool gtest-filter": one process each
# The suite is split into CS_SHARDS gtest shards per tool and the shards run in
# parallel (the instrumented runs are bound by the host side, one core each;
# one GPU time-slices them). Each shard is cut off after CS_S seconds.
# $OUT gets sanitizer.tgz (one log per tool and shard) and summary.txt.
# The device machine's copy of .git may be older than the tree it runs: put
# TESSERA_COMMIT=<local HEAD> in the command so the build records the right commit.
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/gpu-common.sh
B=${BUILD_DIR:-build/gpu}
gpu_build "$B" tessera_tests tessera_cli
echo "commit ${TESSERA_COMMIT:-$(git rev-parse --short=12 HEAD 2>/dev/null)}; $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader); $(compute-sanitizer --version | tail -1)"
FILTER=${CS_FILTER:-'*/cuda_*'}
echo "CUDA test instances: $("$B/bin/tessera_tests" --gtest_list_tests --gtest_filter="$FILTER" | grep -c '^  ')"
L=/tmp/cs-logs; rm -rf "$L"; mkdir -p "$L"
SHARDS=${CS_SHARDS:-4}
jobs=()
tool_options() {
  case $1 in
    memcheck) echo "--tool memcheck --leak-check full" ;;
    racecheck) echo "--tool racecheck --racecheck-report hazard" ;;
    *) echo "--tool $1" ;;
  esac
}
if [ -n "${CS_LIST:-}" ]; then  # one process per listed (tool, filter); shard index = line number
  SHARDS=1; n=0
  while read -r tool filter; do
    [ -z "$tool" ] && continue
    jobs+=("$tool $n $filter $(tool_options "$tool")"); n=$((n + 1))
  done < "$CS_LIST"
else
  for tool in ${CS_TOOLS:-memcheck racecheck initcheck synccheck}; do
    for ((s = 0; s < SHARDS; ++s)); do jobs+=("$tool $s $(tool_options "$tool")"); done
  done
fi
run_one() {  # tool shard [filter] options...
  local tool=$1 shard=$2 filter=$FILTER; shift 2
  if [ -n "${CS_LIST:-}" ]; then filter=$1; shift; fi
  mkdir -p "/tmp/cs-cache/$tool-$shard"
  TESSERA_CACHE_DIR=/tmp/cs-cache/$tool-$shard GTEST_TOTAL_SHARDS=$SHARDS GTEST_SHARD_INDEX=$((shard % SHARDS)) \
    timeout -k 5 "${CS_S:-420}" compute-sanitizer --error-exitcode 99 --print-limit 50 "$@" \
    "$B/bin/tessera_tests" --gtest_filter="$filter" > "$L/$tool-$shard.log" 2>&1
  echo "exit $?" >> "$L/$tool-$shard.log"
}
export -f run_one; export B L SHARDS FILTER CS_LIST
t0=$SECONDS
printf '%s\n' "${jobs[@]}" | xargs -P "${CS_PARALLEL:-16}" -L 1 bash -c 'run_one "$@"' _
echo "sanitizer runs: $((SECONDS - t0)) s"

# fault injection on CUDA: a failed launch and a failed allocation (exit 1, the CUDA error named)
{
  TESSERA_FAULT=cuda_launch "$B/bin/tessera" lbm --case cavity --lattice D2Q9 --size 32 --steps 10 --device cuda:0; echo "exit $?"
  TESSERA_FAULT=device_alloc "$B/bin/tessera" bench stream --device cuda:0 --size 1000000 --reps 1; echo "exit $?"
} > "$L/fault.log" 2>&1

{
  printf '%-10s %5s %6s %6s %7s  %s\n' tool shard passed failed status summary
  for f in "$L"/*-[0-9]*.log; do
    b=$(basename "$f" .log); tool=${b%-*}; shard=${b##*-}
    passed=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$f" | tail -1)
    failed=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$f" | tail -1)
    summ=$(grep -E '(ERROR|RACECHECK) SUMMARY' "$f" | tail -1)
    printf '%-10s %5s %6s %6s %7s  %s\n' "$tool" "$shard" "${passed:-?}" "${failed:-0}" "$(tail -1 "$f")" "$summ"
  done
  echo "fault injection:"; grep -E 'error|exit' "$L/fault.log" | head -8
} | tee "$OUT/summary.txt"
tar -czf "$OUT/sanitizer.tgz" -C "$L" .
