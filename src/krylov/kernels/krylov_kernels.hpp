// The Krylov vector kernels, declared once for every backend from their
// argument lists in krylov_point.h (core/launch/launch.hpp), and the steps
// the solvers run, written once for every backend (Tag: CpuTag, OpenCLTag,
// CudaTag). Backends: krylov_cpu.cpp, krylov_opencl.cpp (+ krylov.cl),
// krylov_cuda.cu.
//
// Arrays hold reals R (float or double); `nc` is 1 for real vectors and 2
// for complex ones (interleaved). Element counts (n) count values; offsets
// and leading dimensions count reals (a launch::In or Out from an offset).
// A basis is a block of vectors ld reals apart, stored as R or, compressed
// (GMRES's narrow basis), as launch::narrow_t<R>: binary16 bits for float,
// float for double; the steps pick the _narrow kernels by its type S.
//
// Summation order of dots (all backends): the canonical chunks of
// portable.h over elements, real and imaginary parts accumulated side by side;
// partials[(k * chunks + c) * 2 + {0,1}] receives chunk c of product k;
// sum_chunks then reduces each product's chunk partials on the device in the
// canonical order again (accumulator t takes chunks t, t + THREADS, ..., then
// the halving tree), so results are bitwise equal across backends and only
// the k sums cross to the host. A second right-hand side w2 (DCGS2's fused
// reduction) is summed in the same order into the next k * chunks pairs, in
// the same pass over the basis; each product has the bits it has without the
// other.
#pragma once
#include <cstddef>
#include <string>
#include <type_traits>

#include "core/error.hpp"
#include "core/launch/launch.hpp"
#include "krylov/kernels/krylov_point.hpp"

