// CPU (OpenMP) launchers of the shallow-water kernels of swe_kernel_list.h.
// The cells kernels are generated; the tiled and strip kernels, GPU tilings,
// are the plain loops they stand for (the oracle): the tiles the stencil
// over the interior, the strips the walled stencil, the physical updates
// every face per cell (ts_swe_cell1, ts_swe_stage), whose values the
// strips reproduce bit for bit.
#include <algorithm>

#include "core/launch/launch_cpu.hpp"
#include "swe/kernels/swe_kernels.hpp"

namespace tessera::swe::kernels {

using namespace point;
TS_SWE_KERNELS(TS_CPU_KERNEL)

WorkGroup max_work_group(CpuTag, Device&) { return {16, 16}; }

namespace {

// The interior of the thesis model, one cell per item.
template <class T>
launch::Cells interior(const ts_swe_thesis<T>& a) {
  launch::Cells c;
  c.nx = a.ny;
  c.ny = a.nx;
  return c;
}

// Runs cell(c, &h, &hu, &hv) -> bad over the interior into (hd, hud, hvd),
// then folds the maximal rate (when `rate`) and the first bad cell into the
// flags as the device kernels' atomics do (max and min are order-independent).
template <class T, class Cell>
void update_interior(const ts_swe_phys<T>& p, T* hd, T* hud, T* hvd, std::uint32_t* fl, bool rate,
                     Cell cell) {
  std::uint32_t rmax = 0, bad = slot::none;
#pragma omp parallel for schedule(static) reduction(max : rmax) reduction(min : bad)
  for (long i = 0; i < p.nx; ++i)
    for (long j = 0; j < p.ny; ++j) {
      const long c = (i + 2) * p.w + j + 2;
      T h, hu, hv;
      if (cell(c, &h, &hu, &hv)) bad = std::min(bad, static_cast<std::uint32_t>(i * p.ny + j));
      hd[c] = h;
      hud[c] = hu;
      hvd[c] = hv;
      if (rate)
        rmax = std::max(rmax, ts_swe_rate_bits(ts_swe_rate(p.g, p.hdry, p.dx, p.dy, h, hu, hv)));
    }
  if (rate) {
    std::uint32_t& s = fl[fl[slot::steps] & 1u];
    s = std::max(s, rmax);
  }
  if (fl[slot::bad_step] == slot::none) fl[slot::bad_cell] = std::min(fl[slot::bad_cell], bad);
}

}  // namespace

// The tiles compute the plain stencil, the strip the walled one: on the CPU
// those loops themselves.
#define TS_SWE_CPU_AS(kind, K, PLAIN)                                     \
  template <class ts_value>                                               \
  TS_LAUNCHER_SIGNATURE(CpuTag, kind, K) {                                \
    PLAIN<ts_value>(CpuTag{}, q, interior(a), a, Zs, Xs, Ys, Zd, Xd, Yd); \
  }                                                                       \
  TS_INSTANTIATE_LAUNCHER(CpuTag, kind, K)
TS_SWE_CPU_AS(group_sized_xy, thesis_tile_halo, thesis_global)
TS_SWE_CPU_AS(group_sized_xy, thesis_tile_edge, thesis_global)
TS_SWE_CPU_AS(group, thesis_strip, thesis_walls)
#undef TS_SWE_CPU_AS

template <class ts_value>
TS_LAUNCHER_SIGNATURE(CpuTag, group, phys_strip) {
  const auto [z, nm, h, hu, hv, hd, hud, hvd, s, f] =
      launch::device_args(Z, N, H, HU, HV, Hd, HUd, HVd, sc, fl);
  update_interior(p, hd, hud, hvd, f, true, [&](long c, ts_value* a, ts_value* b, ts_value* d) {
    return ts_swe_cell1(p.g, p.hdry, p.dx, p.dy, p.n, s[slot::dt], h, hu, hv, z, nm, c, p.w, a, b,
                        d);
  });
}
TS_INSTANTIATE_LAUNCHER(CpuTag, group, phys_strip)

template <class ts_value>
TS_LAUNCHER_SIGNATURE(CpuTag, group, phys_strip_shared) {  // the same values as phys_strip
  (void)W;  // the CPU computes every cell (dry skipping gives the same values)
  phys_strip<ts_value>(CpuTag{}, q, ts_shape, p, Z, N, H, HU, HV, Hd, HUd, HVd, sc, fl);
}
TS_INSTANTIATE_LAUNCHER(CpuTag, group, phys_strip_shared)

template <class ts_value>
TS_LAUNCHER_SIGNATURE(CpuTag, group, phys_rk_stage) {
  const auto [z, nm, bh, bhu, bhv, h, hu, hv, hd, hud, hvd, s, f] =
      launch::device_args(Z, N, BH, BHU, BHV, H, HU, HV, Hd, HUd, HVd, sc, fl);
  update_interior(p, hd, hud, hvd, f, p.stage == 1,
                  [&](long c, ts_value* a, ts_value* b, ts_value* d) {
                    return ts_swe_stage(p.g, p.hdry, p.dx, p.dy, p.n, s[slot::dt], p.stage, bh, bhu,
                                        bhv, h, hu, hv, z, nm, c, p.w, a, b, d);
                  });
}
TS_INSTANTIATE_LAUNCHER(CpuTag, group, phys_rk_stage)

template <class ts_value>
TS_LAUNCHER_SIGNATURE(CpuTag, group, phys_source) {
  const auto [z, rf, h, hu, hv, f, s, fl_] = launch::device_args(Z, R, H, HU, HV, F, sc, fl);
  const ts_value dt = s[slot::dt], t_mid = s[slot::time] - ts_value(0.5) * dt;
  std::uint32_t rmax = 0;
#pragma omp parallel for schedule(static) reduction(max : rmax)
  for (long i = 0; i < p.ni; ++i)
    for (long j = 0; j < p.nj; ++j) {
      const long c = (p.i0 + i + 2) * p.w + p.j0 + j + 2;
      ts_value fc = p.losses != 0 ? f[c] : ts_value(0);
      ts_swe_source_cell(dt, t_mid, p.rate, p.slope, p.ta, p.field ? rf[c] : ts_value(0), p.zwall,
                         p.losses, p.loss, p.ks, p.suction, p.hdry, z[c], &h[c], &hu[c], &hv[c],
                         &fc);
      if (p.losses != 0) f[c] = fc;
      rmax = std::max(rmax,
                      ts_swe_rate_bits(ts_swe_rate(p.g, p.hdry, p.dx, p.dy, h[c], hu[c], hv[c])));
    }
  std::uint32_t& r = fl_[fl_[slot::steps] & 1u];
  r = std::max(r, rmax);
}
TS_INSTANTIATE_LAUNCHER(CpuTag, group, phys_source)

template <class ts_value>
TS_LAUNCHER_SIGNATURE(CpuTag, group, ieee_count) {
  unsigned c[4] = {0, 0, 0, 0};
  for (ts_size s = first; s < first + count; ++s) {
    if constexpr (std::is_same_v<ts_value, float>)
      ts_ieee_check_f(ts_ieee_sample_f(s), c);
    else
      ts_ieee_check_d(ts_ieee_sample_d(s), c);
  }
  ts_uint* out = launch::device_arg(counts);
  for (int k = 0; k < 4; ++k) out[k] += c[k];
}
TS_INSTANTIATE_LAUNCHER(CpuTag, group, ieee_count)

}  // namespace tessera::swe::kernels
