// The AMG aggregation kernels, declared once for every backend from their
// argument lists in aggregation_point.h (core/launch/launch.hpp). Backends:
// aggregation_cpu.cpp, aggregation_opencl.cpp (+ aggregation.cl),
// aggregation_cuda.cu; the passes that run them: amg/device_aggregation.cpp.
#pragma once
#include "amg/kernels/aggregation_point.hpp"
#include "core/launch/launch.hpp"

namespace tessera::amg::kernels {

TS_AMG_KERNELS(TS_DECLARE_KERNEL)

}  // namespace tessera::amg::kernels
