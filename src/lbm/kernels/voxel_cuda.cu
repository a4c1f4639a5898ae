// CUDA launcher of the voxelizer's kernel (voxel_params.h).
#include "core/launch/launch_cuda.cuh"
#include "lbm/kernels/voxel_kernels.hpp"
#include "lbm/kernels/voxel_point.hpp"

namespace tessera::lbm::kernels {
using namespace voxel_point;
#undef TS_LAUNCH_TYPES
#define TS_LAUNCH_TYPES(M, ...) M(double, __VA_ARGS__)  // geometry in double
TS_VOXEL_KERNELS(TS_CUDA_KERNEL)
}  // namespace tessera::lbm::kernels
