// CUDA launchers of the matrix-product kernels of matmul_point.h.
#include "core/launch/launch_cuda.cuh"
#include "dense/kernels/matmul_kernels.hpp"

namespace tessera::dense::kernels {
using namespace point;
TS_MATMUL_KERNELS(TS_CUDA_KERNEL)
}  // namespace tessera::dense::kernels
