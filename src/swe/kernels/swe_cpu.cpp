// CPU (OpenMP) launchers of the shallow-water kernels; the mathematics is in
// swe_point.h / swe_hll_point.h. The thesis kinds (global / tiles) and
// work-group shapes only matter on GPUs: here every kind is the plain loop.
#include <algorithm>

#include "backends/cpu/cpu_device.hpp"
#include "swe/kernels/swe_kernels.hpp"
#include "core/kernels/ieee_check.h"
#include "swe/kernels/swe_point.hpp"

namespace tessera::swe::kernels {

namespace {

using namespace point;

template <class T>
T* p(const Buffer<T>& b) {
  return cpu::ptr<T>(b.handle());
}

}  // namespace

template <class T>
void thesis_update(CpuTag, Queue&, const ThesisGrid& g, ThesisKernel kind, WorkGroup, T k,
                   const Fields<T>& src, Fields<T>& dst) {
  const T *z = p(src.z), *x = p(src.qx), *y = p(src.qy);
  T *zd = p(dst.z), *xd = p(dst.qx), *yd = p(dst.qy);
  const bool walls = kind == ThesisKernel::walls || kind == ThesisKernel::strip;
  if (kind ==
      ThesisKernel::simd4) {  // V6: the lanes of 4-vectors, windows copied as the GPUs load them
#pragma omp parallel for schedule(static)
    for (long i = 1; i <= g.nx; ++i)
      for (long q = 0; 4 * q <= g.ny; ++q) {
        const long c = g.at(i, 4 * q);
        T zr[12], xr[12], yr[12], zn[4], xn[4], yn[4], zs[4], xs[4], ys[4], z4[4], x4[4], y4[4];
        std::copy(z + c - 4, z + c + 8, zr);
        std::copy(x + c - 4, x + c + 8, xr);
        std::copy(y + c - 4, y + c + 8, yr);
        std::copy(z + c + g.w, z + c + g.w + 4, zn);
        std::copy(x + c + g.w, x + c + g.w + 4, xn);
        std::copy(y + c + g.w, y + c + g.w + 4, yn);
        std::copy(z + c - g.w, z + c - g.w + 4, zs);
        std::copy(x + c - g.w, x + c - g.w + 4, xs);
        std::copy(y + c - g.w, y + c - g.w + 4, ys);
        const int mask =
            ts_swe_thesis_simd4(k, zr, xr, yr, zn, xn, yn, zs, xs, ys, 4 * q, g.ny, z4, x4, y4);
        for (int l = 0; l < 4; ++l)
          if (mask & (1 << l)) {
            zd[c + l] = z4[l];
            xd[c + l] = x4[l];
            yd[c + l] = y4[l];
          }
      }
    return;
  }
#pragma omp parallel for schedule(static)
  for (long i = 1; i <= g.nx; ++i)
    for (long j = 1; j <= g.ny; ++j) {
      const long c = g.at(i, j);
      if (walls)
        ts_swe_thesis_at_walls(z, x, y, i, j, g.nx, g.ny, g.w, k, &zd[c], &xd[c], &yd[c]);
      else
        ts_swe_thesis_at(z, x, y, c, g.w, k, &zd[c], &xd[c], &yd[c]);
    }
}

template <class T>
void thesis_ghosts(CpuTag, Queue&, const ThesisGrid& g, Fields<T>& f, bool vector_rows) {
  T *z = p(f.z), *x = p(f.qx), *y = p(f.qy);
  if (vector_rows)
    for (long q = 0; q < g.w / 4; ++q) ts_swe_thesis_ghost_row4(z, x, y, g.nx, g.w, q);
  else
    for (long j = 0; j < g.ny + 2; ++j) ts_swe_thesis_ghost_row(z, x, y, g.nx, g.w, j);
  for (long i = 0; i < g.nx + 2; ++i) ts_swe_thesis_ghost_col(z, x, y, g.ny, g.w, i);
}

WorkGroup max_work_group(CpuTag, Device&) { return {16, 16}; }

template <class T>
void phys_ghosts(CpuTag, Queue&, const PhysGrid& g, const PhysParams<T>& prm, const Buffer<T>& zb,
                 Fields<T>& f, Buffer<T>& scalars, Buffer<std::uint32_t>& flags, bool bookkeeping) {
  T *h = p(f.z), *hu = p(f.qx), *hv = p(f.qy);
  const T* z = p(zb);
  for (long j = 0; j < g.ny; ++j)
    ts_swe_ghosts_x(prm.bc[0], prm.bc[1], prm.bc_value[0], prm.bc_value[1], h, hu, hv, z, g.nx, g.w,
                    j);
  for (long i = 0; i < g.nx; ++i)
    ts_swe_ghosts_y(prm.bc[2], prm.bc[3], prm.bc_value[2], prm.bc_value[3], h, hu, hv, z, g.ny, g.w,
                    i);
  if (bookkeeping) ts_swe_bookkeeping(p(scalars), p(flags), prm.cfl, prm.fixed_dt);
}

namespace {

// Runs cell(c, &h, &hu, &hv) -> bad over the interior into dst, then folds
// the maximal rate (when `rate`) and the first bad cell into the flags as the
// device kernels' atomics do (max and min are order-independent).
template <class T, class Cell>
void update_interior(const PhysGrid& g, const PhysParams<T>& prm, Fields<T>& dst,
                     Buffer<std::uint32_t>& flags, bool rate, Cell cell) {
  T *hd = p(dst.z), *hud = p(dst.qx), *hvd = p(dst.qy);
  std::uint32_t* fl = p(flags);
  std::uint32_t rmax = 0, bad = slot::none;
#pragma omp parallel for schedule(static) reduction(max : rmax) reduction(min : bad)
  for (long i = 0; i < g.nx; ++i)
    for (long j = 0; j < g.ny; ++j) {
      const long c = g.at(i, j);
      T h, hu, hv;
      if (cell(c, &h, &hu, &hv)) bad = std::min(bad, static_cast<std::uint32_t>(i * g.ny + j));
      hd[c] = h;
      hud[c] = hu;
      hvd[c] = hv;
      if (rate)
        rmax = std::max(rmax,
                        ts_swe_rate_bits(ts_swe_rate(prm.g, prm.h_dry, prm.dx, prm.dy, h, hu, hv)));
    }
  if (rate) {
    std::uint32_t& s = fl[fl[slot::steps] & 1u];
    s = std::max(s, rmax);
  }
  if (fl[slot::bad_step] == slot::none) fl[slot::bad_cell] = std::min(fl[slot::bad_cell], bad);
}

}  // namespace

template <class T>
void phys_update(CpuTag, Queue&, const PhysGrid& g, const PhysParams<T>& prm, const Buffer<T>& zb,
                 const Fields<T>& src, Fields<T>& dst, Buffer<T>& scalars,
                 Buffer<std::uint32_t>& flags) {
  const T *h = p(src.z), *hu = p(src.qx), *hv = p(src.qy), *z = p(zb);
  const T dt = p(scalars)[slot::dt];
  update_interior(g, prm, dst, flags, true, [&](long c, T* a, T* b, T* d) {
    return ts_swe_cell1(prm.g, prm.h_dry, prm.dx, prm.dy, prm.manning, dt, h, hu, hv, z, c, g.w, a,
                        b, d);
  });
}

template <class T>
void phys_stage(CpuTag, Queue&, const PhysGrid& g, const PhysParams<T>& prm, const Buffer<T>& zb,
                const Fields<T>& base, const Fields<T>& src, Fields<T>& dst, int stage,
                Buffer<T>& scalars, Buffer<std::uint32_t>& flags) {
  const T *bh = p(base.z), *bhu = p(base.qx), *bhv = p(base.qy);
  const T *h = p(src.z), *hu = p(src.qx), *hv = p(src.qy), *z = p(zb);
  const T dt = p(scalars)[slot::dt];
  update_interior(g, prm, dst, flags, stage == 1, [&](long c, T* a, T* b, T* d) {
    return ts_swe_stage(prm.g, prm.h_dry, prm.dx, prm.dy, prm.manning, dt, stage, bh, bhu, bhv, h,
                        hu, hv, z, c, g.w, a, b, d);
  });
}

template <class T>
void ieee_check(CpuTag, Queue&, std::uint64_t first, std::uint64_t count,
                Buffer<std::uint32_t>& counts) {
  unsigned c[4] = {0, 0, 0, 0};
  for (std::uint64_t s = first; s < first + count; ++s) {
    if constexpr (std::is_same_v<T, float>)
      ts_ieee_check_f(ts_ieee_sample_f(s), c);
    else
      ts_ieee_check_d(ts_ieee_sample_d(s), c);
  }
  for (int k = 0; k < 4; ++k) p(counts)[k] += c[k];
}

TS_SWE_INSTANTIATE(CpuTag, float)
TS_SWE_INSTANTIATE(CpuTag, double)

}  // namespace tessera::swe::kernels
