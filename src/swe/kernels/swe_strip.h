/* The bandwidth-oriented first-order update, written once for the OpenCL and
 * CUDA launchers (the CPU reference computes every face per cell with
 * ts_swe_cell1; the values are identical because each face is the same
 * function of the same inputs).
 * One work-item owns column j and marches down rows i0..i1-1 ("strip"): the
 * x-face below a cell is the face above the previous one, so it is reused
 * from registers; neighbours j+-1 come from the cache lines the adjacent
 * work-items load. Each value crosses DRAM about once per step: 28 B/cell in
 * FP32 (h, hu, hv read and written, z read), 56 B in FP64. */
#include "swe_hll_point.h"

TS_FN void ts_swe_strip1(ts_real g, ts_real hdry, ts_real dx, ts_real dy, ts_real n, ts_real dt,
                         TS_GLOBAL const ts_real* H, TS_GLOBAL const ts_real* HU,
                         TS_GLOBAL const ts_real* HV, TS_GLOBAL const ts_real* Z,
                         TS_GLOBAL ts_real* Hd, TS_GLOBAL ts_real* HUd, TS_GLOBAL ts_real* HVd,
                         long ny, long w, long j, long i0, long i1, unsigned int* rmax,
                         unsigned int* bad) {
  long c = (i0 + 2) * w + j + 2;
  ts_real w_h, w_l, w_r, w_t;
  ts_swe_face1(g, hdry, H, HU, HV, Z, c - w, c, &w_h, &w_l, &w_r, &w_t);
  const ts_real rx = dt / dx, ry = dt / dy;
  for (long i = i0; i < i1; ++i, c += w) {
    ts_real e_h, e_l, e_r, e_t, n_h, n_l, n_r, n_t, s_h, s_l, s_r, s_t, h, hu, hv;
    ts_swe_face1(g, hdry, H, HU, HV, Z, c, c + w, &e_h, &e_l, &e_r, &e_t);
    ts_swe_face1(g, hdry, H, HV, HU, Z, c, c + 1, &n_h, &n_l, &n_r, &n_t);
    ts_swe_face1(g, hdry, H, HV, HU, Z, c - 1, c, &s_h, &s_l, &s_r, &s_t);
    ts_swe_combine(rx, ry, H[c], HU[c], HV[c], e_h, e_l, e_t, w_h, w_r, w_t, n_h, n_l, n_t, s_h,
                   s_r, s_t, &h, &hu, &hv);
    if (ts_swe_finish(g, n, dt, hdry, &h, &hu, &hv)) {
      const unsigned int cell = (unsigned int)(i * ny + j);
      *bad = cell < *bad ? cell : *bad;
    }
    Hd[c] = h;
    HUd[c] = hu;
    HVd[c] = hv;
    const unsigned int r = ts_swe_rate_bits(ts_swe_rate(g, hdry, dx, dy, h, hu, hv));
    *rmax = r > *rmax ? r : *rmax;
    w_h = e_h;
    w_r = e_r;
    w_t = e_t;
  }
}
