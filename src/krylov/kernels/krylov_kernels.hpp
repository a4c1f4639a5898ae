// The Krylov vector kernels, declared once for every backend (CpuTag,
// OpenCLTag, CudaTag). Definitions: krylov_cpu.cpp, krylov_opencl.cpp
// (+ krylov.cl), krylov_cuda.cu; the mathematics is krylov_point.h.
//
// Buffers are passed as handles of arrays of R (float or double); `nc` is 1
// for real vectors and 2 for complex ones (interleaved). Element counts (n)
// count values; offsets and leading dimensions count reals. Vector k of a
// basis starts at real offset v_off + k * ld.
//
// Summation order of dots (all backends): the canonical chunks of
// portable.h over elements, real and imaginary parts accumulated side by side;
// partials[(k * chunks + c) * 2 + {0,1}] receives chunk c of product k;
// sum_chunks then reduces each product's chunk partials on the device in the
// canonical order again (accumulator t takes chunks t, t + THREADS, ..., then
// the halving tree), so results are bitwise equal across backends and only
// the k sums cross to the host. A second right-hand side w2 (DCGS2's fused reduction) is
// summed in the same order into the next k * chunks pairs, in the same pass
// over the basis; each product has the bits it has without the other.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

#include "core/buffer.hpp"
#include "core/dispatch.hpp"
#include "core/error.hpp"
#include "core/kernels/portable.h"
#include "krylov/kernels/krylov_constants.h"

namespace tessera::krylov::kernels {

// Compressed basis (`compressed`, GMRES's lower-precision basis): the basis
// operands v, w (dots), x2, y2 and y (combine, unless y_real) are stored as
// point::compressed_t<R> (half bits for float, float for double), one per
// real, offsets counted in them; w2 (dots) and x (combine) stay R.

/// combine's optional second output y2 = a2 x2 + sum_{i < k} c2_i v_i over the
/// first k basis vectors of the first output's basis, formed in the same pass
/// (coefficients [a2, c2_0, ...] at coef_off of the first output's coefficient
/// buffer). y == nullptr: none.
struct SecondOutput {
  void* y = nullptr;
  std::size_t y_off = 0;
  int k = 0;
  std::size_t coef_off = 0;
  const void* x = nullptr;
  std::size_t x_off = 0;
};

/// The storage of a compressed basis for arithmetic type R: half bits for
/// float, float for double.
template <class R>
using compressed_t = std::conditional_t<std::is_same_v<R, float>, std::uint16_t, float>;

/// The operands of update (krylov_point.h's ts_kry_update_at, the fused
/// steps of CG and BiCGStab): handles of whole vectors of n values, null
/// where absent. y = a x + b u + c w; y2 = a2 x2 + b2 u2 + c2 w2; z = d y;
/// products <y, y> (norm), then, with dot, <y, z> (z given) or <e, y>.
struct UpdateOperands {
  const void* x = nullptr;
  const void* u = nullptr;
  const void* w = nullptr;
  void* y = nullptr;
  const void* x2 = nullptr;
  const void* u2 = nullptr;
  const void* w2 = nullptr;
  void* y2 = nullptr;
  const void* d = nullptr;
  void* z = nullptr;
  const void* e = nullptr;
  bool norm = false;
  bool dot = false;

