// The matrix-product kernels, declared once for every backend (CpuTag,
// OpenCLTag, CudaTag). Definitions: matmul_cpu.cpp, matmul_opencl.cpp
// (+ matmul.cl), matmul_cuda.cu, and matmul_cublas.cpp for the vendor
// baseline. The mathematics is in matmul_point.h.
#pragma once
#include <cstddef>

#include "core/buffer.hpp"
#include "core/dispatch.hpp"
#include "dense/kernels/matmul_point.hpp"
#include "dense/matmul.hpp"

namespace tessera::dense::kernels {

/// Row-major C (m x n) = A (m x k) * B (k x n); all of m, k, n >= 1 (the front
/// end handles empty products) and each below 2^31 (kernels index in int).
struct MatmulShape {
  int m, k, n;
};

/// The tile edge of the `tiled` variant (OpenCL: -DTS_TILE, CUDA: template argument).
constexpr int kMatmulTile = TS_TILE;
/// Work-group edge of the `naive` variant (16 x 16, the lecture's).
constexpr int kMatmulNaiveGroup = 16;

/// `v` is naive, tiled or register_blocked (vendor goes to matmul_vendor).
#define TS_MATMUL_DECLARE(Tag)                                                        \
  template <class T>                                                                  \
  void matmul(Tag, Queue& q, MatmulVariant v, const Buffer<T>& A, const Buffer<T>& B, \
              Buffer<T>& C, MatmulShape s);
TS_MATMUL_DECLARE(CpuTag)
TS_MATMUL_DECLARE(OpenCLTag)
TS_MATMUL_DECLARE(CudaTag)
#undef TS_MATMUL_DECLARE

/// cuBLAS sgemm/dgemm (defined only when TESSERA_HAVE_CUBLAS).
template <class T>
void matmul_vendor(CudaTag, Queue& q, const Buffer<T>& A, const Buffer<T>& B, Buffer<T>& C,
                   MatmulShape s);

}  // namespace tessera::dense::kernels