namespace tessera::krylov::kernels {

TS_KRYLOV_KERNELS(TS_DECLARE_KERNEL)

using launch::In;
using launch::Out;

inline std::size_t chunks(std::size_t n) { return (n + TS_REDUCE_CHUNK - 1) / TS_REDUCE_CHUNK; }

using launch::in;
using launch::out;

/// The fields every kernel reads: the vectors' values and reals per value.
inline ts_kry_params params(int nc, std::size_t n) {
  ts_kry_params p{};
  p.nc = nc;
  p.n = n;
  p.nch = chunks(n);
  return p;
}

/// The chunk partials of <v_kk, w> for kk < k (v_kk at kk * ld reals from
/// v), and of <v_kk, w2> where w2 is given. S: the basis storage.
template <class Tag, class R, class S>
void dots(Tag tag, Queue& q, int nc, std::size_t n, int k, std::size_t ld, const In<S>& v,
          const In<S>& w, const In<R>& w2, const Out<R>& partials) {
  if (n == 0 || k == 0) return;
  ts_kry_params p = params(nc, n);
  p.k = static_cast<ts_size>(k);
  p.ld = ld;
  const launch::Groups shape(p.nch * p.k, 0, 0, w2.handle ? 1 : 0);
  if constexpr (std::is_same_v<R, S>)
    kry_dots<R>(tag, q, shape, p, v, w, w2, partials);
  else
    kry_dots_narrow<R>(tag, q, shape, p, v, w, w2, partials);
}

/// out[2q + {0,1}] = the canonical sum of partials[2 (q * chunks + c) +
/// {0,1}] over c < chunks(n), for q < count (dots' layout).
template <class Tag, class R>
void sum_chunks(Tag tag, Queue& q, std::size_t n, int count, const In<R>& partials,
                const Out<R>& out) {
  if (count <= 0) return;
  ts_kry_params p = params(1, n);
  kry_sum_chunks<R>(tag, q, static_cast<ts_size>(count), p, partials, out);
}

/// DCGS2's coefficient lists of step j (krylov_dcgs2.h) from the 4 (j + 1)
/// reals at sums, on the device: needs double precision.
template <class Tag, class R>
void dcgs2_coef(Tag tag, Queue& q, int nc, int j, const In<R>& sums, const Out<R>& coef) {
  if (sums.device && !sums.device->info().fp64)
    throw Error("krylov: DCGS2's device coefficients need double precision (" + sums.device->id() +
                ")");
  ts_kry_params p = params(nc, 0);
  p.j = j;
  kry_dcgs2_coef<R>(tag, q, 1, p, sums, coef);
}

/// combine's operands: y = a x + sum_{i < k} c_i v_i with coef = [a, c_0,
/// ...] (nc reals each; x absent: no a term; x may be y itself), and where
/// y2 is given y2 = a2 x2 + sum_{i < k2} c2_i v_i with coef2 = [a2, c2_0,
/// ...], in the same pass. Over a narrow basis (S) v, x2, y2 and y are
/// narrow, or yw, a working vector, takes y's place (the basis widened).
template <class R, class S>
struct Combine {
  In<R> coef, coef2, x;
  In<S> v, x2;
  Out<S> y, y2;
  Out<R> yw;
  int k = 0, k2 = 0;
  std::size_t ld = 0;
};

template <class Tag, class R, class S>
void combine(Tag tag, Queue& q, int nc, std::size_t n, const Combine<R, S>& o) {
  if (n == 0) return;
  ts_kry_params p = params(nc, n);
  p.k = static_cast<ts_size>(o.k);
  p.ld = o.ld;
  p.k2 = o.k2;
  p.two = o.y2.handle != nullptr;
  p.has_x = o.x.handle != nullptr;
  p.has_x2 = o.x2.handle != nullptr;
  p.y_real = o.yw.handle != nullptr;
  if constexpr (std::is_same_v<R, S>)
    kry_combine<R>(tag, q, n, p, o.coef, o.coef2, o.x, o.v, o.y, o.x2, o.y2);
  else
    kry_combine_narrow<R>(tag, q, n, p, o.coef, o.coef2, o.x, o.v, o.y, o.yw, o.x2, o.y2);
}

/// The operands of update (krylov_point.h's ts_kry_update_at, the fused
/// steps of CG and BiCGStab): whole vectors of n values, absent where not
/// given. y = a x + b u + c w; y2 = a2 x2 + b2 u2 + c2 w2; z = d y;
/// products <y, y> (norm), then, with dot, <y, z> (z given) or <e, y>.
template <class R>
struct Update {
  In<R> x, u, w, x2, u2, w2, d, e;
  Out<R> y, y2, z;
  bool norm = false;
  bool dot = false;

