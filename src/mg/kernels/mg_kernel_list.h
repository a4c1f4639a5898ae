/* The multigrid kernels (core/kernels/kernel_args.h): argument lists and
 * bodies over the mathematics of mg_point.h and the tiles of mg_tiles.h,
 * written once for the CPU, OpenCL (mg.cl) and CUDA (mg_cuda.cu), and the
 * module's kernel list. Which kernel a step runs: mg_kernels.hpp. */
#include "mg_tiles.h"

#ifndef TESSERA_MG_KERNEL_LIST
#define TESSERA_MG_KERNEL_LIST
/* Point kernels run one work-item per interior point of the level they
 * write (cells); slot kernels one per slot of a split level's rows,
 * marching `planes` planes (kernels::Tuning::slot_planes). The tiles run
 * in 2D work-groups (group_xy): the fused red-black sweep compiled with and
 * without the prolongation fused in (variant 1, 0), the tiled restriction
 * per storage pair and weighting (variant 4 fsplit + 2 csplit + red_only).
 * Threads 1024 leave nvcc its own register choice (a bound of 256 made it
 * spill the FP64 restriction at 40 registers). Occupancies are CUDA's
 * (__launch_bounds__; docs/mg-history.md): the
 * red sweep with the correction six groups of 256 per SM (40 registers),
 * the cell prolongation 12 groups of 128 (variant 12) or the compiler's
 * choice (variant 1), the fused sweep four groups, the tiled restriction
 * six. */
#define TS_MG_KERNELS(X)                                                                        \
  X(cells, mg_thesis_jacobi, 1024, 0, 0, TS_NO_VARIANTS)                                        \
  X(cells, mg_thesis_residual, 1024, 0, 0, TS_NO_VARIANTS)                                      \
  X(cells, mg_thesis_restrict, 1024, 0, 0, TS_NO_VARIANTS)                                      \
  X(cells, mg_thesis_prolong, 1024, 0, 0, TS_NO_VARIANTS)                                       \
  X(cells, mg_jacobi, 1024, 0, 0, TS_NO_VARIANTS)                                               \
  X(cells, mg_gs_color, 1024, 0, 0, TS_NO_VARIANTS)                                             \
  X(cells, mg_residual, 1024, 0, 0, TS_NO_VARIANTS)                                             \
  X(cells, mg_restrict_residual, 1024, 0, 0, TS_NO_VARIANTS)                                    \
  X(cells, mg_prolong_add, 1024, 0, 0, TS_NO_VARIANTS)                                          \
  X(cells, mg_convert_split, 1024, 0, 0, TS_NO_VARIANTS)                                        \
  X(cells, mg_gs_split, 1024, 0, 0, TS_NO_VARIANTS)                                             \
  X(cells, mg_gs_red_prolonged, 256, 0, TS_ON_CUDA(6), TS_NO_VARIANTS)                          \
  X(cells, mg_prolong_slot, 1024, 0, 0, TS_NO_VARIANTS)                                         \
  X(cells, mg_prolong_cells, TS_MG_PX* TS_MG_PY, 0, TS_ON_CUDA(ts_variant), TS_VARIANTS(1, 12)) \
  X(group_xy, mg_gs_fused, (TS_MG_FX, TS_MG_FY), 3 * TS_MG_FX * TS_MG_FY * TS_MG_FR,            \
    TS_ON_CUDA(1024 / (TS_MG_FX * TS_MG_FY)), TS_VARIANTS(0, 1))                                \
  X(group_xy, mg_restrict_tile, (TS_MG_RX, TS_MG_RY), 3 * TS_MG_RPLANE, TS_ON_CUDA(6),          \
    TS_VARIANTS(0, 1, 2, 3, 4, 5, 6, 7))
#endif

/* ---- thesis mode (2D, natural layout; L: the level written) ---- */
#define TS_MG_AT(L, i, j, k) TS_MG_IDX(i, j, k, (L).sx, (L).sy, (L).kh)

