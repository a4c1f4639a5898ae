#!/usr/bin/env bash
# API reference from the public headers (Doxyfile): HTML in OUTDIR/html
# (default build/doxygen). Warnings in public headers are errors (exit 1).
# Doxygen is optional: without it (Debian: apt-get install doxygen) this says
# so and exits 0. Usage: scripts/doxygen.sh [OUTDIR]
set -euo pipefail
out="${1:-build/doxygen}"
cd "$(dirname "$0")/.."
if ! command -v doxygen >/dev/null 2>&1; then
  echo "doxygen is not installed (Debian: apt-get install doxygen): API reference not generated"
  exit 0
fi
mkdir -p "$out"
TESSERA_DOXYGEN_OUT="$(cd "$out" && pwd)" doxygen Doxyfile
echo "API reference: $out/html/index.html"