  unsigned flags() const {
    auto has = [](const auto& a) { return a.handle != nullptr; };
    unsigned f =
        (has(x) ? TS_KRY_UP_X : 0u) | (has(u) ? TS_KRY_UP_U : 0u) | (has(w) ? TS_KRY_UP_W : 0u);
    if (has(y2))
      f |= TS_KRY_UP_Y2 | (has(x2) ? TS_KRY_UP_X2 : 0u) | (has(u2) ? TS_KRY_UP_U2 : 0u) |
           (has(w2) ? TS_KRY_UP_W2 : 0u);
    if (has(z))
      f |= TS_KRY_UP_Z;
    else if (has(e))
      f |= TS_KRY_UP_E;
    return f | (norm ? TS_KRY_UP_NORM : 0u) | (dot ? TS_KRY_UP_DOT : 0u);
  }
  /// the products formed, in the order of the partials
  int products() const { return (norm ? 1 : 0) + (dot ? 1 : 0); }
};

/// The fused update with coef = [a, b, c, a2, b2, c2] (nc reals each); its
/// products' chunk partials in dots' layout (product q of op.products()).
template <class Tag, class R>
void update(Tag tag, Queue& q, int nc, std::size_t n, const In<R>& coef, const Update<R>& op,
            const Out<R>& partials) {
  if (n == 0) return;
  ts_kry_params p = params(nc, n);
  p.flags = op.flags();
  p.products = op.products();
  kry_update<R>(tag, q, p.nch, p, coef, op.x, op.u, op.w, op.y, op.x2, op.u2, op.w2, op.y2, op.d,
                op.z, op.e, partials);
}

/// s-step GMRES's block products: the chunk partials of <v_i, y_r> for
/// i < k, r < t (t <= TS_KRY_BLOCK_MAX; ld reals apart), product r k + i in
/// dots' layout; each has the bits of dots against y_r alone.
template <class Tag, class R>
void dots_block(Tag tag, Queue& q, int nc, std::size_t n, int k, int t, std::size_t ld,
                const In<R>& v, const In<R>& y, const Out<R>& partials) {
  if (n == 0 || k == 0 || t == 0) return;
  ts_kry_params p = params(nc, n);
  p.k = static_cast<ts_size>(k);
  p.ld = ld;
  kry_dots_block<R>(tag, q, {p.nch * p.k, 0, 0, t}, p, v, y, partials);
}

/// The block combination in place (ts_kry_combb_at): y_r = sum_l a_{r,l} y_l
/// + sum_i c_{r,i} v_i for r < t, output r's list [a_{r,0..t-1},
/// c_{r,0..k-1}] at coef + r (t + k) nc.
template <class Tag, class R>
void combine_block(Tag tag, Queue& q, int nc, std::size_t n, int t, int k, std::size_t ld,
                   const In<R>& coef, const In<R>& v, const Out<R>& y) {
  if (n == 0 || t == 0) return;
  ts_kry_params p = params(nc, n);
  p.k = static_cast<ts_size>(k);
  p.ld = ld;
  const ts_size groups = (n + TS_KRY_ITEM_GROUP - 1) / TS_KRY_ITEM_GROUP;
  kry_combine_block<R>(tag, q, {groups, 0, 0, t}, p, coef, v, y);
}

/// y = blockdiag(D) x, blocks bs x bs row-major (nc reals per entry), n a
/// multiple of bs.
template <class Tag, class R>
void block_diag(Tag tag, Queue& q, int nc, std::size_t n, int bs, const In<R>& d, const In<R>& x,
                const Out<R>& y) {
  ts_kry_params p = params(nc, n);
  p.bs = bs;
  kry_block_diag<R>(tag, q, n, p, d, x, y);
}

/// One level of a triangular solve by single rows: the `count` rows `rows`
/// (int32), one work-item each, x_i = (b_i - sum_j T_ij x_j) * inv_d_i with
/// the terms in stored order; every row's columns must lie outside the
/// level (a colour of multicolour Gauss-Seidel, T without its diagonal).
template <class Tag, class R>
void tri_rows(Tag tag, Queue& q, int nc, std::size_t count, std::size_t n, const In<int>& rows,
              const In<int>& ptr, const In<int>& col, const In<R>& val, const In<R>& inv_d,
              const In<R>& b, const Out<R>& x) {
  if (count == 0) return;
  ts_kry_params p = params(nc, n);
  p.has_d = inv_d.handle != nullptr;
  kry_tri_rows<R>(tag, q, count, p, rows, ptr, col, val, inv_d, b, x);
}

/// One level of a grouped triangular solve: the `count` groups `groups`
/// (int32) of `group` consecutive rows (the last may be shorter: rows < n),
/// each group's rows in order (backward: descending): x_i = (b_i - sum_j
/// T_ij x_j) * inv_d_i (inv_d absent: unit diagonal); ptr/col int32 CSR of
/// the off-diagonal part, val nc reals per entry. Groups of one level are
/// independent (ILU(0)).
template <class Tag, class R>
void tri_group(Tag tag, Queue& q, int nc, std::size_t count, int group, std::size_t n,
               bool backward, const In<int>& groups, const In<int>& ptr, const In<int>& col,
               const In<R>& val, const In<R>& inv_d, const In<R>& b, const Out<R>& x) {
  if (count == 0) return;
  ts_kry_params p = params(nc, n);
  p.group = group;
  p.backward = backward ? 1 : 0;
  p.has_d = inv_d.handle != nullptr;
  kry_tri_group<R>(tag, q, count, p, groups, ptr, col, val, inv_d, b, x);
}

}  // namespace tessera::krylov::kernels
