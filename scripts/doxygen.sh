#!/usr/bin/env bash
# API reference from the public headers (Doxyfile): HTML in build/doxygen/html.
# Warnings in public headers are errors (exit 1). Doxygen is optional: without
# it (Debian: apt-get install doxygen) this says so and exits 0.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v doxygen >/dev/null 2>&1; then
  echo "doxygen is not installed (Debian: apt-get install doxygen): API reference not generated"
  exit 0
fi
mkdir -p build/doxygen
doxygen Doxyfile
echo "API reference: build/doxygen/html/index.html"
