/* Per-point mathematics of the physical shallow-water model (C99 subset; see
 * core/kernels/portable.h). Shared by swe_cpu.cpp, swe.cl and swe_cuda.cu.
 *
 * Conservative SWE with bathymetry z: h_t + (hu)_x + (hv)_y = 0,
 * (hu)_t + (hu^2 + g h^2/2)_x + (huv)_y = -g h z_x - friction, likewise hv.
 * Finite volumes, HLL fluxes (Davis speeds, dry-front speeds u +- 2c) on the
 * hydrostatic reconstruction of Audusse et al. (2004): at a face,
 * z* = max(zL, zR), h*L = max(0, hL + zL - z*), h*R likewise. This is
 * well-balanced (lake at rest) and keeps h >= 0 under the CFL condition.
 * A face returns the mass flux fh, the normal-momentum flux already combined
 * with the hydrostatic correction for the left cell (dl = F - g h*L^2/2) and
 * the right cell (dr = F - g h*R^2/2), written so that a lake at rest gives
 * exactly zero, and the tangential flux ft: the mass flux times the upwind
 * side's tangential velocity (HLLC's contact treatment). Second order: minmod (MUSCL)
 * reconstruction of h, eta = h + z, u, v and the centred bed-slope term.
 * Manning friction is implicit (backward Euler, solved exactly) and pointwise:
 * ts_swe_friction. */
#include "core/kernels/ieee_fast.h"
#include "core/kernels/portable.h"
#include "swe_hll_consts.h"

/* 1/x and sqrt(x), correctly rounded either way: fast = 1 takes the
 * branch-free GPU sequences of ieee_fast.h and notes the operand in the
 * cell's guard (gs, gl); the caller recomputes with fast = 0 when the guard
 * fails. A literal `fast` lets the compilers drop the other form. The _pos
 * forms take operands that are >= TS_FAST_LO by construction (a wet depth,
 * g times one: the kernels check h_dry and g once) or NaN. */
TS_FN ts_real ts_swe_rcp(ts_real x, int fast, ts_real* gs, ts_real* gl) {
  return fast ? ts_rcp_fast(x, gs, gl) : (ts_real)1 / x;
}
TS_FN ts_real ts_swe_rcp_pos(ts_real x, int fast, ts_real* gs) {
  return fast ? ts_rcp_fast_pos(x, gs) : (ts_real)1 / x;
}
TS_FN ts_real ts_swe_sqrt_pos(ts_real x, int fast, ts_real* gs) {
  return fast ? ts_sqrt_fast_pos(x, gs) : sqrt(x);
}
/* The guard's starting low end: TS_FAST_HI when h_dry and g make every _pos
 * operand >= TS_FAST_LO, else 0 (every cell takes the IEEE operations). */
TS_FN ts_real ts_swe_guard0(ts_real g, ts_real hdry) {
  const ts_real lo = TS_FAST_LO(ts_real);
  return hdry >= lo && g >= lo && g * hdry >= (ts_real)2 * lo ? TS_FAST_HI(ts_real) : (ts_real)0;
}

/* Velocity q/h of a wet cell as q * (1/h): one reciprocal serves both
 * components (0 when dry). */
TS_FN ts_real ts_swe_vel(ts_real h, ts_real q, ts_real hdry) {
  return h > hdry ? q * ((ts_real)1 / h) : (ts_real)0;
}
TS_FN void ts_swe_vel2(ts_real h, ts_real hu, ts_real hv, ts_real hdry, int fast, int known_wet,
                       ts_real* gs, ts_real* u, ts_real* v) {
  const int wet = known_wet || h > hdry;
  const ts_real ih = ts_swe_rcp_pos(wet ? h : (ts_real)1, fast, gs);
  *u = wet ? hu * ih : (ts_real)0;
  *v = wet ? hv * ih : (ts_real)0;
}

/* max and min of the faces: fmax/fmin in single precision (one instruction
 * on GPUs); in double a comparison and a select, since GPUs have no double
 * min/max instruction and fmax's NaN rules cost five (the same expression on
 * every backend, so the bits agree). */
TS_FN ts_real ts_swe_max(ts_real a, ts_real b) {
  return sizeof(ts_real) == 4 ? fmax(a, b) : (a > b ? a : b);
}
TS_FN ts_real ts_swe_min(ts_real a, ts_real b) {
  return sizeof(ts_real) == 4 ? fmin(a, b) : (a < b ? a : b);
}
/* max(x, 0) and min(x, 0). In double the compilers turn x > 0 ? x : 0 into
 * fmax and expand it to six instructions; the mirrored comparison keeps the
 * three of a compare and select (it passes NaN and -0 through, the same on
 * every backend). */
