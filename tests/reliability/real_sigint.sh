#!/usr/bin/env bash
# A real SIGINT from outside, sent once the run is stepping (its first output
# exists, so the handlers are installed; a fixed delay fails on a loaded
# machine, where start-up alone can take seconds). The run must stop cleanly:
# exit 130, the message naming the checkpoint, the checkpoint written.
#   real_sigint.sh TESSERA DIR
set -u
tessera=$1 dir=$2
rm -rf "$dir" && mkdir -p "$dir"
"$tessera" lbm --case cavity --lattice D2Q9 --size 32 --steps 100000000 --every 64 --device cpu \
  --out "$dir/out" --checkpoint "$dir/real.ckpt" > "$dir/log" 2>&1 &
pid=$!
for _ in $(seq 1200); do  # up to 120 s for the first output
  [ -e "$dir/out/cavity_00000064.vti" ] && break
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.1
done
[ -e "$dir/out/cavity_00000064.vti" ] || { echo "FAIL: the run wrote no output"; kill -KILL "$pid"; cat "$dir/log"; exit 1; }
kill -INT "$pid"
wait "$pid"
rc=$?
cat "$dir/log"
[ "$rc" -eq 130 ] || { echo "FAIL: exit $rc, expected 130"; exit 1; }
grep -q "interrupted by SIGINT after step [0-9]*: checkpoint .*real.ckpt" "$dir/log" || { echo "FAIL: message"; exit 1; }
[ -s "$dir/real.ckpt" ] || { echo "FAIL: no checkpoint"; exit 1; }
echo "ok: stopped cleanly by a real SIGINT"
