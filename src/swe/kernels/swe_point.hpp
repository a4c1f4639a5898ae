// The shallow-water point functions and kernel bodies (swe_kernel_list.h)
// for C++ and CUDA: float and double overloads.
#pragma once
#include <math.h>

#include "core/kernels/ieee_fast.h"  // before the namespaces: shared, guarded
#include "core/kernels/ieee_check.h"
#include "core/kernels/group_fold.h"
#include "swe/kernels/swe_hll_consts.h"
#include "swe/kernels/swe_params.h"

#include "core/kernels/portable.h"  // at file scope: before each_precision.h

namespace tessera::swe::point {
#define TS_POINT_HEADER "swe/kernels/swe_kernel_list.h"
#include "core/kernels/each_precision.h"
}  // namespace tessera::swe::point
