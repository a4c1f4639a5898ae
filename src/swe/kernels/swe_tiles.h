/* Local-memory (work-group tile) variants of the thesis kernel, written once
 * for the OpenCL and CUDA launchers (the CPU has no tiles: its loops are the
 * reference). A work-item maps to the array cell (gi, gj) of the whole
 * (nx+2) x (ny+2) frame, ghosts included, as in the thesis's Listing 4.1 with
 * its rounded-up global size; only interior cells are computed.
 * Unlike the listing, no work-item reads outside the arrays (the thesis's
 * negative and past-the-end reads, seed §3.5): halo loads are guarded.
 * src == dst gives the thesis's in-place kernel ("senza copia dei buffer"),
 * which races between work-groups; only explicitly "racy" variants do that. */
#include "swe_point.h"

/* V2b (Listing 4.1): tile + one-cell halo, (l0+2) x (l1+2) values per field. */
TS_FN void ts_swe_thesis_tile_halo(TS_GLOBAL const ts_real* Zs, TS_GLOBAL const ts_real* Xs,
                                   TS_GLOBAL const ts_real* Ys, TS_GLOBAL ts_real* Zd,
                                   TS_GLOBAL ts_real* Xd, TS_GLOBAL ts_real* Yd, long nx, long ny,
                                   long w, ts_real k, long gi, long gj, int li, int lj, int l0,
                                   int l1, TS_LOCAL ts_real* tz, TS_LOCAL ts_real* tx,
                                   TS_LOCAL ts_real* ty) {
  const int tw = l1 + 2, t = (li + 1) * tw + lj + 1;
  const long c = gi * w + gj;
  if (gi < nx + 2 && gj < ny + 2) {
    tz[t] = Zs[c];
    tx[t] = Xs[c];
    ty[t] = Ys[c];
    if (li == 0 && gi > 0) {
      tz[t - tw] = Zs[c - w];
      tx[t - tw] = Xs[c - w];
      ty[t - tw] = Ys[c - w];
    }
    if (li == l0 - 1 && gi < nx + 1) {
      tz[t + tw] = Zs[c + w];
      tx[t + tw] = Xs[c + w];
      ty[t + tw] = Ys[c + w];
    }
    if (lj == 0 && gj > 0) {
      tz[t - 1] = Zs[c - 1];
      tx[t - 1] = Xs[c - 1];
      ty[t - 1] = Ys[c - 1];
    }
    if (lj == l1 - 1 && gj < ny + 1) {
      tz[t + 1] = Zs[c + 1];
      tx[t + 1] = Xs[c + 1];
      ty[t + 1] = Ys[c + 1];
    }
  }
  TS_BARRIER();
  if (gi >= 1 && gi <= nx && gj >= 1 && gj <= ny) {
    ts_real z, qx, qy;
    ts_swe_thesis_cell(k, tz[t + tw], tz[t - tw], tz[t + 1], tz[t - 1], tx[t + tw], tx[t - tw],
                       tx[t + 1], tx[t - 1], ty[t + tw], ty[t - tw], ty[t + 1], ty[t - 1], &z, &qx,
                       &qy);
    Zd[c] = z;
    Xd[c] = qx;
    Yd[c] = qy;
  }
}

/* A neighbour of V2a: from the tile when the work-item holding it is in this
 * work-group, else straight from global memory (seed §3.4, "copie successive
 * da memoria globale"). */
TS_FN ts_real ts_swe_tile_or_global(int in_tile, TS_LOCAL const ts_real* tile, int t,
                                    TS_GLOBAL const ts_real* g, long c) {
  return in_tile ? tile[t] : g[c];
}

/* V2a: tile without halo (l0 x l1 values per field); edge work-items read the
 * missing neighbours from global memory. */
TS_FN void ts_swe_thesis_tile_edge(TS_GLOBAL const ts_real* Zs, TS_GLOBAL const ts_real* Xs,
                                   TS_GLOBAL const ts_real* Ys, TS_GLOBAL ts_real* Zd,
                                   TS_GLOBAL ts_real* Xd, TS_GLOBAL ts_real* Yd, long nx, long ny,
                                   long w, ts_real k, long gi, long gj, int li, int lj, int l0,
                                   int l1, TS_LOCAL ts_real* tz, TS_LOCAL ts_real* tx,
                                   TS_LOCAL ts_real* ty) {
  const int t = li * l1 + lj;
  const long c = gi * w + gj;
  if (gi < nx + 2 && gj < ny + 2) {
    tz[t] = Zs[c];
    tx[t] = Xs[c];
    ty[t] = Ys[c];
  }
  TS_BARRIER();
  if (gi >= 1 && gi <= nx && gj >= 1 && gj <= ny) {
    const int ip = li + 1 < l0, im = li > 0, jp = lj + 1 < l1, jm = lj > 0;
    ts_real z, qx, qy;
    ts_swe_thesis_cell(k, ts_swe_tile_or_global(ip, tz, t + l1, Zs, c + w),
                       ts_swe_tile_or_global(im, tz, t - l1, Zs, c - w),
                       ts_swe_tile_or_global(jp, tz, t + 1, Zs, c + 1),
                       ts_swe_tile_or_global(jm, tz, t - 1, Zs, c - 1),
                       ts_swe_tile_or_global(ip, tx, t + l1, Xs, c + w),
                       ts_swe_tile_or_global(im, tx, t - l1, Xs, c - w),
                       ts_swe_tile_or_global(jp, tx, t + 1, Xs, c + 1),
                       ts_swe_tile_or_global(jm, tx, t - 1, Xs, c - 1),
                       ts_swe_tile_or_global(ip, ty, t + l1, Ys, c + w),
                       ts_swe_tile_or_global(im, ty, t - l1, Ys, c - w),
                       ts_swe_tile_or_global(jp, ty, t + 1, Ys, c + 1),
                       ts_swe_tile_or_global(jm, ty, t - 1, Ys, c - 1), &z, &qx, &qy);
    Zd[c] = z;
    Xd[c] = qx;
    Yd[c] = qy;
  }
}

/* V7 (seed §4.6.1, "reduced work-items"): one work-item per compute unit,
 * each looping over a slice of rows; slices of ceil(nx / items) rows (the
 * thesis's nx / (units - 1) fails with one unit). */
TS_FN void ts_swe_thesis_rows(TS_GLOBAL const ts_real* Zs, TS_GLOBAL const ts_real* Xs,
                              TS_GLOBAL const ts_real* Ys, TS_GLOBAL ts_real* Zd,
                              TS_GLOBAL ts_real* Xd, TS_GLOBAL ts_real* Yd, long nx, long ny,
                              long w, ts_real k, long t, long items) {
  const long slice = (nx + items - 1) / items;
  for (long i = 1 + t * slice; i <= nx && i < 1 + (t + 1) * slice; ++i)
    for (long j = 1; j <= ny; ++j) {
      const long c = i * w + j;
      ts_real z, qx, qy;
      ts_swe_thesis_at(Zs, Xs, Ys, c, w, k, &z, &qx, &qy);
      Zd[c] = z;
      Xd[c] = qx;
      Yd[c] = qy;
    }
}
