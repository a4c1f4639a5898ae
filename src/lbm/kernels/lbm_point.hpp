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
#include "core/kernels/half.h"      // before the namespaces: shared, guarded
#include "core/kernels/portable.h"  // before the namespaces: it includes <math.h>

namespace tessera::lbm::point {
#include "lbm/kernels/lbm_variants_all.inc"

/// The same variants with 32-bit cell offsets, for lattices with Q * cells < 2^31.
namespace idx32 {
#define TS_LBM_IDX32 1
#include "lbm/kernels/lbm_variants_all.inc"
#undef TS_LBM_IDX32
}  // namespace idx32

/// Calls f(Variant{}) for lattice Q (9, 19, 27) and storage bits (16, 32, 64).
template <class F>
decltype(auto) with_variant(int q, int store_bits, F&& f) {
  switch (q * 100 + store_bits) {
    case 916:
      return f(q9_s16::Variant{});
    case 932:
      return f(q9_s32::Variant{});
    case 964:
      return f(q9_s64::Variant{});
    case 1916:
      return f(q19_s16::Variant{});
    case 1932:
      return f(q19_s32::Variant{});
    case 1964:
      return f(q19_s64::Variant{});
    case 2716:
      return f(q27_s16::Variant{});
    case 2732:
      return f(q27_s32::Variant{});
    case 2764:
      return f(q27_s64::Variant{});
    default:
      break;
  }
  throw Error("lbm: no kernel variant for Q=" + std::to_string(q) + " with " +
              std::to_string(store_bits) + "-bit storage");
}

/// As with_variant, with the 32-bit-offset variants when `small` (kernels::fits_idx32).
template <class F>
decltype(auto) with_variant_idx32(int q, int store_bits, bool small, F&& f) {
  if (!small) return with_variant(q, store_bits, f);
  switch (q * 100 + store_bits) {
    case 916:
      return f(idx32::q9_s16::Variant{});
    case 932:
      return f(idx32::q9_s32::Variant{});
    case 964:
      return f(idx32::q9_s64::Variant{});
    case 1916:
      return f(idx32::q19_s16::Variant{});
    case 1932:
      return f(idx32::q19_s32::Variant{});
    case 1964:
      return f(idx32::q19_s64::Variant{});
    case 2716:
      return f(idx32::q27_s16::Variant{});
    case 2732:
      return f(idx32::q27_s32::Variant{});
    case 2764:
      return f(idx32::q27_s64::Variant{});
    default:
      break;
  }
  return with_variant(q, store_bits, f);  // throws the message
}

}  // namespace tessera::lbm::point
