// OpenCL launchers of the AMG aggregation kernels (device code: aggregation.cl).
#include "amg/kernels/aggregation_kernels.hpp"
#include "core/launch/launch_opencl.hpp"

namespace tessera::amg::kernels {
#define TS_OPENCL_PROGRAM "amg/kernels/aggregation.cl"
TS_AMG_KERNELS(TS_OPENCL_KERNEL)
}  // namespace tessera::amg::kernels
