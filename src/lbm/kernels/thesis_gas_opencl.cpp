// OpenCL launchers of the thesis's gas simulation kernels (device code:
// thesis_gas.cl).
#include "core/launch/launch_opencl.hpp"
#include "lbm/kernels/thesis_gas_kernels.hpp"

namespace tessera::lbm::kernels {
#define TS_OPENCL_PROGRAM "lbm/kernels/thesis_gas.cl"
#undef TS_LAUNCH_TYPES
#define TS_LAUNCH_TYPES(M, ...) M(float, __VA_ARGS__)  // the thesis's floats
TS_THESIS_KERNELS(TS_OPENCL_KERNEL)
}  // namespace tessera::lbm::kernels
