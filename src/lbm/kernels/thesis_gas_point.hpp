// thesis_gas_point.h for C++ and CUDA (float only).
#pragma once
#include <cstring>

#include "core/kernels/bits.h"  // before the namespaces: shared, guarded
#include "core/kernels/portable.h"

namespace tessera::lbm::thesis_point {
#include "lbm/kernels/thesis_gas_point.h"
}  // namespace tessera::lbm::thesis_point
