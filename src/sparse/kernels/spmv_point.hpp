// spmv_point.h for C++ and CUDA: one overload set per value type (float,
// double, complex float, complex double). Complex values are pairs with .x/.y
// members and the byte layout of std::complex (interleaved re, im): CUDA's
// float2/double2 on the device, point::Complex on the CPU.
#pragma once
#include <complex>
#include <type_traits>

#include "core/kernels/portable.h"

namespace tessera::sparse::point {

template <class R>
struct Complex {
  R x, y;
};

#if defined(__CUDACC__)
using complex_float = float2;
using complex_double = double2;
#else
using complex_float = Complex<float>;
using complex_double = Complex<double>;
#endif

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

/// The kernel-side type of a value type of the sparse module.
template <class V>
struct kernel_value {
  using type = V;
};
template <>
struct kernel_value<std::complex<float>> {
  using type = complex_float;
};
template <>
struct kernel_value<std::complex<double>> {
  using type = complex_double;
};
template <class V>
using kernel_value_t = typename kernel_value<V>::type;

static_assert(sizeof(kernel_value_t<std::complex<float>>) == sizeof(std::complex<float>));
static_assert(sizeof(kernel_value_t<std::complex<double>>) == sizeof(std::complex<double>));

/// A buffer's device pointer as kernel values (std::complex has the layout of
/// the pair types, which is what the GPU kernels see too).
template <class V>
const kernel_value_t<V>* values(const void* handle) {
  return static_cast<const kernel_value_t<V>*>(handle);
}
template <class V>
kernel_value_t<V>* values(void* handle) {
  return static_cast<kernel_value_t<V>*>(handle);
}

}  // namespace tessera::sparse::point
