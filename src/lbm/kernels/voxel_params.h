/* The voxelizer's kernel (voxel_point.h has its body): the lattice it
 * fills, its argument list and the kernel list; included once, at file
 * scope, by C++, CUDA and the OpenCL program (voxel.cl). */
#include "core/kernels/kernel_args.h"

#ifndef TESSERA_VOXEL_PARAMS_H
#define TESSERA_VOXEL_PARAMS_H
/* Rays of a tile: TS_VOXEL_TILE x TS_VOXEL_TILE neighbours (y, z) that test
 * the same triangles (the host bins them so); also the GPU work-group, so
 * that a group's work-items read one list. */
#define TS_VOXEL_TILE 8
/* Cross-section coordinates are integers in units of 2^-10 cells (the host
 * rounds them to nearest even), bounded by 2^19 cells: a difference fits 31
 * bits, an edge function's products 61 bits of a 64-bit long. */
#define TS_VOXEL_SUBCELL_BITS 10
#define TS_VOXEL_RANGE_BITS 19

/* The lattice of one pass: nx cells along the rays, ny x nz rays (x
 * fastest in the mask, as the lbm flags); tiles_y tiles along y. long is
 * 64-bit in OpenCL and on every host tessera builds for. */
typedef struct {
  long nx, ny, nz, tiles_y;
} ts_voxel_grid;

/* tri_yz: a triangle's cross-section (u, v) of its three vertices, 6 ints;
 * tri_x: its three coordinates along the rays; tile_start: the CSR offsets
 * of the tiles' lists (tiles + 1), tile_tris: the triangles of each list;
 * mask: nx * ny * nz bytes, every one written; counts: the crossings of
 * each ray (ny * nz). */
/* clang-format off */
#define TS_ARGS_voxel_rays(V, IN, OUT)                                       \
  V(ts_voxel_grid, g) IN(int, tri_yz) IN(double, tri_x) IN(long, tile_start) \
  IN(int, tile_tris) OUT(unsigned char, mask) OUT(int, counts)
/* clang-format on */

/* One work-item per ray; threads 0, occupancy 0: the compiler's own
 * register choice. */
#define TS_VOXEL_KERNELS(X) X(cells, voxel_rays, 0, 0, 0, TS_NO_VARIANTS)
#endif
