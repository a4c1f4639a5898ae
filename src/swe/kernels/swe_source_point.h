/* Sources and losses of the physical shallow-water model, per cell, after a
 * step's hydrodynamic update (operator splitting; C99 subset, shared by the
 * CPU, OpenCL and CUDA kernels of swe_kernel_list.h).
 *
 * Water arrives at the depth rate s(t) = rate + slope (t - ta) [m/s] (rain:
 * the hyetograph's intensity, constant over a row, slope 0; an inflow
 * hydrograph Q(t) / area, linear between rows). It is evaluated at the
 * step's midpoint, so over a step that lies within one row of the series
 * s dt is the exact integral (the driver ends steps at the rows' times).
 * It arrives without momentum (hu, hv unchanged).
 * Losses (infiltration) then take up to
 *   constant:   loss dt
 *   Green-Ampt: ks (1 + suction / max(F, TS_SWE_GA_FMIN)) dt, suction = psi dtheta
 * (explicit in time, F the depth infiltrated so far, kept per cell) of the
 * water the cell holds; what they take is added to F. NODATA cells (Z >=
 * zwall, high ground) get and lose nothing. A cell left at or below the dry
 * depth keeps no momentum. */
#include "core/kernels/portable.h"

#ifndef TS_SWE_GA_FMIN
#define TS_SWE_GA_FMIN 1e-6 /* m: the infiltrated depth below which Green-Ampt's rate is capped */
#endif

TS_FN void ts_swe_source_cell(ts_real dt, ts_real t_mid, ts_real rate, ts_real slope, ts_real ta,
                              ts_real zwall, int losses, ts_real loss, ts_real ks, ts_real suction,
                              ts_real hdry, ts_real z, ts_real* h, ts_real* hu, ts_real* hv,
                              ts_real* F) {
  if (!(z < zwall)) return;
  ts_real d = *h + (rate + slope * (t_mid - ta)) * dt;
  if (losses != 0) {
    const ts_real cap = losses == 1
                            ? loss * dt
                            : ks * ((ts_real)1 + suction / fmax(*F, (ts_real)TS_SWE_GA_FMIN)) * dt;
    const ts_real taken = fmin(d, cap);
    d = d - taken;
    *F = *F + taken;
  }
  *h = d;
  if (!(d > hdry)) {
    *hu = (ts_real)0;
    *hv = (ts_real)0;
  }
}
