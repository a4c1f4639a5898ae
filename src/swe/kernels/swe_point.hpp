// swe_point.h and swe_hll_point.h for C++ and CUDA: float and double overloads.
#pragma once
#include <math.h>

#include "core/kernels/ieee_fast.h"  // before the namespaces: shared, guarded
#include "swe/kernels/swe_hll_consts.h"

namespace tessera::swe::point {
#define ts_real float
#include "swe/kernels/swe_point.h"
#include "swe/kernels/swe_hll_point.h"
#undef ts_real
#define ts_real double
#include "swe/kernels/swe_point.h"
#include "swe/kernels/swe_hll_point.h"
#undef ts_real
}  // namespace tessera::swe::point
