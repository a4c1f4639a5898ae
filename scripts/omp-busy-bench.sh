#!/usr/bin/env bash
# The CPU backend on shared cores (issue 40, item 10): `tessera mg --n 255`
# and a default LBM run, idle and with one core kept busy by another process,
# under libgomp's default spinning wait (GOMP_SPINCOUNT=300000, what an unset
# OMP_WAIT_POLICY gives), passive waiting, the short spin tessera now uses by
# default, and one thread. Median of REPS runs of the command's own device time.
# HOGS busy loops (default 1) make the load; OUT_JSON names the result file.
#   scripts/omp-busy-bench.sh [BUILD_DIR] [REPS]  -> bench/results/cpu/omp-busy-<date>.json
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build} reps=${2:-5}
tessera=$build/bin/tessera
out=bench/results/cpu
mkdir -p "$out"
json=${OUT_JSON:-$out/omp-busy-$(date -u +%Y-%m-%d).json}
hogs=${HOGS:-1}
mg_ms() { "$tessera" mg --n 255 --device cpu | sed -n 's/.* \([0-9.]*\) ms device time.*/\1/p'; }
lbm_ms() { "$tessera" lbm --device cpu --steps 20 | sed -n 's/.* in \([0-9.]*\) s of device time.*/\1/p' | awk '{print $1*1000}'; }
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
run() {  # run NAME ENV... : median ms of mg and lbm
  local name=$1; shift
  local m l
  m=$(for _ in $(seq "$reps"); do env "$@" bash -c "$(declare -f mg_ms); tessera=$tessera mg_ms"; done | median)
  l=$(for _ in $(seq "$reps"); do env "$@" bash -c "$(declare -f lbm_ms); tessera=$tessera lbm_ms"; done | median)
  echo "    {\"case\": \"$name\", \"mg_n255_ms\": $m, \"lbm_default_20_steps_ms\": $l}"
}
rows=()
for load in idle busy; do
  hog=""
  if [ $load = busy ]; then for _ in $(seq "$hogs"); do (while :; do :; done) & hog="$hog $!"; done; fi
  rows+=("$(run "$load, spinning wait (GOMP_SPINCOUNT=300000)" GOMP_SPINCOUNT=300000)")
  rows+=("$(run "$load, passive wait (OMP_WAIT_POLICY=passive)" OMP_WAIT_POLICY=passive)")
  rows+=("$(run "$load, short spin (GOMP_SPINCOUNT=1000, the default now)")")
  rows+=("$(run "$load, one thread" OMP_NUM_THREADS=1)")
  [ -n "$hog" ] && kill $hog
done
{
  echo "{"
  echo "  \"machine\": \"$(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')\","
  echo "  \"commit\": \"$(git rev-parse --short HEAD)\", \"reps\": $reps, \"statistic\": \"median of the command's device time\","
  echo "  \"busy\": \"$hogs shell busy loops in other processes for the whole measurement\","
  echo "  \"rows\": ["
  (IFS=$'\n'; echo "${rows[*]}" | sed '$!s/$/,/')
  echo "  ]"
  echo "}"
} > "$json"
cat "$json"
