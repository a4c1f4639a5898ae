// CPU launchers of the AMG aggregation kernels: the generated OpenMP loops.
#include "amg/kernels/aggregation_kernels.hpp"
#include "core/launch/launch_cpu.hpp"

namespace tessera::amg::kernels {
using namespace point;
TS_AMG_KERNELS(TS_CPU_KERNEL)
}  // namespace tessera::amg::kernels
