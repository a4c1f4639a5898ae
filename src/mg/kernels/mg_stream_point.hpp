// mg_stream_point.h for C++ and CUDA: float and double overloads.
#pragma once
#include <math.h>

#include "mg/kernels/mg_grid.h"

namespace tessera::mg::stream::point {
#define ts_real float
#include "mg/kernels/mg_stream_point.h"
#undef ts_real
#define ts_real double
#include "mg/kernels/mg_stream_point.h"
#undef ts_real
}  // namespace tessera::mg::stream::point
