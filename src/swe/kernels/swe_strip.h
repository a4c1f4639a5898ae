/* The bandwidth-oriented first-order update, written once for the OpenCL and
 * CUDA launchers (the CPU reference computes every face per cell with
 * ts_swe_cell1; the values are identical because every face is
 * ts_swe_face_core of the same inputs).
 * One work-item owns column j and marches down rows i0..i1-1 (a "strip"):
 *  - its own cell and the next row live in registers (h, u, v, z), so each
 *    velocity is divided out once, and the x-face below a cell is the face
 *    above the previous one (reused, not recomputed);
 *  - rows are loaded three iterations ahead (a register ring), so a
 *    work-item keeps three rows of loads in flight while it computes (4-byte
 *    loads alone do not fill HBM3e's queues, anchors §4.3);
 *  - neighbours j +- 1 come from the cache lines the adjacent work-items of
 *    the same row load (L1), not from DRAM.
 * Each value crosses DRAM about once per step: 28 B/cell in FP32 (h, hu, hv
 * read and written, z read), 56 B in FP64, plus one row per strip. */
#include "swe_hll_point.h"

TS_FN void ts_swe_strip1(ts_real g, ts_real hdry, ts_real dx, ts_real dy, ts_real n, ts_real dt,
                         TS_GLOBAL const ts_real* H, TS_GLOBAL const ts_real* HU,
                         TS_GLOBAL const ts_real* HV, TS_GLOBAL const ts_real* Z,
                         TS_GLOBAL const ts_real* N, TS_GLOBAL ts_real* Hd, TS_GLOBAL ts_real* HUd,
                         TS_GLOBAL ts_real* HVd, long nx, long ny, long w, long j, long i0, long i1,
                         unsigned int* rmax, unsigned int* bad) {
  long c = (i0 + 2) * w + j + 2;
  const ts_real rx = dt / dx, ry = dt / dy;
  /* the row above the strip, the first row, and the next one in flight */
  const ts_real ha = H[c - w];
  ts_real h0 = H[c], hu0 = HU[c], hv0 = HV[c], z0 = Z[c];
  ts_real h1 = H[c + w], hu1 = HU[c + w], hv1 = HV[c + w], z1 = Z[c + w];
  const long c2 = (i0 + 1 < nx ? i0 + 4 : nx + 3) * w + j + 2; /* row i0+2, clamped */
  ts_real h2 = H[c2], hu2 = HU[c2], hv2 = HV[c2], z2 = Z[c2];
  ts_real u0 = ts_swe_vel(h0, hu0, hdry), v0 = ts_swe_vel(h0, hv0, hdry);
  ts_real w_h, w_l, w_r, w_t;
  ts_swe_face_core(g, hdry, ha, ts_swe_vel(ha, HU[c - w], hdry), ts_swe_vel(ha, HV[c - w], hdry),
                   Z[c - w], h0, u0, v0, z0, &w_h, &w_l, &w_r, &w_t);
  for (long i = i0; i < i1; ++i, c += w) {
    /* row i+3, clamped to the last ghost row (rows past nx+1 are never used) */
    const long c3 = (i + 3 <= nx + 1 ? i + 5 : nx + 3) * w + j + 2;
    const ts_real h3 = H[c3], hu3 = HU[c3], hv3 = HV[c3], z3 = Z[c3];
    const ts_real u1 = ts_swe_vel(h1, hu1, hdry), v1 = ts_swe_vel(h1, hv1, hdry);
    const ts_real hn = H[c + 1], hs = H[c - 1];
    ts_real e_h, e_l, e_r, e_t, n_h, n_l, n_r, n_t, s_h, s_l, s_r, s_t, h, hu, hv;
    ts_swe_face_core(g, hdry, h0, u0, v0, z0, h1, u1, v1, z1, &e_h, &e_l, &e_r, &e_t);
    ts_swe_face_core(g, hdry, h0, v0, u0, z0, hn, ts_swe_vel(hn, HV[c + 1], hdry),
                     ts_swe_vel(hn, HU[c + 1], hdry), Z[c + 1], &n_h, &n_l, &n_r, &n_t);
    ts_swe_face_core(g, hdry, hs, ts_swe_vel(hs, HV[c - 1], hdry), ts_swe_vel(hs, HU[c - 1], hdry),
                     Z[c - 1], h0, v0, u0, z0, &s_h, &s_l, &s_r, &s_t);
    ts_swe_combine(rx, ry, h0, hu0, hv0, e_h, e_l, e_t, w_h, w_r, w_t, n_h, n_l, n_t, s_h, s_r, s_t,
                   &h, &hu, &hv);
    if (ts_swe_finish(g, ts_swe_manning(n < (ts_real)0, n, N, c), dt, hdry, &h, &hu, &hv)) {
      const unsigned int cell = (unsigned int)(i * ny + j);
      *bad = cell < *bad ? cell : *bad;
    }
    Hd[c] = h;
    HUd[c] = hu;
    HVd[c] = hv;
    const unsigned int r = ts_swe_rate_bits(ts_swe_rate(g, hdry, dx, dy, h, hu, hv));
    *rmax = r > *rmax ? r : *rmax;
    w_h = e_h;
    w_r = e_r;
    w_t = e_t;
    h0 = h1, hu0 = hu1, hv0 = hv1, z0 = z1, u0 = u1, v0 = v1;
    h1 = h2, hu1 = hu2, hv1 = hv2, z1 = z2;
    h2 = h3, hu2 = hu3, hv2 = hv3, z2 = z3;
  }
}