  unsigned flags() const {
    unsigned f = (x ? TS_KRY_UP_X : 0u) | (u ? TS_KRY_UP_U : 0u) | (w ? TS_KRY_UP_W : 0u);
    if (y2)
      f |= TS_KRY_UP_Y2 | (x2 ? TS_KRY_UP_X2 : 0u) | (u2 ? TS_KRY_UP_U2 : 0u) |
           (w2 ? TS_KRY_UP_W2 : 0u);
    if (z)
      f |= TS_KRY_UP_Z;
    else if (e)
      f |= TS_KRY_UP_E;
    return f | (norm ? TS_KRY_UP_NORM : 0u) | (dot ? TS_KRY_UP_DOT : 0u);
  }
  /// the products formed, in the order of the partials
  int products() const { return (norm ? 1 : 0) + (dot ? 1 : 0); }
};

inline std::size_t chunks(std::size_t n) { return (n + TS_REDUCE_CHUNK - 1) / TS_REDUCE_CHUNK; }

#define TS_KRYLOV_DECLARE(Tag)                                                                         \
  template <class R>                                                                                   \
  void dots(Tag, Device& dev, int nc, std::size_t n, int k, const void* v, std::size_t v_off,          \
            std::size_t ld, const void* w, std::size_t w_off, const void* w2, std::size_t w2_off,      \
            void* partials, bool compressed = false);                                                  \
  /* out[2q + {0,1}] = the canonical sum of partials[2 (q * chunks + c) + {0,1}] over */               \
  /* c < chunks, for q < count (dots' layout; a second right-hand side's products follow). */          \
  template <class R>                                                                                   \
  void sum_chunks(Tag, Device& dev, std::size_t chunks, int count, const void* partials,               \
                  void* out);                                                                          \
  /* DCGS2's coefficient lists of step j (krylov_dcgs2.h) from the 4 (j + 1) reals at */               \
  /* sums + sums_off, to coef + coef_off, on the device: needs double (fp64). */                       \
  template <class R>                                                                                   \
  void dcgs2_coef(Tag, Device& dev, int nc, int j, const void* sums, std::size_t sums_off,             \
                  void* coef, std::size_t coef_off);                                                   \
  /* y = a*x + sum_k c_k v_k with coef + coef_off = [a, c_0, ..., c_{k-1}] (nc reals each); */         \
  /* x may be null (then a is ignored) and may be y itself; second: see SecondOutput. */               \
  template <class R>                                                                                   \
  void combine(Tag, Device& dev, int nc, std::size_t n, int k, const void* coef,                       \
               std::size_t coef_off, const void* x, std::size_t x_off, const void* v,                  \
               std::size_t v_off, std::size_t ld, void* y, std::size_t y_off,                          \
               const SecondOutput& second, bool compressed = false, bool y_real = false);              \
  /* The fused update (UpdateOperands) with coef + coef_off = [a, b, c, a2, b2, c2] (nc reals */       \
  /* each); its products' chunk partials in dots' layout (product q of op.products()). */              \
  template <class R>                                                                                   \
  void update(Tag, Device& dev, int nc, std::size_t n, const void* coef, std::size_t coef_off,         \
              const UpdateOperands& op, void* partials);                                               \
  /* s-step GMRES's block products: the chunk partials of <v_i, y_r> for i < k, r < t */               \
  /* (t <= TS_KRY_BLOCK_MAX; v_i at v_off + i ld, y_r at y_off + r ld), product r k + i in dots' */    \
  /* layout; each has the bits of dots against y_r alone. */                                           \
  template <class R>                                                                                   \
  void dots_block(Tag, Device& dev, int nc, std::size_t n, int k, const void* v,                       \
                  std::size_t v_off, int t, const void* y, std::size_t y_off, std::size_t ld,          \
                  void* partials);                                                                     \
  /* The block combination in place (ts_kry_combb_at): y_r = sum_l a_{r,l} y_l + sum_i c_{r,i} */      \
  /* v_i for r < t, output r's list [a_{r,0..t-1}, c_{r,0..k-1}] at coef + coef_off + r (t + k) nc. */ \
  template <class R>                                                                                   \
  void combine_block(Tag, Device& dev, int nc, std::size_t n, int t, const void* coef,                 \
                     std::size_t coef_off, int k, const void* v, std::size_t v_off, void* y,           \
                     std::size_t y_off, std::size_t ld);                                               \
  /* y = blockdiag(D) x, blocks bs x bs row-major (nc reals per entry), n a multiple of bs. */         \
  template <class R>                                                                                   \
  void block_diag(Tag, Device& dev, int nc, std::size_t n, int bs, const void* d, const void* x,       \
                  void* y);                                                                            \
  /* One level of a grouped triangular solve: the `count` groups groups[groups_off + t] (int32) */     \
  /* of `group` consecutive rows (the last may be shorter: rows < n), each group's rows in order */    \
  /* (backward: descending): x_i = (b_i - sum_j T_ij x_j) * inv_d_i (inv_d null: unit diagonal); */    \
  /* ptr/col int32 CSR of the off-diagonal part, val nc reals per entry. Groups of one level are */    \
  /* independent (ILU(0)). */                                                                          \
  template <class R>                                                                                   \
  void tri_group(Tag, Device& dev, int nc, std::size_t count, const void* groups,                      \
                 std::size_t groups_off, int group, std::size_t n, bool backward, const void* ptr,     \
                 const void* col, const void* val, const void* inv_d, const void* b, void* x);

TS_KRYLOV_DECLARE(CpuTag)
TS_KRYLOV_DECLARE(OpenCLTag)
TS_KRYLOV_DECLARE(CudaTag)
#undef TS_KRYLOV_DECLARE

}  // namespace tessera::krylov::kernels
