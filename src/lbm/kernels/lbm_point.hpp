// lbm_point.h for C++ and CUDA: one namespace per variant (lattice x storage
// precision), each with a `Variant` struct; with_variant() maps the run-time
// choice to it.
#pragma once
#include <cstring>
#include <string>
#if defined(__CUDACC__)
#include <cuda_fp16.h>
#endif

#include "core/error.hpp"
#include "core/kernels/portable.h"  // before the namespaces: it includes <math.h>

namespace tessera::lbm::point {
namespace q9_s16 {
#define TS_LBM_Q 9
#define TS_LBM_STORE 16
#define ts_real float
#include "lbm/kernels/lbm_variant.inc"
#undef ts_real
#undef TS_LBM_STORE
#undef TS_LBM_Q
}  // namespace q9_s16
namespace q9_s32 {
#define TS_LBM_Q 9
#define TS_LBM_STORE 32
#define ts_real float
#include "lbm/kernels/lbm_variant.inc"
#undef ts_real
#undef TS_LBM_STORE
#undef TS_LBM_Q
}  // namespace q9_s32
namespace q9_s64 {
#define TS_LBM_Q 9
#define TS_LBM_STORE 64
#define ts_real double
#include "lbm/kernels/lbm_variant.inc"
#undef ts_real
#undef TS_LBM_STORE
#undef TS_LBM_Q
}  // namespace q9_s64
namespace q19_s16 {
#define TS_LBM_Q 19
#define TS_LBM_STORE 16
#define ts_real float
#include "lbm/kernels/lbm_variant.inc"
#undef ts_real
#undef TS_LBM_STORE
#undef TS_LBM_Q
}  // namespace q19_s16
namespace q19_s32 {
#define TS_LBM_Q 19
#define TS_LBM_STORE 32
#define ts_real float
#include "lbm/kernels/lbm_variant.inc"
#undef ts_real
#undef TS_LBM_STORE
#undef TS_LBM_Q
}  // namespace q19_s32
namespace q19_s64 {
#define TS_LBM_Q 19
#define TS_LBM_STORE 64
#define ts_real double
#include "lbm/kernels/lbm_variant.inc"
#undef ts_real
#undef TS_LBM_STORE
#undef TS_LBM_Q
}  // namespace q19_s64
namespace q27_s16 {
#define TS_LBM_Q 27
#define TS_LBM_STORE 16
#define ts_real float
#include "lbm/kernels/lbm_variant.inc"
#undef ts_real
#undef TS_LBM_STORE
#undef TS_LBM_Q
}  // namespace q27_s16
namespace q27_s32 {
#define TS_LBM_Q 27
#define TS_LBM_STORE 32
#define ts_real float
#include "lbm/kernels/lbm_variant.inc"
#undef ts_real
#undef TS_LBM_STORE
#undef TS_LBM_Q
}  // namespace q27_s32
namespace q27_s64 {
#define TS_LBM_Q 27
#define TS_LBM_STORE 64
#define ts_real double
#include "lbm/kernels/lbm_variant.inc"
#undef ts_real
#undef TS_LBM_STORE
#undef TS_LBM_Q
}  // namespace q27_s64

/// Calls f(Variant{}) for lattice Q (9, 19, 27) and storage bits (16, 32, 64).
template <class F>
decltype(auto) with_variant(int q, int store_bits, F&& f) {
  switch (q * 100 + store_bits) {
    case 916: return f(q9_s16::Variant{});
    case 932: return f(q9_s32::Variant{});
    case 964: return f(q9_s64::Variant{});
    case 1916: return f(q19_s16::Variant{});
    case 1932: return f(q19_s32::Variant{});
    case 1964: return f(q19_s64::Variant{});
    case 2716: return f(q27_s16::Variant{});
    case 2732: return f(q27_s32::Variant{});
    case 2764: return f(q27_s64::Variant{});
    default: break;
  }
  throw Error("lbm: no kernel variant for Q=" + std::to_string(q) + " with " + std::to_string(store_bits) +
              "-bit storage");
}

}  // namespace tessera::lbm::point