#define TS_ARGS_mg_thesis_jacobi(V, IN, OUT) \
  V(ts_mg_level, L) IN(ts_value, b) IN(ts_value, xs) OUT(ts_value, xd)
TS_CELL(mg_thesis_jacobi, i, j, k) {
  const long c = TS_MG_AT(L, i, j, k);
  xd[c] = ts_mg_thesis_jacobi(b[c], xs[c - 1], xs[c + 1], xs[c - L.sx], xs[c + L.sx]);
}

#define TS_ARGS_mg_thesis_residual(V, IN, OUT) \
  V(ts_mg_level, L) IN(ts_value, b) IN(ts_value, x) OUT(ts_value, r)
TS_CELL(mg_thesis_residual, i, j, k) {
  const long c = TS_MG_AT(L, i, j, k);
  r[c] = ts_mg_thesis_residual(b[c], x[c], x[c - 1], x[c + 1], x[c - L.sx], x[c + L.sx]);
}

/* L: the coarse level; f: the fine level's pitches */
#define TS_ARGS_mg_thesis_restrict(V, IN, OUT) \
  V(ts_mg_level, L) V(ts_mg_pitch, f) IN(ts_value, src) OUT(ts_value, bc)
TS_CELL(mg_thesis_restrict, i, j, k) {
  bc[TS_MG_AT(L, i, j, k)] = ts_mg_thesis_restrict_at(src, i, j, f.x, f.y);
}

/* L: the fine level; cs: the coarse level's pitches */
#define TS_ARGS_mg_thesis_prolong(V, IN, OUT) \
  V(ts_mg_level, L) V(ts_mg_pitch, cs) V(int, accumulate) OUT(ts_value, xf) IN(ts_value, xc)
TS_CELL(mg_thesis_prolong, i, j, k) {
  const long c = TS_MG_AT(L, i, j, k);
  const ts_real v = ts_mg_thesis_prolong_at(xc, i, j, cs.x, cs.y);
  xf[c] = accumulate ? xf[c] + v : v;
}

/* ---- modern mode (2D / 3D) ---- */
#define TS_ARGS_mg_jacobi(V, IN, OUT) \
  V(ts_mg_level, L) V(ts_value, omega) IN(ts_value, b) IN(ts_value, xs) OUT(ts_value, xd)
TS_CELL(mg_jacobi, i, j, k) {
  const long c = TS_MG_AT(L, i, j, k);
  xd[c] = ts_mg_jacobi_at(b, xs, c, L.sx, L.sy, L.dim, omega);
}

/* one colour's points of a natural level (zero: x is zero on entry) */
#define TS_ARGS_mg_gs_color(V, IN, OUT) \
  V(ts_mg_level, L) V(int, color) V(int, zero) IN(ts_value, b) OUT(ts_value, x)
TS_CELL(mg_gs_color, i, j, k) {
  if (((i + j + k) & 1) != color) return;
  const long c = TS_MG_AT(L, i, j, k);
  x[c] = ts_mg_gauss_seidel_at(b, x, c, L.sx, L.sy, L.dim, zero);
}

/* r in the natural layout of L; b and x in storage s */
#define TS_ARGS_mg_residual(V, IN, OUT) \
  V(ts_mg_level, L) V(ts_mg_pitch, s) IN(ts_value, b) IN(ts_value, x) OUT(ts_value, r)
TS_CELL(mg_residual, i, j, k) {
  r[TS_MG_AT(L, i, j, k)] = ts_mg_residual_any(b, x, i, j, k, s.x, s.y, s.h, L.dim);
}

/* L: the coarse level (natural sizes); cs, fs: the coarse and fine storage;
 * red_only: the black points' residuals taken as zero */
#define TS_ARGS_mg_restrict_residual(V, IN, OUT) \
  V(ts_mg_level, L)                              \
  V(ts_mg_pitch, cs)                             \
  V(ts_mg_pitch, fs) V(int, red_only) IN(ts_value, b) IN(ts_value, x) OUT(ts_value, bc)
