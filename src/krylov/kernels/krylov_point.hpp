// krylov_point.h for C++ and CUDA: included once per precision (float and
// double overloads of every per-point function).
#pragma once
#include <math.h>

namespace tessera::krylov::point {
#define ts_real float
#include "krylov/kernels/krylov_point.h"
#undef ts_real
#define ts_real double
#include "krylov/kernels/krylov_point.h"
#undef ts_real
}  // namespace tessera::krylov::point
