#!/usr/bin/env bash
# On the GPU machine (through the device tool): issue 41's check of one
# module moved onto the one launcher. Builds the tree and a baseline (the
# source of an earlier commit, extracted here into build-baseline/src by
# `scripts/gpu-plumbing.sh --prepare REV` and carried to the machine), runs
# the moved module's tests on CUDA and NVIDIA OpenCL (and compute-sanitizer
# memcheck/racecheck on its CUDA instances), then the benchmark suites of
# both builds, interleaved (baseline, new, baseline, new) on each device, and
# prints the per-row ratio new/baseline of the medians.
#   scripts/gpu-plumbing.sh --prepare ac2f681        # here, before the call
#   scripts/gpu-plumbing.sh --prepare HEAD build-new  # optional: the new side
#     from a commit too (NEW_SRC=build-new/src there), so that edits made
#     here while the call runs cannot enter its build
#   ROUNDS (default 2): the interleaved rounds of the suites; ROUNDS_<suite>
#   (dashes as underscores) one suite's.
#   PROBES: names of bench/probes/*.cu to build and run before the suites.
#   DEADLINE (s): suites not started by then are skipped (and listed).
#   TESTS: a gtest filter of tessera_tests to build and run (TEST_SHARDS
#   processes side by side); SAN_TESTS the part for compute-sanitizer.
#   ARGS_<suite> (dashes as underscores, e.g. ARGS_mg_kernels): that
#   suite's bench options, else BENCH_ARGS; SUITE_TIMEOUT (900 s) per run.
#   TESSERA_COMMIT=<HEAD> TESTS='*Dense*:*Matmul*' SUITES='stream dense' \
#     DEVICES='cuda:0 opencl:1:0' scripts/gpu-plumbing.sh   # there
set -uo pipefail
cd "$(dirname "$0")/.."
if [[ ${1:-} == --prepare ]]; then
  rev=${2:?usage: scripts/gpu-plumbing.sh --prepare REV [DIR]}
  dir=${3:-build-baseline}
  [[ $dir == build-* ]] || { echo "DIR must be an ignored build-* folder" >&2; exit 2; }
  rm -rf "$dir" && mkdir -p "$dir/src"
  git archive "$rev" | tar -x -C "$dir/src" && git rev-parse --short "$rev" > "$dir/src/BASELINE_REV"
  echo "$dir/src: $rev ($(du -sh "$dir/src" | cut -f1)); carry $dir"
  exit 0
fi
source scripts/gpu-common.sh
export TESSERA_CACHE_DIR=/tmp/tessera-cache
[[ -f build-baseline/src/BASELINE_REV ]] || { echo "no build-baseline/src: run --prepare REV here and carry it"; exit 2; }
base_rev=$(cat build-baseline/src/BASELINE_REV)
new_src=${NEW_SRC:-.}
[[ $new_src == . ]] || TESSERA_COMMIT=$(cat "$new_src/BASELINE_REV")
(cd "$new_src" && TESSERA_COMMIT=${TESSERA_COMMIT:-} gpu_build build/gpu tessera_cli ${TESTS:+tessera_tests}) || exit 1
cp "$OUT/build.log" "$OUT/build-new.log"
if [[ -n ${SUITES-stream} ]]; then  # the baseline only where suites run
  (cd build-baseline/src && TESSERA_COMMIT=$base_rev gpu_build build/gpu tessera_cli) || exit 1
  cp "$OUT/build.log" "$OUT/build-baseline.log"
fi
$new_src/build/gpu/bin/tessera devices | tee "$OUT/devices.txt" | head -5
echo "new ${TESSERA_COMMIT:-?}, baseline $base_rev; $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | sort | uniq -c | tr -s ' ')"
summary=()
if [[ -n ${TESTS:-} ]]; then
  # TEST_SHARDS (default 1): gtest shards run side by side, the host's
  # cores split between them (OpenMP). Keep TESTS to the GPU instances
  # ('*cuda_0*:*opencl_1_0*'): CI runs the CPU ones, and 12 shards of the
  # whole binary did not end in 600 s (session 38). TEST_TIMEOUT (600 s):
  # each shard's and each sanitizer's limit.
  shards=${TEST_SHARDS:-1} t0=$SECONDS pids=()
  threads=$(($(nproc) / shards)) && ((threads >= 1)) || threads=1
  for ((i = 0; i < shards; ++i)); do
    OMP_NUM_THREADS=$threads GTEST_TOTAL_SHARDS=$shards GTEST_SHARD_INDEX=$i \
      timeout ${TEST_TIMEOUT:-600} $new_src/build/gpu/bin/tessera_tests \
      --gtest_filter="$TESTS" > "$OUT/tests-$i.log" 2>&1 &
    pids+=($!)
  done
  rc=0
  for pid in "${pids[@]}"; do wait "$pid" || rc=$?; done
  cat "$OUT"/tests-*.log > "$OUT/tests.log"
  passed=$(awk '/^\[  PASSED  \]/ {n += $4} END {print n + 0}' "$OUT/tests.log")
  failed=$(grep -E '^\[  FAILED  \] [^0-9]' "$OUT/tests.log" | sed 's/^\[  FAILED  \] //; s/[ ,].*//' | sort -u | wc -l)
  summary+=("tests: exit $rc, ${passed:-0} passed, $failed failed in $((SECONDS - t0)) s ($shards shards)")
  grep -E '^\[  FAILED  \] [^0-9]' "$OUT/tests.log" | sed 's/ (.*//' | sort -u | head -20
  echo "passed instances per device:"
  grep -oE '^\[       OK \] [^ ]+/[a-z]+_[0-9_]+ ' "$OUT/tests.log" | sed -E 's|.*/||' | sort | uniq -c
  cuda_filter=$(echo "${SAN_TESTS:-$TESTS}" | sed 's|\([^:]*\)|\1/cuda_*|g')
  # SANITIZERS: the compute-sanitizer tools (default memcheck racecheck;
  # set empty for none).
  for tool in ${SANITIZERS-memcheck racecheck}; do
    timeout ${TEST_TIMEOUT:-600} compute-sanitizer --tool $tool --error-exitcode 99 --print-limit 20 \
      $new_src/build/gpu/bin/tessera_tests --gtest_filter="$cuda_filter" > "$OUT/$tool.log" 2>&1
    summary+=("$tool: exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/$tool.log" | tail -1)")
  done
