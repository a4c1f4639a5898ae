#!/usr/bin/env bash
# A real SIGINT while an LBM run works through a chunk of 60000 steps (--every
# 60000): the run must stop at the next piece boundary, long before the chunk
# ends, with exit 130 and its checkpoint. Before issue 40 the OpenCL backend
# queued the whole chunk and finished it first (exit 0 after 60000 steps).
# What decides the test is the step the run stopped at, not the time it took.
#   sigint_mid_chunk.sh TESSERA DIR DEVICE
set -u
tessera=$1 dir=$2 device=$3
rm -rf "$dir" && mkdir -p "$dir"
"$tessera" lbm --case cavity --lattice D2Q9 --size 64 --steps 100000000 --every 60000 --device "$device" \
  --checkpoint "$dir/c.ckpt" > "$dir/log" 2>&1 &
pid=$!
for _ in $(seq 1200); do  # up to 120 s for the run to start (the handlers are installed before its first line)
  grep -q "^lbm cavity" "$dir/log" 2>/dev/null && break
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.1
done
grep -q "^lbm cavity" "$dir/log" || { echo "FAIL: the run did not start"; kill -KILL "$pid"; cat "$dir/log"; exit 1; }
sleep 1
kill -INT "$pid"
wait "$pid"
rc=$?
cat "$dir/log"
[ "$rc" -eq 130 ] || { echo "FAIL: exit $rc, expected 130"; exit 1; }
step=$(sed -n 's/.*interrupted by SIGINT after step \([0-9]*\):.*/\1/p' "$dir/log")
[ -n "$step" ] || { echo "FAIL: no interruption message"; exit 1; }
[ "$step" -lt 60000 ] || { echo "FAIL: stopped only at step $step, the end of the chunk"; exit 1; }
[ -s "$dir/c.ckpt" ] || { echo "FAIL: no checkpoint"; exit 1; }
echo "ok: stopped at step $step of a 60000-step chunk on $device"
