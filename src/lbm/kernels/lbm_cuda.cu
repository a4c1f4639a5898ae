// CUDA launchers of the lattice Boltzmann kernels of lbm_kernel_list.h.
#include "core/launch/launch_cuda.cuh"
#include "lbm/kernels/lbm_kernels.hpp"

namespace tessera::lbm::kernels {
using namespace point;
TS_LBM_KERNELS(TS_CUDA_KERNEL)
#undef TS_LAUNCH_TYPES
#define TS_LAUNCH_TYPES(M, ...) M(float, __VA_ARGS__)  // FP16S: float arithmetic
TS_LBM_NARROW_KERNELS(TS_CUDA_KERNEL)
}  // namespace tessera::lbm::kernels
