/* Grid indexing shared by every multigrid launcher (C99, guarded).
 *
 * A level of nx × ny (× nz) interior unknowns is stored with a one-cell halo
 * ring of zeros (the homogeneous Dirichlet boundary): x-pitch sx = nx + 2,
 * plane pitch sy = sx * (ny + 2); in 2D there is no z halo (kh = 0), in 3D
 * kh = 1. Interior point (i, j, k), 0-based, lives at TS_MG_IDX. Vertex-centred
 * coarsening: coarse point (I, J, K) coincides with fine (2I+1, 2J+1, 2K+1). */
#ifndef TESSERA_MG_GRID_H
#define TESSERA_MG_GRID_H
#define TS_MG_IDX(i, j, k, sx, sy, kh) \
  (((long)(k) + (kh)) * (long)(sy) + ((long)(j) + 1) * (long)(sx) + ((long)(i) + 1))
/* Work-group shape of the fused red-black sweep (mg_tiles.h). */
#define TS_MG_TILE_X 32 /* work-group width: tile of 28 + two-cell ring */
#define TS_MG_TILE_Y 16 /* work-group height: tile of 12 + two-cell ring */
#define TS_MG_TILE_Z 32 /* z planes per work-group */
#endif
