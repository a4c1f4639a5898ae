/* The shallow-water kernels (core/kernels/kernel_args.h): argument lists,
 * bodies over the mathematics of swe_point.h, swe_hll_point.h, swe_tiles.h,
 * swe_strip.h and swe_thesis_strip.h, and the module's kernel list, written
 * once for the CPU, OpenCL (swe.cl) and CUDA (swe_cuda.cu). Which kernel a
 * step runs and its launch shape: swe_kernels.hpp.
 * Cells kernels run along j (contiguous) first: a cell (cj, ci) is column
 * j = cj + 1 of row i = ci + 1 (thesis), and a thesis work-group "A x B"
 * (A rows, B columns) is bx = B, by = A. */
#include "swe_tiles.h"
#include "swe_strip.h"
#include "swe_rk_tile.h"
#include "swe_source_point.h"
#include "swe_thesis_strip.h"
#include "core/kernels/load4.h"

#ifndef TESSERA_SWE_KERNEL_LIST
#define TESSERA_SWE_KERNEL_LIST
#include "core/kernels/group_fold.h"
#include "core/kernels/ieee_check.h"
#include "swe_params.h"

/* clang-format off */
/* thesis model: one step's interior from (Zs, Xs, Ys) into (Zd, Xd, Yd); the
 * racy in-place variants pass the same arrays (hence not restrict) */
#define TS_SWE_THESIS_ARGS(V, IN, OUT)                                           \
  V(TS_STRUCT(ts_swe_thesis), a) IN(ts_value, Zs, TS_ALIASED)                    \
  IN(ts_value, Xs, TS_ALIASED) IN(ts_value, Ys, TS_ALIASED) OUT(ts_value, Zd)    \
  OUT(ts_value, Xd) OUT(ts_value, Yd)
/* thesis model: the ghost frame of (Z, X, Y) */
#define TS_SWE_FRAME_ARGS(V, IN, OUT) \
  V(TS_STRUCT(ts_swe_thesis), a) OUT(ts_value, Z) OUT(ts_value, X) OUT(ts_value, Y)
/* physical model: the ghosts of (H, HU, HV) over the bed Z, and (once a
 * step) the dt bookkeeping of the scalars sc and flags fl */
#define TS_ARGS_phys_frame(V, IN, OUT)                                            \
  V(TS_STRUCT(ts_swe_phys), p) IN(ts_value, Z) OUT(ts_value, H) OUT(ts_value, HU) \
  OUT(ts_value, HV) OUT(ts_value, sc) OUT(ts_uint, fl)
/* physical model, first order: (H, HU, HV) -> (Hd, HUd, HVd) with dt sc[0];
 * the wave-rate maximum and the first bad cell folded into fl. Plain loads
 * (restrict: the non-coherent path, 20% slower on NVIDIA's OpenCL, 4% for
 * the shared-face update on CUDA, H100: docs/swe-history.md) */
#define TS_ARGS_phys_strip(V, IN, OUT)                                                 \
  V(TS_STRUCT(ts_swe_phys), p) IN(ts_value, Z, TS_ALIASED) IN(ts_value, N, TS_ALIASED) \
  IN(ts_value, H, TS_ALIASED)                                                          \
  IN(ts_value, HU, TS_ALIASED) IN(ts_value, HV, TS_ALIASED) OUT(ts_value, Hd)          \
  OUT(ts_value, HUd) OUT(ts_value, HVd) IN(ts_value, sc, TS_ALIASED) OUT(ts_uint, fl)
/* the same, y-faces handed over in local memory; W: the tiles' wet flags
 * (dry skipping: three rotating sets and the pinned tiles) */
#define TS_ARGS_phys_strip_shared(V, IN, OUT)                                          \
  V(TS_STRUCT(ts_swe_phys), p) IN(ts_value, Z, TS_ALIASED) IN(ts_value, N, TS_ALIASED) \
  OUT(ts_uint, W) IN(ts_value, H, TS_ALIASED)                                          \
  IN(ts_value, HU, TS_ALIASED) IN(ts_value, HV, TS_ALIASED) OUT(ts_value, Hd)          \
  OUT(ts_value, HUd) OUT(ts_value, HVd) IN(ts_value, sc, TS_ALIASED) OUT(ts_uint, fl)
