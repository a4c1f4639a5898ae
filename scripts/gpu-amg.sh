#!/usr/bin/env bash
# On the GPU machine (through the device tool): issue 46's AMG in one call.
# Builds tessera_cli and tessera_tests without demo, lbm and swe (BUILD,
# default build/gpu-amg), runs the AMG tests on every device (cuda and
# NVIDIA's OpenCL; TESTS overrides the filter), compute-sanitizer memcheck
# on their CUDA runs, then `tessera bench amg` on cuda:0 (PARAMS, default
# the full sizes) until DEADLINE seconds after the start (default 560);
# logs and the bench JSON go to $OUT/amg.tar.gz, a short table is printed.
# PROFILE=SPEC (e.g. laplace7:63) first runs one Gauss-Seidel AMG-CG solve
# of SPEC under Nsight Compute (ncu, clocks left alone): the duration of
# each kernel launch of one solve, by name and grid size, in ncu.csv, and a
# sum by kernel name printed (nsys is not installed there).
#   TESSERA_COMMIT=<HEAD> scripts/gpu-amg.sh          # there
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/gpu-common.sh
export TESSERA_CACHE_DIR=/tmp/tessera-cache
deadline=${DEADLINE:-560}
dir=${BUILD:-build/gpu-amg}
log=$OUT/amg
mkdir -p "$log"
pack() { tar -czf "$OUT/amg.tar.gz" -C "$OUT" amg && rm -rf "$log"; }
trap pack EXIT
left() { echo $((deadline - SECONDS)); }
# build/gpu (the other scripts' full build, kept on a warm machine) is
# only brought up to date; any other BUILD is configured without the
# modules this check does not need, for a cold machine.
if [[ $dir == build/gpu ]]; then
  gpu_build "$dir" tessera_cli tessera_tests
else
  { cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DTESSERA_CUDA_ARCHITECTURES=90 \
      -DTESSERA_ENABLE_MPI=OFF -DTESSERA_BUILD_PYTHON=OFF -DTESSERA_EXCLUDE_MODULES="demo;lbm;swe" &&
    cmake --build "$dir" -j"$(nproc)" --target tessera_cli tessera_tests; } > "$log/build.log" 2>&1 ||
    { echo "build FAILED"; tail -30 "$log/build.log"; exit 1; }
fi
echo "build: $SECONDS s"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$log/card.txt"
"$dir/bin/tessera" devices | tee "$log/devices.txt"
if [[ -n ${PROFILE:-} ]]; then
  timeout 240 ncu --clock-control none --metrics gpu__time_duration.sum --csv \
    "$dir/bin/tessera" solve --generate "$PROFILE" --method cg --precond amg --device cuda:0 \
    --rhs ones --tol 1e-8 > "$log/ncu.csv" 2> "$log/ncu.err"
  echo "ncu: exit $? ($SECONDS s)"
  python3 - "$log/ncu.csv" <<'PY'
import csv, sys, collections
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]
head = rows[0]; k, v = head.index("Kernel Name"), head.index("Metric Value")
total = collections.defaultdict(lambda: [0, 0.0])
for r in rows[1:]:
    total[r[k][:60]][0] += 1
    total[r[k][:60]][1] += float(r[v].replace(",", ""))
for name, (n, ns) in sorted(total.items(), key=lambda t: -t[1][1])[:12]:
    print(f"{name:60s} {n:6d} launches {ns / 1e6:9.3f} ms {ns / n / 1e3:8.2f} us each")
PY
fi
timeout $(( $(left) > 200 ? 150 : 60 )) "$dir/bin/tessera_tests" \
  --gtest_filter="${TESTS:-Amg*:*AmgDevice*:*AmgSolve*:*SpmvDevice*Csr*}" > "$log/tests.log" 2>&1
echo "tests: exit $? $(grep -E '^\[  (PASSED|FAILED)  \]' "$log/tests.log" | tr '\n' ' ') ($SECONDS s)"
grep -E '^\[  FAILED  \]|Failure' "$log/tests.log" | head -20
timeout $(( $(left) > 300 ? 120 : 45 )) compute-sanitizer --tool memcheck --error-exitcode 99 \
  --print-limit 20 "$dir/bin/tessera_tests" --gtest_filter='*AmgDevice*cuda*' > "$log/memcheck.log" 2>&1
echo "memcheck: exit $? $(grep -E 'ERROR SUMMARY' "$log/memcheck.log" | tail -1) ($SECONDS s)"
if (( $(left) > 60 )); then
  # shellcheck disable=SC2086
  timeout $(( $(left) - 10 )) "$dir/bin/tessera" bench amg --device cuda:0 ${PARAMS:-} \
    --json "$log/bench-amg.json" > "$log/bench-amg.md" 2> "$log/bench-amg.err"
  echo "bench amg: exit $? ($SECONDS s)"
  grep -E "^\| (amg setup|cg|gmres|native)" "$log/bench-amg.md" |
    awk -F'|' '{gsub(/ +$/,"",$2); printf "%-60s %10s  %s\n", $2, $5, substr($10,1,90)}'
else
  echo "bench amg: not run ($(left) s left)"
fi
