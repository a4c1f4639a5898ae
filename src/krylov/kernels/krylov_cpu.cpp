// CPU (OpenMP) Krylov kernels. The dots follow portable.h's canonical chunk
// order exactly (strided accumulators, then the halving tree), so the GPU
// kernels reproduce them bitwise.
#include <algorithm>
#include <array>

#include "backends/cpu/cpu_device.hpp"
#include "krylov/kernels/krylov_host.hpp"
#include "krylov/kernels/krylov_kernels.hpp"
#include "krylov/kernels/krylov_point.hpp"

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
void dots_block(int nc, std::size_t n, int k, const R* v, int t, const R* y, std::size_t ld,
                R* partials) {
  const std::size_t nch = kernels::chunks(n);
  const auto jobs = static_cast<std::ptrdiff_t>(nch * static_cast<std::size_t>(k));
#pragma omp parallel for schedule(static)
  for (std::ptrdiff_t job = 0; job < jobs; ++job) {
    const std::size_t kk = static_cast<std::size_t>(job) / nch,
                      c = static_cast<std::size_t>(job) % nch;
    std::array<std::array<R, TS_REDUCE_THREADS>, 2 * TS_KRY_BLOCK_MAX> s;
    for (std::size_t th = 0; th < TS_REDUCE_THREADS; ++th) {
      R acc[2 * TS_KRY_BLOCK_MAX] = {};
      for (std::size_t p = 0; p < TS_REDUCE_PER_THREAD; ++p) {
        const std::size_t i = c * TS_REDUCE_CHUNK + p * TS_REDUCE_THREADS + th;
        if (i >= n) break;
        ts_kry_dotsb_element(nc, t, long(i), v + kk * ld, long(ld), y, acc);
      }
      for (int q = 0; q < 2 * t; ++q) s[q][th] = acc[q];
    }
    for (std::size_t h = TS_REDUCE_THREADS / 2; h > 0; h >>= 1)
      for (std::size_t th = 0; th < h; ++th)
        for (int q = 0; q < 2 * t; ++q) s[q][th] = s[q][th] + s[q][th + h];
    for (int r = 0; r < t; ++r) {
      const std::size_t at = 2 * ((std::size_t(r) * std::size_t(k) + kk) * nch + c);
      partials[at] = s[2 * r][0];
      partials[at + 1] = s[2 * r + 1][0];
    }
  }
}

