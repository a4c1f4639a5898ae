/* Per-point mathematics of the thesis-exact shallow-water model (C99 subset;
 * see core/kernels/portable.h). Shared by swe_cpu.cpp, swe.cl, swe_cuda.cu and
 * the sequential reference (swe/thesis.cpp).
 *
 * Stramare (PoliMi 2012), Alg. 2.2 / 4.1, exactly as coded, quirks included
 * (shallow-water-seed.md §1.3-1.4):
 *  - 0.25 four-neighbour average (the printed 1/2 of eq. 2.11 is a typo);
 *  - pressure term 0.5*9.8*Z (linear, not g Z^2 / 2);
 *  - cross fluxes Qx*Qy/Z differenced along i in the Qx update and along j in
 *    the Qy update (the wrong axes);
 *  - the Manning term S is computed by the thesis but never used, so it is
 *    not computed here (it cannot change a result).
 * Layout: (nx+2) x w arrays, cell (i, j) at i*w + j, w >= ny+2, one-cell
 * ghost frame; i is x (Qx), j is y (Qy) and contiguous.
 * k = dt / (2 dx), computed once by the host in ts_real exactly as the
 * thesis's per-cell expression dt/(2.0*dx) would. Summation orders follow the
 * C source, left to right, so every backend is bitwise identical. */
#include "core/kernels/portable.h"

/* The coded fluxes divide by a neighbour's Z: q^2/Z (the Fpx/Gpy type, plus
 * 0.5*9.8*Z) and Qx*Qy/Z (the Gpx/Fpy type). The quotients are taken apart
 * from the rest so that a kernel may divide once per cell (P = Qx^2/Z,
 * C = Qx*Qy/Z, Q = Qy^2/Z) and hand them to the four neighbours: the same
 * operations on the same values, so the same bits. */
TS_FN ts_real ts_swe_thesis_sq(ts_real q, ts_real z) { return q * q / z; }
TS_FN ts_real ts_swe_thesis_cross(ts_real qx, ts_real qy, ts_real z) { return qx * qy / z; }
TS_FN ts_real ts_swe_thesis_press_of(ts_real sq, ts_real z) {
  return sq + (ts_real)0.5 * (ts_real)9.8 * z;
}

/* One cell from its four neighbours' values and quotients (ip = i+1, im =
 * i-1, jp = j+1, jm = j-1; P: Qx^2/Z of ip, im; C: Qx*Qy/Z of all four;
 * Q: Qy^2/Z of jp, jm). */
TS_FN void ts_swe_thesis_cell_q(ts_real k, ts_real zip, ts_real zim, ts_real zjp, ts_real zjm,
                                ts_real xip, ts_real xim, ts_real xjp, ts_real xjm, ts_real yip,
                                ts_real yim, ts_real yjp, ts_real yjm, ts_real pip, ts_real pim,
                                ts_real cip, ts_real cim, ts_real cjp, ts_real cjm, ts_real qjp,
                                ts_real qjm, ts_real* z, ts_real* qx, ts_real* qy) {
  const ts_real q = (ts_real)0.25;
  *z = q * (zip + zim + zjp + zjm) - k * (xip - xim + yjp - yjm);
  const ts_real fpx = ts_swe_thesis_press_of(pip, zip), fmx = ts_swe_thesis_press_of(pim, zim);
  *qx = q * (xip + xim + xjp + xjm) - k * (fpx - fmx + cip - cim);
  const ts_real gpy = ts_swe_thesis_press_of(qjp, zjp), gmy = ts_swe_thesis_press_of(qjm, zjm);
  *qy = q * (yip + yim + yjp + yjm) - k * (cjp - cjm + gpy - gmy);
}

