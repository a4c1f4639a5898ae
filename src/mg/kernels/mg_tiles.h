/* Tiled device kernels of the multigrid module, written once for the OpenCL
 * and CUDA launchers (not the CPU: its reference is the two-pass red-black
 * sweep, which these reproduce bitwise).
 *
 * Fused red-black Gauss-Seidel, 3D (model E of anchors-multigrid.md §5):
 * both colours in one pass over memory, out of place (x_old -> x_new), so a
 * sweep reads x_old and b once and writes x_new once. A work-group owns an
 * (x, y) tile plus a two-cell ring and marches through a range of z planes
 * (see ts_mg_rbgs_fused_tile). Red is "(i + j + k) even", as in the two-pass
 * sweep. Optionally the
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

/* b at (i, j, k) where this column uses it (red points on the inner ring and
 * in the tile, black points in the tile); 0 elsewhere, never read. */
TS_FN ts_real ts_mg_b_value(TS_GLOBAL const ts_real* b, int red_here, int owner, int par, long i,
                            long j, long k, long nz, long sx, long sy) {
  const int is_red = ((par + k) & 1) == 0;
  if (k < 0 || k >= nz || !(is_red ? red_here : owner)) return 0;
  return b[TS_MG_IDX(i, j, k, sx, sy, 1)];
}

/* One work-group's share of a fused red-black sweep.
 *
 * The group covers a region of TS_MG_FX columns (i) x TS_MG_FY * TS_MG_FR
 * rows (j): an owned tile plus a two-cell ring. Work-item (tx, ty) owns
 * column i of rows ty + r * TS_MG_FY (r < TS_MG_FR), so a warp reads 32
 * consecutive values of one row. It marches k from k0 - 1 to k1; at step k a
 * column with (i + j + k) even computes red(k) and then black(k - 1), the
 * others rest (their neighbours are the ones working), so:
 *   - red(k) needs old(k) of the four in-plane neighbours (the `old` plane,
 *     double-buffered by k's parity) and old(k -+ 1) of its own column
 *     (registers, with old(k + 2) prefetched one step ahead);
 *   - black(k - 1) needs red(k - 1) of the four in-plane neighbours (the `red`
 *     plane: written by the other parity one step earlier, into slots this
 *     parity never writes) and red(k - 2), red(k) of its own column (registers).
 * One barrier per plane. Each value of x_old is read once per group (plus the
 * ring), b once per point that uses it, x_new written once: about 27 B per
 * point and sweep in FP64 for a 32 x 32 region (model E counts 24).
 * Red computations run on the inner ring too (they feed owned black points);
 * owned points are stored. */
TS_FN void ts_mg_rbgs_fused_tile(TS_GLOBAL const ts_real* b, TS_GLOBAL const ts_real* xo,
                                 TS_GLOBAL ts_real* xn, TS_GLOBAL const ts_real* ec, int prolong,
                                 long csx, long csy, long nx, long ny, long nz, long sx, long sy,
                                 int tx, int ty, long gx, long gy, long gz, TS_LOCAL ts_real* old,
                                 TS_LOCAL ts_real* red) {
  const int W = TS_MG_FX, H = TS_MG_FY * TS_MG_FR, plane = W * H;
  const long i = gx * (W - 4) + tx - 2;
  const long k0 = gz * TS_MG_TILE_Z, k1 = k0 + TS_MG_TILE_Z < nz ? k0 + TS_MG_TILE_Z : nz;
  const ts_real inv = ts_mg_inv_diag((ts_real)3);
  int me[TS_MG_FR], par[TS_MG_FR], inside[TS_MG_FR], red_here[TS_MG_FR], owner[TS_MG_FR];
  long j[TS_MG_FR];
  ts_real om1[TS_MG_FR], o0[TS_MG_FR], op1[TS_MG_FR], op2[TS_MG_FR];
  ts_real bm1[TS_MG_FR], b0[TS_MG_FR], bp1[TS_MG_FR], rm2[TS_MG_FR]; /* rm2: red(k - 2) */
  for (int r = 0; r < TS_MG_FR; ++r) {
    const int row = ty + r * TS_MG_FY;
    j[r] = gy * (H - 4) + row - 2;
    me[r] = row * W + tx;
    inside[r] = i >= 0 && j[r] >= 0 && i < nx && j[r] < ny;
    red_here[r] = inside[r] && tx >= 1 && tx < W - 1 && row >= 1 && row < H - 1;
    owner[r] = inside[r] && tx >= 2 && tx < W - 2 && row >= 2 && row < H - 2;
    par[r] = (int)((i + j[r]) & 1);
    om1[r] = ts_mg_old_value(xo, ec, prolong, csx, csy, i, j[r], k0 - 2, nx, ny, nz, sx, sy);
    o0[r] = ts_mg_old_value(xo, ec, prolong, csx, csy, i, j[r], k0 - 1, nx, ny, nz, sx, sy);
    op1[r] = ts_mg_old_value(xo, ec, prolong, csx, csy, i, j[r], k0, nx, ny, nz, sx, sy);
    bm1[r] = ts_mg_b_value(b, red_here[r], owner[r], par[r], i, j[r], k0 - 2, nz, sx, sy);
    b0[r] = ts_mg_b_value(b, red_here[r], owner[r], par[r], i, j[r], k0 - 1, nz, sx, sy);
    rm2[r] = 0;
  }
  for (long k = k0 - 1; k <= k1; ++k) {
    TS_LOCAL ts_real* o = old + (int)(k & 1) * plane;
    for (int r = 0; r < TS_MG_FR; ++r) {
      op2[r] = ts_mg_old_value(xo, ec, prolong, csx, csy, i, j[r], k + 2, nx, ny, nz, sx, sy);
      bp1[r] = ts_mg_b_value(b, red_here[r], owner[r], par[r], i, j[r], k + 1, nz, sx, sy);
      o[me[r]] = o0[r];
    }
    TS_BARRIER();
    for (int r = 0; r < TS_MG_FR; ++r) {
      const int m = me[r];
      ts_real rk = 0;
      if (((par[r] + k) & 1) == 0) {
        if (red_here[r] && k >= 0 && k < nz) {
          rk = ts_mg_gauss_seidel(b0[r], ts_mg_nsum3(o[m - 1], o[m + 1], o[m - W], o[m + W], om1[r], op1[r]), inv);
          if (owner[r] && k >= k0 && k < k1) xn[TS_MG_IDX(i, j[r], k, sx, sy, 1)] = rk;
        }
        red[m] = rk;
        if (owner[r] && k - 1 >= k0 && k - 1 < k1)
          xn[TS_MG_IDX(i, j[r], k - 1, sx, sy, 1)] = ts_mg_gauss_seidel(
              bm1[r], ts_mg_nsum3(red[m - 1], red[m + 1], red[m - W], red[m + W], rm2[r], rk), inv);
        rm2[r] = rk;
      }
      om1[r] = o0[r];
      o0[r] = op1[r];
      op1[r] = op2[r];
      bm1[r] = b0[r];
      b0[r] = bp1[r];
    }
  }
}
