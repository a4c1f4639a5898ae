#!/usr/bin/env bash
# From a fresh clone: install what is missing, build, and show tessera working
# on the best device available (override with TESSERA_DEVICE=cpu|opencl:P:D|cuda:N).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
device="${TESSERA_DEVICE:-best}"
echo; echo "== devices"; build/bin/tessera devices
echo; echo "== STREAM on ${device}"
build/bin/tessera bench stream --device "$device" --reps 10
