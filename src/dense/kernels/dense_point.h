/* Per-point mathematics of the dense vector operations (C99 subset, shared by
 * the CPU loops, dense.cl and dense_cuda.cu; see core/kernels/portable.h).
 *
 * Element-wise operations all have the form y_i = f(s, x_i, z_i) so that one
 * launcher per backend serves every one of them; an operation that ignores x
 * or z never loads it. Reductions are a term t(x_i, y_i) folded by a combine
 * operation in the canonical order of portable.h. */
#include "core/kernels/portable.h"

#ifndef TESSERA_DENSE_POINT_CONSTANTS
#define TESSERA_DENSE_POINT_CONSTANTS
#define TS_IDENTITY_SUM 0
#define TS_IDENTITY_MIN INFINITY
#define TS_IDENTITY_MAX (-INFINITY)
#endif

/* element-wise: y = f(s, x, z) */
TS_FN ts_real ts_ew_fill(ts_real s, ts_real x, ts_real z) { (void)x; (void)z; return s; }
TS_FN ts_real ts_ew_copy(ts_real s, ts_real x, ts_real z) { (void)s; (void)z; return x; }
TS_FN ts_real ts_ew_scale(ts_real s, ts_real x, ts_real z) { (void)z; return s * x; }
/* axpy: z is the old y */
TS_FN ts_real ts_ew_axpy(ts_real s, ts_real x, ts_real z) { return s * x + z; }
TS_FN ts_real ts_ew_add(ts_real s, ts_real x, ts_real z) { (void)s; return x + z; }
/* STREAM triad a = b + s*c with x = b, z = c */
TS_FN ts_real ts_ew_triad(ts_real s, ts_real x, ts_real z) { return x + s * z; }

/* reduction terms */
TS_FN ts_real ts_term_dot(ts_real x, ts_real y) { return x * y; }
TS_FN ts_real ts_term_sumsq(ts_real x, ts_real y) { (void)y; return x * x; }
TS_FN ts_real ts_term_value(ts_real x, ts_real y) { (void)y; return x; }

/* reduction combines (min/max follow IEEE fmin/fmax: NaN is ignored) */
TS_FN ts_real ts_combine_sum(ts_real a, ts_real b) { return a + b; }
TS_FN ts_real ts_combine_min(ts_real a, ts_real b) { return fmin(a, b); }
TS_FN ts_real ts_combine_max(ts_real a, ts_real b) { return fmax(a, b); }