TS_FN ts_real ts_swe_max0(ts_real x) {
  return sizeof(ts_real) == 4 ? fmax(x, (ts_real)0) : (x < (ts_real)0 ? (ts_real)0 : x);
}
TS_FN ts_real ts_swe_min0(ts_real x) {
  return sizeof(ts_real) == 4 ? fmin(x, (ts_real)0) : (x > (ts_real)0 ? (ts_real)0 : x);
}

TS_FN ts_real ts_swe_minmod(ts_real a, ts_real b) {
  return a * b <= (ts_real)0 ? (ts_real)0 : (fabs(a) < fabs(b) ? a : b);
}

/* The reconstructed depths of a face: z* = max(zL, zR), h* = max(0, h + z - z*). */
TS_FN void ts_swe_face_depths(ts_real hl, ts_real zl, ts_real hr, ts_real zr, ts_real* hls,
                              ts_real* hrs) {
  const ts_real zs = ts_swe_max(zl, zr);
  *hls = ts_swe_max0(hl + zl - zs);
  *hrs = ts_swe_max0(hr + zr - zs);
}
/* The same and the surfaces' heights over the face bed, eta - z* (< 0: that
 * side's surface lies below the higher bed; ts_swe_face_k) */
TS_FN void ts_swe_face_depths_d(ts_real hl, ts_real zl, ts_real hr, ts_real zr, ts_real* hls,
                                ts_real* hrs, ts_real* dls, ts_real* drs) {
  const ts_real zs = ts_swe_max(zl, zr);
  *dls = hl + zl - zs;
  *drs = hr + zr - zs;
  *hls = ts_swe_max0(*dls);
  *hrs = ts_swe_max0(*drs);
}

/* HLL on the hydrostatically reconstructed states; u, v: normal and
 * tangential velocities of each side. Written without branches, so that a
 * kernel's faces form one basic block the compilers can schedule. The
 * supersonic cases need no case analysis: with sl <= 0 <= sr clamped, the
 * HLL average is the left state's flux when sl >= 0 (sl = 0) and the right
 * one's when sr <= 0. known_wet (a literal): the caller has checked that both
 * reconstructed depths exceed hdry, and the wet/dry selects fold away (the
 * values are those of the general form: it only drops x - 0 and choices
 * whose outcome is known). */
