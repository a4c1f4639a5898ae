#!/usr/bin/env bash
# A real SIGINT while a run works through a long stretch between outputs
# (LBM: a chunk of 6 million steps, --every 6000000, longer than the second
# before the signal on any device; SWE physical: --every 100000): the
# run must stop at the next look at the flag, long before the stretch ends,
# with exit 130 and its checkpoint. Before issue 40 the LBM loop on OpenCL
# queued the whole chunk and finished it first (exit 0 after 60000 steps), and
# the SWE model read its flags only every --every steps. What decides the test
# is the step the run stopped at, not the time it took.
#   sigint_mid_chunk.sh TESSERA DIR DEVICE [lbm|swe]
set -u
tessera=$1 dir=$2 device=$3 model=${4:-lbm}
rm -rf "$dir" && mkdir -p "$dir"
if [ "$model" = lbm ]; then
  limit=6000000
  "$tessera" lbm --case cavity --lattice D2Q9 --size 64 --steps 100000000 --every $limit --device "$device" \
    --checkpoint "$dir/c.ckpt" > "$dir/log" 2>&1 &
else
  limit=100000
  "$tessera" swe --case thesis-dam --nx 256 --t-end 100000 --every $limit --device "$device" \
    --checkpoint "$dir/c.ckpt" > "$dir/log" 2>&1 &
fi
pid=$!
# Wait until the process catches SIGINT (bit 2 of SigCgt in /proc): the
# handler is installed, so a signal now is the run's to honour.
caught() { local m; m=$(sed -n 's/^SigCgt:\s*//p' "/proc/$pid/status" 2>/dev/null) && [ -n "$m" ] && (( 0x$m & 2 )); }
for _ in $(seq 3000); do  # up to 300 s (PoCL compiles the kernels first)
  caught && break
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.1
done
caught || { echo "FAIL: the run never installed its SIGINT handler"; kill -KILL "$pid"; cat "$dir/log"; exit 1; }
sleep 1
t0=$(date +%s.%N)
kill -INT "$pid"
wait "$pid"
rc=$?
t1=$(date +%s.%N)
cat "$dir/log"
[ "$rc" -eq 130 ] || { echo "FAIL: exit $rc, expected 130"; exit 1; }
step=$(sed -n 's/.*interrupted by SIGINT after step \([0-9]*\).*/\1/p' "$dir/log")
[ -n "$step" ] || { echo "FAIL: no interruption message"; exit 1; }
[ "$step" -lt $limit ] || { echo "FAIL: stopped only at step $step, the end of the stretch"; exit 1; }
[ -s "$dir/c.ckpt" ] || { echo "FAIL: no checkpoint"; exit 1; }
echo "ok: $model stopped at step $step of a $limit-step stretch on $device, $(awk "BEGIN {printf \"%.2f\", $t1 - $t0}") s after the signal"
