#!/usr/bin/env bash
# Proves the CMake package works: installs the build tree into a temporary
# prefix, then configures, builds and runs examples/ against it with
# find_package(tessera). Usage: scripts/test-examples.sh [BUILD_DIR] (default build)
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build}"
[ -f "$build/CMakeCache.txt" ] || { echo "test-examples: $build is not a configured build tree (run scripts/build.sh)"; exit 1; }
[ -d /usr/local/cuda/bin ] && export PATH="/usr/local/cuda/bin:$PATH"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
echo "== installing $build into $work/prefix"
cmake --install "$build" --prefix "$work/prefix" > "$work/install.log"
echo "== configuring examples/ against it"
cmake -S examples -B "$work/examples" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$work/prefix"
cmake --build "$work/examples" -j"$(nproc)"
echo "== running the examples (device cpu)"
status=0
ctest --test-dir "$work/examples" --output-on-failure -V > "$work/ctest.log" 2>&1 || status=1
grep -E "^[0-9]+: .* on |tests passed|tests failed" "$work/ctest.log" || true
if [ "$status" -ne 0 ]; then tail -40 "$work/ctest.log"; exit 1; fi
