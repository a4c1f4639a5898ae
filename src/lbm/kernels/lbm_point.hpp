// lbm_point.h for C++ and CUDA: every compiled variant of every precision
// (lbm_passes.h), and with_variant(), which gives host code the types and
// point functions of a run-time choice of lattice and storage.
#pragma once
#include <string>

#include "core/error.hpp"
#include "core/kernels/portable.h"  // at file scope, before the passes (guarded)
#include "core/kernels/narrow.h"
#include "lbm/kernels/lbm_params.h"

namespace tessera::lbm::point {
#define TS_POINT_HEADER "lbm/kernels/lbm_passes.h"
#include "core/kernels/each_precision.h"

/// The Variant (lbm_variant.h) of lattice Q and storage bits, for host code.
template <int Q, int Bits>
struct VariantOf;
#define TS_LBM_VARIANT_OF(Q, BITS, NS) \
  template <>                          \
  struct VariantOf<Q, BITS> {          \
    using type = NS::Variant;          \
  };
TS_LBM_VARIANT_OF(9, 16, f32::variant_1009)
TS_LBM_VARIANT_OF(9, 32, f32::variant_9)
TS_LBM_VARIANT_OF(9, 64, f64::variant_9)
TS_LBM_VARIANT_OF(19, 16, f32::variant_1019)
TS_LBM_VARIANT_OF(19, 32, f32::variant_19)
TS_LBM_VARIANT_OF(19, 64, f64::variant_19)
TS_LBM_VARIANT_OF(27, 16, f32::variant_1027)
TS_LBM_VARIANT_OF(27, 32, f32::variant_27)
TS_LBM_VARIANT_OF(27, 64, f64::variant_27)
#undef TS_LBM_VARIANT_OF

/// Calls f(Variant{}) for lattice Q (9, 19, 27) and storage bits (16, 32, 64).
template <class F>
decltype(auto) with_variant(int q, int store_bits, F&& f) {
  const auto bits = [&](auto q_) -> decltype(auto) {
    constexpr int Q = decltype(q_)::value;
    if (store_bits == 16) return f(typename VariantOf<Q, 16>::type{});
    if (store_bits == 32) return f(typename VariantOf<Q, 32>::type{});
    if (store_bits == 64) return f(typename VariantOf<Q, 64>::type{});
    throw Error("lbm: no kernel variant for Q=" + std::to_string(q) + " with " +
                std::to_string(store_bits) + "-bit storage");
  };
  if (q == 9) return bits(std::integral_constant<int, 9>{});
  if (q == 19) return bits(std::integral_constant<int, 19>{});
  if (q == 27) return bits(std::integral_constant<int, 27>{});
  throw Error("lbm: no kernel variant for Q=" + std::to_string(q) + " with " +
              std::to_string(store_bits) + "-bit storage");
}

}  // namespace tessera::lbm::point
