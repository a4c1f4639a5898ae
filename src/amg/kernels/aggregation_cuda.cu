// CUDA launchers of the AMG aggregation kernels of aggregation_point.h.
#include "amg/kernels/aggregation_kernels.hpp"
#include "core/launch/launch_cuda.cuh"

namespace tessera::amg::kernels {
using namespace point;
TS_AMG_KERNELS(TS_CUDA_KERNEL)
}  // namespace tessera::amg::kernels
