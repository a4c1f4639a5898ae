// The dense kernels, declared once for every backend from their argument
// lists in dense_point.h (core/launch/launch.hpp). Backends: dense_cpu.cpp,
// dense_opencl.cpp (+ dense.cl), dense_cuda.cu.
#pragma once
#include <cstddef>

#include "core/launch/launch.hpp"
#include "dense/kernels/dense_point.hpp"

namespace tessera::dense::kernels {

enum class Elementwise {
  fill = TS_EW_FILL,
  copy = TS_EW_COPY,
  scale = TS_EW_SCALE,
  axpy = TS_EW_AXPY,
  add = TS_EW_ADD,
  triad = TS_EW_TRIAD
};
enum class Term { dot = TS_TERM_DOT, sumsq = TS_TERM_SUMSQ, value = TS_TERM_VALUE };
enum class Combine { sum = TS_COMBINE_SUM, min = TS_COMBINE_MIN, max = TS_COMBINE_MAX };

TS_DENSE_KERNELS(TS_DECLARE_KERNEL)

/// Partials the device-order reduction may write (sizes the scratch buffer).
constexpr std::size_t kMaxDeviceOrderPartials = 4096;

/// Whether `op` reads x / z (the byte models count only what is read).
constexpr bool reads_x(Elementwise op) { return op != Elementwise::fill; }
constexpr bool reads_z(Elementwise op) {
  return op == Elementwise::axpy || op == Elementwise::add || op == Elementwise::triad;
}

}  // namespace tessera::dense::kernels
