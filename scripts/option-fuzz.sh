#!/usr/bin/env bash
# The option fuzzer's full sweep (docs/reliability.md): every (option, value)
# pair of every command, on the CPU and on each OpenCL device given, with the
# counts written to bench/results/option-fuzz/<date>.json. CI runs a sample
# (ctest -R options.fuzz_sample).
#   scripts/option-fuzz.sh [BUILD_DIR] [extra option_fuzz.py arguments, e.g. --device opencl:0:0]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
shift || true
out=bench/results/option-fuzz
mkdir -p "$out"
json="$out/$(date -u +%Y-%m-%d)-$(git rev-parse --short HEAD).json"
TESSERA_CACHE_DIR="$PWD/$build/option-fuzz-cache" \
  python3 tests/reliability/option_fuzz.py "$build/bin/tessera" --device cpu "$@" --timeout 120 --json "$json"
echo "counts: $json"
