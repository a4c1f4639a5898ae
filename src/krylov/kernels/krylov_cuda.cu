// CUDA launchers of the Krylov kernels of krylov_point.h and krylov_dcgs2.h.
#include "core/launch/launch_cuda.cuh"
#include "krylov/kernels/krylov_kernels.hpp"

namespace tessera::krylov::kernels {
using namespace point;
TS_KRYLOV_KERNELS(TS_CUDA_KERNEL)
}  // namespace tessera::krylov::kernels
