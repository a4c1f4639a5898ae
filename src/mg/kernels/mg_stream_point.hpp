// The streaming mode's kernels for C++ and CUDA (mg_stream_point.h,
// mg_stream_cache.h and mg_stream_kernel_list.h): float and double overloads.
#pragma once
#include <math.h>

#include "mg/kernels/mg_grid.h"

#include "core/kernels/portable.h"  // at file scope: before each_precision.h

namespace tessera::mg::stream::point {
#define TS_POINT_HEADER "mg/kernels/mg_stream_kernel_list.h"
#include "core/kernels/each_precision.h"
}  // namespace tessera::mg::stream::point
