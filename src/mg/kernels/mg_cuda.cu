// CUDA launchers of the multigrid kernels of mg_kernel_list.h.
#include "core/launch/launch_cuda.cuh"
#include "mg/kernels/mg_kernels.hpp"

namespace tessera::mg::kernels {
using namespace point;
TS_MG_KERNELS(TS_CUDA_KERNEL)
}  // namespace tessera::mg::kernels
