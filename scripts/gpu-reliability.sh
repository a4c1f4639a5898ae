#!/usr/bin/env bash
# On the GPU machine (through the device tool): issue 40's signal and restart
# checks on CUDA and NVIDIA OpenCL, the checkpoint/restart gtests there, the
# option fuzzer on CUDA, compute-sanitizer on an LBM run with the new piece
# loop, and the CPU backend on busy cores (16 cores). $OUT gets the logs; the
# last lines are the summary table.
#   TESSERA_COMMIT=<local HEAD> scripts/gpu-reliability.sh [tests|bench|all]
# (tests: the device checks; bench: the fuzzer and the busy-core benchmark;
# two calls on a warm machine keep each under the device tool's 10 minutes)
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/gpu-common.sh
B=${BUILD_DIR:-build/gpu}
gpu_build "$B" tessera_cli tessera_tests
T=$B/bin/tessera
export TESSERA_CACHE_DIR=$B/rel-cache
echo "commit ${TESSERA_COMMIT:-$(git rev-parse --short=12 HEAD 2>/dev/null)}"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/card.txt"
"$T" devices | tee -a "$OUT/card.txt"
ocl=$("$T" devices | awk '$2 == "opencl" && /NVIDIA/ {print $1; exit}')
part=${1:-all}
log=$OUT/reliability.log
: > "$log"
rows=()
row() { rows+=("$(printf '%-44s %-12s %s' "$1" "$2" "$3")"); }
[ "$part" = bench ] || for dev in cuda:0 $ocl; do
  for model in lbm swe; do
    r=$(timeout -k 5 300 tests/reliability/sigint_mid_chunk.sh "$T" "/tmp/rel/sig-$model-$dev" "$dev" "$model" 2>&1)
    rc=$?
    echo "== sigint $model $dev: exit $rc" >> "$log"; echo "$r" >> "$log"
    row "SIGINT mid-stretch, $model" "$dev" "$([ $rc = 0 ] && echo "pass: $(echo "$r" | tail -1 | sed 's/^ok: //')" || echo "FAIL (exit $rc)")"
  done
  r=$(timeout -k 5 300 tests/reliability/restart_identical.sh "$T" "/tmp/rel/restart-$dev" "$dev" 2>&1)
  rc=$?
  echo "== restart $dev: exit $rc" >> "$log"; echo "$r" >> "$log"
  row "restart = straight run (lbm, swe)" "$dev" "$([ $rc = 0 ] && echo "pass: $(echo "$r" | grep -c identical) comparisons identical" || echo "FAIL (exit $rc)")"
done
if [ "$part" != bench ]; then
# The checkpoint, restart and interruption gtests on the GPU instances.
filter='*Restart*:*Checkpoint*:*Interrupt*:*CheckpointMeaning*'
timeout -k 5 300 "$B/bin/tessera_tests" --gtest_filter="$filter" > "$OUT/gtests.log" 2>&1
rc=$?
for d in cuda_0 ${ocl:+$(echo "$ocl" | tr ':' '_')}; do
  row "gtest $filter" "$d" "$(grep -c "^\[       OK \] .*/$d\b" "$OUT/gtests.log") passed, $(grep -c "^\[  FAILED  \] .*/$d\b" "$OUT/gtests.log") failed"
done
row "gtest (all instances)" "" "exit $rc; $(grep -E '^\[  PASSED  \]|^\[  FAILED  \] [0-9]+ test' "$OUT/gtests.log" | tr '\n' ' ')"
# compute-sanitizer on an LBM run through the new piece loop (events, waits).
cs=$(timeout -k 5 200 compute-sanitizer --error-exitcode 1 --tool memcheck "$T" lbm --case cavity --lattice D2Q9 \
  --size 64 --steps 300 --every 100 --device cuda:0 2>&1)
rc=$?
echo "== memcheck: exit $rc" >> "$log"; echo "$cs" >> "$log"
row "memcheck lbm piece loop" "cuda:0" "exit $rc; $(echo "$cs" | grep -m1 'ERROR SUMMARY')"
fi
if [ "$part" != tests ]; then
# The option fuzzer on CUDA (a sample: each run compiles nothing, but there are many).
timeout -k 5 180 python3 tests/reliability/option_fuzz.py "$T" --device cuda:0 --sample 100 --seed 47 --timeout 60 \
  --json "$OUT/fuzz-cuda.json" > "$OUT/fuzz-cuda.log" 2>&1
row "option fuzzer sample" "cuda:0" "$(tail -1 "$OUT/fuzz-cuda.log")"
# The CPU backend on busy cores: all 16 cores loaded, as under a parallel build.
OUT_JSON=$OUT/omp-busy.json HOGS=$(nproc) timeout -k 5 400 scripts/omp-busy-bench.sh "$B" 3 > "$OUT/omp.log" 2>&1
row "OpenMP on $(nproc) busy cores" "cpu" "see omp-busy.json (exit $?)"
fi
echo
echo "check                                        device       result"
printf '%s\n' "${rows[@]}"
if [ -e "$OUT/omp-busy.json" ]; then grep '"case"' "$OUT/omp-busy.json"; fi