template <class R>
void combine_block(int nc, std::size_t n, int t, const R* coef, int k, const R* v, R* y,
                   std::size_t ld) {
  const auto nn = static_cast<std::ptrdiff_t>(n);
#pragma omp parallel for schedule(static)
  for (std::ptrdiff_t i = 0; i < nn; ++i) ts_kry_combb_at(nc, t, long(i), k, coef, v, y, long(ld));
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

template <class R, class S>
void combine(int nc, std::size_t n, int k, const R* coef, const R* x, const S* v, std::size_t ld,
             S* y, int y_real, int k2, const R* coef2, const S* x2, S* y2) {
  const auto nn = static_cast<std::ptrdiff_t>(n);
#pragma omp parallel for schedule(static)
  for (std::ptrdiff_t i = 0; i < nn; ++i)
    combine2_at<R, S>(nc, long(i), k, coef, x != nullptr, x, v, long(ld), y, y_real, y2 != nullptr,
                      k2, coef2, x2 != nullptr, x2, y2);
}

// The fused update (krylov_kernels.hpp's UpdateOperands, pointers typed):
// chunk by chunk, "thread" t taking elements t, t + THREADS, ... as dots does,
// so the products have the bits of dots on the updated vector.
template <class R>
void update(int nc, std::size_t n, const R* coef, const kernels::UpdateOperands& op, R* partials) {
  const unsigned f = op.flags();
  const int products = op.products();
  const std::size_t nch = kernels::chunks(n);
  auto in = [](const void* h) { return static_cast<const R*>(h); };
  auto out = [](void* h) { return static_cast<R*>(h); };
#pragma omp parallel for schedule(static)
  for (std::ptrdiff_t cc = 0; cc < static_cast<std::ptrdiff_t>(nch); ++cc) {
    const std::size_t c = static_cast<std::size_t>(cc);
    std::array<std::array<R, TS_REDUCE_THREADS>, 3> s;  // <y,y>, then the second product (re, im)
    for (std::size_t t = 0; t < TS_REDUCE_THREADS; ++t) {
      R dot[3] = {0, 0, 0};
      for (std::size_t p = 0; p < TS_REDUCE_PER_THREAD; ++p) {
        const std::size_t i = c * TS_REDUCE_CHUNK + p * TS_REDUCE_THREADS + t;
        if (i >= n) break;
        ts_kry_update_at(nc, long(i), f, coef, in(op.x), in(op.u), in(op.w), out(op.y), in(op.x2),
                         in(op.u2), in(op.w2), out(op.y2), in(op.d), out(op.z), in(op.e), dot);
      }
      for (int q = 0; q < 3; ++q) s[q][t] = dot[q];
    }
    if (products == 0) continue;
    for (std::size_t h = TS_REDUCE_THREADS / 2; h > 0; h >>= 1)
      for (std::size_t t = 0; t < h; ++t)
        for (int q = 0; q < 3; ++q) s[q][t] = s[q][t] + s[q][t + h];
    std::size_t q = 0;
    if (op.norm) {
      partials[2 * c] = s[0][0];
      partials[2 * c + 1] = 0;
      ++q;
    }
    if (op.dot) {
      partials[2 * (q * nch + c)] = s[1][0];
      partials[2 * (q * nch + c) + 1] = s[2][0];
    }
  }
}

template <class R>
void block_diag(int nc, std::size_t n, int bs, const R* d, const R* x, R* y) {
  const auto nn = static_cast<std::ptrdiff_t>(n);
#pragma omp parallel for schedule(static)
  for (std::ptrdiff_t i = 0; i < nn; ++i) ts_kry_block_diag_at(nc, long(i), bs, d, x, y);
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

#define TS_INSTANTIATE(R)                                                                          \
  template void tri_group<R>(int, std::size_t, const int*, int, std::size_t, bool, const int*,     \
                             const int*, const R*, const R*, const R*, R*);                        \
  template void dots<R, R>(int, std::size_t, int, const R*, std::size_t, const R*, const R*, R*);  \
  template void dots<R, point::compressed_t<R>>(int, std::size_t, int,                             \
                                                const point::compressed_t<R>*, std::size_t,        \
                                                const point::compressed_t<R>*, const R*, R*);      \
  template void sum_chunks<R>(std::size_t, int, const R*, R*);                                     \
  template void dots_block<R>(int, std::size_t, int, const R*, int, const R*, std::size_t, R*);    \
  template void combine_block<R>(int, std::size_t, int, const R*, int, const R*, R*, std::size_t); \
  template void combine<R, R>(int, std::size_t, int, const R*, const R*, const R*, std::size_t,    \
                              R*, int, int, const R*, const R*, R*);                               \
  template void combine<R, point::compressed_t<R>>(                                                \
      int, std::size_t, int, const R*, const R*, const point::compressed_t<R>*, std::size_t,       \
      point::compressed_t<R>*, int, int, const R*, const point::compressed_t<R>*,                  \
      point::compressed_t<R>*);                                                                    \
  template void block_diag<R>(int, std::size_t, int, const R*, const R*, R*);                      \
  template void update<R>(int, std::size_t, const R*, const kernels::UpdateOperands&, R*);
TS_INSTANTIATE(float)
TS_INSTANTIATE(double)
#undef TS_INSTANTIATE

}  // namespace host

namespace kernels {

template <class R>
const R* at(const void* h, std::size_t off) {
  return h ? cpu::ptr<R>(const_cast<void*>(h)) + off : nullptr;
}

template <class R>
void dots(CpuTag, Device&, int nc, std::size_t n, int k, const void* v, std::size_t v_off,
          std::size_t ld, const void* w, std::size_t w_off, const void* w2, std::size_t w2_off,
          void* partials, bool compressed) {
  point::with_storage<R>(compressed, [&](auto s) {
    using S = decltype(s);
    host::dots<R, S>(nc, n, k, at<S>(v, v_off), ld, at<S>(w, w_off), at<R>(w2, w2_off),
                     cpu::ptr<R>(partials));
  });
}

template <class R>
void dots_block(CpuTag, Device&, int nc, std::size_t n, int k, const void* v, std::size_t v_off,
                int t, const void* y, std::size_t y_off, std::size_t ld, void* partials) {
  if (n == 0 || k == 0 || t == 0) return;
  host::dots_block<R>(nc, n, k, at<R>(v, v_off), t, at<R>(y, y_off), ld, cpu::ptr<R>(partials));
}

template <class R>
void combine_block(CpuTag, Device&, int nc, std::size_t n, int t, const void* coef,
                   std::size_t coef_off, int k, const void* v, std::size_t v_off, void* y,
                   std::size_t y_off, std::size_t ld) {
  if (n == 0 || t == 0) return;
  host::combine_block<R>(nc, n, t, at<R>(coef, coef_off), k, at<R>(v, v_off),
                         cpu::ptr<R>(y) + y_off, ld);
}

template <class R>
void sum_chunks(CpuTag, Device&, std::size_t chunks, int count, const void* partials, void* out) {
  host::sum_chunks<R>(chunks, count, at<R>(partials, 0), cpu::ptr<R>(out));
}

template <class R>
void dcgs2_coef(CpuTag, Device&, int nc, int j, const void* sums, std::size_t sums_off, void* coef,
                std::size_t coef_off) {
  double st[7];
  point::ts_kry_dcgs2_coef(nc, j, at<R>(sums, sums_off), st, cpu::ptr<R>(coef) + coef_off);
}

template <class R>
void combine(CpuTag, Device&, int nc, std::size_t n, int k, const void* coef, std::size_t coef_off,
             const void* x, std::size_t x_off, const void* v, std::size_t v_off, std::size_t ld,
             void* y, std::size_t y_off, const SecondOutput& second, bool compressed, bool y_real) {
  point::with_storage<R>(compressed, [&](auto s) {
    using S = decltype(s);
    S* yp = y_real ? reinterpret_cast<S*>(cpu::ptr<R>(y) + y_off) : cpu::ptr<S>(y) + y_off;
    S* y2 = second.y ? cpu::ptr<S>(second.y) + second.y_off : nullptr;
    host::combine<R, S>(nc, n, k, at<R>(coef, coef_off), at<R>(x, x_off), at<S>(v, v_off), ld, yp,
                        y_real, second.k, at<R>(coef, second.coef_off),
                        at<S>(second.x, second.x_off), y2);
  });
}

template <class R>
void update(CpuTag, Device&, int nc, std::size_t n, const void* coef, std::size_t coef_off,
            const UpdateOperands& op, void* partials) {
  // CPU handles are host pointers: typed views of the same operands
  UpdateOperands h = op;
  auto view = [](const void* p) -> const void* {
    return p ? cpu::ptr<R>(const_cast<void*>(p)) : nullptr;
  };
  auto mut = [](void* p) -> void* { return p ? cpu::ptr<R>(p) : nullptr; };
  h.x = view(op.x), h.u = view(op.u), h.w = view(op.w), h.y = mut(op.y);
  h.x2 = view(op.x2), h.u2 = view(op.u2), h.w2 = view(op.w2), h.y2 = mut(op.y2);
  h.d = view(op.d), h.z = mut(op.z), h.e = view(op.e);
  host::update<R>(nc, n, at<R>(coef, coef_off), h, partials ? cpu::ptr<R>(partials) : nullptr);
}

template <class R>
void block_diag(CpuTag, Device&, int nc, std::size_t n, int bs, const void* d, const void* x,
                void* y) {
  host::block_diag<R>(nc, n, bs, at<R>(d, 0), at<R>(x, 0), cpu::ptr<R>(y));
}

template <class R>
void tri_group(CpuTag, Device&, int nc, std::size_t count, const void* groups,
               std::size_t groups_off, int group, std::size_t n, bool backward, const void* ptr,
               const void* col, const void* val, const void* inv_d, const void* b, void* x) {
  host::tri_group<R>(nc, count, at<int>(groups, groups_off), group, n, backward, at<int>(ptr, 0),
                     at<int>(col, 0), at<R>(val, 0), at<R>(inv_d, 0), at<R>(b, 0), cpu::ptr<R>(x));
}

#define TS_INSTANTIATE(R)                                                                          \
  template void tri_group<R>(CpuTag, Device&, int, std::size_t, const void*, std::size_t, int,     \
                             std::size_t, bool, const void*, const void*, const void*,             \
                             const void*, const void*, void*);                                     \
  template void dots<R>(CpuTag, Device&, int, std::size_t, int, const void*, std::size_t,          \
                        std::size_t, const void*, std::size_t, const void*, std::size_t, void*,    \
                        bool);                                                                     \
  template void sum_chunks<R>(CpuTag, Device&, std::size_t, int, const void*, void*);              \
  template void dots_block<R>(CpuTag, Device&, int, std::size_t, int, const void*, std::size_t,    \
                              int, const void*, std::size_t, std::size_t, void*);                  \
  template void combine_block<R>(CpuTag, Device&, int, std::size_t, int, const void*, std::size_t, \
                                 int, const void*, std::size_t, void*, std::size_t, std::size_t);  \
  template void dcgs2_coef<R>(CpuTag, Device&, int, int, const void*, std::size_t, void*,          \
                              std::size_t);                                                        \
  template void combine<R>(CpuTag, Device&, int, std::size_t, int, const void*, std::size_t,       \
                           const void*, std::size_t, const void*, std::size_t, std::size_t, void*, \
                           std::size_t, const SecondOutput&, bool, bool);                          \
  template void block_diag<R>(CpuTag, Device&, int, std::size_t, int, const void*, const void*,    \
                              void*);                                                              \
  template void update<R>(CpuTag, Device&, int, std::size_t, const void*, std::size_t,             \
                          const UpdateOperands&, void*);
TS_INSTANTIATE(float)
TS_INSTANTIATE(double)
#undef TS_INSTANTIATE

}  // namespace kernels
}  // namespace tessera::krylov
