/* OpenCL launchers of the multigrid kernels (build options -Dts_real=...).
 * One work-item per interior point of the level being written; the
 * mathematics and the stencil gathers are in mg_point.h. */
#include "mg_tiles.h"

/* A kernel's read-only arrays are never the array it writes, as CUDA's
 * const __restrict__ says: their loads may move past its stores and take
 * the read-only path. -DTS_CL_NO_RESTRICT (TESSERA_CL_OPTIONS) builds them
 * without, to time the difference. */
#ifdef TS_CL_NO_RESTRICT
#define TS_IN __global const ts_real*
#else
#define TS_IN __global const ts_real* restrict
#endif

/* The level written: nx, ny, nz interior points, pitches sx, sy, dimension. */
#define TS_LEVEL long nx, long ny, long nz, long sx, long sy, int dim
#define TS_POINT                                                               \
  const long i = get_global_id(0), j = get_global_id(1), k = get_global_id(2); \
  if (i >= nx || j >= ny || k >= nz) return;                                   \
  const long c = TS_MG_IDX(i, j, k, sx, sy, dim == 3 ? 1 : 0)

__kernel void thesis_jacobi(TS_LEVEL, TS_IN b, TS_IN xs, __global ts_real* xd) {
  TS_POINT;
  xd[c] = ts_mg_thesis_jacobi(b[c], xs[c - 1], xs[c + 1], xs[c - sx], xs[c + sx]);
}

__kernel void thesis_residual(TS_LEVEL, TS_IN b, TS_IN x, __global ts_real* r) {
  TS_POINT;
  r[c] = ts_mg_thesis_residual(b[c], x[c], x[c - 1], x[c + 1], x[c - sx], x[c + sx]);
}

/* written: the coarse level; fsx, fsy: the fine level's pitches */
__kernel void thesis_restrict(TS_LEVEL, long fsx, long fsy, TS_IN src, __global ts_real* bc) {
  TS_POINT;
  bc[c] = ts_mg_thesis_restrict_at(src, i, j, fsx, fsy);
}

/* 3D, one group per coarse tile (mg_tiles.h): the coarse level's sizes and
 * storage pitches, the fine level's sizes and storage pitches; one kernel
 * per storage pair (fine, coarse: n natural, s split) and weighting (_red:
 * the red points' residuals only) */
#define TS_MG_RESTRICT_TILE(NAME, FSPLIT, CSPLIT, RED)                                         \
  __kernel __attribute__((reqd_work_group_size(TS_MG_RX, TS_MG_RY, 1))) void NAME(             \
      long cnx, long cny, long cnz, long csx, long csy, long ch, long fnx, long fny, long fsx, \
      long fsy, long fh, int lean, int planes, TS_IN b, TS_IN x, __global ts_real* bc) {       \
    __local ts_real R[3 * TS_MG_RPLANE];                                                       \
    ts_mg_restrict_residual_tile(b, x, bc, fnx, fny, fsx, fsy, FSPLIT, fh, cnx, cny, cnz, csx, \
                                 csy, CSPLIT, ch, RED, lean, planes, (int)get_local_id(0),     \
                                 (int)get_local_id(1), get_group_id(0), get_group_id(1),       \
                                 get_group_id(2), R);                                          \
  }
TS_MG_RESTRICT_TILE(restrict_residual_tile_nn, 0, 0, 0)
TS_MG_RESTRICT_TILE(restrict_residual_tile_ns, 0, 1, 0)
TS_MG_RESTRICT_TILE(restrict_residual_tile_sn, 1, 0, 0)
TS_MG_RESTRICT_TILE(restrict_residual_tile_ss, 1, 1, 0)
TS_MG_RESTRICT_TILE(restrict_residual_tile_nn_red, 0, 0, 1)
TS_MG_RESTRICT_TILE(restrict_residual_tile_ns_red, 0, 1, 1)
TS_MG_RESTRICT_TILE(restrict_residual_tile_sn_red, 1, 0, 1)
TS_MG_RESTRICT_TILE(restrict_residual_tile_ss_red, 1, 1, 1)

/* written: the fine level; csx, csy: the coarse level's pitches */
__kernel void thesis_prolong(TS_LEVEL, long csx, long csy, int accumulate, __global ts_real* xf,
                             TS_IN xc) {
  TS_POINT;
  const ts_real v = ts_mg_thesis_prolong_at(xc, i, j, csx, csy);
  xf[c] = accumulate ? xf[c] + v : v;
}

__kernel void jacobi(TS_LEVEL, ts_real omega, TS_IN b, TS_IN xs, __global ts_real* xd) {
  TS_POINT;
  xd[c] = ts_mg_jacobi_at(b, xs, c, sx, sy, dim, omega);
}

__kernel void gauss_seidel_color(TS_LEVEL, int color, int zero, TS_IN b, __global ts_real* x) {
  TS_POINT;
  if (((i + j + k) & 1) != color) return;
  x[c] = ts_mg_gauss_seidel_at(b, x, c, sx, sy, dim, zero);
}

/* r in the natural layout; px, py, ph: the storage pitches of b and x */
__kernel void residual(TS_LEVEL, long px, long py, long ph, TS_IN b, TS_IN x, __global ts_real* r) {
  TS_POINT;
  r[c] = ts_mg_residual_any(b, x, i, j, k, px, py, ph, dim);
}

/* written: the coarse level (storage pitches cx, cy, ch); fsx, fsy, fh: the
 * fine level's */
