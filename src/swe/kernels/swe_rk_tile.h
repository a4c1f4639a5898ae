/* The second-order (MUSCL + RK2) stage on the GPU backends, written once for
 * the OpenCL and CUDA launchers; the CPU reference computes each cell with
 * ts_swe_stage, every face and every reconstruction per cell, and this
 * reproduces its values bit for bit: the same operations on the same
 * operands, only computed once and shared through local memory.
 *
 * ts_swe_stage evaluates, per cell and stage, four faces of two
 * reconstructed states each and four more of its own face states: 12
 * reconstructions of (h, eta, u, v) with six divisions each, about 2400
 * instructions a cell (FP32, sm_90), which made the update issue-bound at
 * 11-12% of the copy bandwidth (docs/swe.md, Performance). A work-group here
 * owns a tile of TS_SWE_RK_TX columns (j) by TS_SWE_RK_TY rows (i):
 *  1. its work-items load the tile and two cells around it (the stencil of
 *     a face's two reconstructions) and keep h, eta = h + z and the
 *     velocities u = hu/h, v = hv/h of each cell in local memory: two
 *     divisions a cell instead of 36;
 *  2. they compute every face of the tile once (the i-faces with normal
 *     velocity u, the j-faces with v), from the four cells around it, and
 *     keep its fluxes and its two states' depths and beds (what each cell
 *     needs of its own face states for the hydrostatic terms);
 *  3. each work-item updates its cell from its four faces.
 * Local memory: 4 values per halo cell, 8 per face, structure of arrays.
 * Included after swe_strip.h, which brings swe_hll_point.h into each
 * precision's pass. */

#ifndef TESSERA_SWE_RK_TILE
#define TESSERA_SWE_RK_TILE
/* the tile's cells with their two-cell halo, its i-faces and its j-faces */
#define TS_SWE_RK_CW (TS_SWE_RK_TX + 4)
#define TS_SWE_RK_CELLS_OF(ty) (((ty) + 4) * TS_SWE_RK_CW)
#define TS_SWE_RK_IFACES_OF(ty) (TS_SWE_RK_TX * ((ty) + 1))
#define TS_SWE_RK_JFACES_OF(ty) ((TS_SWE_RK_TX + 1) * (ty))
/* local memory of a tile of ty rows, in values */
#define TS_SWE_RK_LOCAL_OF(ty) \
  (4 * TS_SWE_RK_CELLS_OF(ty) + 8 * (TS_SWE_RK_IFACES_OF(ty) + TS_SWE_RK_JFACES_OF(ty)))
#endif

/* The face between cells a and b of a column of four, m a b q along the
 * face's normal (x: h, e: eta, n: the normal velocity, t: the tangential,
 * each of the four cells): ts_swe_face2's states and fluxes, and the terms
 * ts_swe_euler2 adds for the cells' own face states, in the same
 * operations. out: fh, ft, dl + g/2 hl^2, dr + g/2 hr^2, hl, zl, hr, zr.
 * Values in, values out: the kernel moves them through local memory (PoCL's
 * LLVM 15 crashed in its inliner, and miscompiled, when these functions
 * took local pointers). */
TS_FN void ts_swe_rk_face(ts_real g, ts_real hdry, const ts_real* x, const ts_real* e,
                          const ts_real* n, const ts_real* t, ts_real* out) {
  const ts_real one = (ts_real)1, minus = (ts_real)-1;
  const ts_real hl = ts_swe_recon(x[0], x[1], x[2], one);
  const ts_real zl = ts_swe_recon(e[0], e[1], e[2], one) - hl;
  const ts_real ul = ts_swe_recon(n[0], n[1], n[2], one);
  const ts_real vl = ts_swe_recon(t[0], t[1], t[2], one);
  const ts_real hr = ts_swe_recon(x[1], x[2], x[3], minus);
  const ts_real zr = ts_swe_recon(e[1], e[2], e[3], minus) - hr;
  const ts_real ur = ts_swe_recon(n[1], n[2], n[3], minus);
  const ts_real vr = ts_swe_recon(t[1], t[2], t[3], minus);
  ts_real fh, dl, dr, ft;
  ts_swe_face_core(g, hdry, hl, ul, vl, zl, hr, ur, vr, zr, &fh, &dl, &dr, &ft);
  const ts_real half_g = (ts_real)0.5 * g;
  out[0] = fh;
  out[1] = ft;
  out[2] = dl + half_g * hl * hl;
  out[3] = dr + half_g * hr * hr;
  out[4] = hl;
  out[5] = zl;
  out[6] = hr;
  out[7] = zr;
}

/* ts_swe_euler2 of a cell from its faces' records (ts_swe_rk_face's out;
 * e, w: the i-faces after and before it, n, s: the j-faces). */
TS_FN void ts_swe_rk_combine(ts_real g, ts_real rx, ts_real ry, ts_real h0, ts_real hu0,
                             ts_real hv0, const ts_real* e, const ts_real* w, const ts_real* n,
                             const ts_real* s, ts_real* h, ts_real* hu, ts_real* hv) {
  const ts_real half_g = (ts_real)0.5 * g;
  ts_swe_combine(rx, ry, h0, hu0, hv0, e[0], e[2], e[1], w[0], w[3], w[1], n[0], n[2], n[1], s[0],
                 s[3], s[1], h, hu, hv);
  /* he, ze: the e-face's left state; hw, zw: the w-face's right one */
  *hu = *hu - rx * (half_g * (w[6] + e[4]) * (e[5] - w[7]));
  *hv = *hv - ry * (half_g * (s[6] + n[4]) * (n[5] - s[7]));
}
