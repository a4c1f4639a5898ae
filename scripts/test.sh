#!/usr/bin/env bash
# From a fresh clone: install what is missing, build, run the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
cd build
ctest --output-on-failure -j"$(nproc)" "$@"
(cd .. && scripts/test-examples.sh build)   # examples/ against the installed package
# the Python package: a wheel of the module linked against this build (CUDA
# included where it was built), installed in a fresh venv, pytest
(cd .. && TESSERA_PY_FROM_BUILD=build scripts/test-python.sh)
(cd .. && scripts/test-exclude-modules.sh)   # -DTESSERA_EXCLUDE_MODULES builds without demo, lbm, swe
(cd .. && scripts/fuzz-smoke.sh)   # a few seconds of every file-reader fuzz harness (skipped without clang's fuzzer runtime)