/* One cell from its four neighbours, dividing for each. */
TS_FN void ts_swe_thesis_cell(ts_real k, ts_real zip, ts_real zim, ts_real zjp, ts_real zjm,
                              ts_real xip, ts_real xim, ts_real xjp, ts_real xjm, ts_real yip,
                              ts_real yim, ts_real yjp, ts_real yjm, ts_real* z, ts_real* qx,
                              ts_real* qy) {
  ts_swe_thesis_cell_q(k, zip, zim, zjp, zjm, xip, xim, xjp, xjm, yip, yim, yjp, yjm,
                       ts_swe_thesis_sq(xip, zip), ts_swe_thesis_sq(xim, zim),
                       ts_swe_thesis_cross(xip, yip, zip), ts_swe_thesis_cross(xim, yim, zim),
                       ts_swe_thesis_cross(xjp, yjp, zjp), ts_swe_thesis_cross(xjm, yjm, zjm),
                       ts_swe_thesis_sq(yjp, zjp), ts_swe_thesis_sq(yjm, zjm), z, qx, qy);
}

/* The cell at flat index c of global arrays with row pitch w. */
TS_FN void ts_swe_thesis_at(TS_GLOBAL const ts_real* Z, TS_GLOBAL const ts_real* Qx,
                            TS_GLOBAL const ts_real* Qy, long c, long w, ts_real k, ts_real* z,
                            ts_real* qx, ts_real* qy) {
  ts_swe_thesis_cell(k, Z[c + w], Z[c - w], Z[c + 1], Z[c - 1], Qx[c + w], Qx[c - w], Qx[c + 1],
                     Qx[c - 1], Qy[c + w], Qy[c - w], Qy[c + 1], Qy[c - 1], z, qx, qy);
}

/* Reflective ghost frame ("bordo chiuso"), rows first (full length w, index j
 * of rows 0 and nx+1), then columns (full length nx+2, index i of columns 0
 * and ny+1), as the C listing orders its copyrow/copycolumn calls. Z: copy;
 * Qx: negated on rows, copied on columns; Qy: copied on rows, negated on
 * columns (the Fortran's copyinversecolumn; the C listing's "row" is a typo). */
TS_FN void ts_swe_thesis_ghost_row(TS_GLOBAL ts_real* Z, TS_GLOBAL ts_real* Qx,
                                   TS_GLOBAL ts_real* Qy, long nx, long w, long j) {
  const long lo = j, hi = (nx + 1) * w + j;
  Z[lo] = Z[lo + w];
  Z[hi] = Z[hi - w];
  Qx[lo] = -Qx[lo + w];
  Qx[hi] = -Qx[hi - w];
  Qy[lo] = Qy[lo + w];
  Qy[hi] = Qy[hi - w];
}

/* V1f4's row copy (thesis §4.5.5): columns 4q .. 4q+3 of both ghost rows,
 * corners and padding included (the GPU backends move them as one float4 or
 * double4; the columns are filled afterwards, in a second launch, so the
 * corners end as the thesis's row-then-column order leaves them). */
TS_FN void ts_swe_thesis_ghost_row4(TS_GLOBAL ts_real* Z, TS_GLOBAL ts_real* Qx,
                                    TS_GLOBAL ts_real* Qy, long nx, long w, long q) {
  for (long j = 4 * q; j < 4 * q + 4; ++j) ts_swe_thesis_ghost_row(Z, Qx, Qy, nx, w, j);
}

/* V6, the thesis's float4 SIMD stencil (§4.5.5): cells j0 .. j0+3 of a row
 * (j0 = 4q on rows padded to a multiple of 4) from windows the kernel loads
 * as 4-vectors: zr/xr/yr hold the row's own values j0-4 .. j0+7 (vectors
 * q-1, q, q+1: a cell's j-1 and j+1 are the neighbouring lanes, across the
 * vector edge at lanes 0 and 3), zn/xn/yn vector q of row i+1, zs/xs/ys of
 * row i-1. Every lane runs ts_swe_thesis_cell, so the bits are V1's. Lanes
 * outside 1..ny are not computed; bit l of the result says lane l was. */