TS_FN void ts_swe_face_k(ts_real g, ts_real hdry, ts_real hl, ts_real ul, ts_real vl, ts_real zl,
                         ts_real hr, ts_real ur, ts_real vr, ts_real zr, int fast, int known_wet,
                         ts_real* gs, ts_real* gl, ts_real* fh, ts_real* dl, ts_real* dr,
                         ts_real* ft) {
  ts_real hls, hrs, dls, drs;
  ts_swe_face_depths_d(hl, zl, hr, zr, &hls, &hrs, &dls, &drs);
  const ts_real half_g = (ts_real)0.5 * g;
  const int wl = known_wet || hls > hdry, wr = known_wet || hrs > hdry;
  /* celerities of wet sides (a dry side's is never used); g h* also serves
   * the steep-step source below */
  const ts_real ghl = g * hls, ghr = g * hrs;
  /* the steep-step sources (below), formed here: two values live to the
   * end instead of the four they come from */
  const ts_real kl = ghl * ts_swe_max0(-drs), kr = ghr * ts_swe_max0(-dls);
  const ts_real cl = ts_swe_sqrt_pos(wl ? ghl : g, fast, gs);
  const ts_real cr = ts_swe_sqrt_pos(wr ? ghr : g, fast, gs);
  /* both wet: Davis speeds; one side dry: the dry-front speeds u -+ 2c */
  const ts_real lf = ts_fma((ts_real)2, cl, ul), rf = ts_fma((ts_real)-2, cr, ur);
  const ts_real smin = ts_swe_min(ul - cl, ur - cr), smax = ts_swe_max(ul + cl, ur + cr);
  const int both = wl && wr;
  const ts_real sl = ts_swe_min0(both ? smin : (wl ? ul - cl : rf));
  const ts_real sr = ts_swe_max0(both ? smax : (wr ? ur + cr : lf));
  const ts_real ql = hls * ul, qr = hrs * ur; /* reconstructed discharges */
  const ts_real al = ql * ul, ar = qr * ur;   /* advective parts of the momentum flux */
  /* F = a FL - b FR + c (UR - UL) with a = sr/(sr-sl), b = sl/(sr-sl),
   * c = sl sr/(sr-sl): one reciprocal per face (sr - sl >= cl + cr when a
   * side is wet). A dry face takes a = b = c = 0 (no flux) and keeps only
   * the reconstruction's pressure terms. */
  const int dry = !wl && !wr;
  const ts_real inv = ts_swe_rcp(dry ? (ts_real)1 : sr - sl, fast, gs, gl);
  const ts_real a = dry ? (ts_real)0 : sr * inv, b = dry ? (ts_real)0 : sl * inv, c = a * sl;
  /* the pressure difference g (hR*^2 - hL*^2) / 2 as g/2 dh (hR* + hL*):
   * exactly 0 for equal depths (lake at rest), and dh serves the mass flux */
  const ts_real dh = hrs - hls, dp = half_g * (dh * (hrs + hls));
  const ts_real core = ts_fma(a, al, ts_fma(-b, ar, c * (qr - ql)));
  *fh = ts_fma(a, ql, ts_fma(-b, qr, c * dh));
  *dl = ts_fma(-b, dp, core);
  *dr = ts_fma(-a, dp, core);
  if (!known_wet) { /* a dry face keeps the reconstruction's pressure terms */
    *dl = *dl - (dry ? half_g * hls * hls : (ts_real)0);
    *dr = *dr - (dry ? half_g * hrs * hrs : (ts_real)0);
  }
  /* Where the lower side's water surface lies below the higher side's bed
   * (a thin sheet on a slope steeper than depth per cell: rain on hills),
   * the hydrostatic reconstruction alone gives the higher cell only the
   * pressure g h^2/2 of its own column, not the weight g h dz of its water
   * on the slope, and the sheet barely moves (Delestre et al. 2012). The
   * face bed of Chen & Noelle (2017), z* = min(max(zL, zR), min(etaL,
   * etaR)), restores it: the face depths (and fluxes) are Audusse's, and
   * the higher cell gains the momentum source g h (z - eta_lower). Nothing
   * changes elsewhere: a lake at rest, or any face whose surfaces both lie
   * above the higher bed, keeps its value. With z* = max(zL, zR): the source
   * g hL (zL - etaR) where etaR < zL is g hL min(0, etaR - z*) subtracted
   * (it is 0 where zR is the higher bed: etaR - z* = hR >= 0), likewise on
   * the right; min(0, eta - z*) is the reconstruction's own difference.
   * Where etaR - z* < 0, z* is zL and hL* = hL: g hL* is the celerity's.
   * Subtracted as g hL max(0, z* - etaR): where the source is zero the
   * subtraction of +0 returns dl's bits, even -0, so a known-wet face (both
   * reconstructed depths > hdry >= 0: both eta - z* > 0) may skip it and
   * keep the general form's values. */
  if (!known_wet) {
    *dl = *dl - kl;
    *dr = *dr - kr;
  }
  /* tangential momentum: v is carried across the face by the mass flux and
   * taken from the upwind side (HLLC's treatment of a passively advected
   * quantity, the contact's direction given by the sign of the mass flux);
   * HLL's own average would smear shear layers and cost five more
   * operations. */
  *ft = *fh * (*fh >= (ts_real)0 ? vl : vr);
}

TS_FN void ts_swe_face_core(ts_real g, ts_real hdry, ts_real hl, ts_real ul, ts_real vl, ts_real zl,
                            ts_real hr, ts_real ur, ts_real vr, ts_real zr, ts_real* fh,
                            ts_real* dl, ts_real* dr, ts_real* ft) {
  ts_real gs = 0, gl = 0;
  ts_swe_face_k(g, hdry, hl, ul, vl, zl, hr, ur, vr, zr, 0, 0, &gs, &gl, fh, dl, dr, ft);
}

/* First-order face between cells l and r of arrays H, QN (normal momentum),
 * QT (tangential momentum), Z. */
TS_FN void ts_swe_face1(ts_real g, ts_real hdry, TS_GLOBAL const ts_real* H,
                        TS_GLOBAL const ts_real* QN, TS_GLOBAL const ts_real* QT,
                        TS_GLOBAL const ts_real* Z, long l, long r, ts_real* fh, ts_real* dl,
                        ts_real* dr, ts_real* ft) {
  const ts_real hl = H[l], hr = H[r];
  ts_swe_face_core(g, hdry, hl, ts_swe_vel(hl, QN[l], hdry), ts_swe_vel(hl, QT[l], hdry), Z[l], hr,
                   ts_swe_vel(hr, QN[r], hdry), ts_swe_vel(hr, QT[r], hdry), Z[r], fh, dl, dr, ft);
}