/* physical model, second order: RK2 stage p.stage, base (BH, BHU, BHV) */
#define TS_ARGS_phys_rk_stage(V, IN, OUT)                                                   \
  V(TS_STRUCT(ts_swe_phys), p) IN(ts_value, Z, TS_ALIASED) IN(ts_value, N, TS_ALIASED)   \
  IN(ts_value, BH, TS_ALIASED)                                                            \
  IN(ts_value, BHU, TS_ALIASED) IN(ts_value, BHV, TS_ALIASED) IN(ts_value, H, TS_ALIASED) \
  IN(ts_value, HU, TS_ALIASED) IN(ts_value, HV, TS_ALIASED) OUT(ts_value, Hd)            \
  OUT(ts_value, HUd) OUT(ts_value, HVd) IN(ts_value, sc, TS_ALIASED) OUT(ts_uint, fl)
/* physical model: sources and losses (swe_source_point.h) on (H, HU, HV)
 * over a rectangle, after the step's update (dt sc[0], time sc[1]); F the
 * infiltrated depth (read and written with losses only); the wave rate of what the cells hold then
 * folded into fl */
#define TS_ARGS_phys_source(V, IN, OUT)                                                   \
  V(TS_STRUCT(ts_swe_src), p) IN(ts_value, Z) IN(ts_value, R) OUT(ts_value, H)          \
  OUT(ts_value, HU) OUT(ts_value, HV) OUT(ts_value, F) IN(ts_value, sc) OUT(ts_uint, fl)
/* physical model: the water that entered through each open boundary face
 * this step (weight x mass flux x dt sc[0], into the domain positive), added
 * to acc with compensation comp: x_lo's ny faces, x_hi's, y_lo's nx, y_hi's */
#define TS_ARGS_phys_boundary_flux(V, IN, OUT)                                               \
  V(TS_STRUCT(ts_swe_phys), p) IN(ts_value, Z) IN(ts_value, H) IN(ts_value, HU)             \
  IN(ts_value, HV) IN(ts_value, sc) OUT(ts_value, acc) OUT(ts_value, comp)
/* physical model: the water through the cross-sections' faces this step,
 * added to acc with compensation comp per face; faces[k] = l << 2 | y << 1
 * | negative: the face between storage cells l and l + (y ? 1 : w), its
 * mass flux counted negative when `negative` (swe/section.hpp) */
#define TS_ARGS_phys_section_flux(V, IN, OUT)                                             \
  V(TS_STRUCT(ts_swe_secp), p) IN(ts_size, faces) IN(ts_value, Z) IN(ts_value, H)      \
  IN(ts_value, HU) IN(ts_value, HV) IN(ts_value, sc) OUT(ts_value, acc) OUT(ts_value, comp)
/* physical model: the maximum maps M (depth, its time, speed, arrival time:
 * four blocks of p.size values) after a step (time sc[1]; nothing when dt
 * sc[0] is 0) */
#define TS_ARGS_phys_track(V, IN, OUT)                                                     \
  V(TS_STRUCT(ts_swe_trackp), p) IN(ts_value, H) IN(ts_value, HU) IN(ts_value, HV) \
  IN(ts_value, sc) OUT(ts_value, M)
/* the self-check of core/kernels/ieee_fast.h: samples first .. first+count-1
 * (ieee_check.h) added to counts[4] */
#define TS_ARGS_ieee_count(V, IN, OUT) V(ts_size, first) V(ts_size, count) OUT(ts_uint, counts)
/* clang-format on */

#define TS_ARGS_thesis_global(V, IN, OUT) TS_SWE_THESIS_ARGS(V, IN, OUT)
#define TS_ARGS_thesis_walls(V, IN, OUT) TS_SWE_THESIS_ARGS(V, IN, OUT)
#define TS_ARGS_thesis_simd4(V, IN, OUT) TS_SWE_THESIS_ARGS(V, IN, OUT)
#define TS_ARGS_thesis_rows(V, IN, OUT) TS_SWE_THESIS_ARGS(V, IN, OUT)
#define TS_ARGS_thesis_tile_halo(V, IN, OUT) TS_SWE_THESIS_ARGS(V, IN, OUT)
#define TS_ARGS_thesis_tile_edge(V, IN, OUT) TS_SWE_THESIS_ARGS(V, IN, OUT)
/* strip-walls runs ping-pong only: restrict */
#define TS_ARGS_thesis_strip(V, IN, OUT) \
  V(TS_STRUCT(ts_swe_thesis), a)         \
  IN(ts_value, Zs)                       \
  IN(ts_value, Xs) IN(ts_value, Ys) OUT(ts_value, Zd) OUT(ts_value, Xd) OUT(ts_value, Yd)
#define TS_ARGS_thesis_frame(V, IN, OUT) TS_SWE_FRAME_ARGS(V, IN, OUT)
#define TS_ARGS_thesis_frame_rows4(V, IN, OUT) TS_SWE_FRAME_ARGS(V, IN, OUT)
#define TS_ARGS_thesis_frame_cols(V, IN, OUT) TS_SWE_FRAME_ARGS(V, IN, OUT)

