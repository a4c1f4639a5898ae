/* Grid indexing shared by every multigrid launcher (C99, guarded).
 *
 * A level of nx × ny (× nz) interior unknowns is stored with a one-cell halo
 * ring of zeros (the homogeneous Dirichlet boundary): x-pitch sx = nx + 2,
 * plane pitch sy = sx * (ny + 2); in 2D there is no z halo (kh = 0), in 3D
 * kh = 1. Interior point (i, j, k), 0-based, lives at TS_MG_IDX. Vertex-centred
 * coarsening: coarse point (I, J, K) coincides with fine (2I+1, 2J+1, 2K+1). */
#ifndef TESSERA_MG_GRID_H
#define TESSERA_MG_GRID_H
#include "core/kernels/portable.h"
#define TS_MG_IDX(i, j, k, sx, sy, kh) \
  (((long)(k) + (kh)) * (long)(sy) + ((long)(j) + 1) * (long)(sx) + ((long)(i) + 1))

/* Kernel parameters (core/kernels/kernel_args.h): a level's sizes and
 * natural pitches, and a level's storage pitches (Dims::px, py, ph; ph 0:
 * the natural layout). Plain structs, the same in C++, CUDA and OpenCL. */
typedef struct {
  long nx, ny, nz; /* interior points (nz 1 in 2D) */
  long sx, sy;     /* natural layout: x and plane pitch */
  int dim;         /* 2 or 3 */
  int kh;          /* z halo: 1 in 3D, 0 in 2D (TS_MG_IDX) */
} ts_mg_level;
typedef struct {
  long x, y, h;
} ts_mg_pitch;
/* Streaming mode (mg_stream_point.h): a tile array's row pitch and origin
 * (TS_MGS_AT), and the region [i0, i0 + w) x [j0, j0 + h) a kernel writes. */
typedef struct {
  long p, i0, j0;
} ts_mgs_tile;
typedef struct {
  long i0, j0, w, h;
} ts_mgs_region;

/* Storage by colour (3D, Dims::split): the red points ((i + j + k) even) and
 * the black ones of a level with its halo ring, each in an array of their
 * own, black ph elements after red. Halo coordinate X = i + 1 of row
 * (j, k) sits in slot X >> 1 of that row, rows have sx slots, planes sy: a
 * colour's sweep reads its own b and the other colour's x and writes its
 * own x, 24 bytes per point in FP64 (model E), where the natural layout
 * moves every sector twice. The interior point (i, j, k) of a split 3D
 * level, and of a 3D level in either storage (ph == 0: natural, pitches sx,
 * sy; kernels that know the storage at compile time call the first): */
TS_FN long ts_mg_slot(long m, long j, long k, int c, long sx, long sy, long ph) {
  return c * ph + (k + 1) * sy + (j + 1) * sx + m; /* slot m of row (j, k), colour c */
}
TS_FN long ts_mg_at3_split(long i, long j, long k, long sx, long sy, long ph) {
  return ts_mg_slot((i + 1) >> 1, j, k, (int)((i + j + k) & 1), sx, sy, ph);
}
TS_FN long ts_mg_at3(long i, long j, long k, long sx, long sy, long ph) {
  return ph ? ts_mg_at3_split(i, j, k, sx, sy, ph) : TS_MG_IDX(i, j, k, sx, sy, 1);
}
/* Interior i of slot m in row (j, k) of colour c of a split level (the
 * row's points of that colour are X = 2m + s); outside 0 .. nx-1: none. */
TS_FN long ts_mg_split_i(long m, long j, long k, int c) {
  return 2 * m + ((c + j + k + 1) & 1) - 1;
}
/* A level's interior (i, j, k) in its storage: 2D natural, 3D either. */
TS_FN long ts_mg_index(long i, long j, long k, long sx, long sy, long ph, int dim) {
  return dim == 3 ? ts_mg_at3(i, j, k, sx, sy, ph) : TS_MG_IDX(i, j, k, sx, sy, 0);
}
/* Per axis, the coarse points that interpolate fine coordinate c + d
 * (d in -1, 0, 1; ts_mg_prolong_at) lie at lo + first .. lo + first +
 * count - 1, lo = (c >> 1) - 1 (count 2: the point lies between two,
 * weight 1/2 each); odd: c & 1. */