/* The update with each face computed once per step: one work-item per column
 * (as ts_swe_strip1), but the y-face between columns j and j+1 is computed by
 * the work-item of column j only and handed to the work-item of j+1 through
 * local memory, and the neighbour's state (h, u, v, z) comes from local
 * memory too, so every velocity is divided out once. Per cell: two faces
 * (east x-face and north y-face), one reciprocal for both velocities, one
 * rate, against three faces and six velocities in ts_swe_strip1. Values are
 * identical (same ts_swe_face_k inputs, IEEE reciprocals and roots).
 * The work-group of nt items covers columns j0-1 .. j0+nt-2: its first and
 * last items only publish their state (they own no cell). Per row one barrier:
 * items publish (north face, next row's state) into one of two buffers
 * (parity p, records below) and read their neighbours' after the barrier; the buffer
 * alternates, so a slow reader of row i never sees row i+2's writes.
 * Every item of the group runs the same rows (no early exit: barriers).
 *
 * Instruction diet (Nsight Compute, H100: issue-bound in FP32 until the cuts
 * below, then latency-bound like FP64; docs/swe-history.md has the steps):
 *  - rows live in a ring of four register sets R[k] = (h, hu, hv, z), and the
 *    row loop is unrolled by four, so the ring rotates by renaming instead of
 *    register moves (a move right after the loads it copies stalled every
 *    row on DRAM latency); row i+4 is loaded into the slot row i frees, three
 *    rows ahead. Strips are padded to a multiple of four rows: the extra
 *    rows are computed and not stored;
 *  - reciprocals and roots take the branch-free sequences of ieee_fast.h;
 *    a cell whose operands leave their range is recomputed with the IEEE
 *    operations (never, in practice), so results stay bitwise;
 *  - rows whose faces are all wet (ts_swe_all_wet) take the faces without
 *    wet/dry selects. */
/* The exchange buffer: for each parity p two arrays of nt four-value
 * records, a work-item's north face (fh, dl, dr, ft; the neighbour reads fh,
 * dr, ft) and its next row's state (h, u, v, z). A record is contiguous and
 * 4-value aligned, so each is one vector store and one vector load (the
 * buffer is declared 16-byte aligned) instead of seven scalar ones. */
#define TS_SWE_XF(p, t) ((((p)*2) * nt + (t)) * 4)
#define TS_SWE_XS(p, t) ((((p)*2 + 1) * nt + (t)) * 4)
/* Storage offsets of the shared-face update are 32-bit (one multiply-add per
 * address instead of 64-bit arithmetic): its launchers take it only for
 * grids of fewer than 2^32 stored values (ts_swe_shared_fits). */
#define TS_SWE_OFF unsigned int

/* The velocities of the next row (nv), the north face (shared with the
 * neighbour: fh, dl, dr, ft) and the east face of the current row. wet (a
 * literal): ts_swe_all_wet holds, so the wet/dry selects fold away. */
TS_FN void ts_swe_shared_faces(ts_real g, ts_real hdry, const ts_real* cur, const ts_real* cv,
                               const ts_real* nxt, const ts_real* nb, int fast, int wet,
                               ts_real* gs, ts_real* gl, ts_real* nv, ts_real* fn, ts_real* fe) {
  ts_swe_vel2(nxt[0], nxt[1], nxt[2], hdry, fast, wet, gs, &nv[0], &nv[1]);
  ts_swe_face_k(g, hdry, cur[0], cv[1], cv[0], cur[3], nb[0], nb[2], nb[1], nb[3], fast, wet, gs,
                gl, &fn[0], &fn[1], &fn[2], &fn[3]);
  ts_swe_face_k(g, hdry, cur[0], cv[0], cv[1], cur[3], nxt[0], nv[0], nv[1], nxt[3], fast, wet, gs,
                gl, &fe[0], &fe[1], &fe[2], &fe[3]);
}

