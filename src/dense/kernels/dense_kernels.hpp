// The dense kernels, declared once for every backend (CpuTag, OpenCLTag,
// CudaTag). Definitions: dense_cpu.cpp, dense_opencl.cpp (+ dense.cl),
// dense_cuda.cu. The mathematics of each is in dense_point.h.
#pragma once
#include <cstddef>

#include "core/buffer.hpp"
#include "core/kernels/portable.h"
#include "core/dispatch.hpp"

namespace tessera::dense::kernels {

enum class Elementwise { fill, copy, scale, axpy, add, triad };
enum class Term { dot, sumsq, value };
enum class Combine { sum, min, max };

/// y = f(s, x, z) for every element (x and z may be null where f ignores them).
#define TS_DENSE_DECLARE(Tag)                                                                   \
  template <class T>                                                                            \
  void elementwise(Tag, Queue& q, Elementwise op, T s, const Buffer<T>* x, const Buffer<T>* z, \
                   Buffer<T>& y);                                                               \
  /* Canonical order, level 0: partials[c] = fold of term over chunk c of x (and y). */         \
  template <class T>                                                                            \
  void reduce_chunks(Tag, Queue& q, Term t, Combine c, std::size_t n, const Buffer<T>& x,      \
                     const Buffer<T>* y, Buffer<T>& partials);                                  \
  /* Canonical order, higher levels: out[c] = fold of in[chunk c], in[0..n). */                 \
  template <class T>                                                                            \
  void combine_chunks(Tag, Queue& q, Combine c, std::size_t n, const Buffer<T>& in,            \
                      Buffer<T>& out);                                                          \
  /* Device-tuned order: returns how many partials it wrote (combined canonically after). */   \
  template <class T>                                                                            \
  std::size_t reduce_device_order(Tag, Queue& q, Term t, Combine c, std::size_t n,             \
                                  const Buffer<T>& x, const Buffer<T>* y, Buffer<T>& partials);

TS_DENSE_DECLARE(CpuTag)
TS_DENSE_DECLARE(OpenCLTag)
TS_DENSE_DECLARE(CudaTag)
#undef TS_DENSE_DECLARE

/// Partials the device-order reduction may write (sizes the scratch buffer).
constexpr std::size_t kMaxDeviceOrderPartials = 4096;

}  // namespace tessera::dense::kernels
