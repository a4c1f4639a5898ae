// OpenCL launcher of the voxelizer's kernel (device code: voxel.cl).
#include "core/launch/launch_opencl.hpp"
#include "lbm/kernels/voxel_kernels.hpp"

namespace tessera::lbm::kernels {
#define TS_OPENCL_PROGRAM "lbm/kernels/voxel.cl"
#undef TS_LAUNCH_TYPES
#define TS_LAUNCH_TYPES(M, ...) M(double, __VA_ARGS__)  // geometry in double
TS_VOXEL_KERNELS(TS_OPENCL_KERNEL)
}  // namespace tessera::lbm::kernels
