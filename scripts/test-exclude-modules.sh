#!/usr/bin/env bash
# -DTESSERA_EXCLUDE_MODULES holds: a build that leaves out the modules no
# other module needs (demo, lbm, swe) configures, builds and passes its own
# tests (CPU and OpenCL; CUDA is off here, the main build compiles it), and
# the CLI has no command of a module left out. Also that leaving out a
# foundation module, or a module another one needs, is a clear configure
# error. Usage: scripts/test-exclude-modules.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build/exclude}
common=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DTESSERA_ENABLE_CUDA=OFF -DTESSERA_BUILD_PYTHON=OFF)
command -v ccache > /dev/null && common+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
refused() {  # refused EXCLUDE PATTERN: configuring with EXCLUDE fails, naming PATTERN
  local out
  if out=$(cmake -S . -B "$dir-refused" "${common[@]}" -DTESSERA_EXCLUDE_MODULES="$1" 2>&1); then
    echo "FAIL: TESSERA_EXCLUDE_MODULES=$1 configured"; exit 1
  fi
  grep -q "$2" <<< "$out" || { echo "FAIL: TESSERA_EXCLUDE_MODULES=$1 did not say '$2':"; echo "$out" | tail -5; exit 1; }
  echo "ok: TESSERA_EXCLUDE_MODULES=$1 refused ($2)"
  rm -rf "$dir-refused"
}
refused "dense" "dense cannot be left out"
refused "skeleton" "needs skeleton"
refused "lbmm" "no module 'lbmm'"
cmake -S . -B "$dir" "${common[@]}" -DTESSERA_EXCLUDE_MODULES="demo;lbm;swe" > "$dir.log" 2>&1 ||
  { tail -20 "$dir.log"; exit 1; }
cmake --build "$dir" -j"$(nproc)" >> "$dir.log" 2>&1 || { grep -E "error|Error" "$dir.log" | head -20; exit 1; }
help=$("$dir/bin/tessera" --help)
for cmd in lbm swe demo; do
  if grep -qE "^  $cmd +[A-Z]" <<< "$help"; then echo "FAIL: '$cmd' is still a command"; exit 1; fi
done
grep -qE "^  sparse +[A-Z]" <<< "$help" || { echo "FAIL: 'sparse' is missing"; exit 1; }
echo "ok: tessera without demo, lbm, swe has none of their commands"
(cd "$dir" && ctest -j"$(nproc)" --output-on-failure -R 'DenseTest|cli\.sparse_|cli\.devices|cli\.bench_stream')
