/* The scalars of the shallow-water kernels, one parameter struct per model
 * (core/kernels/kernel_args.h; guarded, included at file scope). */
#ifndef TESSERA_SWE_PARAMS_H
#define TESSERA_SWE_PARAMS_H
#include "core/kernels/kernel_args.h"

/* The thesis model: nx x ny interior cells in rows of w values (one ghost
 * frame), k = dt / (2 dx); rows: the rows of a strip (thesis_strip) or the
 * work-items of V7 (thesis_rows). */
TS_PARAMS_STRUCT(ts_swe_thesis) {
  long nx, ny, w, rows;
  ts_real k;
};

/* The physical model: nx x ny interior cells in rows of w values (two ghost
 * layers), rows of a strip; gravity, dry depth, spacings, Manning n, CFL
 * number and fixed dt; per side (x_lo, x_hi, y_lo, y_hi) the boundary
 * values and kinds; rows prefetched ahead, the RK2 stage, and whether the
 * ghost launch also does the dt bookkeeping. */
TS_PARAMS_STRUCT(ts_swe_phys) {
  long nx, ny, w, strip;
  ts_real g, hdry, dx, dy, n, cfl, fixed_dt;
  ts_real bv[4];
  int bc[4];
  int pf, stage, bookkeeping;
};

/* The sources of the physical model (swe_source_point.h) over the interior
 * rectangle of ni x nj cells from (i0, j0), rows of w values: the depth rate
 * rate + slope (t - ta), NODATA from zwall, gravity, dry depth and spacings
 * (the wave rate), and the losses (0 none, 1 constant `loss`, 2 Green-Ampt
 * with ks and suction). */
TS_PARAMS_STRUCT(ts_swe_src) {
  long ny, w, i0, j0, ni, nj;
  ts_real g, hdry, dx, dy;
  ts_real rate, slope, ta, zwall;
  ts_real loss, ks, suction;
  int losses;
};

/* The boundary flow tally (swe_source_point.h): nx x ny interior cells in
 * rows of w values; gravity, dry depth; the scheme's order (1, 2) and the
 * weight of this evaluation (1, or 1/2 per RK2 stage); per side its kind
 * (only open sides are tallied). */
TS_PARAMS_STRUCT(ts_swe_tally) {
  long nx, ny, w;
  ts_real g, hdry, weight;
  int order;
  int bc[4];
};

#endif /* TESSERA_SWE_PARAMS_H */
