// The multigrid kernels for C++ and CUDA: mg_point.h, mg_tiles.h and the
// kernel bodies of mg_kernel_list.h, float and double overloads.
#pragma once
#include <math.h>

#include "mg/kernels/mg_grid.h"

#include "core/kernels/portable.h"  // at file scope: before each_precision.h

namespace tessera::mg::point {
#define TS_POINT_HEADER "mg/kernels/mg_kernel_list.h"
#include "core/kernels/each_precision.h"
}  // namespace tessera::mg::point