/* Both faces of a row wet on both sides and the next row wet: the common case
 * away from fronts, where a work-item takes the faces without wet/dry selects
 * (a branch, uniform over a warp except at fronts). The depths are the
 * faces' own expressions, which the compilers share with them. */
TS_FN int ts_swe_all_wet(ts_real hdry, const ts_real* cur, const ts_real* nxt, const ts_real* nb) {
  ts_real nl, nr, el, er;
  ts_swe_face_depths(cur[0], cur[3], nb[0], nb[3], &nl, &nr);
  ts_swe_face_depths(cur[0], cur[3], nxt[0], nxt[3], &el, &er);
  return ts_swe_min(ts_swe_min(nl, nr), ts_swe_min(el, er)) > hdry && nxt[0] > hdry;
}

/* Row i (storage offset c) of the column: cur = (h, hu, hv, z) of row i, nxt
 * of row i+1, cv / nv the velocities of rows i / i+1 (nv is written), we the
 * x-face above row i on entry and below it on return (fh, dl, dr, ft), nb the
 * right neighbour's (h, u, v, z) of row i on entry and of row i+1 on return.
 * Then cur takes row i+4 from storage offset c4, and with pf the row at
 * storage offset cp (pf rows ahead) is asked into the cache. */
TS_FN void ts_swe_shared_row(ts_real g, ts_real hdry, int map, ts_real n, ts_real dt, ts_real rx,
                             ts_real ry, ts_real idx, ts_real idy, ts_real gl0,
                             TS_GLOBAL const ts_real* H, TS_GLOBAL const ts_real* HU,
                             TS_GLOBAL const ts_real* HV, TS_GLOBAL const ts_real* Z,
                             TS_GLOBAL const ts_real* N, TS_GLOBAL ts_real* Hd,
                             TS_GLOBAL ts_real* HUd, TS_GLOBAL ts_real* HVd, long ny, long i,
                             TS_SWE_OFF c, TS_SWE_OFF c4, int pf, TS_SWE_OFF cp, int store, long j,
                             int t, int tn, int ts, int nt, int p, TS_LOCAL ts_real* S,
                             ts_real* cur, const ts_real* nxt, const ts_real* cv, ts_real* nv,
                             ts_real* we, ts_real* nb, unsigned int* rmax, unsigned int* bad) {
  /* the guard sums start at -0: -0 + x is x for every x, so the first
   * addition folds away (from +0 it would not: +0 + -0 is +0) */
  ts_real fn[4], fe[4], gs = (ts_real)-0.0, gl = gl0;
  if (ts_swe_all_wet(hdry, cur, nxt, nb))
    ts_swe_shared_faces(g, hdry, cur, cv, nxt, nb, 1, 1, &gs, &gl, nv, fn, fe);
  else
    ts_swe_shared_faces(g, hdry, cur, cv, nxt, nb, 1, 0, &gs, &gl, nv, fn, fe);
  if (!ts_fast_ok(gs, gl))
    ts_swe_shared_faces(g, hdry, cur, cv, nxt, nb, 0, 0, &gs, &gl, nv, fn, fe);
  TS_UNROLL for (int k = 0; k < 4; ++k) S[TS_SWE_XF(p, t) + k] = fn[k];
  S[TS_SWE_XS(p, t) + 0] = nxt[0];
  S[TS_SWE_XS(p, t) + 1] = nv[0];
  S[TS_SWE_XS(p, t) + 2] = nv[1];
  S[TS_SWE_XS(p, t) + 3] = nxt[3];
  TS_BARRIER();
  ts_real fs[4];
  TS_UNROLL for (int k = 0; k < 4; ++k) fs[k] = S[TS_SWE_XF(p, ts) + k];
  const ts_real s_h = fs[0], s_r = fs[2], s_t = fs[3];
  TS_UNROLL for (int k = 0; k < 4; ++k) nb[k] = S[TS_SWE_XS(p, tn) + k];
  ts_real h, hu, hv;
  ts_swe_combine(rx, ry, cur[0], cur[1], cur[2], fe[0], fe[1], fe[3], we[0], we[2], we[3], fn[0],
                 fn[1], fn[3], s_h, s_r, s_t, &h, &hu, &hv);
  /* row i is done with: the slot takes row i+4 */
  cur[0] = H[c4], cur[1] = HU[c4], cur[2] = HV[c4], cur[3] = Z[c4];
  if (pf) {
    TS_PREFETCH(H + cp);
    TS_PREFETCH(HU + cp);
    TS_PREFETCH(HV + cp);
    TS_PREFETCH(Z + cp);
  }
  const int sick = ts_swe_finish(g, ts_swe_manning(map, n, N, (long)c), dt, hdry, &h, &hu, &hv);
  if (store) {
    if (sick) {
      const unsigned int cell = (unsigned int)(i * ny + j);
      *bad = cell < *bad ? cell : *bad;
    }
    Hd[c] = h;
    HUd[c] = hu;
    HVd[c] = hv;
    ts_real rs = (ts_real)-0.0;
    ts_real r = ts_swe_rate_k(g, hdry, idx, idy, h, hu, hv, 1, &rs);
    if (!ts_fast_ok(rs, gl0)) r = ts_swe_rate_k(g, hdry, idx, idy, h, hu, hv, 0, &rs);
    const unsigned int rb = ts_swe_rate_bits(r);
    *rmax = rb > *rmax ? rb : *rmax;
  }
  we[0] = fe[0], we[1] = fe[1], we[2] = fe[2], we[3] = fe[3];
}

