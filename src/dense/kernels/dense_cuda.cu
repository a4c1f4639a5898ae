// CUDA launchers of the dense kernels of dense_point.h.
#include "core/launch/launch_cuda.cuh"
#include "dense/kernels/dense_kernels.hpp"

namespace tessera::dense::kernels {
using namespace point;
TS_DENSE_KERNELS(TS_CUDA_KERNEL)
}  // namespace tessera::dense::kernels
