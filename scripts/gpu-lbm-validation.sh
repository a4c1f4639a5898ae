#!/usr/bin/env bash
# On the GPU machine (through the device tool), issue 43's validation in two
# calls of one lease:
#   TESSERA_COMMIT=<HEAD> scripts/gpu-lbm-validation.sh build
#     build; the inlet, case-file, TRT, backend, output and voxelizer tests on
#     every device; compute-sanitizer memcheck on the inlet's CUDA runs; the
#     10%-solid body against the empty box (FP32, FP16S) on cuda:0.
#   TESSERA_COMMIT=<HEAD> scripts/gpu-lbm-validation.sh validate
#     (no build: the first call's binary) Schaefer-Turek 2D-2 and 2D-1 at
#     D = 20, 40, 80 cells and the sphere drag at Re 20, 50, 100 on cuda:0
#     (bench/validation/lbm_validation.py; RUNS selects, BOUNCE=halfway
#     for the body's halfway bounce-back), then their table.
#   TESSERA_COMMIT=<HEAD> scripts/gpu-lbm-validation.sh quick
#     one call: the command only (no tests), then validate's runs in the
#     time left (in order of importance).
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/gpu-common.sh
export TESSERA_CACHE_DIR=/tmp/tessera-cache
left() { echo $(( ${DEADLINE:-570} - SECONDS )); }
summary=()
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/card.txt"
if [[ ${1:-} == build ]]; then
  gpu_build build/gpu tessera_cli tessera_tests
  timeout $(( $(left) - 200 )) build/gpu/bin/tessera_tests \
    --gtest_filter="${TESTS:-*LbmInterpolated*:LbmCrossings*:LbmInlet*:LbmCaseFile*:LbmTrt*:*LbmBackends*:LbmOutput*:*Voxel*:*Placement*:*SwePhysical*}" \
    > "$OUT/tests.log" 2>&1
  summary+=("tests: exit $? $(grep -E '^\[  (PASSED|FAILED)  \]' "$OUT/tests.log" | tr '\n' ' ')")
  grep -E '^\[  FAILED  \]' "$OUT/tests.log" | head -20
  timeout $(( $(left) - 120 )) compute-sanitizer --tool memcheck --error-exitcode 99 --print-limit 20 \
    build/gpu/bin/tessera_tests --gtest_filter='*LbmInterpolated*/cuda_*:*LbmInletDevice*/cuda_*:*DischargeIntoDry*/cuda_*' \
    > "$OUT/memcheck.log" 2>&1
  summary+=("memcheck: exit $? $(grep -E 'ERROR SUMMARY' "$OUT/memcheck.log" | tail -1) $(grep -E '^\[  PASSED' "$OUT/memcheck.log")")
  timeout $(( $(left) - 5 )) build/gpu/bin/tessera bench lbm --device cuda:0 --param thesis=0 \
    --param precisions=fp32,fp16s --param geometry=1 --json "$OUT/geometry-cuda_0.json" \
    > "$OUT/geometry-cuda_0.md" 2>&1
  summary+=("bench geometry cuda:0: exit $?")
  grep -E "empty box|solid|voxelize|copy bandwidth" "$OUT/geometry-cuda_0.md" | cut -c1-160
elif [[ ${1:-} == validate || ${1:-} == quick ]]; then
  [[ ${1:-} == quick ]] && gpu_build build/gpu tessera_cli
  [[ -x build/gpu/bin/tessera ]] || { echo "no build/gpu/bin/tessera: run 'build' first"; exit 1; }
  V="python3 bench/validation/lbm_validation.py"
  common="--tessera build/gpu/bin/tessera --device cuda:0 --out $OUT/runs"
  mkdir -p "$OUT/results"
  one() {  # NAME ARGS...: one run, skipped when too little time is left
    local name=$1
    shift
    if (( $(left) < 40 )); then summary+=("$name: skipped (time)"); return; fi
    timeout $(( $(left) - 20 )) $V "$@" $common --result "$OUT/results/$name.json" > /dev/null 2>"$OUT/results/$name.err"
    summary+=("$name: exit $?")
  }
  # RUNS: the names to run (default: all, in this order); BOUNCE: the
  # body's bounce-back (interpolated by default)
  runs=${RUNS:-st-2d2-d40 st-2d1-d40 st-2d2-d20 st-2d1-d20 sphere-re20 sphere-re50 sphere-re100 st-2d1-d80 st-2d2-d80}
  bounce="--bounce-back ${BOUNCE:-interpolated}"
  for r in $runs; do
    case $r in
      st-2d?-d*) c=${r#st-}; c=${c%%-*}; d=${r##*-d}
        u=$(case $d in 20) echo 0.05;; 40) echo 0.035;; *) echo 0.025;; esac)
        one "$r" schaefer-turek --case "$c" --d "$d" --lattice-velocity "$u" $bounce ;;
      sphere-re*) one "$r" sphere --re "${r#sphere-re}" --d 20 $bounce ;;
      *) summary+=("$r: unknown run") ;;
    esac
  done
  $V table "$OUT"/results/*.json | tee "$OUT/table.md"
else
  echo "usage: $0 build|validate|quick" >&2
  exit 2
fi
printf '%s\n' "${summary[@]}"