TS_CELL(mg_restrict_residual, i, j, k) {
  bc[ts_mg_index(i, j, k, cs.x, cs.y, cs.h, L.dim)] =
      ts_mg_restrict_residual_at(b, x, i, j, k, fs.x, fs.y, fs.h, L.dim, red_only);
}

/* x += P ec at every point (color -1) or one colour's of L, in storage fs;
 * cs: the coarse level's storage */
#define TS_ARGS_mg_prolong_add(V, IN, OUT) \
  V(ts_mg_level, L)                        \
  V(ts_mg_pitch, fs) V(ts_mg_pitch, cs) V(int, color) OUT(ts_value, xf) IN(ts_value, ec)
TS_CELL(mg_prolong_add, i, j, k) {
  if (color >= 0 && ((i + j + k) & 1) != color) return;
  /* natural storage (every GPU launch): the plain index, without
   * ts_mg_index's run-time branches (docs/mg-history.md); split: the CPU */
  const long f = fs.h ? ts_mg_at3_split(i, j, k, fs.x, fs.y, fs.h) : TS_MG_AT(L, i, j, k);
  xf[f] = xf[f] + ts_mg_prolong_at(ec, i, j, k, cs.x, cs.y, cs.h, L.dim);
}

/* natural (L) <-> split (s) */
#define TS_ARGS_mg_convert_split(V, IN, OUT) \
  V(ts_mg_level, L) V(ts_mg_pitch, s) V(int, to_split) IN(ts_value, src) OUT(ts_value, dst)
TS_CELL(mg_convert_split, i, j, k) {
  const long c = TS_MG_AT(L, i, j, k), q = ts_mg_at3(i, j, k, s.x, s.y, s.h);
  if (to_split)
    dst[q] = src[c];
  else
    dst[c] = src[q];
}

/* ---- split levels: cell (m, j, kp) is slot m of row j on planes
 * kp * planes .. +planes - 1, in order; the loop kept rolled (unrolled, the
 * red sweep took 48 registers in FP64 instead of 40 on CUDA, and NVIDIA's
 * OpenCL compiler made a colour sweep 0.96 ms against 0.43 at 511^3) ---- */
#define TS_MG_PLANES(L, kp, planes, k)                                      \
  const long ts_k0 = (kp) * (planes);                                       \
  const long ts_k1 = ts_k0 + (planes) < (L).nz ? ts_k0 + (planes) : (L).nz; \
  TS_ROLLED for (long k = ts_k0; k < ts_k1; ++k)

#define TS_ARGS_mg_gs_split(V, IN, OUT) \
  V(ts_mg_level, L)                     \
  V(ts_mg_pitch, s) V(int, planes) V(int, color) V(int, zero) IN(ts_value, b) OUT(ts_value, x)
TS_CELL(mg_gs_split, m, j, kp) {
  TS_MG_PLANES(L, kp, planes, k)
  ts_mg_gauss_seidel_split(b, x, m, j, k, color, zero, L.nx, s.x, s.y, s.h);
}

/* the red half-sweep reading x + P ec at its black neighbours (mg_point.h) */
#define TS_ARGS_mg_gs_red_prolonged(V, IN, OUT) \
  V(ts_mg_level, L)                             \
  V(ts_mg_pitch, s)                             \
  V(int, planes) V(ts_mg_pitch, cs) IN(ts_value, b) OUT(ts_value, x) IN(ts_value, ec)
TS_CELL(mg_gs_red_prolonged, m, j, kp) {
  TS_MG_PLANES(L, kp, planes, k)
  ts_mg_gauss_seidel_red_prolonged(b, x, ec, m, j, k, L.nx, s.x, s.y, s.h, cs.x, cs.y, cs.h);
}