/* work-items of the shared-face update: 256 in single precision, 128 in
 * double (swe_hll_consts.h) */
#define TS_SWE_SHARED_THREADS \
  (sizeof(ts_value) == 4 ? TS_SWE_SHARED_BLOCK_F : TS_SWE_SHARED_BLOCK_D)
/* its local memory: two buffers of 8 values per work-item, then the fold */
#define TS_SWE_SHARED_XCH (2 * 8 * TS_SWE_SHARED_THREADS)
/* the second-order stage's tile rows and work-items (swe_rk_tile.h) */
#define TS_SWE_RK_TY (sizeof(ts_value) == 4 ? TS_SWE_RK_TY_F : TS_SWE_RK_TY_D)
#define TS_SWE_RK_THREADS (TS_SWE_RK_TX * TS_SWE_RK_TY)

/* The list (kernel_args.h). Cells kernels without bounds (threads 0,
 * occupancy 0), as their CUDA forms always were; the shared-face update
 * bounded for 4 blocks an SM on CUDA (every other count measured slower,
 * docs/swe-history.md). */
#define TS_SWE_KERNELS(X)                                                                         \
  X(cells, thesis_global, 0, 0, 0, TS_NO_VARIANTS)                                                \
  X(cells, thesis_walls, 0, 0, 0, TS_NO_VARIANTS)                                                 \
  X(cells, thesis_simd4, 0, 0, 0, TS_NO_VARIANTS)                                                 \
  X(cells, thesis_rows, 0, 0, 0, TS_NO_VARIANTS)                                                  \
  X(group_sized_xy, thesis_tile_halo, 0, 0, 0, TS_NO_VARIANTS)                                    \
  X(group_sized_xy, thesis_tile_edge, 0, 0, 0, TS_NO_VARIANTS)                                    \
  X(group, thesis_strip, TS_SWE_BLOCK, 2 * 5 * TS_SWE_BLOCK, 0, TS_NO_VARIANTS)                   \
  X(cells, thesis_frame, 0, 0, 0, TS_NO_VARIANTS)                                                 \
  X(cells, thesis_frame_rows4, 0, 0, 0, TS_NO_VARIANTS)                                           \
  X(cells, thesis_frame_cols, 0, 0, 0, TS_NO_VARIANTS)                                            \
  X(cells, phys_frame, 0, 0, 0, TS_NO_VARIANTS)                                                   \
  X(group, phys_strip, TS_SWE_BLOCK, TS_FOLD_SCRATCH(TS_SWE_BLOCK), 0, TS_NO_VARIANTS)            \
  X(group, phys_strip_shared, TS_SWE_SHARED_THREADS,                                              \
    TS_SWE_SHARED_XCH + TS_FOLD_SCRATCH(TS_SWE_SHARED_THREADS), TS_ON_CUDA(4), TS_VARIANTS(0, 1)) \
  X(group, phys_rk_stage, TS_SWE_RK_THREADS,                                                      \
    TS_SWE_RK_LOCAL_OF(TS_SWE_RK_TY) + TS_FOLD_SCRATCH(TS_SWE_RK_THREADS), 0, TS_NO_VARIANTS)     \
  X(group, phys_source, TS_SWE_BLOCK, TS_FOLD_SCRATCH(TS_SWE_BLOCK), 0, TS_NO_VARIANTS)           \
  X(cells, phys_boundary_flux, 0, 0, 0, TS_NO_VARIANTS)                                           \
  X(cells, phys_section_flux, 0, 0, 0, TS_NO_VARIANTS)                                            \
  X(cells, phys_track, 0, 0, 0, TS_NO_VARIANTS)                                                   \
  X(group, ieee_count, 256, 1, 0, TS_NO_VARIANTS)

/* The wave-rate maximum (when `rate`) and the first bad cell of a group,
 * folded into the flags with one atomic each. */
TS_FN ts_uint ts_swe_fold_flags(ts_group g, ts_uint rmax, ts_uint bad, int rate,
                                TS_LOCAL ts_uint* s, TS_GLOBAL ts_uint* fl) {
  ts_group_max_min(g, &rmax, &bad, s);
  if (g.lid == 0) {
    if (rate) ts_atomic_max_uint(&fl[fl[TS_SWE_STEPS] & 1u], rmax);
    if (bad != TS_SWE_NONE && fl[TS_SWE_BAD_STEP] == TS_SWE_NONE)
      ts_atomic_min_uint(&fl[TS_SWE_BAD_CELL], bad);
  }
  return rmax; /* the group's maximum, in work-item 0 */
}

