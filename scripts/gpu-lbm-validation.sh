#!/usr/bin/env bash
# On the GPU machine (through the device tool), issue 43's validation:
#   TESSERA_COMMIT=<HEAD> scripts/gpu-lbm-validation.sh build
#     build; the interpolated bounce-back, inlet, case-file, TRT, backend,
#     output and voxelizer tests on every device; compute-sanitizer memcheck
#     on their CUDA runs; the 10%-solid body against the empty box (FP32,
#     FP16S) on cuda:0.
#   TESSERA_COMMIT=<HEAD> scripts/gpu-lbm-validation.sh validate
#     (no build: the first call's binary) Schaefer-Turek 2D-2 and 2D-1 at
#     D = 20, 40, 80 cells and the sphere drag at Re 20, 50, 100 on cuda:0
#     (bench/validation/lbm_validation.py; RUNS selects, BOUNCE=halfway
#     for the body's halfway bounce-back), then their table. A run's name
#     may end in -uU (lattice velocity U) and, for spheres, -wW (box width
#     W cells): st-2d1-d80-u0.0125, sphere-re20-u0.025-w240.
#   TESSERA_COMMIT=<HEAD> scripts/gpu-lbm-validation.sh all
#     one call in order of importance, each step cut short when DEADLINE
#     (default 570 s) leaves too little: build the command, RUNS (default
#     the D = 80 Schaefer-Turek runs), build the tests, the interpolated
#     bounce-back tests on every device, memcheck, the 10%-solid benchmark.
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/gpu-common.sh
export TESSERA_CACHE_DIR=/tmp/tessera-cache
left() { echo $(( ${DEADLINE:-570} - SECONDS )); }
within() { local b=$(( $(left) - $1 )); (( b < 15 )) && b=15; echo $b; }  # RESERVE -> a timeout
summary=()
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/card.txt"

tests() {  # FILTER
  timeout $(within ${RESERVE:-200}) build/gpu/bin/tessera_tests --gtest_filter="$1" \
    > "$OUT/tests.log" 2>&1
  summary+=("tests: exit $? $(grep -E '^\[  (PASSED|FAILED)  \]' "$OUT/tests.log" | tr '\n' ' ')")
  grep -E '^\[  FAILED  \]' "$OUT/tests.log" | head -20
}
memcheck() {  # FILTER
  timeout $(within ${RESERVE:-120}) compute-sanitizer --tool memcheck --error-exitcode 99 \
    --print-limit 20 build/gpu/bin/tessera_tests --gtest_filter="$1" > "$OUT/memcheck.log" 2>&1
  summary+=("memcheck: exit $? $(grep -E 'ERROR SUMMARY' "$OUT/memcheck.log" | tail -1) $(grep -E '^\[  PASSED' "$OUT/memcheck.log")")
}
geometry_bench() {
  if (( $(left) < 60 )); then summary+=("bench geometry: skipped (time)"); return; fi
  timeout $(( $(left) - 5 )) build/gpu/bin/tessera bench lbm --device cuda:0 --param thesis=0 \
    --param precisions=fp32,fp16s --param geometry=1 --json "$OUT/geometry-cuda_0.json" \
    > "$OUT/geometry-cuda_0.md" 2>&1
  summary+=("bench geometry cuda:0: exit $?")
  grep -E "empty box|solid|voxelize|copy bandwidth" "$OUT/geometry-cuda_0.md" | cut -c1-160
}
V="python3 bench/validation/lbm_validation.py"
one() {  # NAME ARGS...: one run, skipped when too little time is left
  local name=$1
  shift
  if (( $(left) < ${MIN_RUN:-40} )); then summary+=("$name: skipped (time)"); return; fi
  mkdir -p "$OUT/results"
  timeout $(( $(left) - 20 )) $V "$@" --tessera build/gpu/bin/tessera --device cuda:0 \
    --out "$OUT/runs" --result "$OUT/results/$name.json" > /dev/null 2>"$OUT/results/$name.err"
  summary+=("$name: exit $?")
}
validate() {  # RUNS: the names to run; BOUNCE: the body's bounce-back
  local bounce="--bounce-back ${BOUNCE:-interpolated}" r c d u re w
  for r in $1; do
    case $r in
      st-2d?-d*) c=${r#st-}; c=${c%%-*}; d=${r#st-2d?-d}; d=${d%%-*}
        u=$(case $d in 20) echo 0.05;; 40) echo 0.035;; *) echo 0.025;; esac)
        [[ $r == *-u* ]] && u=${r##*-u}
        one "$r" schaefer-turek --case "$c" --d "$d" --lattice-velocity "$u" $bounce ;;
      sphere-re*) re=${r#sphere-re}; re=${re%%-*}; u=0.05 w=
        [[ $r == *-u* ]] && { u=${r##*-u}; u=${u%%-*}; }
        [[ $r == *-w* ]] && { w=${r##*-w}; w="--width ${w%%-*}"; }
        # shellcheck disable=SC2086
        one "$r" sphere --re "$re" --d 20 --lattice-velocity "$u" $w --flow-throughs "${FLOW_THROUGHS:-3}" $bounce ;;
      *) summary+=("$r: unknown run") ;;
    esac
  done
  [[ -d $OUT/results ]] && $V table "$OUT"/results/*.json | tee "$OUT/table.md"
}

case ${1:-} in
  build)
    gpu_build build/gpu tessera_cli tessera_tests
    tests "${TESTS:-*LbmInterpolated*:LbmCrossings*:LbmInlet*:LbmCaseFile*:LbmTrt*:*LbmBackends*:LbmOutput*:*Voxel*:*Placement*:*SwePhysical*}"
    memcheck '*LbmInterpolated*/cuda_*:*LbmInletDevice*/cuda_*:*DischargeIntoDry*/cuda_*'
    geometry_bench ;;
  validate)
    [[ -x build/gpu/bin/tessera ]] || { echo "no build/gpu/bin/tessera: run 'build' first"; exit 1; }
    validate "${RUNS:-st-2d2-d40 st-2d1-d40 st-2d2-d20 st-2d1-d20 sphere-re20 sphere-re50 sphere-re100 st-2d1-d80 st-2d2-d80}" ;;
  all)
    gpu_build build/gpu tessera_cli
    validate "${RUNS:-st-2d2-d80 st-2d1-d80}"
    gpu_build build/gpu tessera_tests
    RESERVE=${RESERVE:-100} tests "${TESTS:-*LbmInterpolated*:LbmCrossings*}"
    RESERVE=60 memcheck '*LbmInterpolated.StepFollows*/cuda_*:*LbmInterpolated.Distributed*/cuda_*'
    geometry_bench ;;
  *)
    echo "usage: $0 build|validate|all" >&2
    exit 2 ;;
esac
printf '%s\n' "${summary[@]}"
