// CUDA launchers of the thesis's gas simulation kernels (thesis_gas_kernel_list.h).
#include "core/launch/launch_cuda.cuh"
#include "lbm/kernels/thesis_gas_kernels.hpp"
#include "lbm/kernels/thesis_gas_point.hpp"

namespace tessera::lbm::kernels {
using namespace thesis_point;
#undef TS_LAUNCH_TYPES
#define TS_LAUNCH_TYPES(M, ...) M(float, __VA_ARGS__)  // the thesis's floats
TS_THESIS_KERNELS(TS_CUDA_KERNEL)
}  // namespace tessera::lbm::kernels
