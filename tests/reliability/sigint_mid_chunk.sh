#!/usr/bin/env bash
# A real SIGINT while a run works through a long stretch between outputs
# (LBM: a chunk of 6 million steps, --every 6000000; SWE physical: --every
# 100000): the run must stop at its next look at the flag, with exit 130 and
# its checkpoint, at a step inside the stretch, and promptly. Before issue 40
# the LBM loop enqueued steps far ahead of an asynchronous device (OpenCL)
# and, once signalled, waited for all of them (on PoCL the queue behind a
# 256^2 lattice takes minutes); the SWE model read its flags only every
# --every steps. The time from the signal to the exit is bounded at 20 s: a
# liveness bound, like a test's time-out, 20 to 100 times what the run needs.
#   sigint_mid_chunk.sh TESSERA DIR DEVICE [lbm|swe]
set -u
tessera=$1 dir=$2 device=$3 model=${4:-lbm}
rm -rf "$dir" && mkdir -p "$dir"
if [ "$model" = lbm ]; then
  limit=6000000
  run=(lbm --case cavity --lattice D2Q9 --size 256 --every $limit --device "$device")
  warm=(--steps 1)
  long=(--steps 100000000)
else
  limit=100000
  run=(swe --case thesis-dam --nx 256 --every $limit --device "$device")
  warm=(--t-end 0.01)
  long=(--t-end 100000)
fi
# The kernels are built (and cached) first, so that the signal finds the run stepping.
"$tessera" "${run[@]}" "${warm[@]}" > "$dir/warm.log" 2>&1 || { cat "$dir/warm.log"; echo "FAIL: the warm-up run failed"; exit 1; }
"$tessera" "${run[@]}" "${long[@]}" --checkpoint "$dir/c.ckpt" > "$dir/log" 2>&1 &
pid=$!
# Wait until the process catches SIGINT (bit 2 of SigCgt in /proc): the
# handler is installed, so a signal now is the run's to honour.
caught() { local m; m=$(sed -n 's/^SigCgt:\s*//p' "/proc/$pid/status" 2>/dev/null) && [ -n "$m" ] && (( 0x$m & 2 )); }
for _ in $(seq 3000); do  # up to 300 s
  caught && break
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.1
done
caught || { echo "FAIL: the run never installed its SIGINT handler"; kill -KILL "$pid"; cat "$dir/log"; exit 1; }
sleep 2  # stepping, with work queued
t0=$(date +%s.%N)
kill -INT "$pid"
for _ in $(seq 200); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$pid" 2>/dev/null; then
  kill -KILL "$pid"
  cat "$dir/log"
  echo "FAIL: still running 20 s after the signal"
  exit 1
fi
wait "$pid"
rc=$?
t1=$(date +%s.%N)
cat "$dir/log"
[ "$rc" -eq 130 ] || { echo "FAIL: exit $rc, expected 130"; exit 1; }
step=$(sed -n 's/.*interrupted by SIGINT after step \([0-9]*\).*/\1/p' "$dir/log")
[ -n "$step" ] || { echo "FAIL: no interruption message"; exit 1; }
[ "$step" -gt 1 ] || { echo "FAIL: stopped at step $step: the signal did not find the run stepping"; exit 1; }
[ "$step" -lt $limit ] || { echo "FAIL: stopped only at step $step, the end of the stretch"; exit 1; }
[ -s "$dir/c.ckpt" ] || { echo "FAIL: no checkpoint"; exit 1; }
echo "ok: $model stopped at step $step of a $limit-step stretch on $device, $(awk "BEGIN {printf \"%.2f\", $t1 - $t0}") s after the signal"
