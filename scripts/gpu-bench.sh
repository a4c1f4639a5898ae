#!/usr/bin/env bash
# On the GPU machine (through the device tool): build, optionally run a test
# filter (and compute-sanitizer memcheck on it), then `tessera bench` runs.
#   TESSERA_COMMIT=<HEAD> TESTS='*Skeleton*:*NativeStencil*' \
#   BENCH='skeleton --device cuda:0 --param gpus=1;lbm --device cuda:0' scripts/gpu-bench.sh
# TESTS      gtest filter for tessera_tests ('' = none); MEMCHECK=1 also runs it
#            under compute-sanitizer memcheck, RACECHECK=1 under racecheck
#            (CUDA instances only; SAN_TESTS: another filter for both)
# BENCH      ';'-separated `tessera bench` argument lists; run i writes
#            $OUT/bench-i.json and bench-i.md; leading NAME=VALUE words are
#            set in that run's environment (e.g. TESSERA_SWE_PREFETCH=6 swe ...)
# NSYS=i     run bench i under nsys too (kernel summary in $OUT/nsys-i.txt)
# TARGETS    what to build (default 'tessera_cli tessera_tests'; tessera_cli
#            alone when no TESTS run saves minutes on a fresh machine)
# PACK=0     leave the files in $OUT (default: one $OUT/results.tgz, since
#            the device tool returns only a few files)
# NCU        ';'-separated 'REGEX|bench args' pairs: Nsight Compute profiles the
#            21st launch of the kernel whose mangled name matches REGEX in that
#            bench run (speed of light, occupancy, warp stalls, instructions,
#            memory) into $OUT/ncu-i.txt; its key lines are printed.
#            'REGEX@N|args': the (N+1)th launch instead. The bench is stopped
#            once the launch is profiled (ncu --kill)
# CL_PTX=1   also the OpenCL program cache's entries as $OUT/cl-ptx/*.ptx (on
#            NVIDIA the driver's PTX of each program the tests and runs above
#            built; the cache is emptied first, so no earlier call's entries)
# NCU_SOURCE=1 also the per-SASS-instruction executed counts and stall
#            samples, $OUT/ncu-i-sass.csv
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/gpu-common.sh
# files of this call only: $OUT has been seen holding an earlier run's files
started=$(mktemp)
export TESSERA_CACHE_DIR=/tmp/tessera-cache
[[ ${CL_PTX:-0} == 1 ]] && rm -rf "$TESSERA_CACHE_DIR/opencl"
B=${BUILD_DIR:-build/gpu}
read -ra targets <<< "${TARGETS:-tessera_cli tessera_tests}"
gpu_build "$B" "${targets[@]}"
echo "commit ${TESSERA_COMMIT:-?}; $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | sort | uniq -c | tr -s ' ')"
summary=()
if [[ -n ${TESTS:-} ]]; then
  timeout "${TEST_S:-300}" "$B/bin/tessera_tests" --gtest_filter="$TESTS" > "$OUT/tests.log" 2>&1
  summary+=("tests: exit $? $(grep -E '^\[  (PASSED|FAILED)  \]' "$OUT/tests.log" | tr '\n' ' ')")
  grep -E '^\[  FAILED  \]' "$OUT/tests.log" | head -20
  if [[ ${MEMCHECK:-0} == 1 ]]; then
    timeout "${TEST_S:-300}" compute-sanitizer --tool memcheck --error-exitcode 99 --print-limit 20 \
      "$B/bin/tessera_tests" --gtest_filter="$(echo "${SAN_TESTS:-$TESTS}" | sed 's|\([^:]*\)|\1/cuda_*|g')" > "$OUT/memcheck.log" 2>&1
    summary+=("memcheck: exit $? $(grep -E 'ERROR SUMMARY' "$OUT/memcheck.log" | tail -1)")
  fi
  if [[ ${RACECHECK:-0} == 1 ]]; then
    timeout "${TEST_S:-300}" compute-sanitizer --tool racecheck --racecheck-report hazard --error-exitcode 99 \
      --print-limit 20 "$B/bin/tessera_tests" --gtest_filter="$(echo "${SAN_TESTS:-$TESTS}" | sed 's|\([^:]*\)|\1/cuda_*|g')" \
      > "$OUT/racecheck.log" 2>&1
    summary+=("racecheck: exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/racecheck.log" | tail -1)")
  fi
