// OpenCL launchers of the Krylov kernels (device code: krylov.cl).
#include "core/launch/launch_opencl.hpp"
#include "krylov/kernels/krylov_kernels.hpp"

namespace tessera::krylov::kernels {
#define TS_OPENCL_PROGRAM "krylov/kernels/krylov.cl"
TS_KRYLOV_KERNELS(TS_OPENCL_KERNEL)
}  // namespace tessera::krylov::kernels
