/* Per-point gathers of the streaming (out-of-core) thesis mode (C99 subset;
 * see core/kernels/portable.h). The mathematics is mg_point.h's thesis
 * functions; this header only addresses tile arrays.
 *
 * A tile array holds the points [i0, i0 + w) x [j0, j0 + h) of one level
 * (level coordinates: column i, row j) plus a one-cell ring, row pitch p,
 * starting at element `off` of a device block: point (i, j) lives at
 * TS_MGS_AT(off, p, i0, j0, i, j). Kernels work in level coordinates, so a
 * tile computes exactly the values the whole-grid kernels compute there. */
#include "mg_point.h"

#ifndef TESSERA_MG_STREAM_POINT_H
#define TESSERA_MG_STREAM_POINT_H
#define TS_MGS_AT(off, p, i0, j0, i, j) \
  ((long)(off) + ((long)(j) - (long)(j0) + 1) * (long)(p) + ((long)(i) - (long)(i0) + 1))
#endif

/* eq. 2.2 at element c of arrays sharing one pitch p (as thesis_jacobi) */
TS_FN ts_real ts_mgs_jacobi_at(TS_GLOBAL const ts_real* b, TS_GLOBAL const ts_real* xs, long cb,
                               long cx, long p) {
  return ts_mg_thesis_jacobi(b[cb], xs[cx - 1], xs[cx + 1], xs[cx - p], xs[cx + p]);
}

/* eq. 2.3 at element cx of x (pitch p); b at element cb */
TS_FN ts_real ts_mgs_residual_at(TS_GLOBAL const ts_real* b, TS_GLOBAL const ts_real* x, long cb,
                                 long cx, long p) {
  return ts_mg_thesis_residual(b[cb], x[cx], x[cx - 1], x[cx + 1], x[cx - p], x[cx + p]);
}

/* eq. 2.4 around coarse point (I, J) from a fine tile array (off, p, i0, j0):
 * the fine centre is (2I + 1, 2J + 1); order as ts_mg_thesis_restrict_at. */
TS_FN ts_real ts_mgs_restrict_at(TS_GLOBAL const ts_real* s, long off, long p, long i0, long j0,
                                 long I, long J) {
  const long f = TS_MGS_AT(off, p, i0, j0, 2 * I + 1, 2 * J + 1);
  return ts_mg_thesis_restrict(s[f], s[f - 1], s[f - 1 + p], s[f + p], s[f + 1], s[f + 1 - p],
                               s[f - p]);
}

/* eqs. 2.5-2.8 at fine point (i, j) from a coarse tile array (off, p, I0, J0)
 * whose ring supplies coarse index I0 - 1 / J0 - 1 (as ts_mg_thesis_prolong_at). */
TS_FN ts_real ts_mgs_prolong_at(TS_GLOBAL const ts_real* c, long off, long p, long I0, long J0,
                                long i, long j) {
#define TS_C(jj, ii) c[TS_MGS_AT(off, p, I0, J0, (ii), (jj))]
  const ts_real v = TS_MG_THESIS_PROLONG(TS_C, i, j);
#undef TS_C
  return v;
}