fi
# split_env "ARGS": leading NAME=VALUE words into envs[], the rest into words[]
split_env() {
  envs=()
  read -ra words <<< "$1"
  while [[ ${words[0]:-} == *=* ]]; do envs+=("${words[0]}"); words=("${words[@]:1}"); done
}
i=0
IFS=';' read -ra runs <<< "${BENCH:-}"
for args in "${runs[@]}"; do
  i=$((i + 1))
  split_env "$args"
  if [[ ${NSYS:-} == "$i" ]]; then
    env "${envs[@]}" nsys profile -o "$OUT/nsys-$i" --force-overwrite true -t cuda "$B/bin/tessera" bench "${words[@]}" \
      --json "$OUT/bench-$i.json" > "$OUT/bench-$i.md" 2>&1
    summary+=("bench $i ($args): exit $?")
    nsys stats -r cuda_gpu_kern_sum "$OUT/nsys-$i.nsys-rep" > "$OUT/nsys-$i.txt" 2>&1
    rm -f "$OUT/nsys-$i.sqlite"
  else
    timeout "${BENCH_S:-400}" env "${envs[@]}" "$B/bin/tessera" bench "${words[@]}" --json "$OUT/bench-$i.json" \
      > "$OUT/bench-$i.md" 2>&1
    summary+=("bench $i ($args): exit $?")
  fi
  grep -E '^\|' "$OUT/bench-$i.md" | grep -v '^|---' | cut -c1-230
done
i=0
IFS=';' read -ra profs <<< "${NCU:-}"
for pr in "${profs[@]}"; do
  i=$((i + 1))
  regex=${pr%%|*}
  skip=20
  if [[ $regex == *@* ]]; then skip=${regex##*@}; regex=${regex%@*}; fi
  split_env "${pr#*|}"
  src=()
  [[ ${NCU_SOURCE:-0} == 1 ]] && src=(--section SourceCounters -o "$OUT/ncu-$i" -f)
  timeout "${BENCH_S:-400}" env "${envs[@]}" ncu --kernel-name-base mangled -k "regex:$regex" --launch-skip "$skip" \
    --launch-count 1 --kill yes --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats \
    --section SchedulerStats --section InstructionStats --section MemoryWorkloadAnalysis "${src[@]}" \
    "$B/bin/tessera" bench "${words[@]}" --json "$OUT/ncu-bench-$i.json" > "$OUT/ncu-$i.txt" 2>&1
  summary+=("ncu $i ($regex): exit $?")
  if [[ ${NCU_SOURCE:-0} == 1 ]]; then  # per-SASS-instruction counts and stall samples
    ncu -i "$OUT/ncu-$i.ncu-rep" --page details >> "$OUT/ncu-$i.txt" 2>&1
    ncu -i "$OUT/ncu-$i.ncu-rep" --page source --csv --print-source sass > "$OUT/ncu-$i-sass.csv" 2>&1
    rm -f "$OUT/ncu-$i.ncu-rep"
  fi
  grep -E "stream_collide|Duration|DRAM Throughput|Memory Throughput|Registers Per|Achieved Occupancy|Theoretical Occupancy|Executed Ipc A|Issue Slots Busy|No Eligible|Warp Cycles Per Issued|Executed Instructions  |Block Limit Reg" "$OUT/ncu-$i.txt" | head -20
done
if [[ ${CL_PTX:-0} == 1 ]]; then  # entry = 24-byte header + binary (cl_binary_entry.hpp)
  mkdir -p "$OUT/cl-ptx"
  for f in "$TESSERA_CACHE_DIR"/opencl/*.bin; do
    [[ -e $f ]] && tail -c +25 "$f" > "$OUT/cl-ptx/$(basename "$f" .bin).ptx"
  done
  summary+=("cl-ptx: $(ls "$OUT/cl-ptx" | wc -l) programs")
fi
printf '%s\n' "${summary[@]}" | tee "$OUT/summary.txt"
# the device tool returns only a few files: one archive holds them all
# (tar removes exactly the files it packed; an older results.tgz and files
# older than this call stay out)
if [[ ${PACK:-1} == 1 ]]; then
  pack=$(mktemp -d)
  find "$OUT" -mindepth 1 -maxdepth 1 ! -name results.tgz -newer "$started" -printf '%P\0' |
    tar czf "$pack/results.tgz" -C "$OUT" --null -T - --remove-files && mv -f "$pack/results.tgz" "$OUT/"
  rmdir "$pack"
fi