/* Dry tiles (p.skip): a group's tile whose cells and whose eight
 * neighbours' cells were all dry (h <= h_dry: no flux, no velocity) in this
 * step's state and the one before gives the values it holds (dry cells keep
 * their depth exactly, momentum 0), and the destination still holds those
 * (the state before): the group returns at once. The flags: W[k*T + tile]
 * for the state each step writes, k = steps mod 3 (the step counter after
 * the bookkeeping: this step's state was written at k-1, the one before at
 * k-2), and W[3T + tile] pins tiles (boundary values, sources, part edges).
 * A step of dt 0 (target reached) computes everything. */
TS_FN int ts_swe_tile_dry(TS_GLOBAL const ts_uint* W, long tiles_x, long tiles_y, long tx, long ty,
                          ts_uint steps) {
  const long T = tiles_x * tiles_y;
  TS_GLOBAL const ts_uint* cur = W + (long)((steps + 2u) % 3u) * T;
  TS_GLOBAL const ts_uint* prev = W + (long)((steps + 1u) % 3u) * T;
  if (W[3 * T + ty * tiles_x + tx]) return 0;
  for (long y = ty - 1; y <= ty + 1; ++y)
    for (long x = tx - 1; x <= tx + 1; ++x)
      if (x >= 0 && x < tiles_x && y >= 0 && y < tiles_y &&
          (cur[y * tiles_x + x] | prev[y * tiles_x + x]))
        return 0;
  return 1;
}
#endif

/* ---- thesis model ---- */

TS_CELL(thesis_global, cj, ci, ck) {
  const long i = ci + 1, j = cj + 1, c = i * a.w + j;
  ts_real z, qx, qy;
  (void)ck;
  ts_swe_thesis_at(Zs, Xs, Ys, c, a.w, a.k, &z, &qx, &qy);
  Zd[c] = z;
  Xd[c] = qx;
  Yd[c] = qy;
}

/* the walled stencil: no ghost frame read */
TS_CELL(thesis_walls, cj, ci, ck) {
  const long i = ci + 1, j = cj + 1, c = i * a.w + j;
  ts_real z, qx, qy;
  (void)ck;
  ts_swe_thesis_at_walls(Zs, Xs, Ys, i, j, a.nx, a.ny, a.w, a.k, &z, &qx, &qy);
  Zd[c] = z;
  Xd[c] = qx;
  Yd[c] = qy;
}

/* V6 (thesis §4.5.5): cell (q, ci) computes cells 4q .. 4q+3 of row ci + 1
 * from 4-vector loads (rows padded to a multiple of 4), the lanes by
 * ts_swe_thesis_simd4; a vector wholly inside the interior is stored as
 * one, an edge vector lane by lane. */
TS_CELL(thesis_simd4, q, ci, ck) {
  const long c = (ci + 1) * a.w + 4 * q;
  ts_real zr[12], xr[12], yr[12], zn[4], xn[4], yn[4], zs[4], xs[4], ys[4], z4[4], x4[4], y4[4];
  (void)ck;
  for (int v = 0; v < 3; ++v) {
    ts_load4(Zs + c + 4 * (v - 1), zr + 4 * v);
    ts_load4(Xs + c + 4 * (v - 1), xr + 4 * v);
    ts_load4(Ys + c + 4 * (v - 1), yr + 4 * v);
  }
  ts_load4(Zs + c + a.w, zn);
  ts_load4(Xs + c + a.w, xn);
  ts_load4(Ys + c + a.w, yn);
  ts_load4(Zs + c - a.w, zs);
  ts_load4(Xs + c - a.w, xs);
  ts_load4(Ys + c - a.w, ys);
  const int mask =
      ts_swe_thesis_simd4(a.k, zr, xr, yr, zn, xn, yn, zs, xs, ys, 4 * q, a.ny, z4, x4, y4);
  ts_store4_lanes(Zd + c, z4, mask);
  ts_store4_lanes(Xd + c, x4, mask);
  ts_store4_lanes(Yd + c, y4, mask);
}

/* V7: one work-item per compute unit (a.rows of them), each a slice of rows */
TS_CELL(thesis_rows, t, cu, ck) {
  (void)cu, (void)ck;
  ts_swe_thesis_rows(Zs, Xs, Ys, Zd, Xd, Yd, a.nx, a.ny, a.w, a.k, t, a.rows);
}

/* V2b (Listing 4.1) and V2a: tiles of the launch's group shape over the whole
 * frame (the thesis's rounded-up global size), three fields in the scratch */
