/* The streaming mode's kernels (core/kernels/kernel_args.h) on tiles of
 * device blocks (each array a launch::In / Out from its tile's offset), written
 * once for the CPU, OpenCL (mg_stream.cl) and CUDA (mg_stream_cuda.cu). A
 * cell (x, y) is the point (R.i0 + x, R.j0 + y) of the region R written, in
 * level coordinates, so a tile computes bitwise what the whole grid does. */
#include "mg_stream_cache.h"

#ifndef TESSERA_MGS_KERNEL_LIST
#define TESSERA_MGS_KERNEL_LIST
/* The cached smoother (mg_stream_cache.h) runs on GPUs only; the CPU's is
 * the plain one, whose bits it reproduces. */
#define TS_MGS_KERNELS(X)                                                                     \
  X(cells, mgs_jacobi, 1024, 0, 0, TS_NO_VARIANTS)                                            \
  X(group_xy, mgs_jacobi_cache, (TS_MGS_CACHE_WG, 1), 9 * TS_MGS_CACHE_WG, 0, TS_NO_VARIANTS) \
  X(cells, mgs_residual, 1024, 0, 0, TS_NO_VARIANTS)                                          \
  X(cells, mgs_restrict, 1024, 0, 0, TS_NO_VARIANTS)                                          \
  X(cells, mgs_prolong, 1024, 0, 0, TS_NO_VARIANTS)                                           \
  X(each_one, mgs_zero_ring, 0, 0, 0, TS_NO_VARIANTS)
#endif

/* eq. 2.2; b, xs and xd share the pitch and origin t */
#define TS_ARGS_mgs_jacobi(V, IN, OUT) \
  V(ts_mgs_region, R) V(ts_mgs_tile, t) IN(ts_value, b) IN(ts_value, xs) OUT(ts_value, xd)
TS_CELL(mgs_jacobi, x, y, z) {
  (void)z;
  const long c = TS_MGS_AT(0, t.p, t.i0, t.j0, R.i0 + x, R.j0 + y);
  xd[c] = ts_mgs_jacobi_at(b, xs, c, c, t.p);
}

/* The same step with the thesis's local-memory row cache: groups of
 * TS_MGS_CACHE_WG x 1, group (x, y) covering TS_MGS_CACHE_WG columns and
 * the band of TS_MGS_CACHE_ROWS rows from R.j0 + y ROWS. */
#define TS_ARGS_mgs_jacobi_cache(V, IN, OUT) TS_ARGS_mgs_jacobi(V, IN, OUT)
TS_GROUP(mgs_jacobi_cache, g, s) {
  ts_mgs_jacobi_cache_at(b, xs, xd, t.p, t.i0, t.j0, R.i0, R.j0, R.w, R.h, (long)g.id, (long)g.id_y,
                         (int)g.lx, s);
}

/* eq. 2.3 at the points of x's tile t; out may be b (in place), so b is
 * read without restrict */
/* clang-format off */
#define TS_ARGS_mgs_residual(V, IN, OUT)                                       \
  V(ts_mgs_region, R) V(ts_mgs_tile, t)                                        \
  IN(ts_value, b, TS_ALIASED) IN(ts_value, x) OUT(ts_value, out)
/* clang-format on */
TS_CELL(mgs_residual, x0, y0, z) {
  (void)z;
  const long c = TS_MGS_AT(0, t.p, t.i0, t.j0, R.i0 + x0, R.j0 + y0);
  out[c] = ts_mgs_residual_at(b, x, c, c, t.p);
}

/* eq. 2.4: coarse points R of tile dt from the fine tile st */
#define TS_ARGS_mgs_restrict(V, IN, OUT) \
  V(ts_mgs_region, R) V(ts_mgs_tile, st) V(ts_mgs_tile, dt) IN(ts_value, s) OUT(ts_value, d)
TS_CELL(mgs_restrict, x, y, z) {
  (void)z;
  const long I = R.i0 + x, J = R.j0 + y;
  d[TS_MGS_AT(0, dt.p, dt.i0, dt.j0, I, J)] = ts_mgs_restrict_at(s, 0, st.p, st.i0, st.j0, I, J);
}

/* eqs. 2.5-2.8: fine points R of tile ft from the coarse tile ct, = or += */
#define TS_ARGS_mgs_prolong(V, IN, OUT) \
  V(ts_mgs_region, R)                   \
  V(ts_mgs_tile, ft) V(ts_mgs_tile, ct) V(int, accumulate) OUT(ts_value, f) IN(ts_value, c)
TS_CELL(mgs_prolong, x, y, z) {
  (void)z;
  const long i = R.i0 + x, j = R.j0 + y;
  const ts_real v = ts_mgs_prolong_at(c, 0, ct.p, ct.i0, ct.j0, i, j);
  const long o = TS_MGS_AT(0, ft.p, ft.i0, ft.j0, i, j);
  f[o] = accumulate ? f[o] + v : v;
}

/* item t of the 2 (w + 2) + 2 h points of the ring of a w x h tile array
 * of pitch p: the two ghost rows, then the two ghost columns */
#define TS_ARGS_mgs_zero_ring(V, IN, OUT) V(long, p) V(long, w) V(long, h) OUT(ts_value, a)
TS_ITEM(mgs_zero_ring, item) {
  const long t = (long)item;
  if (t < w + 2)
    a[t] = 0;
  else if (t < 2 * (w + 2))
    a[(h + 1) * p + (t - (w + 2))] = 0;
  else if (t < 2 * (w + 2) + h)
    a[(t - 2 * (w + 2) + 1) * p] = 0;
  else
    a[(t - 2 * (w + 2) - h + 1) * p + w + 1] = 0;
}