__kernel void restrict_residual(TS_LEVEL, long cx, long cy, long ch, long fsx, long fsy, long fh,
                                int red_only, TS_IN b, TS_IN x, __global ts_real* bc) {
  TS_POINT;
  bc[ts_mg_index(i, j, k, cx, cy, ch, dim)] =
      ts_mg_restrict_residual_at(b, x, i, j, k, fsx, fsy, fh, dim, red_only);
}

/* written: the fine level (natural), every point (color -1) or one
 * colour's; csx, csy, ch: the coarse level's storage pitches */
__kernel void prolong_add(TS_LEVEL, long csx, long csy, long ch, int color, __global ts_real* xf,
                          TS_IN ec) {
  TS_POINT;
  if (color >= 0 && ((i + j + k) & 1) != color) return;
  xf[c] = xf[c] + ts_mg_prolong_at(ec, i, j, k, csx, csy, ch, dim);
}

/* ---- split levels (3D, storage by colour): one work-item per slot of a
 * row of one colour, marching `planes` planes of k (kernels::Tuning::
 * slot_planes); nx, ny, nz the level's sizes, sx, sy, ph its storage
 * pitches. TS_SLOT opens the loop over k that each kernel's body closes,
 * kept rolled as nvcc builds the CUDA kernels: unrolled by NVIDIA's OpenCL
 * compiler (H200, 511^3 FP64) a colour sweep took 0.96 ms against 0.43 ---- */
#define TS_SLOT                                                                          \
  const long m = get_global_id(0), j = get_global_id(1), k0 = get_global_id(2) * planes; \
  const long k1 = k0 + planes < nz ? k0 + planes : nz;                                   \
  if (j >= ny) return;                                                                   \
  _Pragma("unroll 1") for (long k = k0; k < k1; ++k)

__kernel void gauss_seidel_split(long nx, long ny, long nz, long sx, long sy, long ph, int planes,
                                 int color, int zero, TS_IN b, __global ts_real* x) {
  TS_SLOT ts_mg_gauss_seidel_split(b, x, m, j, k, color, zero, nx, sx, sy, ph);
}

/* the red half-sweep reading x + P e at its black neighbours (mg_point.h);
 * csx, csy, ch: the coarse level's storage pitches */
__kernel void gauss_seidel_red_prolonged(long nx, long ny, long nz, long sx, long sy, long ph,
                                         int planes, long csx, long csy, long ch, TS_IN b,
                                         __global ts_real* x, TS_IN e) {
  TS_SLOT ts_mg_gauss_seidel_red_prolonged(b, x, e, m, j, k, nx, sx, sy, ph, csx, csy, ch);
}

/* x += P e at one colour's points of a split level, one work-item per slot */
__kernel void prolong_slot(long nx, long ny, long nz, long sx, long sy, long ph, int planes,
                           long csx, long csy, long ch, int color, __global ts_real* x, TS_IN e) {
  TS_SLOT ts_mg_prolong_slot(x, e, m, j, k, color, nx, sx, sy, ph, csx, csy, ch);
}

/* 3D prolongation by coarse cells (mg_point.h): one work-item per cell
 * column (I, J), I = -1 .. cnx - 1, marching `cells` cells; the fine
 * level's sizes and storage pitches, the coarse level's */
__kernel void prolong_cells(long nx, long ny, long nz, long sx, long sy, long ph, long cnx,
                            long cny, long cnz, long csx, long csy, long ch, int colours, int cells,
                            __global ts_real* xf, TS_IN ec) {
  const long I = (long)get_global_id(0) - 1, J = (long)get_global_id(1) - 1;
  const long K0 = (long)get_group_id(2) * cells - 1;
  if (I >= cnx || J >= cny) return;
  ts_mg_prolong_cells(xf, ec, I, J, K0, K0 + cells < cnz ? K0 + cells : cnz, colours, nx, ny, nz,
                      sx, sy, ph, csx, csy, ch);
}

/* natural (pitches of TS_LEVEL) <-> split (px, py, ph) */
__kernel void convert_split(TS_LEVEL, long px, long py, long ph, int to_split, TS_IN src,
                            __global ts_real* dst) {
  TS_POINT;
  const long q = ts_mg_at3(i, j, k, px, py, ph);
  if (to_split)
    dst[q] = src[c];
  else
    dst[c] = src[q];
}

/* Fused red-black sweep (mg_tiles.h): groups of TS_MG_FX x TS_MG_FY; with and
 * without the prolongation fused in, as two kernels so that each is compiled
 * for its case (fewer registers without it). */
#define TS_MG_FUSED_KERNEL(NAME, PROLONG)                                                         \
  __kernel __attribute__((reqd_work_group_size(TS_MG_FX, TS_MG_FY, 1))) void NAME(                \
      long nx, long ny, long nz, long sx, long sy, long csx, long csy, TS_IN b, TS_IN xo,         \
      __global ts_real* xn, TS_IN ec) {                                                           \
    __local ts_real old[2 * TS_MG_FX * TS_MG_FY * TS_MG_FR], red[TS_MG_FX * TS_MG_FY * TS_MG_FR]; \
    ts_mg_rbgs_fused_tile(b, xo, xn, ec, PROLONG, csx, csy, nx, ny, nz, sx, sy,                   \
                          (int)get_local_id(0), (int)get_local_id(1), get_group_id(0),            \
                          get_group_id(1), get_group_id(2), old, red);                            \
  }
TS_MG_FUSED_KERNEL(gauss_seidel_fused, 0)
TS_MG_FUSED_KERNEL(gauss_seidel_fused_prolong, 1)
