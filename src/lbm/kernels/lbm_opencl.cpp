// OpenCL launchers of the lattice Boltzmann kernels (device code: lbm.cl).
#include "core/launch/launch_opencl.hpp"
#include "lbm/kernels/lbm_kernels.hpp"

namespace tessera::lbm::kernels {
#define TS_OPENCL_PROGRAM "lbm/kernels/lbm.cl"
TS_LBM_KERNELS(TS_OPENCL_KERNEL)
#undef TS_LAUNCH_TYPES
#define TS_LAUNCH_TYPES(M, ...) M(float, __VA_ARGS__)  // FP16S: float arithmetic
TS_LBM_NARROW_KERNELS(TS_OPENCL_KERNEL)
}  // namespace tessera::lbm::kernels