fi
for probe in ${PROBES:-}; do  # bench/probes/NAME.cu, built and run first
  nvcc -O3 -arch=sm_90 -std=c++17 -o /tmp/probe-$probe bench/probes/$probe.cu &&
    timeout 300 /tmp/probe-$probe > "$OUT/probe-$probe.md" 2>&1
  summary+=("probe $probe: exit $?")
  cat "$OUT/probe-$probe.md"
done
for suite in ${SUITES-stream}; do  # empty: none
  for dev in ${DEVICES:-cuda:0}; do
    tag=${suite}-${dev//:/_}
    if (( SECONDS > ${DEADLINE:-100000} )); then summary+=("skipped $tag: past DEADLINE ${DEADLINE} s"); continue; fi
    rounds_var=ROUNDS_${suite//-/_}
    for round in $(seq 1 ${!rounds_var:-${ROUNDS:-2}}); do
      for which in baseline new; do
        bin=$new_src/build/gpu/bin/tessera
        [[ $which == baseline ]] && bin=build-baseline/src/build/gpu/bin/tessera
        args_var=ARGS_${suite//-/_}
        limit=$(( ${DEADLINE:-100000} - SECONDS )); (( limit > ${SUITE_TIMEOUT:-900} )) && limit=${SUITE_TIMEOUT:-900}
        (( limit < 5 )) && { summary+=("skipped $tag $which $round: past DEADLINE"); continue; }
        timeout $limit $bin bench $suite --device $dev ${!args_var:-${BENCH_ARGS:-}} --json "$OUT/$tag-$which-$round.json" \
          > "$OUT/$tag-$which-$round.md" 2>&1 || summary+=("bench $tag $which $round: exit $?")
      done
    done
  done
done
python3 - "$OUT" <<'PY'
import json, sys, glob, os, statistics
out = sys.argv[1]
rows = {}
for f in sorted(glob.glob(f"{out}/*-*-[0-9].json")):
    base = os.path.basename(f)[:-5]
    tag, which, rnd = base.rsplit("-", 2)
    d = json.load(open(f))
    for dev in d.get("devices", []):
        for r in dev.get("results", dev.get("rows", [])):
            key = (tag, r.get("kernel"), r.get("precision"), str(r.get("size")))
            ms = r.get("median_ms")
            if ms: rows.setdefault(key, {}).setdefault(which, []).append(ms)
print(f"{'suite-device':28} {'kernel':34} {'prec':6} {'size':>10} {'base ms':>10} {'new ms':>10} {'new/base':>9}")
for key, v in sorted(rows.items()):
    if "baseline" not in v or "new" not in v: continue
    b, n = min(v["baseline"]), min(v["new"])
    ratio = n / b
    print(f"{key[0]:28} {str(key[1])[:34]:34} {str(key[2]):6} {key[3]:>10} {b:10.4f} {n:10.4f} {ratio:9.3f}")
json.dump({" | ".join(k): v for k, v in rows.items()}, open(f"{out}/comparison.json", "w"), indent=1)
ratios = {}
for key, v in rows.items():
    if "baseline" in v and "new" in v: ratios.setdefault(key[0], []).append(min(v["new"]) / min(v["baseline"]))
for t, r in sorted(ratios.items()):
    print(f"{t:28} rows {len(r):3}  median new/base {statistics.median(r):.3f}  "
          f"gmean {statistics.geometric_mean(r):.3f}  worst {max(r):.3f}")
PY
printf '%s\n' "${summary[@]}"
# At most 8 files come back from $OUT: the runs, logs and builds' logs go
# into one archive beside comparison.json.
(cd "$OUT" && tar czf runs.tgz --remove-files $(ls | grep -v -e '^comparison.json$' -e '^runs.tgz$' -e '^probe-'))