TS_GROUP(thesis_tile_halo, g, s) {
  const int l1 = (int)g.sx, l0 = (int)g.sy, tile = (l0 + 2) * (l1 + 2);
  ts_swe_thesis_tile_halo(Zs, Xs, Ys, Zd, Xd, Yd, a.nx, a.ny, a.w, a.k, (long)g.id_y * l0 + g.ly,
                          (long)g.id * l1 + g.lx, (int)g.ly, (int)g.lx, l0, l1, s, s + tile,
                          s + 2 * tile);
}

TS_GROUP(thesis_tile_edge, g, s) {
  const int l1 = (int)g.sx, l0 = (int)g.sy, tile = l0 * l1;
  ts_swe_thesis_tile_edge(Zs, Xs, Ys, Zd, Xd, Yd, a.nx, a.ny, a.w, a.k, (long)g.id_y * l0 + g.ly,
                          (long)g.id * l1 + g.lx, (int)g.ly, (int)g.lx, l0, l1, s, s + tile,
                          s + 2 * tile);
}

/* strip-walls: groups of TS_SWE_BLOCK items overlapping by two columns, each
 * a strip of a.rows rows */
TS_GROUP(thesis_strip, g, s) {
  const int t = (int)g.lid;
  const long j = (long)g.id * (TS_SWE_BLOCK - 2) + t, i0 = 1 + (long)g.id_y * a.rows;
  const long i1 = i0 + a.rows < a.nx + 1 ? i0 + a.rows : a.nx + 1;
  ts_swe_thesis_strip(Zs, Xs, Ys, Zd, Xd, Yd, a.nx, a.ny, a.w, a.k, j, i0, i1, t, TS_SWE_BLOCK, s);
}

/* copyrow / copycolumn of the thesis fused into one launch: work-item t
 * fills the ghost rows at interior column t+1 and the ghost columns at
 * interior row t+1, work-item 0 the four corners (which the 5-point stencil
 * never reads, but a checkpoint holds) from the interior, so no two
 * work-items touch the same cell. */
TS_CELL(thesis_frame, t, cu, ck) {
  (void)cu, (void)ck;
  if (t < a.ny) ts_swe_thesis_ghost_row(Z, X, Y, a.nx, a.w, t + 1);
  if (t < a.nx) ts_swe_thesis_ghost_col(Z, X, Y, a.ny, a.w, t + 1);
  if (t == 0) ts_swe_thesis_ghost_corners(Z, X, Y, a.nx, a.ny, a.w);
}

/* V1f4 (thesis §4.5.5): item q copies columns 4q..4q+3 of both ghost rows as
 * one 4-vector each (rows padded to a multiple of 4), the momentum normal to
 * the wall negated; the columns follow in thesis_frame_cols */
TS_FN void ts_swe_copy4(TS_GLOBAL const ts_real* from, TS_GLOBAL ts_real* to, int negate) {
  ts_real v[4];
  ts_load4(from, v);
  if (negate)
    for (int l = 0; l < 4; ++l) v[l] = -v[l];
  ts_store4(to, v);
}
TS_CELL(thesis_frame_rows4, q, cu, ck) {
  const long lo = 4 * q, hi = (a.nx + 1) * a.w + 4 * q;
  (void)cu, (void)ck;
  ts_swe_copy4(Z + lo + a.w, Z + lo, 0);
  ts_swe_copy4(Z + hi - a.w, Z + hi, 0);
  ts_swe_copy4(X + lo + a.w, X + lo, 1);
  ts_swe_copy4(X + hi - a.w, X + hi, 1);
  ts_swe_copy4(Y + lo + a.w, Y + lo, 0);
  ts_swe_copy4(Y + hi - a.w, Y + hi, 0);
}
TS_CELL(thesis_frame_cols, t, cu, ck) {
  (void)cu, (void)ck;
  ts_swe_thesis_ghost_col(Z, X, Y, a.ny, a.w, t + 1);
  if (t == 0) ts_swe_thesis_ghost_corners(Z, X, Y, a.nx, a.ny, a.w);
}

/* ---- physical model ---- */

/* work-item t: the ghosts along x at interior row t and along y at interior
 * column t; the first also the dt bookkeeping */