TS_FN int ts_mg_near_first(int odd, int d) { return odd ? (d >= 0) : (d > 0); }
TS_FN int ts_mg_near_count(int odd, int d) { return odd == (d == 0) ? 1 : 2; }
/* Whether cube entry a (0..2) of an axis is read by the interpolation at
 * offset d (-1, 0, 1) from a point of parity odd */
TS_FN int ts_mg_near_in(int odd, int d, int a) {
  const int f = ts_mg_near_first(odd, d);
  return a >= f && a < f + ts_mg_near_count(odd, d);
}
/* ... by some neighbour's (own == 0) or by the point's own (own == 1) */
TS_FN int ts_mg_near_needed(int oi, int oj, int ok, int own, int a, int b, int c) {
#define TS_IN3(di, dj, dk) \
  (ts_mg_near_in(oi, di, a) && ts_mg_near_in(oj, dj, b) && ts_mg_near_in(ok, dk, c))
  if (own) return TS_IN3(0, 0, 0);
  return TS_IN3(-1, 0, 0) || TS_IN3(1, 0, 0) || TS_IN3(0, -1, 0) || TS_IN3(0, 1, 0) ||
         TS_IN3(0, 0, -1) || TS_IN3(0, 0, 1);
#undef TS_IN3
}
/* Work-group of the fused red-black sweep (mg_tiles.h): TS_MG_FX x TS_MG_FY
 * work-items, each owning TS_MG_FR rows, so the region is 32 x 16 columns
 * with the default TS_MG_FY (a 28 x 12 tile plus its two-cell ring),
 * marching through TS_MG_TILE_Z planes (four extra planes are read per
 * march: 6% at 64). */
#define TS_MG_FX 32
/* TS_MG_FY may be set for a whole build (CXXFLAGS and CUDAFLAGS; the OpenCL
 * launcher passes it on to its programs; scripts/gpu-mg-sweep.sh measures
 * such variants). 8: groups of 256 work-items (a 28 x 12 tile), four per
 * multiprocessor; on an H100 the 3D V(1,1) took 7.10 / 7.01 ms (CUDA /
 * NVIDIA OpenCL) against 7.35 / 7.23 with 16 (docs/mg-history.md). */
#ifndef TS_MG_FY
#define TS_MG_FY 8
#endif
#define TS_MG_FR 2
#define TS_MG_TILE_Z 64
/* Work-group of the tiled residual + restriction (mg_tiles.h): TS_MG_RX x
 * TS_MG_RY coarse points of one (I, J) tile, marching TS_MG_RZ coarse planes */
#define TS_MG_RX 32
#define TS_MG_RY 8
#define TS_MG_RZ 16
/* ... taken for coarse levels of at least this many points; smaller ones
 * give too few groups (each marches its planes in sequence) and take the
 * point kernel, which computes the same bits */
#define TS_MG_TILED_MIN_POINTS (1L << 18)
/* Work-group of the prolongation by coarse cells (mg_point.h,
 * ts_mg_prolong_cells): TS_MG_PX x TS_MG_PY cell columns (I, J), each
 * work-item marching TS_MG_PZ cells in K */
#define TS_MG_PX 32
#define TS_MG_PY 4
#define TS_MG_PZ 16
/* Streaming mode, the smoother with the thesis's row cache
 * (mg_stream_cache.h): work-items per group (the thesis: 128) and rows of
 * the band each group marches */
#define TS_MGS_CACHE_WG 128
#define TS_MGS_CACHE_ROWS 32
#endif
