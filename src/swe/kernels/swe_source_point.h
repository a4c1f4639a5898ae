/* Sources and losses of the physical shallow-water model, per cell, after a
 * step's hydrodynamic update (operator splitting; C99 subset, shared by the
 * CPU, OpenCL and CUDA kernels of swe_kernel_list.h).
 *
 * Water arrives at the depth rate s(t) = rate + slope (t - ta) [m/s] (rain:
 * the hyetograph's intensity, constant over a row, slope 0; an inflow
 * hydrograph Q(t) / area, linear between rows). It is evaluated at the
 * step's midpoint, so over a step that lies within one row of the series
 * s dt is the exact integral (the driver ends steps at the rows' times).
 * A gridded rain adds its cell's rate (cell_rate, m/s; 0 without one).
 * It arrives without momentum (hu, hv unchanged).
 * Losses (infiltration) then take up to their capacity over the step of the
 * water the cell holds; what they take is added to F, the depth infiltrated
 * so far (kept per cell):
 *   constant:   loss dt;
 *   Green-Ampt: the dF of backward Euler on dF/dt = ks (1 + S / F), S = psi
 *     dtheta (the suction term at the step's end, F + dF): the positive root
 *     of dF^2 + (F - ks dt) dF - ks dt (F + S) = 0. It needs no floor at F = 0
 *     (where the rate is infinite), is first order in dt (the exact ponded
 *     F(t) solves ks t = F - S ln(1 + F / S); tests compare), and uses only
 *     correctly rounded operations (sqrt, /), so every backend gives the same
 *     bits; the root is taken in the form without cancellation.
 * NODATA cells (Z >= zwall, high ground) get and lose nothing. A cell left at
 * or below the dry depth keeps no momentum. */
#include "core/kernels/portable.h"
/* after swe_hll_point.h (swe_kernel_list.h includes it first, through
 * swe_strip.h; the point headers are included once per precision, unguarded) */

TS_FN ts_real ts_swe_green_ampt(ts_real F, ts_real kdt, ts_real suction) {
  const ts_real b = F - kdt, c = kdt * (F + suction), r = sqrt(b * b + (ts_real)4 * c);
  return b >= (ts_real)0 ? (ts_real)2 * c / (b + r) : (r - b) * (ts_real)0.5;
}

TS_FN void ts_swe_source_cell(ts_real dt, ts_real t_mid, ts_real rate, ts_real slope, ts_real ta,
                              ts_real cell_rate, ts_real zwall, int losses, ts_real loss,
                              ts_real ks, ts_real suction, ts_real hdry, ts_real z, ts_real* h,
                              ts_real* hu, ts_real* hv, ts_real* F) {
  if (!(z < zwall)) return;
  ts_real d = *h + (rate + slope * (t_mid - ta) + cell_rate) * dt;
  if (losses != 0) {
    const ts_real cap = losses == 1 ? loss * dt : ts_swe_green_ampt(*F, ks * dt, suction);
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

/* The mass flux [m^2/s, along +axis] through the face between cell l and
 * l + s as the step's update computes it: first order ts_swe_face1, second
 * order ts_swe_face2 (same inputs, same bits). QN: the momentum normal to
 * the face. */
TS_FN ts_real ts_swe_face_mass_flux(int order, ts_real g, ts_real hdry, TS_GLOBAL const ts_real* H,
                                    TS_GLOBAL const ts_real* QN, TS_GLOBAL const ts_real* QT,
                                    TS_GLOBAL const ts_real* Z, long l, long s) {
  ts_real fh, dl, dr, ft;
  if (order == 1)
    ts_swe_face1(g, hdry, H, QN, QT, Z, l, l + s, &fh, &dl, &dr, &ft);
  else
    ts_swe_face2(g, hdry, H, QN, QT, Z, l, s, &fh, &dl, &dr, &ft);
  return fh;
}

/* sum += v with Kahan's compensation (the volume through a boundary face
 * over a long run: many small terms) */
TS_FN void ts_swe_kahan_add(TS_GLOBAL ts_real* sum, TS_GLOBAL ts_real* comp, ts_real v) {
  const ts_real y = v - *comp, t = *sum + y;
  *comp = (t - *sum) - y;
  *sum = t;
}

/* The kind and value of a side's boundary at cell k along it: its segment's
 * where lo <= k < hi (the value at time tm when the segment is timed), else
 * the side's (*bc, *value unchanged). */
TS_FN void ts_swe_segment(long k, long lo, long hi, int kind, ts_real v, ts_real slope, ts_real ta,
                          int timed, ts_real tm, int* bc, ts_real* value) {
  if (k >= lo && k < hi) {
    *bc = kind;
    *value = timed ? v + slope * (tm - ta) : v;
  }
}

/* The maximum maps after a step ending at time t: the largest depth and
 * when it came, the largest speed, and the first time the depth exceeded
 * `arrive` (tarr < 0: not yet). */
TS_FN void ts_swe_track(ts_real t, ts_real arrive, ts_real hdry, ts_real h, ts_real hu, ts_real hv,
                        ts_real* hmax, ts_real* tmax, ts_real* smax, ts_real* tarr) {
  if (h > *hmax) {
    *hmax = h;
    *tmax = t;
  }
  const ts_real s = h > hdry ? sqrt(hu * hu + hv * hv) / h : (ts_real)0;
  if (s > *smax) *smax = s;
  if (*tarr < (ts_real)0 && h > arrive) *tarr = t;
}