TS_CELL(phys_frame, t, cu, ck) {
  (void)cu, (void)ck;
  if (p.bookkeeping == 2) { /* alone: the ghosts (timed values) follow in another launch */
    if (t == 0) ts_swe_bookkeeping(sc, fl, p.cfl, p.fixed_dt, p.max_dt, p.min_rate);
    return;
  }
  const ts_real tm = p.timed ? sc[1] - (ts_real)0.5 * sc[0] : (ts_real)0;
  int b[4];
  ts_real v[4];
  for (int s = 0; s < 4; ++s) b[s] = p.bc[s], v[s] = p.bv[s];
  if (t < p.ny) {
    for (int s = 0; s < 2; ++s)
      ts_swe_segment(t, p.seg_lo[s], p.seg_hi[s], p.seg_bc[s], p.seg_v[s], p.seg_slope[s],
                     p.seg_ta[s], p.timed, tm, &b[s], &v[s]);
    ts_swe_ghosts_x(p.g, b[0], b[1], v[0], v[1], H, HU, HV, Z, p.nx, p.w, t);
  }
  if (t < p.nx) {
    for (int s = 2; s < 4; ++s)
      ts_swe_segment(t, p.seg_lo[s], p.seg_hi[s], p.seg_bc[s], p.seg_v[s], p.seg_slope[s],
                     p.seg_ta[s], p.timed, tm, &b[s], &v[s]);
    ts_swe_ghosts_y(p.g, b[2], b[3], v[2], v[3], H, HU, HV, Z, p.ny, p.w, t);
  }
  if (t == 0 && p.bookkeeping == 1)
    ts_swe_bookkeeping(sc, fl, p.cfl, p.fixed_dt, p.max_dt, p.min_rate);
}

/* one column per work-item over a strip of p.strip rows */
TS_GROUP(phys_strip, g, s) {
  const long j = (long)g.id * TS_SWE_BLOCK + g.lid, i0 = (long)g.id_y * p.strip;
  const long i1 = i0 + p.strip < p.nx ? i0 + p.strip : p.nx;
  ts_uint rmax = 0u, bad = TS_SWE_NONE;
  if (j < p.ny)
    ts_swe_strip1(p.g, p.hdry, p.dx, p.dy, p.n, sc[0], H, HU, HV, Z, N, Hd, HUd, HVd, p.nx, p.ny,
                  p.w, j, i0, i1, &rmax, &bad);
  ts_swe_fold_flags(g, rmax, bad, 1, (TS_LOCAL ts_uint*)s, fl);
}

/* one column per work-item, y-faces handed over in local memory; groups
 * overlap by two columns (their edge items own no cell) */
TS_GROUP(phys_strip_shared, g, s) {
  const int t = (int)g.lid, nt = TS_SWE_SHARED_THREADS;
  const long j = (long)g.id * (nt - 2) + t - 1, i0 = (long)g.id_y * p.strip;
  const long i1 = i0 + p.strip < p.nx ? i0 + p.strip : p.nx;
  const long tile = (long)g.id_y * p.tiles_x + (long)g.id;
  const ts_uint steps = fl[TS_SWE_STEPS];
  TS_GLOBAL ts_uint* mine = W + (long)(steps % 3u) * p.tiles_x * p.tiles_y + tile;
  if (p.skip && sc[0] > (ts_real)0 &&
      ts_swe_tile_dry(W, p.tiles_x, p.tiles_y, (long)g.id, (long)g.id_y, steps)) {
    if (t == 0) *mine = 0u; /* still dry */
    return;                 /* the whole group: no barrier is left waiting */
  }
  ts_uint rmax = 0u, bad = TS_SWE_NONE;
  /* variant 1: the Manning map (a literal: without it no pointer is kept) */
  ts_swe_strip_shared(p.g, p.hdry, p.dx, p.dy, g.variant == 1, p.n, sc[0], H, HU, HV, Z, N, Hd, HUd,
                      HVd, p.nx, p.ny, p.w, j, i0, i1, t, nt, p.pf, s, &rmax, &bad);
  const ts_uint gmax =
      ts_swe_fold_flags(g, rmax, bad, 1, (TS_LOCAL ts_uint*)(s + TS_SWE_SHARED_XCH), fl);
  /* a wet cell has a rate > 0: the group's maximum (item 0's) says wet */
  if (p.skip && t == 0) *mine = gmax > 0u ? 1u : 0u;
}

/* the tile (g.id, g.id_y) of TS_SWE_RK_TX columns by TS_SWE_RK_TY rows
 * (swe_rk_tile.h): its cells and their halo, its faces, its cells' update */
