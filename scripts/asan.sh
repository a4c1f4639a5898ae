#!/usr/bin/env bash
# AddressSanitizer + UndefinedBehaviorSanitizer run of the CPU and
# OpenCL-on-PoCL test suite (CMakePresets.json: "asan"; CUDA and MPI off).
#   scripts/asan.sh [ctest arguments, e.g. -R lbm]
# Any sanitizer report fails the test that triggered it (-fno-sanitize-recover).
# PoCL/LLVM/ICD-loader allocations that live until exit are suppressed by
# tests/reliability/lsan.supp (third-party frames only; see docs/reliability.md).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v ccache >/dev/null && export CMAKE_CXX_COMPILER_LAUNCHER=ccache CMAKE_C_COMPILER_LAUNCHER=ccache
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:halt_on_error=1:detect_stack_use_after_return=0}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/tests/reliability/lsan.supp:print_suppressions=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# (exported before the build: gtest_discover_tests runs the sanitized test binary)
cmake --preset asan >/dev/null
cmake --build build-asan -j"${ASAN_BUILD_JOBS:-$(nproc)}"
# PoCL runs kernels on its own threads; one test per core keeps them fast enough.
ctest --test-dir build-asan --output-on-failure -j"${ASAN_TEST_JOBS:-$(nproc)}" --timeout 900 "$@"
