// krylov_point.h for C++ and CUDA: included once per precision (float and
// double overloads of every per-point function), and once more per precision
// with a compressed basis (namespace compressed: half bits for float, float
// for double; only the basis kernels). Overloads differ in their pointer
// types, so unqualified calls pick the variant the operands' types ask for.
#pragma once
#include <math.h>

#include <type_traits>

#include "core/kernels/half.h"  // before the namespaces: shared, guarded
#include "krylov/kernels/krylov_kernels.hpp"

namespace tessera::krylov::point {
#define ts_real float
#define ts_vstore float
#include "krylov/kernels/krylov_point.h"
#include "krylov/kernels/krylov_dcgs2.h"
#undef ts_vstore
#undef ts_real
#define ts_real double
#define ts_vstore double
#include "krylov/kernels/krylov_point.h"
#include "krylov/kernels/krylov_dcgs2.h"
#undef ts_vstore
#undef ts_real

namespace compressed {
#define TS_KRY_COMPRESSED 1
#define TS_KRY_HALF 1
#define ts_real float
#define ts_vstore unsigned short
#include "krylov/kernels/krylov_point.h"
#undef ts_vstore
#undef ts_real
#undef TS_KRY_HALF
#define ts_real double
#define ts_vstore float
#include "krylov/kernels/krylov_point.h"
#undef ts_vstore
#undef ts_real
#undef TS_KRY_COMPRESSED
}  // namespace compressed

/// The storage of a compressed basis for arithmetic type R: half bits for
/// float, float for double.
template <class R>
using compressed_t = kernels::compressed_t<R>;

/// Calls f(S{}) with the basis storage type S: R, or the compressed one (the
/// launchers' choice of kernel instance).
template <class R, class F>
void with_storage(bool compressed, F&& f) {
  if (compressed)
    f(compressed_t<R>{});
  else
    f(R{});
}

/// The basis kernels' element functions for arithmetic R and basis storage S
/// (S = R: full precision; S = compressed_t<R>: compressed).
template <class R, class S>
TS_FN void dots_at(int nc, long i, const S* v, const S* w, int two, const R* w2, R* re, R* im,
                   R* re2, R* im2) {
  if constexpr (std::is_same_v<R, S>)
    ts_kry_dots_at(nc, i, v, w, two, w2, re, im, re2, im2);
  else
    compressed::ts_kry_dots_at(nc, i, v, w, two, w2, re, im, re2, im2);
}
#if defined(__CUDACC__)
template <class R, class S>
TS_FN void dots_group(int nc, unsigned long n, unsigned long c, unsigned long job,
                      unsigned long set, unsigned t, const S* vk, const S* w, int two, const R* w2,
                      R* s, R* partials) {
  if constexpr (std::is_same_v<R, S>)
    ts_kry_dots_group(nc, n, c, job, set, t, vk, w, two, w2, s, partials);
  else
    compressed::ts_kry_dots_group(nc, n, c, job, set, t, vk, w, two, w2, s, partials);
}
#endif
template <class R, class S>
TS_FN void combine2_at(int nc, long i, int k, const R* coef, int has_x, const R* x, const S* v,
                       long ld, S* y, int y_real, int two, int k2, const R* coef2, int has_x2,
                       const S* x2, S* y2) {
  if constexpr (std::is_same_v<R, S>)
    ts_kry_combine2_at(nc, i, k, coef, has_x, x, v, ld, y, y_real, two, k2, coef2, has_x2, x2, y2);
  else
    compressed::ts_kry_combine2_at(nc, i, k, coef, has_x, x, v, ld, y, y_real, two, k2, coef2,
                                   has_x2, x2, y2);
}
}  // namespace tessera::krylov::point
