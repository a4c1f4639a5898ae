/* The thesis-exact update with each quotient divided once per cell (variant
 * "strip-walls"; C99 subset, shared by swe.cl and swe_cuda.cu).
 * ts_swe_thesis_cell divides eight times per cell (Qx^2/Z, Qx*Qy/Z of i+-1;
 * Qx*Qy/Z, Qy^2/Z of j+-1), so each cell's quotients are divided four
 * times over, and on a GPU at 1000^2 (the state lives in L2) the divisions
 * are the cost. Here one work-item owns column j and marches down rows
 * i0..i1-1: when a row enters it divides P = Qx^2/Z, C = Qx*Qy/Z and
 * Q = Qy^2/Z once, keeps P, C for the rows i+-1 of its own column, and hands
 * (Z, Qx, Qy, C, Q) of its current row to the items of columns j+-1 through
 * local memory (one barrier per row, two alternating buffers). The walls are
 * applied as ts_swe_thesis_at_walls applies them (a missing neighbour is the
 * cell itself with the normal momentum negated), so no ghost frame is read
 * and the values are bitwise those of the other variants.
 * Work-group of nt items: columns j0-1 .. j0+nt-2 (1-based); its first and
 * last items only publish. Every item runs the same rows (barriers). */
/* needs swe_point.h, included (once per ts_real) by swe_tiles.h before this file */

/* Row r (1-based) of column jc with the walls: rows 0 and nx+1 mirror rows 1
 * and nx with Qx negated; ys negates Qy for a mirrored column. */
TS_FN void ts_swe_thesis_row_at(TS_GLOBAL const ts_real* Zs, TS_GLOBAL const ts_real* Xs,
                                TS_GLOBAL const ts_real* Ys, long nx, long w, long jc, ts_real ys,
                                long r, ts_real* z, ts_real* x, ts_real* y) {
  const ts_real xs = r < 1 || r > nx ? (ts_real)-1 : (ts_real)1;
  const long c = (r < 1 ? 1 : (r > nx ? nx : r)) * w + jc;
  *z = Zs[c];
  *x = xs * Xs[c];
  *y = ys * Ys[c];
}

#define TS_SWE_TX(p, k) (((p)*5 + (k)) * nt)
TS_FN void ts_swe_thesis_strip(TS_GLOBAL const ts_real* Zs, TS_GLOBAL const ts_real* Xs,
                               TS_GLOBAL const ts_real* Ys, TS_GLOBAL ts_real* Zd,
                               TS_GLOBAL ts_real* Xd, TS_GLOBAL ts_real* Yd, long nx, long ny,
                               long w, ts_real k, long j, long i0, long i1, int t, int nt,
                               TS_LOCAL ts_real* S) {
  const int own = t > 0 && t < nt - 1 && j >= 1 && j <= ny;
  const long jc = j < 1 ? 1 : (j > ny ? ny : j);
  const ts_real ys = j < 1 || j > ny ? (ts_real)-1 : (ts_real)1; /* the wall columns */
  const int tn = t + 1 < nt ? t + 1 : t, ts = t > 0 ? t - 1 : t;
  /* rows i0-1 (m), i0 (0), i0+1 (p) with their quotients; row i0+2 in flight (n) */
  ts_real zm, xm, ym, z0, x0, y0, zp, xp, yp, zn, xn, yn;
  ts_swe_thesis_row_at(Zs, Xs, Ys, nx, w, jc, ys, i0 - 1, &zm, &xm, &ym);
  ts_swe_thesis_row_at(Zs, Xs, Ys, nx, w, jc, ys, i0, &z0, &x0, &y0);
  ts_swe_thesis_row_at(Zs, Xs, Ys, nx, w, jc, ys, i0 + 1, &zp, &xp, &yp);
  ts_swe_thesis_row_at(Zs, Xs, Ys, nx, w, jc, ys, i0 + 2, &zn, &xn, &yn);
  ts_real pm = ts_swe_thesis_sq(xm, zm), cm = ts_swe_thesis_cross(xm, ym, zm);
  ts_real p0 = ts_swe_thesis_sq(x0, z0), c0 = ts_swe_thesis_cross(x0, y0, z0);
  ts_real q0 = ts_swe_thesis_sq(y0, z0);
  ts_real pp = ts_swe_thesis_sq(xp, zp), cp = ts_swe_thesis_cross(xp, yp, zp);
  ts_real qp = ts_swe_thesis_sq(yp, zp);
  int p = 0;
  for (long i = i0; i < i1; ++i, p ^= 1) {
    ts_real za, xa, ya; /* row i+3, in flight while this row is computed */
    ts_swe_thesis_row_at(Zs, Xs, Ys, nx, w, jc, ys, i + 3, &za, &xa, &ya);
    S[TS_SWE_TX(p, 0) + t] = z0;
    S[TS_SWE_TX(p, 1) + t] = x0;
    S[TS_SWE_TX(p, 2) + t] = y0;
    S[TS_SWE_TX(p, 3) + t] = c0;
    S[TS_SWE_TX(p, 4) + t] = q0;
    TS_BARRIER();
    ts_real z, qx, qy;
    ts_swe_thesis_cell_q(k, zp, zm, S[TS_SWE_TX(p, 0) + tn], S[TS_SWE_TX(p, 0) + ts], xp, xm,
                         S[TS_SWE_TX(p, 1) + tn], S[TS_SWE_TX(p, 1) + ts], yp, ym,
                         S[TS_SWE_TX(p, 2) + tn], S[TS_SWE_TX(p, 2) + ts], pp, pm, cp, cm,
                         S[TS_SWE_TX(p, 3) + tn], S[TS_SWE_TX(p, 3) + ts], S[TS_SWE_TX(p, 4) + tn],
                         S[TS_SWE_TX(p, 4) + ts], &z, &qx, &qy);
    if (own) {
      const long c = i * w + j;
      Zd[c] = z;
      Xd[c] = qx;
      Yd[c] = qy;
    }
    /* rotate: the row below enters and is divided once */
    zm = z0, xm = x0, ym = y0, pm = p0, cm = c0;
    z0 = zp, x0 = xp, y0 = yp, p0 = pp, c0 = cp, q0 = qp;
    zp = zn, xp = xn, yp = yn;
    pp = ts_swe_thesis_sq(xp, zp), cp = ts_swe_thesis_cross(xp, yp, zp),
    qp = ts_swe_thesis_sq(yp, zp);
    zn = za, xn = xa, yn = ya;
  }
}
#undef TS_SWE_TX