/* x += P ec at one colour's points, one work-item per slot */
#define TS_ARGS_mg_prolong_slot(V, IN, OUT) \
  V(ts_mg_level, L)                         \
  V(ts_mg_pitch, s)                         \
  V(int, planes) V(ts_mg_pitch, cs) V(int, color) OUT(ts_value, x) IN(ts_value, ec)
TS_CELL(mg_prolong_slot, m, j, kp) {
  TS_MG_PLANES(L, kp, planes, k)
  ts_mg_prolong_slot(x, ec, m, j, k, color, L.nx, s.x, s.y, s.h, cs.x, cs.y, cs.h);
}

/* 3D prolongation by coarse cells (mg_point.h): cell (I + 1, J + 1, kc) is
 * the column (I, J), I = -1 .. C.nx - 1, marching `cells` cells from
 * K = kc * cells - 1; F, fs: the fine level, C, cs: the coarse one */
#define TS_ARGS_mg_prolong_cells(V, IN, OUT) \
  V(ts_mg_level, F)                          \
  V(ts_mg_pitch, fs)                         \
  V(ts_mg_level, C)                          \
  V(ts_mg_pitch, cs) V(int, colours) V(int, cells) OUT(ts_value, x) IN(ts_value, ec)
TS_CELL(mg_prolong_cells, ci, cj, kc) {
  const long K0 = kc * cells - 1;
  ts_mg_prolong_cells(x, ec, ci - 1, cj - 1, K0, K0 + cells < C.nz ? K0 + cells : C.nz, colours,
                      F.nx, F.ny, F.nz, fs.x, fs.y, fs.h, cs.x, cs.y, cs.h);
}

/* ---- tiles (mg_tiles.h): 2D groups of TS_MG_?X x TS_MG_?Y work-items on a
 * 3D grid of groups ---- */
#define TS_MG_TILE_OF(g)                        \
  const int tx = (int)(g).lx, ty = (int)(g).ly; \
  const long gx = (long)(g).id, gy = (long)(g).id_y, gz = (long)(g).id_z

/* Fused red-black sweep x_old -> x_new (variant 1: x_old + P ec; csx, csy:
 * the coarse level's pitches, two scalars: as a struct, nvcc kept them in
 * registers and the FP64 sweep with the correction spilled 64 bytes, not 48) */
#define TS_ARGS_mg_gs_fused(V, IN, OUT) \
  V(ts_mg_level, L)                     \
  V(long, csx) V(long, csy) IN(ts_value, b) IN(ts_value, xo) OUT(ts_value, xn) IN(ts_value, ec)
TS_GROUP(mg_gs_fused, g, s) {
  TS_MG_TILE_OF(g);
  ts_mg_rbgs_fused_tile(b, xo, xn, ec, g.variant, csx, csy, L.nx, L.ny, L.nz, L.sx, L.sy, tx, ty,
                        gx, gy, gz, s, s + 2 * TS_MG_FX * TS_MG_FY * TS_MG_FR);
}

/* 3D residual + restriction, one group per coarse tile of `planes` planes;
 * C, cs: the coarse level and storage, F, fs: the fine ones */
#define TS_ARGS_mg_restrict_tile(V, IN, OUT) \
  V(ts_mg_level, C)                          \
  V(ts_mg_pitch, cs)                         \
  V(ts_mg_level, F)                          \
  V(ts_mg_pitch, fs) V(int, lean) V(int, planes) IN(ts_value, b) IN(ts_value, x) OUT(ts_value, bc)
TS_GROUP(mg_restrict_tile, g, s) {
  TS_MG_TILE_OF(g);
  ts_mg_restrict_residual_tile(b, x, bc, F.nx, F.ny, fs.x, fs.y, (g.variant >> 2) & 1, fs.h, C.nx,
                               C.ny, C.nz, cs.x, cs.y, (g.variant >> 1) & 1, cs.h, g.variant & 1,
                               lean, planes, tx, ty, gx, gy, gz, s);
}
