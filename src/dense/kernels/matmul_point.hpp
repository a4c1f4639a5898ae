// matmul_point.h for C++ and CUDA: included once per precision, giving float
// and double overloads of ts_mm_mac (and the blocking constants, once).
#pragma once
#include <math.h>

namespace tessera::dense::point {
#define ts_real float
#include "dense/kernels/matmul_point.h"
#undef ts_real
#define ts_real double
#include "dense/kernels/matmul_point.h"
#undef ts_real
}  // namespace tessera::dense::point
