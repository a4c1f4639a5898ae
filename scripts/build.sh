#!/usr/bin/env bash
# Configures (preset `release`) and builds tessera into build/.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -d /usr/local/cuda/bin ] && export PATH="/usr/local/cuda/bin:$PATH"
cmake --preset release
cmake --build build -j"$(nproc)"