/* The flux-difference update of one cell from its four faces (e, w: x; n, s: y). */
TS_FN void ts_swe_combine(ts_real rx, ts_real ry, ts_real h0, ts_real hu0, ts_real hv0,
                          ts_real fe_h, ts_real fe_l, ts_real fe_t, ts_real fw_h, ts_real fw_r,
                          ts_real fw_t, ts_real fn_h, ts_real fn_l, ts_real fn_t, ts_real fs_h,
                          ts_real fs_r, ts_real fs_t, ts_real* h, ts_real* hu, ts_real* hv) {
  *h = ts_fma(-ry, fn_h - fs_h, ts_fma(-rx, fe_h - fw_h, h0));
  *hu = ts_fma(-ry, fn_t - fs_t, ts_fma(-rx, fe_l - fw_r, hu0));
  *hv = ts_fma(-ry, fn_l - fs_r, ts_fma(-rx, fe_t - fw_t, hv0));
}

/* (|u| + c)/dx + (|v| + c)/dy of a cell (idx = 1/dx, idy = 1/dy): dt = cfl /
 * max rate. One reciprocal per cell: 1/h serves both velocities.
 * In double the rate only sets dt, which goes through a float anyway
 * (ts_swe_rate_bits), so it is evaluated in single precision wherever the
 * operands lie well inside float's range (|values| in [2^-40, 2^40]), and
 * raised by 16 units in the last place: the float arithmetic errs by less
 * than 7 units of 2^-24 relative, so the result stays an upper bound of the
 * exact rate. This replaces a double root and reciprocal (about 15 dependent
 * double operations at the end of every row) by float ones. Elsewhere the
 * double formula. Both are deterministic: every backend takes the same
 * branch and gets the same bits (float 1/x and sqrt correctly rounded). */
TS_FN ts_real ts_swe_rate_k(ts_real g, ts_real hdry, ts_real idx, ts_real idy, ts_real h,
                            ts_real hu, ts_real hv, int fast, ts_real* gs) {
  const int wet = h > hdry;
  const ts_real hw = wet ? h : (ts_real)1;
  if (sizeof(ts_real) == 8) {
    const float hf = (float)hw, huf = (float)fabs(hu), hvf = (float)fabs(hv);
    const float gf = (float)g, xf = (float)idx, yf = (float)idy, lo = 0x1p-40f, hi = 0x1p40f;
    if (hf >= lo && hf <= hi && huf <= hi && hvf <= hi && gf >= lo && gf <= hi && xf >= lo &&
        xf <= hi && yf >= lo && yf <= hi) {
      float unused = 0.0f; /* operands inside the fast sequences' range by the test above */
      const float c = ts_sqrt_fast_pos_f(gf * hf, &unused), ih = ts_rcp_fast_pos_f(hf, &unused);
      const float r = fma(fma(hvf, ih, c), yf, fma(huf, ih, c) * xf);
      return wet ? (ts_real)ts_bits_float(ts_float_bits(r) + 16u) : (ts_real)0;
    }
  }
  const ts_real c = ts_swe_sqrt_pos(g * hw, fast, gs), ih = ts_swe_rcp_pos(hw, fast, gs);
  const ts_real r = ts_fma(ts_fma(fabs(hv), ih, c), idy, ts_fma(fabs(hu), ih, c) * idx);
  return wet ? r : (ts_real)0;
}
TS_FN ts_real ts_swe_rate(ts_real g, ts_real hdry, ts_real dx, ts_real dy, ts_real h, ts_real hu,
                          ts_real hv) {
  ts_real gs = 0;
  return ts_swe_rate_k(g, hdry, (ts_real)1 / dx, (ts_real)1 / dy, h, hu, hv, 0, &gs);
}

/* A rate as a float rounded up, as the uint32 bits the atomic max reduces
 * (a NaN rate maps above every finite one). */
TS_FN unsigned int ts_swe_rate_bits(ts_real r) {
  if (r != r) return 0x7fc00000u;
  const float f = (float)r;
  const unsigned int b = ts_float_bits(f);
  return (ts_real)f < r ? b + 1u : b;
}

