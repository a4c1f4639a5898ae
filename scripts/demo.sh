#!/usr/bin/env bash
# From a fresh clone: install what is missing, build, and show every module
# working on the best device available: `tessera demo` runs one checked case
# per module and writes out/demo/index.html (override the device with
# TESSERA_DEVICE=cpu|opencl:P:D|cuda:N; TESSERA_DEMO_ARGS=--quick for small sizes).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
device="${TESSERA_DEVICE:-best}"
echo; echo "== devices"; build/bin/tessera devices
echo; echo "== tessera demo on ${device}"
build/bin/tessera demo --device "$device" --out out/demo ${TESSERA_DEMO_ARGS:-}
echo; echo "open out/demo/index.html in a browser"
