// aggregation_point.h for C++ and CUDA, once per precision (core/kernels/each_precision.h;
// its kernels hold no values, but the launcher instantiates them per type).
#pragma once
#include "core/kernels/group_fold.h"  // at file scope: guarded, once for both passes
#include "core/kernels/portable.h"

namespace tessera::amg::point {
#define TS_POINT_HEADER "amg/kernels/aggregation_point.h"
#include "core/kernels/each_precision.h"
}  // namespace tessera::amg::point
