// OpenCL launchers of the multigrid kernels (device code: mg.cl).
#include "core/launch/launch_opencl.hpp"
#include "mg/kernels/mg_kernels.hpp"

namespace tessera::mg::kernels {
#define TS_OPENCL_PROGRAM "mg/kernels/mg.cl"
TS_MG_KERNELS(TS_OPENCL_KERNEL)
}  // namespace tessera::mg::kernels
