#!/usr/bin/env bash
# An interrupted and restarted run writes the straight run's outputs, byte for
# byte, .pvd included, for LBM and SWE on one device, and the same results in
# summary.json (all but its wall times, run and device; issue 40, item 7). The
# interruption (TESSERA_FAULT=sigint_at_step) must fall between two output
# steps (the script checks it), where the straight run wrote nothing.
#   restart_identical.sh TESSERA DIR DEVICE
set -u
tessera=$1 dir=$2 device=$3
rm -rf "$dir" && mkdir -p "$dir"
fail() { echo "FAIL: $*"; exit 1; }
same() {  # same A B: the same output files with the same bytes
  local a=$1 b=$2 n=0
  [ "$(cd "$a" && ls | grep -v summary.json)" = "$(cd "$b" && ls | grep -v summary.json)" ] ||
    fail "different files: $(cd "$a" && ls | tr '\n' ' ') / $(cd "$b" && ls | tr '\n' ' ')"
  for f in $(cd "$a" && ls | grep -v summary.json); do cmp -s "$a/$f" "$b/$f" || fail "$f differs"; n=$((n + 1)); done
  echo "  $n files identical"
}
check() {  # check NAME FAULT EVERY ARGS...: straight run, interrupted run, continuation
  local name=$1 fault=$2 every=$3
  shift 3
  "$tessera" "$@" --device "$device" --out "$dir/$name-full" > "$dir/$name-full.log" 2>&1 ||
    { cat "$dir/$name-full.log"; fail "$name: the straight run failed"; }
  TESSERA_FAULT=$fault "$tessera" "$@" --device "$device" --out "$dir/$name-part" --checkpoint "$dir/$name.ckpt" \
    > "$dir/$name-int.log" 2>&1
  local rc=$?
  [ $rc -eq 130 ] || { cat "$dir/$name-int.log"; fail "$name: the interrupted run exited $rc, expected 130"; }
  local step
  step=$(sed -n 's/.*interrupted by SIGINT after step \([0-9]*\).*/\1/p' "$dir/$name-int.log")
  [ -n "$step" ] || fail "$name: no interruption message"
  [ $((step % every)) -ne 0 ] || fail "$name: interrupted at step $step, an output step (--every $every): not the case to test"
  "$tessera" "$@" --device "$device" --out "$dir/$name-part" --restart "$dir/$name.ckpt" > "$dir/$name-cont.log" 2>&1 ||
    { cat "$dir/$name-cont.log"; fail "$name: the continuation failed"; }
  echo "$name on $device: interrupted after step $step, continued"
  same "$dir/$name-full" "$dir/$name-part"
  if [ -e "$dir/$name-full/summary.json" ]; then  # the same results; what differs is this process's own
    python3 - "$dir/$name-full/summary.json" "$dir/$name-part/summary.json" <<'PY' || fail "$name: summary.json differs"
import json, sys
own = {"run", "wall_s", "mcells_per_s", "restarted_from", "device"}
a, b = ({k: v for k, v in json.load(open(f)).items() if k not in own} for f in sys.argv[1:])
if a != b:
    print({k: (a.get(k), b.get(k)) for k in set(a) | set(b) if a.get(k) != b.get(k)})
    sys.exit(1)
print("  summary.json: the same", len(a), "results")
PY
  fi
}
check lbm sigint_at_step:2 100 lbm --case cavity --lattice D2Q9 --size 48 --steps 300 --every 100
check swe sigint_at_step:1 20 swe --case ritter --nx 64 --every 20 --format vti,png
echo "ok: restarts reproduce the straight runs on $device"