/* Manning friction on a wet cell (h > h_dry, n > 0), dq/dt = -g n^2 q |q| /
 * h^(7/3), by backward Euler, solved exactly: |q'| + a |q'|^2 = |q|, a = dt
 * g n^2 / h^(7/3), so q' = q 2 / (1 + sqrt(1 + 4 a |q|)) (the root without
 * cancellation). The linearised q / (1 + a |q|) takes the friction at the
 * velocity before it acts: where gravity's dt g S exceeds the flow's speed
 * (a thin sheet on a slope) it over-damps, and a sheet on a 5% slope at
 * dt = 7 s moved at half its speed (docs/swe.md, V-catchment); the exact
 * root's steady state is the balance g S = g n^2 u^2 / h^(4/3) at any dt. */
TS_FN void ts_swe_friction(ts_real g, ts_real n, ts_real dt, ts_real h, ts_real* hu, ts_real* hv) {
  const ts_real q = sqrt(*hu * *hu + *hv * *hv);
  const ts_real a4 = (ts_real)4 * dt * (g * n * n * q / (h * h * cbrt(h)));
  const ts_real f = (ts_real)2 / ((ts_real)1 + sqrt((ts_real)1 + a4));
  *hu = *hu * f;
  *hv = *hv * f;
}

/* The Manning n of cell c: the map's N[c] (--manning-file) or n. `map` is a
 * literal in the shared-face update (a kernel variant), so without a map the
 * pointer is not even kept; elsewhere the caller passes n < 0. */
TS_FN ts_real ts_swe_manning(int map, ts_real n, TS_GLOBAL const ts_real* N, long c) {
  return map ? N[c] : n;
}

/* Friction, dry cells and the health check after an update; returns 1 when
 * the new state is not finite or the depth is negative beyond round-off. */
TS_FN int ts_swe_finish(ts_real g, ts_real n, ts_real dt, ts_real hdry, ts_real* h, ts_real* hu,
                        ts_real* hv) {
  const ts_real tol = sizeof(ts_real) == 4 ? (ts_real)1e-4 : (ts_real)1e-9;
  const int bad = !(*h >= -tol) || !(fabs(*h) < (ts_real)INFINITY) ||
                  !(fabs(*hu) < (ts_real)INFINITY) || !(fabs(*hv) < (ts_real)INFINITY);
  if (!(*h > hdry)) {
    *h = fmax(*h, (ts_real)0);
    *hu = (ts_real)0;
    *hv = (ts_real)0;
  } else if (n > (ts_real)0) {
    ts_swe_friction(g, n, dt, *h, hu, hv);
  }
  return bad;
}

/* First-order update of the cell at c (row pitch w); every face recomputed. */
TS_FN int ts_swe_cell1(ts_real g, ts_real hdry, ts_real dx, ts_real dy, ts_real n, ts_real dt,
                       TS_GLOBAL const ts_real* H, TS_GLOBAL const ts_real* HU,
                       TS_GLOBAL const ts_real* HV, TS_GLOBAL const ts_real* Z,
                       TS_GLOBAL const ts_real* N, long c, long w, ts_real* h, ts_real* hu,
                       ts_real* hv) {
  ts_real e_h, e_l, e_r, e_t, w_h, w_l, w_r, w_t, n_h, n_l, n_r, n_t, s_h, s_l, s_r, s_t;
  ts_swe_face1(g, hdry, H, HU, HV, Z, c, c + w, &e_h, &e_l, &e_r, &e_t);
  ts_swe_face1(g, hdry, H, HU, HV, Z, c - w, c, &w_h, &w_l, &w_r, &w_t);
  ts_swe_face1(g, hdry, H, HV, HU, Z, c, c + 1, &n_h, &n_l, &n_r, &n_t);
  ts_swe_face1(g, hdry, H, HV, HU, Z, c - 1, c, &s_h, &s_l, &s_r, &s_t);
  ts_swe_combine(dt / dx, dt / dy, H[c], HU[c], HV[c], e_h, e_l, e_t, w_h, w_r, w_t, n_h, n_l, n_t,
                 s_h, s_r, s_t, h, hu, hv);
  return ts_swe_finish(g, ts_swe_manning(n < (ts_real)0, n, N, c), dt, hdry, h, hu, hv);
}

/* ---- second order (MUSCL-minmod reconstruction, used inside RK2 stages) ---- */

/* The value of X at the face of cell c towards c + sgn*s. */
TS_FN ts_real ts_swe_recon(ts_real xm, ts_real x0, ts_real xp, ts_real sgn) {
  return x0 + sgn * (ts_real)0.5 * ts_swe_minmod(x0 - xm, xp - x0);
}

