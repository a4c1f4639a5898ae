// spmv_point.h for C++ and CUDA: one overload set per element type (float,
// double, complex float, complex double). Complex values are pairs with .x/.y
// members and the byte layout of std::complex (interleaved re, im):
// launch::device_value_t of std::complex, CUDA's float2/double2 on the
// device, launch::Complex on the CPU.
#pragma once
#include <complex>

#include "core/kernels/portable.h"
#include "core/launch/launch.hpp"
#include "sparse/kernels/spmv_params.h"  // at file scope: before the passes

namespace tessera::sparse::point {

using complex_float = launch::device_value_t<std::complex<float>>;
using complex_double = launch::device_value_t<std::complex<double>>;

#define TS_COMPLEX 0
#define ts_real float
#define ts_value float
#include "sparse/kernels/spmv_point.h"
#undef ts_real
#undef ts_value
#define ts_real double
#define ts_value double
#include "sparse/kernels/spmv_point.h"
#undef ts_real
#undef ts_value
#undef TS_COMPLEX
#define TS_COMPLEX 1
#define ts_real float
#define ts_value complex_float
#include "sparse/kernels/spmv_point.h"
#undef ts_real
#undef ts_value
#define ts_real double
#define ts_value complex_double
#include "sparse/kernels/spmv_point.h"
#undef ts_real
#undef ts_value
#undef TS_COMPLEX

}  // namespace tessera::sparse::point
