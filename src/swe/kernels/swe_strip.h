/* The bandwidth-oriented first-order update, written once for the OpenCL and
 * CUDA launchers (the CPU reference computes every face per cell with
 * ts_swe_cell1; the values are identical because every face is
 * ts_swe_face_core of the same inputs).
 * One work-item owns column j and marches down rows i0..i1-1 (a "strip"):
 *  - its own cell and the next row live in registers (h, u, v, z), so each
 *    velocity is divided out once, and the x-face below a cell is the face
 *    above the previous one (reused, not recomputed);
 *  - rows are loaded three iterations ahead (a register ring), so a
 *    work-item keeps three rows of loads in flight while it computes (4-byte
 *    loads alone do not fill HBM3e's queues, anchors §4.3);
 *  - neighbours j +- 1 come from the cache lines the adjacent work-items of
 *    the same row load (L1), not from DRAM.
 * Each value crosses DRAM about once per step: 28 B/cell in FP32 (h, hu, hv
 * read and written, z read), 56 B in FP64, plus one row per strip. */
#include "swe_hll_point.h"

TS_FN void ts_swe_strip1(ts_real g, ts_real hdry, ts_real dx, ts_real dy, ts_real n, ts_real dt,
                         TS_GLOBAL const ts_real* H, TS_GLOBAL const ts_real* HU,
                         TS_GLOBAL const ts_real* HV, TS_GLOBAL const ts_real* Z,
                         TS_GLOBAL ts_real* Hd, TS_GLOBAL ts_real* HUd, TS_GLOBAL ts_real* HVd,
                         long nx, long ny, long w, long j, long i0, long i1, unsigned int* rmax,
                         unsigned int* bad) {
  long c = (i0 + 2) * w + j + 2;
  const ts_real rx = dt / dx, ry = dt / dy;
  /* the row above the strip, the first row, and the next one in flight */
  const ts_real ha = H[c - w];
  ts_real h0 = H[c], hu0 = HU[c], hv0 = HV[c], z0 = Z[c];
  ts_real h1 = H[c + w], hu1 = HU[c + w], hv1 = HV[c + w], z1 = Z[c + w];
  const long c2 = (i0 + 1 < nx ? i0 + 4 : nx + 3) * w + j + 2; /* row i0+2, clamped */
  ts_real h2 = H[c2], hu2 = HU[c2], hv2 = HV[c2], z2 = Z[c2];
  ts_real u0 = ts_swe_vel(h0, hu0, hdry), v0 = ts_swe_vel(h0, hv0, hdry);
  ts_real w_h, w_l, w_r, w_t;
  ts_swe_face_core(g, hdry, ha, ts_swe_vel(ha, HU[c - w], hdry), ts_swe_vel(ha, HV[c - w], hdry),
                   Z[c - w], h0, u0, v0, z0, &w_h, &w_l, &w_r, &w_t);
  for (long i = i0; i < i1; ++i, c += w) {
    /* row i+3, clamped to the last ghost row (rows past nx+1 are never used) */
    const long c3 = (i + 3 <= nx + 1 ? i + 5 : nx + 3) * w + j + 2;
    const ts_real h3 = H[c3], hu3 = HU[c3], hv3 = HV[c3], z3 = Z[c3];
    const ts_real u1 = ts_swe_vel(h1, hu1, hdry), v1 = ts_swe_vel(h1, hv1, hdry);
    const ts_real hn = H[c + 1], hs = H[c - 1];
    ts_real e_h, e_l, e_r, e_t, n_h, n_l, n_r, n_t, s_h, s_l, s_r, s_t, h, hu, hv;
    ts_swe_face_core(g, hdry, h0, u0, v0, z0, h1, u1, v1, z1, &e_h, &e_l, &e_r, &e_t);
    ts_swe_face_core(g, hdry, h0, v0, u0, z0, hn, ts_swe_vel(hn, HV[c + 1], hdry),
                     ts_swe_vel(hn, HU[c + 1], hdry), Z[c + 1], &n_h, &n_l, &n_r, &n_t);
    ts_swe_face_core(g, hdry, hs, ts_swe_vel(hs, HV[c - 1], hdry), ts_swe_vel(hs, HU[c - 1], hdry),
                     Z[c - 1], h0, v0, u0, z0, &s_h, &s_l, &s_r, &s_t);
    ts_swe_combine(rx, ry, h0, hu0, hv0, e_h, e_l, e_t, w_h, w_r, w_t, n_h, n_l, n_t, s_h, s_r,
                   s_t, &h, &hu, &hv);
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
    h0 = h1, hu0 = hu1, hv0 = hv1, z0 = z1, u0 = u1, v0 = v1;
    h1 = h2, hu1 = hu2, hv1 = hv2, z1 = z2;
    h2 = h3, hu2 = hu3, hv2 = hv3, z2 = z3;
  }
}
