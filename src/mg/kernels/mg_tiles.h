/* Tiled device kernels of the multigrid module, written once for the OpenCL
 * and CUDA launchers (not the CPU: its reference is the two-pass red-black
 * sweep, which these reproduce bitwise).
 *
 * Fused red-black Gauss-Seidel, 3D (model E of anchors-multigrid.md §5):
 * both colours in one pass over memory, out of place (x_old -> x_new), so a
 * sweep reads x_old and b once and writes x_new once. A work-group owns an
 * (x, y) tile plus a two-cell ring and marches through a range of z planes;
 * at step k it updates the red points of plane k (from old black values,
 * inner ring included, computed redundantly) into local memory, then the
 * black points of plane k-1 (from the new red values of planes k-2, k-1, k). Red is "(i + j + k) even", as in the two-pass sweep. Optionally the
 * coarse-grid correction is added to x_old on the fly (prolongation fused
 * into post-smoothing): x_old' = x_old + P e at every black point read. */
#include "mg_point.h"


/* x_old (plus the fused correction) at an interior point; 0 outside. */
TS_FN ts_real ts_mg_old_value(TS_GLOBAL const ts_real* xo, TS_GLOBAL const ts_real* ec, int prolong,
                              long csx, long csy, long i, long j, long k, long nx, long ny, long nz,
                              long sx, long sy) {
  if (i < 0 || j < 0 || k < 0 || i >= nx || j >= ny || k >= nz) return 0;
  ts_real v = xo[TS_MG_IDX(i, j, k, sx, sy, 1)];
  if (prolong) v = v + ts_mg_prolong_at(ec, i, j, k, csx, csy, 3);
  return v;
}

/* One work-group's share of a fused red-black sweep. (tx, ty): the work-item
 * in the group, one (i, j) column of the group's region: a tile of
 * (TS_MG_TILE_X - 4) x (TS_MG_TILE_Y - 4) owned columns plus a two-cell ring.
 * Each work-item loads its own corrected old value once per plane into a
 * rolling window of three planes (`old`); red points are computed on the
 * inner ring too (from `old`), black points only on owned columns (from the
 * three planes of new red values in `red`). (gx, gy, gz): the group's tile. */
TS_FN void ts_mg_rbgs_fused_tile(TS_GLOBAL const ts_real* b, TS_GLOBAL const ts_real* xo,
                                 TS_GLOBAL ts_real* xn, TS_GLOBAL const ts_real* ec, int prolong,
                                 long csx, long csy, long nx, long ny, long nz, long sx, long sy,
                                 int tx, int ty, long gx, long gy, long gz, TS_LOCAL ts_real* old,
                                 TS_LOCAL ts_real* red) {
  const long i = gx * (TS_MG_TILE_X - 4) + tx - 2, j = gy * (TS_MG_TILE_Y - 4) + ty - 2;
  const int inside = i >= 0 && j >= 0 && i < nx && j < ny;
  const int red_here = inside && tx >= 1 && tx < TS_MG_TILE_X - 1 && ty >= 1 && ty < TS_MG_TILE_Y - 1;
  const int owner = inside && tx >= 2 && tx < TS_MG_TILE_X - 2 && ty >= 2 && ty < TS_MG_TILE_Y - 2;
  const long k0 = gz * TS_MG_TILE_Z, k1 = k0 + TS_MG_TILE_Z < nz ? k0 + TS_MG_TILE_Z : nz;
  const ts_real inv = ts_mg_inv_diag((ts_real)3);
  const int plane = TS_MG_TILE_X * TS_MG_TILE_Y, me = ty * TS_MG_TILE_X + tx;
  /* plane k lives in slot (k + 3) % 3 of both windows; planes -1 and nz are zero */
  old[((k0 + 1) % 3) * plane + me] = ts_mg_old_value(xo, ec, prolong, csx, csy, i, j, k0 - 2, nx, ny, nz, sx, sy);
  old[((k0 + 2) % 3) * plane + me] = ts_mg_old_value(xo, ec, prolong, csx, csy, i, j, k0 - 1, nx, ny, nz, sx, sy);
  for (long k = k0 - 1; k <= k1; ++k) {
    const int cur = (int)((k + 3) % 3), prev = (int)((k + 2) % 3), next = (int)((k + 4) % 3);
    old[next * plane + me] = ts_mg_old_value(xo, ec, prolong, csx, csy, i, j, k + 1, nx, ny, nz, sx, sy);
    TS_BARRIER();
    /* red points of plane k (k0 - 1 and k1 only for their black neighbours) */
    ts_real r = 0;
    if (red_here && k >= 0 && k < nz && ((i + j + k) & 1) == 0) {
      TS_LOCAL const ts_real* o = old + cur * plane;
      const ts_real nsum = ts_mg_nsum3(o[me - 1], o[me + 1], o[me - TS_MG_TILE_X], o[me + TS_MG_TILE_X],
                                       old[prev * plane + me], old[next * plane + me]);
      const long c = TS_MG_IDX(i, j, k, sx, sy, 1);
      r = ts_mg_gauss_seidel(b[c], nsum, inv);
      if (owner && k >= k0 && k < k1) xn[c] = r;
    }
    red[cur * plane + me] = r;
    TS_BARRIER();
    /* black points of plane k - 1 (red planes k - 2, k - 1, k) */
    const long kb = k - 1;
    if (owner && kb >= k0 && kb < k1 && ((i + j + kb) & 1) == 1) {
      TS_LOCAL const ts_real* m = red + prev * plane;
      const ts_real nsum = ts_mg_nsum3(m[me - 1], m[me + 1], m[me - TS_MG_TILE_X], m[me + TS_MG_TILE_X],
                                       red[next * plane + me], red[cur * plane + me]);
      const long c = TS_MG_IDX(i, j, kb, sx, sy, 1);
      xn[c] = ts_mg_gauss_seidel(b[c], nsum, inv);
    }
  }
}
