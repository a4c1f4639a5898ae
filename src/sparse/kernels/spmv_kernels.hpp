// The SpMV kernels, declared once for every backend from their argument
// lists in spmv_point.h (core/launch/launch.hpp), for the four element
// types. Backends: spmv_cpu.cpp, spmv_opencl.cpp (+ spmv.cl),
// spmv_cuda.cu; which kernels a format runs, and with what: spmv_launch.hpp.
#pragma once
#include "core/launch/launch.hpp"
#include "sparse/kernels/spmv_point.hpp"
#include "sparse/types.hpp"

namespace tessera::sparse::kernels {

TS_SPMV_KERNELS(TS_DECLARE_KERNEL)

/// Threads per row for csr-vector: the power of two nearest the mean row
/// length, 1..32 (short rows waste no lanes, long rows get a whole warp).
int csr_vector_lanes(size64 rows, size64 nnz);

}  // namespace tessera::sparse::kernels
