// Value and index types of the sparse module, and the arithmetic every format's
// reference SpMV shares.
//
// Values: float, double, std::complex<float>, std::complex<double>. Complex
// values are stored interleaved (re, im), i.e. exactly as std::complex lays them
// out, which is also float2/double2 on the GPU.
//
// Indices: every stored index and every stored array position is a 32-bit
// signed integer (index_t), which halves index traffic on the GPU and lets
// kernels use 32-bit arithmetic. Sizes are computed in 64 bits (size64) and
// converted with to_index(), which throws Error instead of wrapping. A format
// therefore guarantees that each of its arrays has at most 2^31-1 elements.
#pragma once
#include <complex>
#include <cstdint>
#include <limits>
#include <string_view>
#include <type_traits>

namespace tessera::sparse {

using index_t = std::int32_t;
using size64 = std::int64_t;

inline constexpr size64 kMaxIndex = std::numeric_limits<index_t>::max();

template <class T>
struct is_complex : std::false_type {};
template <class R>
struct is_complex<std::complex<R>> : std::true_type {};
template <class T>
inline constexpr bool is_complex_v = is_complex<T>::value;

template <class T>
struct real_type {
  using type = T;
};
template <class R>
struct real_type<std::complex<R>> {
  using type = R;
};
template <class T>
using real_t = typename real_type<T>::type;

/// The four value types of the module.
template <class T>
concept Scalar = std::is_same_v<T, float> || std::is_same_v<T, double> ||
    std::is_same_v<T, std::complex<float>> || std::is_same_v<T, std::complex<double>>;

/// Result type of (matrix value T) * (vector value X): complex if either is.
/// Supported pairs: T == X, and a real matrix with a complex vector of the same
/// precision (TRACE's real-matrix x complex-vector case).
template <class T, class X>
using product_t =
    std::conditional_t<is_complex_v<T> || is_complex_v<X>, std::complex<real_t<X>>, X>;

/// Throws Error("<what> (<v>) exceeds the 32-bit index range ...") unless
/// 0 <= v <= 2^31-1.
index_t to_index(size64 v, std::string_view what);

/// a*b for sizes, throwing Error naming `what` instead of overflowing int64.
size64 checked_mul(size64 a, size64 b, std::string_view what);

/// Ceiling division for non-negative sizes.
constexpr size64 ceil_div(size64 a, size64 b) { return (a + b - 1) / b; }

/// acc + a*x with the component formula written out. std::complex's operator*
/// follows C Annex G (NaN recovery through a library call), which is slow and
/// differs from what GPU kernels compute; all reference SpMVs use this instead,
/// so their rounding is the one a kernel doing the same sum order reproduces.
template <class Y, class T, class X>
inline Y madd(Y acc, T a, X x) {
  if constexpr (!is_complex_v<T> && !is_complex_v<X>) {
    return acc + a * x;
  } else if constexpr (!is_complex_v<T>) {
    return Y(acc.real() + a * x.real(), acc.imag() + a * x.imag());
  } else if constexpr (!is_complex_v<X>) {
    return Y(acc.real() + a.real() * x, acc.imag() + a.imag() * x);
  } else {
    return Y(acc.real() + (a.real() * x.real() - a.imag() * x.imag()),
             acc.imag() + (a.real() * x.imag() + a.imag() * x.real()));
  }
}

/// The complex conjugate; the value itself for reals.
template <class T>
inline T conj_value(T v) {
  if constexpr (is_complex_v<T>)
    return std::conj(v);
  else
    return v;
}

/// |v| without overflow concerns (values here are moderate); real part for reals.
template <class T>
inline real_t<T> magnitude(T v) {
  if constexpr (is_complex_v<T>)
    return std::abs(v);
  else
    return v < 0 ? -v : v;
}

}  // namespace tessera::sparse

/// Instantiation lists used by the .cpp files (explicit instantiation keeps the
/// headers light). F(T) for every value type; G(T, X) for every SpMV pair.
#define TESSERA_SPARSE_FOR_EACH_SCALAR(F) \
  F(float) F(double) F(std::complex<float>) F(std::complex<double>)
// The list by hand: clang-format 14 lays it out differently on each pass.
// clang-format off
#define TESSERA_SPARSE_FOR_EACH_SPMV_PAIR(G)                                       \
  G(float, float) G(double, double)                                                \
  G(std::complex<float>, std::complex<float>) G(std::complex<double>, std::complex<double>) \
  G(float, std::complex<float>) G(double, std::complex<double>)
// clang-format on
