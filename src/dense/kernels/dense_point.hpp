// dense_point.h for C++ and CUDA: included once per precision, giving float and
// double overloads of every per-point function.
#pragma once
#include <math.h>

namespace tessera::dense::point {
#define ts_real float
#include "dense/kernels/dense_point.h"
#undef ts_real
#define ts_real double
#include "dense/kernels/dense_point.h"
#undef ts_real

/// The per-point function of an element-wise operation, as a callable object
/// (usable on host and device).
template <int Op>
struct ElementwiseFn;
#if defined(__CUDACC__)
#define TS_HD __host__ __device__
#else
#define TS_HD
#endif
#define TS_EW_FN(ID, FN)                                        \
  template <>                                                   \
  struct ElementwiseFn<ID> {                                    \
    template <class T>                                          \
    TS_HD T operator()(T s, T x, T z) const { return FN(s, x, z); } \
  };
TS_EW_FN(0, ts_ew_fill)
TS_EW_FN(1, ts_ew_copy)
TS_EW_FN(2, ts_ew_scale)
TS_EW_FN(3, ts_ew_axpy)
TS_EW_FN(4, ts_ew_add)
TS_EW_FN(5, ts_ew_triad)
#undef TS_EW_FN

template <int Id>
struct TermFn;
template <>
struct TermFn<0> {
  template <class T>
  TS_HD T operator()(T x, T y) const { return ts_term_dot(x, y); }
};
template <>
struct TermFn<1> {
  template <class T>
  TS_HD T operator()(T x, T y) const { return ts_term_sumsq(x, y); }
};
template <>
struct TermFn<2> {
  template <class T>
  TS_HD T operator()(T x, T y) const { return ts_term_value(x, y); }
};

template <int Id>
struct CombineFn;
template <>
struct CombineFn<0> {
  template <class T>
  TS_HD static T identity() { return T(TS_IDENTITY_SUM); }
  template <class T>
  TS_HD T operator()(T a, T b) const { return ts_combine_sum(a, b); }
};
template <>
struct CombineFn<1> {
  template <class T>
  TS_HD static T identity() { return T(TS_IDENTITY_MIN); }
  template <class T>
  TS_HD T operator()(T a, T b) const { return ts_combine_min(a, b); }
};
template <>
struct CombineFn<2> {
  template <class T>
  TS_HD static T identity() { return T(TS_IDENTITY_MAX); }
  template <class T>
  TS_HD T operator()(T a, T b) const { return ts_combine_max(a, b); }
};
#undef TS_HD

}  // namespace tessera::dense::point