TS_FN void ts_swe_strip_shared(ts_real g, ts_real hdry, ts_real dx, ts_real dy, int map, ts_real n,
                               ts_real dt, TS_GLOBAL const ts_real* H, TS_GLOBAL const ts_real* HU,
                               TS_GLOBAL const ts_real* HV, TS_GLOBAL const ts_real* Z,
                               TS_GLOBAL const ts_real* N, TS_GLOBAL ts_real* Hd,
                               TS_GLOBAL ts_real* HUd, TS_GLOBAL ts_real* HVd, long nx, long ny,
                               long w, long j, long i0, long i1, int t, int nt, int pf,
                               TS_LOCAL ts_real* S, unsigned int* rmax, unsigned int* bad) {
  const int own = t > 0 && t < nt - 1 && j >= 0 && j < ny;
  const long jc = j < -1 ? -1 : (j > ny ? ny : j); /* ghost columns -1 and ny exist */
  const int tn = t + 1 < nt ? t + 1 : t, ts = t > 0 ? t - 1 : t;
  const ts_real rx = dt / dx, ry = dt / dy, idx = (ts_real)1 / dx, idy = (ts_real)1 / dy;
  const ts_real gl0 = ts_swe_guard0(g, hdry);
  /* storage offsets of row i0 and of the last ghost row (loads past it clamp) */
  const TS_SWE_OFF ww = (TS_SWE_OFF)w, clast = (TS_SWE_OFF)((nx + 3) * w + jc + 2),
                   pfw = (TS_SWE_OFF)pf * ww;
  TS_SWE_OFF c = (TS_SWE_OFF)((i0 + 2) * w + jc + 2);
  ts_real R[4][4], V[2][2], W[4], NB[4];
  TS_UNROLL for (int k = 0; k < 4; ++k) {
    const TS_SWE_OFF ck = c + k * ww < clast ? c + k * ww : clast;
    R[k][0] = H[ck], R[k][1] = HU[ck], R[k][2] = HV[ck], R[k][3] = Z[ck];
  }
  ts_real gs = 0;
  ts_swe_vel2(R[0][0], R[0][1], R[0][2], hdry, 0, 0, &gs, &V[0][0], &V[0][1]);
  {
    const ts_real ha = H[c - w];
    ts_swe_face_core(g, hdry, ha, ts_swe_vel(ha, HU[c - w], hdry), ts_swe_vel(ha, HV[c - w], hdry),
                     Z[c - w], R[0][0], V[0][0], V[0][1], R[0][3], &W[0], &W[1], &W[2], &W[3]);
  }
  /* the first row's state, for the neighbour on the left */
  S[TS_SWE_XS(0, t) + 0] = R[0][0];
  S[TS_SWE_XS(0, t) + 1] = V[0][0];
  S[TS_SWE_XS(0, t) + 2] = V[0][1];
  S[TS_SWE_XS(0, t) + 3] = R[0][3];
  TS_BARRIER();
  TS_UNROLL for (int k = 0; k < 4; ++k) NB[k] = S[TS_SWE_XS(0, tn) + k];
  /* rows counted in 32 bits: the store test is one compare */
  const int rows = (int)(i1 - i0);
  for (int r = 0; r < rows; r += 4) {
    TS_UNROLL for (int k = 0; k < 4; ++k) {
      const TS_SWE_OFF ci = c + k * ww, c4 = ci + 4 * ww < clast ? ci + 4 * ww : clast;
      const TS_SWE_OFF cp = ci + pfw < clast ? ci + pfw : clast;
      ts_swe_shared_row(g, hdry, map, n, dt, rx, ry, idx, idy, gl0, H, HU, HV, Z, N, Hd, HUd, HVd,
                        ny, i0 + r + k, ci, c4, pf, cp, own && r + k < rows, j, t, tn, ts, nt,
                        (k + 1) & 1, S, R[k], R[(k + 1) & 3], V[k & 1], V[(k + 1) & 1], W, NB, rmax,
                        bad);
    }
    c += 4 * ww;
  }
}
#undef TS_SWE_XF
#undef TS_SWE_XS
#undef TS_SWE_OFF