TS_GROUP(phys_rk_stage, g, s) {
  const int TX = TS_SWE_RK_TX, TY = (int)TS_SWE_RK_TY, CW = TS_SWE_RK_CW;
  const int NC = TS_SWE_RK_CELLS_OF(TY), NI = TS_SWE_RK_IFACES_OF(TY);
  const int NJ = TS_SWE_RK_JFACES_OF(TY), items = TX * TY, t = (int)g.lid;
  /* local memory: h, eta, u, v of the cells, then the i- and j-faces */
  const int Hs = 0, Es = NC, Us = 2 * NC, Vs = 3 * NC, FI = 4 * NC, FJ = FI + 8 * NI;
  const long i0 = (long)g.id_y * TY, j0 = (long)g.id * TX;
  /* 1. the cells (rows past the last ghost row, columns past the last ghost
   * column clamped: only faces no stored cell uses read them) */
  for (int k = t; k < NC; k += items) {
    const long ri = i0 - 2 + k / CW, cj = j0 - 2 + k % CW;
    const long c =
        ((ri < p.nx + 1 ? ri : p.nx + 1) + 2) * p.w + (cj < p.ny + 1 ? cj : p.ny + 1) + 2;
    const ts_real h = H[c];
    s[Hs + k] = h;
    s[Es + k] = h + Z[c];
    s[Us + k] = ts_swe_vel(h, HU[c], p.hdry);
    s[Vs + k] = ts_swe_vel(h, HV[c], p.hdry);
  }
  TS_BARRIER();
  /* 2. the faces: i-face f (0 <= f < NI) below tile row f / TX - 1 (pitch
   * CW, normal velocity u), j-face f - NI right of tile column
   * (f - NI) % (TX + 1) - 1 (pitch 1, normal v); records of 8 values with
   * the stride of their kind */
  for (int f = t; f < NI + NJ; f += items) {
    const int ifc = f < NI, k = ifc ? f : f - NI, pitch = ifc ? CW : 1;
    const int a = ifc ? (k / TX + 1) * CW + k % TX + 2 : (k / (TX + 1) + 2) * CW + k % (TX + 1) + 1;
    const int nv = ifc ? Us : Vs, tv = ifc ? Vs : Us, o = ifc ? FI + k : FJ + k;
    const int stride = ifc ? NI : NJ;
    ts_real x[4], e[4], n[4], tt[4], out[8];
    TS_UNROLL for (int q = 0; q < 4; ++q) {
      const int at = a + (q - 1) * pitch;
      x[q] = s[Hs + at];
      e[q] = s[Es + at];
      n[q] = s[nv + at];
      tt[q] = s[tv + at];
    }
    ts_swe_rk_face(p.g, p.hdry, x, e, n, tt, out);
    TS_UNROLL for (int q = 0; q < 8; ++q) s[o + q * stride] = out[q];
  }
  TS_BARRIER();
  /* 3. the cells */
  const int ti = t / TX, tj = t % TX;
  const long i = i0 + ti, j = j0 + tj;
  ts_uint rmax = 0u, bad = TS_SWE_NONE;
  if (i < p.nx && j < p.ny) {
    const long c = (i + 2) * p.w + j + 2;
    const ts_real dt = sc[0];
    const int fe = FI + (ti + 1) * TX + tj, fw = FI + ti * TX + tj;
    const int fn = FJ + ti * (TX + 1) + tj + 1, fs = FJ + ti * (TX + 1) + tj;
    ts_real re[8], rw[8], rn[8], rs[8], h, hu, hv;
    TS_UNROLL for (int q = 0; q < 8; ++q) {
      re[q] = s[fe + q * NI];
      rw[q] = s[fw + q * NI];
      rn[q] = s[fn + q * NJ];
      rs[q] = s[fs + q * NJ];
    }
    ts_swe_rk_combine(p.g, dt / p.dx, dt / p.dy, H[c], HU[c], HV[c], re, rw, rn, rs, &h, &hu, &hv);
    if (ts_swe_stage_end(p.g, p.hdry, p.n, dt, p.stage, BH, BHU, BHV, N, c, &h, &hu, &hv))
      bad = (ts_uint)(i * p.ny + j);
    Hd[c] = h;
    HUd[c] = hu;
    HVd[c] = hv;
    rmax = ts_swe_rate_bits(ts_swe_rate(p.g, p.hdry, p.dx, p.dy, h, hu, hv));
  }
  ts_swe_fold_flags(g, rmax, bad, p.stage == 1, (TS_LOCAL ts_uint*)(s + FJ + 8 * NJ), fl);
}

/* sources: column j of the rectangle's row g.id_y; dt sc[0] (0 once the
 * target is reached: nothing arrives), the step's midpoint sc[1] - dt/2 */
