// CPU launchers of the lattice Boltzmann kernels of lbm_kernel_list.h:
// OpenMP loops over the cells (esoteric pull makes the in-place step
// race-free, so the cells of a step may run in any order).
#include "core/launch/launch_cpu.hpp"
#include "lbm/kernels/lbm_kernels.hpp"

namespace tessera::lbm::kernels {
using namespace point;
TS_LBM_KERNELS(TS_CPU_KERNEL)
#undef TS_LAUNCH_TYPES
#define TS_LAUNCH_TYPES(M, ...) M(float, __VA_ARGS__)  // FP16S: float arithmetic
TS_LBM_NARROW_KERNELS(TS_CPU_KERNEL)
}  // namespace tessera::lbm::kernels
