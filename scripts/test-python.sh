#!/usr/bin/env bash
# Builds the Python package's wheel with pip (scikit-build-core, build folder
# reused under build/python-wheel, ccache when present; the build tools in
# build/python-venv, reused), installs it into a fresh environment
# (build/python-fresh-venv) and runs the pytest suite (tests/python) there.
#   PYTHON=python3.12 scripts/test-python.sh     # another interpreter
#   TESSERA_PY_CUDA=ON scripts/test-python.sh    # build the CUDA backend too
#                                                # (off by default: nothing CUDA runs without a GPU)
#   TESSERA_PY_BUILD_DIR=build-x/wheel ...       # another pip build folder (default build/python-wheel)
#   TESSERA_PY_FROM_BUILD=build scripts/test-python.sh
#                                                # the module against that C++ build (installed
#                                                # under build/python-prebuilt): nothing compiled
#                                                # twice, its backends (CUDA too) in the wheel
#   scripts/test-python.sh -k sparse             # arguments go to pytest
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
VENV=${TESSERA_PY_VENV:-build/python-venv}

# Debian without the headers or venv module: install them (like install-deps.sh).
if ! "$PY" -c "import sysconfig, os, venv; assert os.path.exists(os.path.join(sysconfig.get_paths()['include'], 'Python.h'))" 2>/dev/null; then
  if command -v apt-get >/dev/null && [ "$(command -v "$PY")" = /usr/bin/python3 ]; then
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends python3-dev python3-venv
  else
    echo "test-python.sh: $PY lacks Python.h or venv (install python3-dev python3-venv)" >&2
    exit 1
  fi
fi
[ -x "$VENV/bin/python" ] || "$PY" -m venv "$VENV"
VPY="$(cd "$VENV" && pwd)/bin/python"
"$VPY" -m pip install -q --disable-pip-version-check numpy scipy pytest pyamg "scikit-build-core>=0.10" "nanobind>=2.0"
if command -v ccache >/dev/null; then
  export CMAKE_CXX_COMPILER_LAUNCHER=${CMAKE_CXX_COMPILER_LAUNCHER:-ccache}
  export CMAKE_CUDA_COMPILER_LAUNCHER=${CMAKE_CUDA_COMPILER_LAUNCHER:-ccache}
fi
export CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc)}
start=$(date +%s)
# The wheel (the build folder reused: incremental), then a fresh environment
# with nothing but the wheel and the test dependencies: the tests run against
# what a user's `pip install` gets, console command included.
WHEELS=build/wheelhouse
rm -rf "$WHEELS"
# the two modes in their own build folders: CMake's cache would keep the other's
# TESSERA_PYTHON_PREBUILT
build_dir=${TESSERA_PY_BUILD_DIR:-build/python-wheel}
from_build=(-Ccmake.define.TESSERA_PYTHON_PREBUILT=)
if [ -n "${TESSERA_PY_FROM_BUILD:-}" ]; then
  build_dir=${TESSERA_PY_BUILD_DIR:-build/python-wheel-prebuilt}
  prefix="$(pwd)/build/python-prebuilt"
  rm -rf "$prefix"
  cmake --install "$TESSERA_PY_FROM_BUILD" --prefix "$prefix" > /dev/null
  from_build=(-Ccmake.define.TESSERA_PYTHON_PREBUILT="$prefix" -Cbuild.targets=_tessera)
  echo "test-python.sh: the module against $TESSERA_PY_FROM_BUILD ($(grep -o 'HAVE_CUDA @*[A-Z0-9]*' "$prefix"/lib*/cmake/tessera/tesseraConfig.cmake | head -1))"
fi
"$VPY" -m pip wheel -q --disable-pip-version-check --no-build-isolation --no-deps -w "$WHEELS" \
  -Cbuild-dir="$build_dir" -Ccmake.define.TESSERA_ENABLE_CUDA="${TESSERA_PY_CUDA:-OFF}" \
  "${from_build[@]}" .
echo "test-python.sh: the wheel took $(( $(date +%s) - start )) s: $(ls "$WHEELS")"
FRESH=build/python-fresh-venv
"$PY" -m venv --clear "$FRESH"
FPY="$(cd "$FRESH" && pwd)/bin/python"
"$FPY" -m pip install -q --disable-pip-version-check numpy scipy pytest pyamg "$WHEELS"/*.whl
"$(dirname "$FPY")/tessera" devices > /dev/null || { echo "test-python.sh: the wheel's tessera command fails" >&2; exit 1; }
# run from tests/python so that the installed package, not python/tessera, is imported
cd tests/python
"$FPY" -m pytest -q "$@"
