// krylov_point.h and krylov_dcgs2.h for C++ and CUDA: one overload set per
// precision (core/kernels/each_precision.h), each with the functions over
// a basis of ts_real and, named with _narrow, over a narrow one.
#pragma once
#include <math.h>

#include <type_traits>

#include "core/kernels/narrow.h"  // at file scope: before the passes
#include "core/kernels/portable.h"
#include "core/launch/launch.hpp"
#include "krylov/kernels/krylov_params.h"

namespace tessera::krylov::point {
#define TS_POINT_HEADER "krylov/kernels/krylov_point.h"
#define TS_POINT_HEADER2 "krylov/kernels/krylov_dcgs2.h"
#include "core/kernels/each_precision.h"

/// The basis kernels' element functions for arithmetic R and basis storage
/// S (S = R, or launch::narrow_t<R>: the _narrow functions).
template <class R, class S>
TS_FN void dots_at(int nc, long i, const S* v, const S* w, int two, const R* w2, R* re, R* im,
                   R* re2, R* im2) {
  if constexpr (std::is_same_v<R, S>)
    ts_kry_dots_at(nc, i, v, w, two, w2, re, im, re2, im2);
  else
    ts_kry_dots_at_narrow(nc, i, v, w, two, w2, re, im, re2, im2);
}
}  // namespace tessera::krylov::point
