// swe_point.h and swe_hll_point.h for C++ and CUDA: float and double overloads.
#pragma once
#include <math.h>

#include "core/kernels/ieee_fast.h"  // before the namespaces: shared, guarded
#include "swe/kernels/swe_hll_consts.h"

#include "core/kernels/portable.h"  // at file scope: before each_precision.h

namespace tessera::swe::point {
#define TS_POINT_HEADER "swe/kernels/swe_point.h"
#define TS_POINT_HEADER2 "swe/kernels/swe_hll_point.h"
#include "core/kernels/each_precision.h"
}  // namespace tessera::swe::point