TS_FN int ts_swe_thesis_simd4(ts_real k, const ts_real* zr, const ts_real* xr, const ts_real* yr,
                              const ts_real* zn, const ts_real* xn, const ts_real* yn,
                              const ts_real* zs, const ts_real* xs, const ts_real* ys, long j0,
                              long ny, ts_real* z4, ts_real* x4, ts_real* y4) {
  int mask = 0;
  for (int l = 0; l < 4; l++) {
    if (j0 + l < 1 || j0 + l > ny) continue;
    ts_swe_thesis_cell(k, zn[l], zs[l], zr[l + 5], zr[l + 3], xn[l], xs[l], xr[l + 5], xr[l + 3],
                       yn[l], ys[l], yr[l + 5], yr[l + 3], &z4[l], &x4[l], &y4[l]);
    mask |= 1 << l;
  }
  return mask;
}

TS_FN void ts_swe_thesis_ghost_col(TS_GLOBAL ts_real* Z, TS_GLOBAL ts_real* Qx,
                                   TS_GLOBAL ts_real* Qy, long ny, long w, long i) {
  const long lo = i * w, hi = i * w + ny + 1;
  Z[lo] = Z[lo + 1];
  Z[hi] = Z[hi - 1];
  Qx[lo] = Qx[lo + 1];
  Qx[hi] = Qx[hi - 1];
  Qy[lo] = -Qy[lo + 1];
  Qy[hi] = -Qy[hi - 1];
}

/* The four corners of the frame as the row-then-column order leaves them,
 * taken from the interior's corner cells directly (Z copied, both momenta
 * negated): the frame kernels, whose work-items fill rows and columns at
 * once, leave the corners to one of them and still give the sequential
 * frame's bits. */
TS_FN void ts_swe_thesis_ghost_corners(TS_GLOBAL ts_real* Z, TS_GLOBAL ts_real* Qx,
                                       TS_GLOBAL ts_real* Qy, long nx, long ny, long w) {
  const long corner[4] = {0, ny + 1, (nx + 1) * w, (nx + 1) * w + ny + 1};
  const long inside[4] = {w + 1, w + ny, nx * w + 1, nx * w + ny};
  for (int k = 0; k < 4; ++k) {
    Z[corner[k]] = Z[inside[k]];
    Qx[corner[k]] = -Qx[inside[k]];
    Qy[corner[k]] = -Qy[inside[k]];
  }
}

/* Interior cell (i, j) (1-based) with the reflective walls applied on the fly
 * instead of from a ghost frame: a missing neighbour takes the value the
 * frame would hold (Z and the tangential momentum copied, the normal one
 * negated), so the result is bitwise that of ghosts + ts_swe_thesis_at. */
TS_FN void ts_swe_thesis_at_walls(TS_GLOBAL const ts_real* Z, TS_GLOBAL const ts_real* Qx,
                                  TS_GLOBAL const ts_real* Qy, long i, long j, long nx, long ny,
                                  long w, ts_real k, ts_real* z, ts_real* qx, ts_real* qy) {
  const long c = i * w + j;
  const long ip = i < nx ? c + w : c, im = i > 1 ? c - w : c;
  const long jp = j < ny ? c + 1 : c, jm = j > 1 ? c - 1 : c;
  const ts_real sxp = i < nx ? (ts_real)1 : (ts_real)-1, sxm = i > 1 ? (ts_real)1 : (ts_real)-1;
  const ts_real syp = j < ny ? (ts_real)1 : (ts_real)-1, sym = j > 1 ? (ts_real)1 : (ts_real)-1;
  ts_swe_thesis_cell(k, Z[ip], Z[im], Z[jp], Z[jm], sxp * Qx[ip], sxm * Qx[im], Qx[jp], Qx[jm],
                     Qy[ip], Qy[im], syp * Qy[jp], sym * Qy[jm], z, qx, qy);
}