/* Face values (h, u, v, z) of cell c towards c + sgn*s (normal momentum QN). */
TS_FN void ts_swe_face_values(ts_real hdry, TS_GLOBAL const ts_real* H, TS_GLOBAL const ts_real* QN,
                              TS_GLOBAL const ts_real* QT, TS_GLOBAL const ts_real* Z, long c,
                              long s, ts_real sgn, ts_real* h, ts_real* u, ts_real* v, ts_real* z) {
  const ts_real hm = H[c - s], h0 = H[c], hp = H[c + s];
  *h = ts_swe_recon(hm, h0, hp, sgn);
  const ts_real eta = ts_swe_recon(hm + Z[c - s], h0 + Z[c], hp + Z[c + s], sgn);
  *z = eta - *h;
  *u = ts_swe_recon(ts_swe_vel(hm, QN[c - s], hdry), ts_swe_vel(h0, QN[c], hdry),
                    ts_swe_vel(hp, QN[c + s], hdry), sgn);
  *v = ts_swe_recon(ts_swe_vel(hm, QT[c - s], hdry), ts_swe_vel(h0, QT[c], hdry),
                    ts_swe_vel(hp, QT[c + s], hdry), sgn);
}

/* Second-order face between l and l + s. */
TS_FN void ts_swe_face2(ts_real g, ts_real hdry, TS_GLOBAL const ts_real* H,
                        TS_GLOBAL const ts_real* QN, TS_GLOBAL const ts_real* QT,
                        TS_GLOBAL const ts_real* Z, long l, long s, ts_real* fh, ts_real* dl,
                        ts_real* dr, ts_real* ft) {
  ts_real hl, ul, vl, zl, hr, ur, vr, zr;
  ts_swe_face_values(hdry, H, QN, QT, Z, l, s, (ts_real)1, &hl, &ul, &vl, &zl);
  ts_swe_face_values(hdry, H, QN, QT, Z, l + s, s, (ts_real)-1, &hr, &ur, &vr, &zr);
  ts_swe_face_core(g, hdry, hl, ul, vl, zl, hr, ur, vr, zr, fh, dl, dr, ft);
}

/* dt L(U) of the second-order scheme at cell c plus U: the forward-Euler
 * stage U + dt L(U) (before friction). */
TS_FN void ts_swe_euler2(ts_real g, ts_real hdry, ts_real dx, ts_real dy, ts_real dt,
                         TS_GLOBAL const ts_real* H, TS_GLOBAL const ts_real* HU,
                         TS_GLOBAL const ts_real* HV, TS_GLOBAL const ts_real* Z, long c, long w,
                         ts_real* h, ts_real* hu, ts_real* hv) {
  ts_real e_h, e_l, e_r, e_t, w_h, w_l, w_r, w_t, n_h, n_l, n_r, n_t, s_h, s_l, s_r, s_t;
  ts_swe_face2(g, hdry, H, HU, HV, Z, c, w, &e_h, &e_l, &e_r, &e_t);
  ts_swe_face2(g, hdry, H, HU, HV, Z, c - w, w, &w_h, &w_l, &w_r, &w_t);
  ts_swe_face2(g, hdry, H, HV, HU, Z, c, 1, &n_h, &n_l, &n_r, &n_t);
  ts_swe_face2(g, hdry, H, HV, HU, Z, c - 1, 1, &s_h, &s_l, &s_r, &s_t);
  /* this cell's own face depths and bed levels: g h_face^2/2 terms and the
   * centred bed-slope source of the second-order hydrostatic reconstruction */
  ts_real he, hw, hn, hs, ze, zw, zn, zs, tmp1, tmp2;
  ts_swe_face_values(hdry, H, HU, HV, Z, c, w, (ts_real)1, &he, &tmp1, &tmp2, &ze);
  ts_swe_face_values(hdry, H, HU, HV, Z, c, w, (ts_real)-1, &hw, &tmp1, &tmp2, &zw);
  ts_swe_face_values(hdry, H, HV, HU, Z, c, 1, (ts_real)1, &hn, &tmp1, &tmp2, &zn);
  ts_swe_face_values(hdry, H, HV, HU, Z, c, 1, (ts_real)-1, &hs, &tmp1, &tmp2, &zs);
  const ts_real half_g = (ts_real)0.5 * g, rx = dt / dx, ry = dt / dy;
  ts_swe_combine(rx, ry, H[c], HU[c], HV[c], e_h, e_l + half_g * he * he, e_t, w_h,
                 w_r + half_g * hw * hw, w_t, n_h, n_l + half_g * hn * hn, n_t, s_h,
                 s_r + half_g * hs * hs, s_t, h, hu, hv);
  *hu = *hu - rx * (half_g * (hw + he) * (ze - zw));
  *hv = *hv - ry * (half_g * (hs + hn) * (zn - zs));
}

