/* The thesis's smoother with a local-memory row cache (kernel_smoothing_cache,
 * §5.2.3 of the thesis; spec multigrid-seed.md §3.8), written once for the
 * OpenCL and CUDA launchers of the streaming mode (not the CPU: its
 * reference is the plain Jacobi step, whose bits this reproduces).
 *
 * A work-group of TS_MGS_CACHE_WG work-items covers that many consecutive
 * columns of the region; each work-item marches down its column through a
 * band of up to TS_MGS_CACHE_ROWS rows. Its cache in local memory holds
 * three rows of three values (columns i - 1, i, i + 1): every row of x is
 * read once, as three values, and serves as the row below, the centre row
 * (left and right neighbours) and the row above in turn, so each output
 * needs one new row segment (the thesis's rationale: the three stencil rows
 * lie in different memory channels). The cache is private to the work-item
 * (no barriers); slots are interleaved by work-item so that a wavefront's
 * accesses fall in distinct banks. The Jacobi formula and the order of its
 * operands are mg_point.h's (ts_mg_thesis_jacobi), so the result equals
 * mgs_jacobi bit for bit. */
#include "mg_stream_point.h"

/* group shape: TS_MGS_CACHE_WG, TS_MGS_CACHE_ROWS (mg_grid.h) */
/* value v (0: column i - 1, 1: i, 2: i + 1) of cache slot `slot` */
#define TS_MGS_CACHED(cache, slot, v, lid) (cache)[((slot)*3 + (v)) * TS_MGS_CACHE_WG + (lid)]

/* One column of a smoothing region: xd at rows [j0, j0 + rows) of the column
 * whose element in the tile arrays is c0 at row j0 (b, xs and xd share the
 * pitch p; their offsets are already applied). */
TS_FN void ts_mgs_jacobi_cache_column(TS_GLOBAL const ts_real* b, TS_GLOBAL const ts_real* xs,
                                      TS_GLOBAL ts_real* xd, long p, long c0, int rows, int lid,
                                      TS_LOCAL ts_real* cache) {
  /* rows j0 - 1 and j0 into slots 0 and 1; row j0 + r + 1 goes to slot (r + 2) % 3 */
  for (int s = 0; s < 2; ++s) {
    const long c = c0 + (s - 1) * p;
    TS_MGS_CACHED(cache, s, 0, lid) = xs[c - 1];
    TS_MGS_CACHED(cache, s, 1, lid) = xs[c];
    TS_MGS_CACHED(cache, s, 2, lid) = xs[c + 1];
  }
  for (int r = 0; r < rows; ++r) {
    const long c = c0 + r * p;
    const int up = r % 3, mid = (r + 1) % 3, down = (r + 2) % 3;
    TS_MGS_CACHED(cache, down, 0, lid) = xs[c + p - 1];
    TS_MGS_CACHED(cache, down, 1, lid) = xs[c + p];
    TS_MGS_CACHED(cache, down, 2, lid) = xs[c + p + 1];
    /* operands in ts_mgs_jacobi_at's order: left, right, row above (c - p), row below (c + p) */
    xd[c] = ts_mg_thesis_jacobi(b[c], TS_MGS_CACHED(cache, mid, 0, lid),
                                TS_MGS_CACHED(cache, mid, 2, lid), TS_MGS_CACHED(cache, up, 1, lid),
                                TS_MGS_CACHED(cache, down, 1, lid));
  }
}

/* Work-item `lid` of group (gx, gy) over the region [ri0, ri0 + rw) x
 * [rj0, rj0 + rh): column ri0 + gx WG + lid, the band of rows from rj0 + gy
 * ROWS (the last band partial); b, xs, xd share pitch p and origin (a_i0,
 * a_j0), offsets applied. Work-items past the region's width do nothing
 * (no barriers follow). The launchers only supply the ids. */
TS_FN void ts_mgs_jacobi_cache_at(TS_GLOBAL const ts_real* b, TS_GLOBAL const ts_real* xs,
                                  TS_GLOBAL ts_real* xd, long p, long a_i0, long a_j0, long ri0,
                                  long rj0, long rw, long rh, long gx, long gy, int lid,
                                  TS_LOCAL ts_real* cache) {
  const long x = gx * TS_MGS_CACHE_WG + lid, j0 = rj0 + gy * TS_MGS_CACHE_ROWS;
  if (x >= rw) return;
  const long left = rj0 + rh - j0;
  ts_mgs_jacobi_cache_column(b, xs, xd, p, TS_MGS_AT(0, p, a_i0, a_j0, ri0 + x, j0),
                             (int)(left < TS_MGS_CACHE_ROWS ? left : TS_MGS_CACHE_ROWS), lid,
                             cache);
}
