// The matrix-product kernels, declared once for every backend from their
// argument lists in matmul_point.h (core/launch/launch.hpp). Backends:
// matmul_cpu.cpp, matmul_opencl.cpp (+ matmul.cl), matmul_cuda.cu, and
// matmul_cublas.cpp for the vendor baseline.
#pragma once
#include <cstddef>

#include "core/launch/launch.hpp"
#include "dense/kernels/matmul_point.hpp"
#include "dense/matmul.hpp"

namespace tessera::dense::kernels {

/// The tile edge of the naive and tiled variants (matmul_point.h's TS_TILE).
constexpr int kMatmulTile = TS_TILE;

TS_MATMUL_KERNELS(TS_DECLARE_KERNEL)

/// Row-major C (m x n) = A (m x k) * B (k x n), for cuBLAS.
struct MatmulShape {
  int m, k, n;
};

/// cuBLAS sgemm/dgemm (defined only when TESSERA_HAVE_CUBLAS).
template <class T>
void matmul_vendor(CudaTag, Queue& q, const Buffer<T>& A, const Buffer<T>& B, Buffer<T>& C,
                   MatmulShape s);

}  // namespace tessera::dense::kernels
