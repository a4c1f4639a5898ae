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

/* x_old (plus the fused correction) at interior point (i, j, k), whose index
 * is c; 0 outside the domain (inside: the column (i, j) is interior). */
TS_FN ts_real ts_mg_old_value(TS_GLOBAL const ts_real* xo, TS_GLOBAL const ts_real* ec, int prolong,
                              long csx, long csy, int inside, long i, long j, long k, long nz,
                              long c) {
  if (!inside || k < 0 || k >= nz) return 0;
  ts_real v = xo[c];
  if (prolong) v = v + ts_mg_prolong_at(ec, i, j, k, csx, csy, 0, 3);
  return v;
}

/* b at point c = (i, j, k) where this column uses it (red points on the inner
 * ring and in the tile, black points in the tile); 0 elsewhere, never read. */
TS_FN ts_real ts_mg_b_value(TS_GLOBAL const ts_real* b, int red_here, int owner, int par, long k,
                            long nz, long c) {
  const int is_red = ((par + k) & 1) == 0;
  if (k < 0 || k >= nz || !(is_red ? red_here : owner)) return 0;
  return b[c];
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
 * point and sweep in FP64 for a 32 x 32 region (model E counts 24); the
 * default 32 x 16 region reads x_old 1.5 times, the ring mostly from L2.
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
  /* per row: flags (bit 0 inside, 1 red_here, 2 owner, 3 parity of i + j), the
   * index c0 of (i, j, 0) (plane k adds k * sy) and the pipelined values;
   * few registers per row keep two groups per multiprocessor */
  int flags[TS_MG_FR];
  long c0[TS_MG_FR];
  ts_real om1[TS_MG_FR], o0[TS_MG_FR], op1[TS_MG_FR], op2[TS_MG_FR];
  ts_real bm1[TS_MG_FR], b0[TS_MG_FR], bp1[TS_MG_FR], rm2[TS_MG_FR]; /* rm2: red(k - 2) */
  TS_UNROLL for (int r = 0; r < TS_MG_FR; ++r) {
    const int row = ty + r * TS_MG_FY;
    const long j = gy * (H - 4) + row - 2;
    const int inside = i >= 0 && j >= 0 && i < nx && j < ny;
    const int red_here = inside && tx >= 1 && tx < W - 1 && row >= 1 && row < H - 1;
    const int owner = inside && tx >= 2 && tx < W - 2 && row >= 2 && row < H - 2;
    flags[r] = inside | red_here << 1 | owner << 2 | (int)((i + j) & 1) << 3;
    c0[r] = TS_MG_IDX(i, j, 0, sx, sy, 1);
    om1[r] =
        ts_mg_old_value(xo, ec, prolong, csx, csy, inside, i, j, k0 - 2, nz, c0[r] + (k0 - 2) * sy);
    o0[r] =
        ts_mg_old_value(xo, ec, prolong, csx, csy, inside, i, j, k0 - 1, nz, c0[r] + (k0 - 1) * sy);
    op1[r] = ts_mg_old_value(xo, ec, prolong, csx, csy, inside, i, j, k0, nz, c0[r] + k0 * sy);
    bm1[r] = ts_mg_b_value(b, red_here, owner, flags[r] >> 3, k0 - 2, nz, c0[r] + (k0 - 2) * sy);
    b0[r] = ts_mg_b_value(b, red_here, owner, flags[r] >> 3, k0 - 1, nz, c0[r] + (k0 - 1) * sy);
    rm2[r] = 0;
  }
  for (long k = k0 - 1; k <= k1; ++k) {
    TS_LOCAL ts_real* o = old + (int)(k & 1) * plane;
    TS_UNROLL for (int r = 0; r < TS_MG_FR; ++r) {
      const int f = flags[r];
      const long j = gy * (H - 4) + ty + r * TS_MG_FY - 2;
      op2[r] =
          ts_mg_old_value(xo, ec, prolong, csx, csy, f & 1, i, j, k + 2, nz, c0[r] + (k + 2) * sy);
      bp1[r] =
          ts_mg_b_value(b, (f >> 1) & 1, (f >> 2) & 1, f >> 3, k + 1, nz, c0[r] + (k + 1) * sy);
      o[(ty + r * TS_MG_FY) * W + tx] = o0[r];
    }
    TS_BARRIER();
    TS_UNROLL for (int r = 0; r < TS_MG_FR; ++r) {
      const int m = (ty + r * TS_MG_FY) * W + tx, f = flags[r];
      if ((((f >> 3) + k) & 1) == 0) {
        ts_real rk = 0;
        if ((f & 2) && k >= 0 && k < nz) {
          rk = ts_mg_gauss_seidel(
              b0[r], ts_mg_nsum3(o[m - 1], o[m + 1], o[m - W], o[m + W], om1[r], op1[r]), inv);
          if ((f & 4) && k >= k0 && k < k1) xn[c0[r] + k * sy] = rk;
        }
        red[m] = rk;
        if ((f & 4) && k - 1 >= k0 && k - 1 < k1)
          xn[c0[r] + (k - 1) * sy] = ts_mg_gauss_seidel(
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

/* Residual + full-weighting restriction in 3D, one work-group per coarse
 * (I, J) tile of TS_MG_RX x TS_MG_RY points marching coarse planes K0 ..
 * K0 + planes - 1 (default TS_MG_RZ). The point kernel (ts_mg_restrict_residual_at per
 * coarse point) recomputes each fine residual for up to 8 coarse points and
 * reads 27 x 7 values of x per coarse point; here the fine residuals of the
 * tile's (2 RX + 1) x (2 RY + 1) fine columns are computed once per fine
 * plane into local memory, a ring of three planes (coarse plane K weights
 * fine planes 2K, 2K+1, 2K+2; 2K+2 is plane 2K' of K + 1), and each item then
 * weights its 27 in the order of ts_mg_restrict_residual_at: the same bits,
 * with x and b crossing DRAM about once (model: 17 B per fine point in FP64,
 * 8% more for the tiles' shared edges). Either level may be split by colour
 * (mg_grid.h): fsplit, csplit (constants at each call: one kernel per
 * combination, so that each compiles only its own indexing; chosen at run
 * time, NVIDIA's OpenCL build took 1.77 ms for the split case at 511^3 FP64
 * on an H200 and 1.29 for the natural one, specialised 1.28 and 1.01; CUDA
 * was unaffected); fsx, fsy, fh and csx, csy, ch are their storage pitches.
 * red_only (a constant too): the red points' residuals only, as
 * ts_mg_restrict_residual_at's red_only. */
#define TS_MG_RW (2 * TS_MG_RX + 1)
#define TS_MG_RPLANE (TS_MG_RW * (2 * TS_MG_RY + 1))

/* The fine residuals of plane kf over the region from fine column (fi0, fj0):
 * work-item t of nt computes every nt-th; points past the fine level's edge
 * (partial tiles) are skipped, no coarse point reads them. fsx, fsy, fh: the
 * fine level's storage pitches; fsplit: split by colour (a constant at each
 * call, so that the compiler drops the other storage's indexing). red_only:
 * the red points' residuals only (ts_mg_restrict_residual_at), every other
 * column of a row, TS_MG_RX + 1 per row; the black slots are never read. */
TS_FN void ts_mg_residual_region(TS_GLOBAL const ts_real* b, TS_GLOBAL const ts_real* x, long fnx,
                                 long fny, long fsx, long fsy, int fsplit, long fh, long fi0,
                                 long fj0, long kf, int red_only, int t, int nt,
                                 TS_LOCAL ts_real* R) {
  const int per_row = red_only ? TS_MG_RX + 1 : TS_MG_RW;
  for (int q = t; q < per_row * (2 * TS_MG_RY + 1); q += nt) {
    const int row = q / per_row, u = q % per_row;
    const long fj = fj0 + row;
    /* fi0 is even: red (fi + fj + kf even) sits at odd offsets when fj + kf is odd */
    const int col = red_only ? 2 * u + (int)((fj + kf) & 1) : u;
    const long fi = fi0 + col;
    if (col < TS_MG_RW && fi < fnx && fj < fny)
      R[row * TS_MG_RW + col] =
          fsplit ? ts_mg_residual3_split(b, x, fi, fj, kf, fsx, fsy, fh)
                 : ts_mg_residual_at(b, x, TS_MG_IDX(fi, fj, kf, fsx, fsy, 1), fsx, fsy, 3);
  }
}

/* The red residuals of a split fine level (ts_mg_residual3_split's values:
 * the same loads, summed in the same order) for np (1 or 2) consecutive
 * planes kf, kf + 1 of the region from fine column fi0 (even), row fj0, into
 * R0 and R1. Both planes in one loop: 2 x 561 items take 5 rounds of 256
 * work-items where one plane at a time takes 2 x 3. Each point is a 32-bit
 * offset from one 64-bit index per call: the red slot of (fi0 + 2u + s, fj,
 * k), s = (fj + k) & 1, is fi0 / 2 + u + s, and its black neighbours in the
 * row are slots fi0 / 2 + u and + 1 of the black array (ph further on). */
TS_FN void ts_mg_red_residual_planes_split(TS_GLOBAL const ts_real* b, TS_GLOBAL const ts_real* x,
                                           long fnx, long fny, long fsx, long fsy, long fh,
                                           long fi0, long fj0, long kf, int np, int t, int nt,
                                           TS_LOCAL ts_real* R0, TS_LOCAL ts_real* R1) {
  const int per_row = TS_MG_RX + 1, per_plane = per_row * (2 * TS_MG_RY + 1), sx = (int)fsx;
  const long base = ts_mg_slot(fi0 >> 1, fj0, kf, 0, fsx, fsy, fh);
  for (int q = t; q < np * per_plane; q += nt) {
    const int pl = q >= per_plane, qq = q - pl * per_plane;
    const int row = qq / per_row, u = qq % per_row;
    const int s = (int)((fj0 + row + kf + pl) & 1);
    const int col = 2 * u + s;
    if (col < TS_MG_RW && fi0 + col < fnx && fj0 + row < fny) {
      const long p = base + pl * fsy + (row * sx + u + s);
      TS_GLOBAL const ts_real* xb = x + p + fh;
      (pl ? R1 : R0)[row * TS_MG_RW + col] = ts_mg_residual(
          b[p], x[p], ts_mg_nsum3(xb[-s], xb[1 - s], xb[-fsx], xb[fsx], xb[-fsy], xb[fsy]),
          (ts_real)6);
    }
  }
}

TS_FN void ts_mg_restrict_residual_tile(TS_GLOBAL const ts_real* b, TS_GLOBAL const ts_real* x,
                                        TS_GLOBAL ts_real* bc, long fnx, long fny, long fsx,
                                        long fsy, int fsplit, long fh, long cnx, long cny, long cnz,
                                        long csx, long csy, int csplit, long ch, int red_only,
                                        int lean, int planes, int tx, int ty, long gx, long gy,
                                        long gz, TS_LOCAL ts_real* R) {
  const int t = ty * TS_MG_RX + tx, nt = TS_MG_RX * TS_MG_RY;
  const long I0 = gx * TS_MG_RX, J0 = gy * TS_MG_RY, K0 = gz * planes;
  const long K1 = K0 + planes < cnz ? K0 + planes : cnz;
  const long I = I0 + tx, J = J0 + ty;
  const int inside = I < cnx && J < cny;
  /* lean: the red residuals of a split level by ts_mg_red_residual_planes_split
   * (fsplit and red_only are constants at each call: other kernels drop it) */
  lean = lean && fsplit && red_only;
  /* coarse (I, J) sits on fine (2I + 1, 2J + 1): the region starts at fine 2 I0 */
  if (lean)
    ts_mg_red_residual_planes_split(b, x, fnx, fny, fsx, fsy, fh, 2 * I0, 2 * J0, 2 * K0, 1, t, nt,
                                    R + ((2 * K0) % 3) * TS_MG_RPLANE, R);
  else
    ts_mg_residual_region(b, x, fnx, fny, fsx, fsy, fsplit, fh, 2 * I0, 2 * J0, 2 * K0, red_only, t,
                          nt, R + ((2 * K0) % 3) * TS_MG_RPLANE);
  for (long K = K0; K < K1; ++K) {
    TS_LOCAL ts_real* R1 = R + ((2 * K + 1) % 3) * TS_MG_RPLANE;
    TS_LOCAL ts_real* R2 = R + ((2 * K + 2) % 3) * TS_MG_RPLANE;
    if (lean) {
      ts_mg_red_residual_planes_split(b, x, fnx, fny, fsx, fsy, fh, 2 * I0, 2 * J0, 2 * K + 1, 2, t,
                                      nt, R1, R2);
    } else {
      ts_mg_residual_region(b, x, fnx, fny, fsx, fsy, fsplit, fh, 2 * I0, 2 * J0, 2 * K + 1,
                            red_only, t, nt, R1);
      ts_mg_residual_region(b, x, fnx, fny, fsx, fsy, fsplit, fh, 2 * I0, 2 * J0, 2 * K + 2,
                            red_only, t, nt, R2);
    }
    TS_BARRIER();
    if (inside) {
      ts_real acc = 0;
      for (int dk = -1; dk <= 1; ++dk) {
        TS_LOCAL const ts_real* P = R + ((2 * K + 1 + dk) % 3) * TS_MG_RPLANE;
        for (int dj = -1; dj <= 1; ++dj)
          for (int di = -1; di <= 1; ++di) {
            /* fine (2I + 1 + di, ...) is black where di + dj + dk is even */
            if (red_only && !((di + dj + dk) & 1)) continue;
            const ts_real w = (ts_real)((2 - di * di) * (2 - dj * dj) * (2 - dk * dk));
            acc = ts_mg_fw_accumulate(acc, P[(2 * ty + 1 + dj) * TS_MG_RW + 2 * tx + 1 + di], w);
          }
      }
      bc[csplit ? ts_mg_at3_split(I, J, K, csx, csy, ch) : TS_MG_IDX(I, J, K, csx, csy, 1)] =
          ts_mg_fw_finish(acc, (ts_real)0.0625);
    }
    TS_BARRIER();
  }
}