/* The end of an RK2 (Heun) stage at c from its forward-Euler step (h, hu,
 * hv): stage 0: U1 = F(U + dt L(U)); stage 1: U = (Un + F(U1 + dt L(U1))) /
 * 2, F the friction; then the dry cells and the health check. */
TS_FN int ts_swe_stage_end(ts_real g, ts_real hdry, ts_real n, ts_real dt, int stage,
                           TS_GLOBAL const ts_real* BH, TS_GLOBAL const ts_real* BHU,
                           TS_GLOBAL const ts_real* BHV, TS_GLOBAL const ts_real* N, long c,
                           ts_real* h, ts_real* hu, ts_real* hv) {
  const ts_real nc = ts_swe_manning(n < (ts_real)0, n, N, c);
  if (stage == 1) {
    /* SSP-RK2 with the friction inside each forward-Euler stage: U = (Un +
     * F(U1 + dt L(U1))) / 2. Friction on the average instead (F with the
     * full dt on half the step's gravity) moved the steady balance: a
     * MacDonald channel's depth was 8% off at every resolution. */
    if (nc > (ts_real)0 && *h > hdry) ts_swe_friction(g, nc, dt, *h, hu, hv);
    const ts_real mean = (ts_real)0.5;
    *h = mean * (BH[c] + *h);
    *hu = mean * (BHU[c] + *hu);
    *hv = mean * (BHV[c] + *hv);
    return ts_swe_finish(g, (ts_real)0, dt, hdry, h, hu, hv);
  }
  return ts_swe_finish(g, nc, dt, hdry, h, hu, hv);
}

/* One RK2 stage at c (ts_swe_stage_end of ts_swe_euler2). */
TS_FN int ts_swe_stage(ts_real g, ts_real hdry, ts_real dx, ts_real dy, ts_real n, ts_real dt,
                       int stage, TS_GLOBAL const ts_real* BH, TS_GLOBAL const ts_real* BHU,
                       TS_GLOBAL const ts_real* BHV, TS_GLOBAL const ts_real* H,
                       TS_GLOBAL const ts_real* HU, TS_GLOBAL const ts_real* HV,
                       TS_GLOBAL const ts_real* Z, TS_GLOBAL const ts_real* N, long c, long w,
                       ts_real* h, ts_real* hu, ts_real* hv) {
  ts_swe_euler2(g, hdry, dx, dy, dt, H, HU, HV, Z, c, w, h, hu, hv);
  return ts_swe_stage_end(g, hdry, n, dt, stage, BH, BHU, BHV, N, c, h, hu, hv);
}

/* The critical depth (q^2 / g)^(1/3) of a unit discharge q > 0, by Newton's
 * iteration from above (x0 = max(1, a) >= a^(1/3), where the cubic is convex,
 * so the iterates fall monotonically) until they stop falling: only +, *, /,
 * so every backend gives the same bits, which cbrt does not promise. */
TS_FN ts_real ts_swe_critical_depth(ts_real g, ts_real q) {
  const ts_real a = q * q / g, third = (ts_real)1 / (ts_real)3;
  ts_real x = a > (ts_real)1 ? a : (ts_real)1;
  for (int k = 0; k < 400; ++k) {
    const ts_real next = (x + x + a / (x * x)) * third;
    if (!(next < x)) break;
    x = next;
  }
  return x;
}

/* The ghost cell gc from the interior cell sc (mirror image, or the wrapped
 * cell for periodic sides); QN: momentum normal to the side; sign: +1 when
 * flow into the domain is along +axis (low sides), -1 on high sides. A
 * discharge side's ghost is at least the critical depth of its inflow: the
 * copied depth alone is 0 next to dry cells, and nothing would enter. */