TS_GROUP(phys_source, g, s) {
  const long j = (long)g.id * TS_SWE_BLOCK + g.lid, i = (long)g.id_y;
  ts_uint rmax = 0u;
  if (j < p.nj) {
    const long c = (p.i0 + i + 2) * p.w + p.j0 + j + 2;
    const ts_real dt = sc[0];
    ts_real h = H[c], hu = HU[c], hv = HV[c], f = p.losses != 0 ? F[c] : (ts_real)0;
    ts_swe_source_cell(dt, sc[1] - (ts_real)0.5 * dt, p.rate, p.slope, p.ta,
                       p.field ? R[c] : (ts_real)0, p.zwall, p.losses, p.loss, p.ks, p.suction,
                       p.hdry, Z[c], &h, &hu, &hv, &f);
    H[c] = h;
    HU[c] = hu;
    HV[c] = hv;
    if (p.losses != 0) F[c] = f;
    rmax = ts_swe_rate_bits(ts_swe_rate(p.g, p.hdry, p.dx, p.dy, h, hu, hv));
  }
  ts_swe_fold_flags(g, rmax, TS_SWE_NONE, 1, (TS_LOCAL ts_uint*)s, fl);
}

/* work-item t: the x sides' faces at interior column t, the y sides' at
 * interior row t (the faces between the first ghost and the first interior
 * cell) */
TS_CELL(phys_boundary_flux, t, cu, ck) {
  const ts_real v = p.weight * sc[0];
  int b[4];
  ts_real unused = 0;
  (void)cu, (void)ck;
  for (int s = 0; s < 4; ++s) {
    b[s] = p.bc[s];
    ts_swe_segment(t, p.seg_lo[s], p.seg_hi[s], p.seg_bc[s], (ts_real)0, (ts_real)0, (ts_real)0, 0,
                   (ts_real)0, &b[s], &unused);
  }
  if (t < p.ny) {
    const long J = t + 2;
    if (ts_swe_open_side(b[0]))
      ts_swe_kahan_add(acc + t, comp + t,
                       v * ts_swe_face_mass_flux(p.order, p.g, p.hdry, H, HU, HV, Z, p.w + J, p.w));
    if (ts_swe_open_side(b[1]))
      ts_swe_kahan_add(acc + p.ny + t, comp + p.ny + t,
                       -v * ts_swe_face_mass_flux(p.order, p.g, p.hdry, H, HU, HV, Z,
                                                  (p.nx + 1) * p.w + J, p.w));
  }
  if (t < p.nx) {
    const long r = (t + 2) * p.w, k = 2 * p.ny + t;
    if (ts_swe_open_side(b[2]))
      ts_swe_kahan_add(acc + k, comp + k,
                       v * ts_swe_face_mass_flux(p.order, p.g, p.hdry, H, HV, HU, Z, r + 1, 1));
    if (ts_swe_open_side(b[3]))
      ts_swe_kahan_add(
          acc + k + p.nx, comp + k + p.nx,
          -v * ts_swe_face_mass_flux(p.order, p.g, p.hdry, H, HV, HU, Z, r + p.ny + 1, 1));
  }
}

/* work-item k: section face k */
TS_CELL(phys_section_flux, k, cu, ck) {
  (void)cu, (void)ck;
  if (k >= p.n) return;
  const ts_size f = faces[k];
  const long l = (long)(f >> 2);
  const int y = (int)((f >> 1) & 1u);
  const ts_real v = ((f & 1u) ? -p.weight : p.weight) * sc[0];
  const ts_real q = y ? ts_swe_face_mass_flux(p.order, p.g, p.hdry, H, HV, HU, Z, l, 1)
                      : ts_swe_face_mass_flux(p.order, p.g, p.hdry, H, HU, HV, Z, l, p.w);
  ts_swe_kahan_add(acc + k, comp + k, v * q);
}

/* cell (cj, ci): column cj of interior row ci */
TS_CELL(phys_track, cj, ci, ck) {
  const long c = (ci + 2) * p.w + cj + 2, n = p.size;
  (void)ck;
  if (!(sc[0] > (ts_real)0)) return;
  ts_real hmax = M[c], tmax = M[c + n], smax = M[c + 2 * n], tarr = M[c + 3 * n];
  ts_swe_track(sc[1], p.arrive, p.hdry, H[c], HU[c], HV[c], &hmax, &tmax, &smax, &tarr);
  M[c] = hmax, M[c + n] = tmax, M[c + 2 * n] = smax, M[c + 3 * n] = tarr;
}

/* a grid-stride loop over the samples, then one atomic per count and item */
TS_GROUP(ieee_count, g, s) {
  unsigned int c[4] = {0u, 0u, 0u, 0u};
  (void)s;
  for (ts_size x = g.id * g.size + g.lid; x < count; x += g.count * g.size) {
#if defined(TS_DOUBLE)
    ts_ieee_check_d(ts_ieee_sample_d(first + x), c);
#else
    ts_ieee_check_f(ts_ieee_sample_f(first + x), c);
#endif
  }
  for (int k = 0; k < 4; ++k) ts_atomic_add_uint(&counts[k], c[k]);
}
