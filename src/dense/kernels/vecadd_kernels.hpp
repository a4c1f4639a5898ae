// The vector-add kernels of the lecture, declared once for every backend.
// Definitions: vecadd_cpu.cpp, vecadd_opencl.cpp (+ vecadd.cl), vecadd_cuda.cu.
// The per-element mathematics is dense_point.h's ts_ew_add.
#pragma once
#include <cstddef>

#include "core/buffer.hpp"
#include "core/dispatch.hpp"
#include "dense/matmul.hpp"

namespace tessera::dense::kernels {

/// Work-group size of every vector-add kernel; the static local arrays hold
/// this many elements (OpenCL: -DTS_VA_GROUP, CUDA: a constant).
constexpr int kVecAddGroup = 256;

/// c = a + b, n = c.size() >= 1, staged as `v` says.
#define TS_VECADD_DECLARE(Tag)                                                            \
  template <class T>                                                                      \
  void vector_add(Tag, Queue& q, VecAddVariant v, const Buffer<T>& a, const Buffer<T>& b, \
                  Buffer<T>& c);
TS_VECADD_DECLARE(CpuTag)
TS_VECADD_DECLARE(OpenCLTag)
TS_VECADD_DECLARE(CudaTag)
#undef TS_VECADD_DECLARE

}  // namespace tessera::dense::kernels