TS_FN void ts_swe_ghost_cell(ts_real g, int bc, ts_real value, ts_real sign, TS_GLOBAL ts_real* H,
                             TS_GLOBAL ts_real* QN, TS_GLOBAL ts_real* QT,
                             TS_GLOBAL const ts_real* Z, long gc, long sc) {
  if (bc == TS_SWE_BC_EXCHANGE) return; /* filled by the neighbouring part */
  ts_real h = H[sc], qn = QN[sc], qt = QT[sc];
  if (bc == TS_SWE_BC_WALL) {
    qn = -qn;
  } else if (bc == TS_SWE_BC_LEVEL) {
    h = fmax((ts_real)0, value - Z[gc]);
  } else if (bc == TS_SWE_BC_DISCHARGE) {
    qn = sign * value;
    qt = (ts_real)0;
    if (value > (ts_real)0) h = fmax(h, ts_swe_critical_depth(g, value));
  }
  H[gc] = h;
  QN[gc] = qn;
  QT[gc] = qt;
}

/* Start of a step, on one work-item: dt from the last step's maximal rate,
 * at least min_rate (the discharge ghosts': into dry cells the interior's
 * is 0), or fixed; at most max_dt (> 0: the sources' bound,
 * swe/forcing.hpp), capped to reach the target time exactly; resets the
 * next rate slot; dates a detected bad cell. */
TS_FN void ts_swe_bookkeeping(TS_GLOBAL ts_real* sc, TS_GLOBAL unsigned int* fl, ts_real cfl,
                              ts_real fixed_dt, ts_real max_dt, ts_real min_rate) {
  const unsigned int s = fl[TS_SWE_STEPS];
  ts_real rate = (ts_real)ts_bits_float(fl[s & 1u]);
  if (rate < min_rate) rate = min_rate;
  fl[(s + 1u) & 1u] = 0u;
  if (fl[TS_SWE_BAD_CELL] != TS_SWE_NONE && fl[TS_SWE_BAD_STEP] == TS_SWE_NONE)
    fl[TS_SWE_BAD_STEP] = s;
  ts_real dt =
      fixed_dt > (ts_real)0 ? fixed_dt : (rate > (ts_real)0 ? cfl / rate : (ts_real)INFINITY);
  if (max_dt > (ts_real)0 && !(dt <= max_dt)) dt = max_dt;
  const ts_real t = sc[1], target = sc[2];
  ts_real tn = t;
  if (!(target > t)) {
    dt = (ts_real)0;
  } else if (dt >= target - t) {
    dt = target - t;
    tn = target;
  } else {
    tn = t + dt;
  }
  sc[0] = dt;
  sc[1] = tn;
  if (dt > (ts_real)0) fl[TS_SWE_STEPS] = s + 1u;
}

/* Both x sides (rows i = 0, 1 and nx+2, nx+3 of storage) at interior column j. */
TS_FN void ts_swe_ghosts_x(ts_real g, int bc_lo, int bc_hi, ts_real v_lo, ts_real v_hi,
                           TS_GLOBAL ts_real* H, TS_GLOBAL ts_real* HU, TS_GLOBAL ts_real* HV,
                           TS_GLOBAL const ts_real* Z, long nx, long w, long j) {
  const long J = j + 2;
  for (long m = 1; m <= 2; ++m) {
    ts_swe_ghost_cell(g, bc_lo, v_lo, (ts_real)1, H, HU, HV, Z, (2 - m) * w + J,
                      ts_swe_ghost_source(bc_lo, 0, nx, m) * w + J);
    ts_swe_ghost_cell(g, bc_hi, v_hi, (ts_real)-1, H, HU, HV, Z, (nx + 1 + m) * w + J,
                      ts_swe_ghost_source(bc_hi, 1, nx, m) * w + J);
  }
}

/* Both y sides (columns 0, 1 and ny+2, ny+3) at interior row i. */
TS_FN void ts_swe_ghosts_y(ts_real g, int bc_lo, int bc_hi, ts_real v_lo, ts_real v_hi,
                           TS_GLOBAL ts_real* H, TS_GLOBAL ts_real* HU, TS_GLOBAL ts_real* HV,
                           TS_GLOBAL const ts_real* Z, long ny, long w, long i) {
  const long r = (i + 2) * w;
  for (long m = 1; m <= 2; ++m) {
    ts_swe_ghost_cell(g, bc_lo, v_lo, (ts_real)1, H, HV, HU, Z, r + 2 - m,
                      r + ts_swe_ghost_source(bc_lo, 0, ny, m));
    ts_swe_ghost_cell(g, bc_hi, v_hi, (ts_real)-1, H, HV, HU, Z, r + ny + 1 + m,
                      r + ts_swe_ghost_source(bc_hi, 1, ny, m));
  }
}
