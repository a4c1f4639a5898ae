#!/usr/bin/env bash
# On the GPU machine (through the device tool): one part of the full benchmark
# report, so that the report can be built in calls of under ten minutes each
# (`tessera report --keep`, docs/report.md).
#   REPORT_SUITES=stream,dense,mg scripts/gpu-report.sh [more `tessera report` options]
# REPORT_IN: a folder holding the earlier parts (its results/ is copied into the
# report folder first). GPU_TESTS: a gtest filter run before the suites.
# RENDER=1: write report.md and the plots at the end (needs python3 +
# matplotlib there; otherwise run python/tessera_report/report.py elsewhere).
# REPORT_LOG: the log's name under $OUT (default report; several parts in one
# call each name their own). DEADLINE: the epoch second the whole call must end
# by (default: 570 s after this script started); a part is cut off there, and
# one whose REPORT_MIN_S (its expected seconds) no longer fit is not started.
# $OUT gets report.tgz (results/, report.md, plots/) and the logs.
# The device machine's copy of .git may be older than the tree it runs: put
# TESSERA_COMMIT=<local HEAD> in the command so the build records the right commit.
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/gpu-common.sh
DEADLINE=${DEADLINE:-$(( $(date +%s) + 570 ))}
export TESSERA_CACHE_DIR=/tmp/tessera-cache TESSERA_PROGRESS=log
B=${BUILD_DIR:-build/gpu}
R=${REPORT_DIR:-/tmp/report-gpu}
# shellcheck disable=SC2086  # BUILD_TARGETS is a list
gpu_build "$B" ${BUILD_TARGETS:-tessera_cli${GPU_TESTS:+ tessera_tests}}
if [ -n "${GPU_TESTS:-}" ]; then
  timeout "${TEST_S:-240}" "$B/bin/tessera_tests" --gtest_filter="$GPU_TESTS" > "$OUT/gputests.log" 2>&1
  echo "gpu tests: exit $? $(grep -E '^\[  (PASSED|FAILED) ' "$OUT/gputests.log" | tr '\n' ' ')"
  grep -E '^\[  FAILED  \]' "$OUT/gputests.log" | sort -u | head -20
fi
mkdir -p "$R"
[ -n "${REPORT_IN:-}" ] && [ -d "$REPORT_IN/results" ] && cp -r "$REPORT_IN/results" "$R/"
LOG=$OUT/${REPORT_LOG:-report}.log
left=$((DEADLINE - $(date +%s) - 5))
if [ -n "${REPORT_SUITES:-}" ] && { [ "$left" -le 1 ] || [ "$left" -lt "${REPORT_MIN_S:-0}" ]; }; then
  echo "report $REPORT_SUITES $*: not started, $left s left (expected ${REPORT_MIN_S} s)"
elif [ -n "${REPORT_SUITES:-}" ]; then
  t0=$SECONDS
  timeout -k 5 "${REPORT_S:-$left}" "$B/bin/tessera" report --device cuda:0 --out "$R" --keep --no-python \
    --suites "$REPORT_SUITES" "$@" > "$LOG" 2>&1
  echo "report $REPORT_SUITES $*: exit $? in $((SECONDS - t0)) s"
  tail -n "${LOG_LINES:-12}" "$LOG"
fi
if [ "${RENDER:-0}" = 1 ]; then
  python3 python/tessera_report/report.py --out "$R" > "$OUT/render.log" 2>&1; echo "render: exit $?"
fi
tar -czf "$OUT/report.tgz" -C "$R" .
python3 - "$R/results/index.json" <<'PY' 2>/dev/null
import json, sys
for e in json.load(open(sys.argv[1]))["suites"]:
    print(f"{e['suite']:12s} {e['status']:7s} {e.get('seconds', 0):7.1f} s  {e.get('error', '')[:80]}")
PY
