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
 * number (n < 0: the Manning map's per cell), fixed dt and the sources'
 * largest dt (0: none); per side (x_lo, x_hi, y_lo, y_hi) the boundary
 * values and kinds, and one segment [seg_lo, seg_hi) of cells along it
 * (x sides: columns j; y sides: rows i) of another kind seg_bc whose value
 * is seg_v + seg_slope (t - seg_ta) at the step's midpoint t (a stage
 * hydrograph; `timed` when a slope is not 0: the bookkeeping then runs
 * first, alone); rows prefetched ahead, the RK2 stage, the ghost launch's
 * bookkeeping (0 none, 1 with the ghosts, 2 alone); the boundary tally's
 * order and weight. */
TS_PARAMS_STRUCT(ts_swe_phys) {
  long nx, ny, w, strip;
  long seg_lo[4], seg_hi[4];
  ts_real g, hdry, dx, dy, n, cfl, fixed_dt, max_dt;
  ts_real min_rate; /* the discharge ghosts' rate: a floor of the step's (swe_kernels.hpp) */
  ts_real bv[4];
  ts_real seg_v[4], seg_slope[4], seg_ta[4];
  ts_real weight;
  long tiles_x, tiles_y; /* the shared-face update's work-group tiles (dry skipping) */
  int bc[4];
  int seg_bc[4];
  int pf, stage, bookkeeping, timed, order;
  int skip; /* the shared-face update skips dry tiles (swe_kernel_list.h) */
};

/* The sources of the physical model (swe_source_point.h) over the interior
 * rectangle of ni x nj cells from (i0, j0), rows of w values: the depth rate
 * rate + slope (t - ta), NODATA from zwall, gravity, dry depth and spacings
 * (the wave rate), the losses (0 none, 1 constant `loss`, 2 Green-Ampt
 * with ks and suction). */
TS_PARAMS_STRUCT(ts_swe_src) {
  long ny, w, i0, j0, ni, nj;
  ts_real g, hdry, dx, dy;
  ts_real rate, slope, ta, zwall;
  ts_real loss, ks, suction;
  int losses;
  int field; /* the gridded rain R (m/s per cell) adds to the rate */
};

/* The cross-section tally (swe/section.hpp): n faces, the scheme's order
 * and the tally's weight (1 first order, 1/2 an RK2 stage). */
TS_PARAMS_STRUCT(ts_swe_secp) {
  long n, w;
  ts_real g, hdry, weight;
  int order;
};

/* The maximum maps (swe_source_point.h): nx x ny interior cells in rows of
 * w values, buffers of `size` values each; dry depth, arrival depth. */
TS_PARAMS_STRUCT(ts_swe_trackp) {
  long nx, ny, w, size;
  ts_real hdry, arrive;
};

#endif /* TESSERA_SWE_PARAMS_H */
