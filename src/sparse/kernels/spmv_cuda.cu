// CUDA launchers of the SpMV kernels of spmv_point.h.
#include "core/launch/launch_cuda.cuh"
#include "sparse/kernels/spmv_kernels.hpp"

namespace tessera::sparse::kernels {
using namespace point;
#undef TS_LAUNCH_TYPES
#define TS_LAUNCH_TYPES TS_REAL_AND_COMPLEX_TYPES
TS_SPMV_KERNELS(TS_CUDA_KERNEL)
}  // namespace tessera::sparse::kernels
