// CPU launchers of the multigrid kernels: the point kernels of
// mg_kernel_list.h in OpenMP loops over their boxes (the tiles are GPU
// kernels; mg_kernels.hpp gives the CPU their two-pass and point-by-point
// equivalents).
#include "core/launch/launch_cpu.hpp"
#include "mg/kernels/mg_kernels.hpp"

namespace tessera::mg::kernels {
using namespace point;
TS_MG_KERNELS(TS_CPU_KERNEL)
}  // namespace tessera::mg::kernels
