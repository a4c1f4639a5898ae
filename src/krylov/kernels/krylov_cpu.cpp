// CPU (OpenMP) Krylov kernels. The item kernels are generated from the
// kernel list (krylov_point.h); the work-group kernels are written here as
// the loops they stand for, following portable.h's canonical chunk order
// exactly (strided accumulators, then the halving tree), so the GPU kernels
// reproduce them bitwise. host:: holds the loops the thesis mode runs on
// plain host pointers too (krylov_host.hpp).
#include <algorithm>
#include <array>
#include <string>

#include "core/launch/launch_cpu.hpp"
#include "krylov/kernels/krylov_host.hpp"
#include "krylov/kernels/krylov_kernels.hpp"

namespace tessera::krylov {

namespace host {

using namespace point;
template <class R, class S>
void dots(int nc, std::size_t n, int k, const S* v, std::size_t ld, const S* w, const R* w2,
          R* partials) {
  const std::size_t nch = kernels::chunks(n);
  const std::size_t set =
      2 * nch * static_cast<std::size_t>(k);  // reals of one right-hand side's partials
  const int two = w2 != nullptr;
  const auto jobs = static_cast<std::ptrdiff_t>(nch * static_cast<std::size_t>(k));
#pragma omp parallel for schedule(static)
  for (std::ptrdiff_t job = 0; job < jobs; ++job) {
    const std::size_t kk = static_cast<std::size_t>(job) / nch,
                      c = static_cast<std::size_t>(job) % nch;
    const S* vk = v + kk * ld;
    std::array<std::array<R, TS_REDUCE_THREADS>, 4> s;  // re, im, re2, im2
    for (std::size_t t = 0; t < TS_REDUCE_THREADS; ++t) {
      R acc[4] = {0, 0, 0, 0};
      for (std::size_t p = 0; p < TS_REDUCE_PER_THREAD; ++p) {
        const std::size_t i = c * TS_REDUCE_CHUNK + p * TS_REDUCE_THREADS + t;
        if (i >= n) break;
        dots_at<R, S>(nc, long(i), vk, w, two, w2, &acc[0], &acc[1], &acc[2], &acc[3]);
      }
      for (int q = 0; q < 4; ++q) s[q][t] = acc[q];
    }
    for (std::size_t h = TS_REDUCE_THREADS / 2; h > 0; h >>= 1)
      for (std::size_t t = 0; t < h; ++t)
        for (int q = 0; q < 4; ++q) s[q][t] = s[q][t] + s[q][t + h];
    const std::size_t at = 2 * static_cast<std::size_t>(job);
    partials[at] = s[0][0];
    partials[at + 1] = s[1][0];
    if (two) {
      partials[set + at] = s[2][0];
      partials[set + at + 1] = s[3][0];
    }
  }
}

template <class R>
void sum_chunks(std::size_t chunks, int count, const R* partials, R* out) {
#pragma omp parallel for schedule(static) if (count > 8)
  for (int q = 0; q < count; ++q) {
    std::array<std::array<R, TS_REDUCE_THREADS>, 2> s;  // re, im
    for (std::size_t t = 0; t < TS_REDUCE_THREADS; ++t) {
      R re = 0, im = 0;
      for (std::size_t c = t; c < chunks; c += TS_REDUCE_THREADS) {
        re = re + partials[2 * (std::size_t(q) * chunks + c)];
        im = im + partials[2 * (std::size_t(q) * chunks + c) + 1];
      }
      s[0][t] = re;
      s[1][t] = im;
    }
    for (std::size_t h = TS_REDUCE_THREADS / 2; h > 0; h >>= 1)
      for (std::size_t t = 0; t < h; ++t)
        for (int r = 0; r < 2; ++r) s[r][t] = s[r][t] + s[r][t + h];
    out[2 * q] = s[0][0];
    out[2 * q + 1] = s[1][0];
  }
}

template <class R>
void combine(int nc, std::size_t n, int k, const R* coef, const R* x, const R* v, std::size_t ld,
             R* y, int k2, const R* coef2, const R* x2, R* y2) {
  const auto nn = static_cast<std::ptrdiff_t>(n);
#pragma omp parallel for schedule(static)
  for (std::ptrdiff_t i = 0; i < nn; ++i)
    ts_kry_combine2_at(nc, long(i), k, coef, x != nullptr, x, v, long(ld), y, y, 0, y2 != nullptr,
                       k2, coef2, x2 != nullptr, x2, y2);
}

template <class R>
void tri_group(int nc, std::size_t count, const int* groups, int group, std::size_t n,
               bool backward, const int* ptr, const int* col, const R* val, const R* inv_d,
               const R* b, R* x) {
  const auto nn = static_cast<std::ptrdiff_t>(count);
#pragma omp parallel for schedule(static) if (count * std::size_t(group) > 4096)
  for (std::ptrdiff_t t = 0; t < nn; ++t) {
    const long r0 = long(groups[t]) * group, r1 = std::min(long(n), r0 + group);
    for (long k = 0; k < r1 - r0; ++k)
      ts_kry_tri_row(nc, backward ? r1 - 1 - k : r0 + k, r0, r1, ptr, col, val, inv_d != nullptr,
                     inv_d, b, x);
  }
}

#define TS_INSTANTIATE(R)                                                                         \
  template void tri_group<R>(int, std::size_t, const int*, int, std::size_t, bool, const int*,    \
                             const int*, const R*, const R*, const R*, R*);                       \
  template void dots<R, R>(int, std::size_t, int, const R*, std::size_t, const R*, const R*, R*); \
  template void dots<R, launch::narrow_t<R>>(int, std::size_t, int, const launch::narrow_t<R>*,   \
                                             std::size_t, const launch::narrow_t<R>*, const R*,   \
                                             R*);                                                 \
  template void sum_chunks<R>(std::size_t, int, const R*, R*);                                    \
  template void combine<R>(int, std::size_t, int, const R*, const R*, const R*, std::size_t, R*,  \
                           int, const R*, const R*, R*);
TS_INSTANTIATE(float)
TS_INSTANTIATE(double)
#undef TS_INSTANTIATE

}  // namespace host

namespace kernels {

using namespace point;
TS_KRYLOV_KERNELS(TS_CPU_KERNEL)

// The work-group kernels, as the loops they stand for, in the order of
// their GPU tiling.

template <class ts_value>
TS_LAUNCHER_SIGNATURE(CpuTag, group, kry_dots) {
  const auto [V, W, W2, P] = launch::device_args(v, w, w2, partials);
  host::dots<ts_value, ts_value>(p.nc, p.n, int(p.k), V, p.ld, W, ts_shape.variant ? W2 : nullptr,
                                 P);
}
TS_INSTANTIATE_LAUNCHER(CpuTag, group, kry_dots)

template <class ts_value>
TS_LAUNCHER_SIGNATURE(CpuTag, group, kry_dots_narrow) {
  const auto [V, W, W2, P] = launch::device_args(v, w, w2, partials);
  host::dots<ts_value, launch::narrow_t<ts_value>>(p.nc, p.n, int(p.k), V, p.ld, W,
                                                   ts_shape.variant ? W2 : nullptr, P);
}
TS_INSTANTIATE_LAUNCHER(CpuTag, group, kry_dots_narrow)

template <class ts_value>
TS_LAUNCHER_SIGNATURE(CpuTag, group, kry_sum_chunks) {
  const auto [P, O] = launch::device_args(partials, out);
  host::sum_chunks<ts_value>(p.nch, int(ts_shape.count), P, O);
}
TS_INSTANTIATE_LAUNCHER(CpuTag, group, kry_sum_chunks)

template <class ts_value>
TS_LAUNCHER_SIGNATURE(CpuTag, group, kry_dcgs2_coef) {
  const auto [S, C] = launch::device_args(sums, coef);
  double st[7];
  ts_kry_dcgs2_coef(p.nc, p.j, S, st, C);
}
TS_INSTANTIATE_LAUNCHER(CpuTag, group, kry_dcgs2_coef)

// The fused update: chunk by chunk, "thread" t taking elements t, t +
// THREADS, ... as dots does, so the products have the bits of dots on the
// updated vector.
template <class ts_value>
TS_LAUNCHER_SIGNATURE(CpuTag, group, kry_update) {
  using R = ts_value;
  const auto [C, X, U, W, Y, X2, U2, W2, Y2, D, Z, E, P] =
      launch::device_args(coef, x, u, w, y, x2, u2, w2, y2, d, z, e, partials);
  const std::size_t nch = p.nch, n = p.n;
#pragma omp parallel for schedule(static)
  for (std::ptrdiff_t cc = 0; cc < static_cast<std::ptrdiff_t>(nch); ++cc) {
    const std::size_t c = static_cast<std::size_t>(cc);
    std::array<std::array<R, TS_REDUCE_THREADS>, 3> s;  // <y,y>, then the second product (re, im)
    for (std::size_t t = 0; t < TS_REDUCE_THREADS; ++t) {
      R dot[3] = {0, 0, 0};
      for (std::size_t q = 0; q < TS_REDUCE_PER_THREAD; ++q) {
        const std::size_t i = c * TS_REDUCE_CHUNK + q * TS_REDUCE_THREADS + t;
        if (i >= n) break;
        ts_kry_update_at(p.nc, long(i), p.flags, C, X, U, W, Y, X2, U2, W2, Y2, D, Z, E, dot);
      }
      for (int r = 0; r < 3; ++r) s[r][t] = dot[r];
    }
    if (p.products == 0) continue;
    for (std::size_t h = TS_REDUCE_THREADS / 2; h > 0; h >>= 1)
      for (std::size_t t = 0; t < h; ++t)
        for (int r = 0; r < 3; ++r) s[r][t] = s[r][t] + s[r][t + h];
    std::size_t q = 0;
    if (p.flags & TS_KRY_UP_NORM) {
      P[2 * c] = s[0][0];
      P[2 * c + 1] = 0;
      ++q;
    }
    if (p.flags & TS_KRY_UP_DOT) {
      P[2 * (q * nch + c)] = s[1][0];
      P[2 * (q * nch + c) + 1] = s[2][0];
    }
  }
}
TS_INSTANTIATE_LAUNCHER(CpuTag, group, kry_update)

// The block kernels' width (their variant), as the GPUs' compiled ones.
static void check_width(const char* kernel, int t) {
  if (t < 1 || t > TS_KRY_BLOCK_MAX)
    throw Error(std::string(kernel) + ": variant " + std::to_string(t) +
                " is not compiled (compiled: 1 to " + std::to_string(TS_KRY_BLOCK_MAX) + ")");
}

// s-step GMRES's block products: one job per (basis vector kk, chunk c),
// the block's t = variant products in dots' order.
template <class ts_value>
TS_LAUNCHER_SIGNATURE(CpuTag, group, kry_dots_block) {
  using R = ts_value;
  const auto [Vb, Yb, P] = launch::device_args(v, y, partials);
  const int t = ts_shape.variant;
  check_width("kry_dots_block", t);
  const std::size_t nch = p.nch, n = p.n, k = p.k, ld = p.ld;
  const auto jobs = static_cast<std::ptrdiff_t>(nch * k);
#pragma omp parallel for schedule(static)
  for (std::ptrdiff_t job = 0; job < jobs; ++job) {
    const std::size_t kk = static_cast<std::size_t>(job) / nch,
                      c = static_cast<std::size_t>(job) % nch;
    std::array<std::array<R, TS_REDUCE_THREADS>, 2 * TS_KRY_BLOCK_MAX> s;
    for (std::size_t th = 0; th < TS_REDUCE_THREADS; ++th) {
      R acc[2 * TS_KRY_BLOCK_MAX] = {};
      for (std::size_t q = 0; q < TS_REDUCE_PER_THREAD; ++q) {
        const std::size_t i = c * TS_REDUCE_CHUNK + q * TS_REDUCE_THREADS + th;
        if (i >= n) break;
        ts_kry_dotsb_element(p.nc, t, long(i), Vb + kk * ld, long(ld), Yb, acc);
      }
      for (int r = 0; r < 2 * t; ++r) s[r][th] = acc[r];
    }
    for (std::size_t h = TS_REDUCE_THREADS / 2; h > 0; h >>= 1)
      for (std::size_t th = 0; th < h; ++th)
        for (int r = 0; r < 2 * t; ++r) s[r][th] = s[r][th] + s[r][th + h];
    for (int r = 0; r < t; ++r) {
      const std::size_t at = 2 * ((std::size_t(r) * k + kk) * nch + c);
      P[at] = s[2 * r][0];
      P[at + 1] = s[2 * r + 1][0];
    }
  }
}
TS_INSTANTIATE_LAUNCHER(CpuTag, group, kry_dots_block)

template <class ts_value>
TS_LAUNCHER_SIGNATURE(CpuTag, group, kry_combine_block) {
  const auto [C, Vb, Yb] = launch::device_args(coef, v, y);
  const int t = ts_shape.variant;
  check_width("kry_combine_block", t);
  const auto nn = static_cast<std::ptrdiff_t>(p.n);
#pragma omp parallel for schedule(static)
  for (std::ptrdiff_t i = 0; i < nn; ++i)
    ts_kry_combb_at(p.nc, t, long(i), int(p.k), C, Vb, Yb, long(p.ld));
}
TS_INSTANTIATE_LAUNCHER(CpuTag, group, kry_combine_block)

template <class ts_value>
TS_LAUNCHER_SIGNATURE(CpuTag, group, kry_tri_group) {
  const auto [G, Pt, Cl, Va, Dv, B, X] = launch::device_args(groups, ptr, col, val, inv_d, b, x);
  host::tri_group<ts_value>(p.nc, ts_shape.count, G, p.group, p.n, p.backward != 0, Pt, Cl, Va,
                            p.has_d ? Dv : nullptr, B, X);
}
TS_INSTANTIATE_LAUNCHER(CpuTag, group, kry_tri_group)

}  // namespace kernels
}  // namespace tessera::krylov
