/* Per-ray mathematics of the voxelizer (src/lbm/geometry/voxelize.hpp),
 * once for the CPU, OpenCL (voxel.cl) and CUDA (voxel_cuda.cu).
 *
 * A ray runs along +x through the cell centres (x, j, k), x = 0 .. nx-1.
 * Whether it crosses a triangle is decided on the triangles' cross-section
 * (u, v) = (y, z), in integers (units of 2^-TS_VOXEL_SUBCELL_BITS cells,
 * rounded by the host): the three edge functions are exact in 64 bits, so
 * two triangles that share an edge see the same value with opposite signs.
 * A ray through an edge or a vertex is decided as the point
 * (j + e^2, k + e) would be, e > 0 infinitesimal (simulation of
 * simplicity): an exact zero counts as left of the edge a->b where
 * b.u > a.u, or b.u == a.u and b.v < a.v, the rasterizers' top-left rule for
 * this perturbation. The perturbed point lies on no edge, so a closed mesh
 * gives every ray an even number of crossings, whatever its vertices hit.
 * A triangle of zero cross-section (parallel to the rays) is never crossed;
 * the host drops it.
 *
 * Where a ray crosses, the position along x is the barycentric interpolation
 * of the vertices' x in double (IEEE +, -, *, / correctly rounded on every
 * backend, contraction off, one fixed operation order: the same bits
 * everywhere), written from vertex a so that a triangle of constant x gives
 * that x exactly. A cell i counts the crossings at x_c <= i (a centre on the
 * surface belongs to the side of larger x). Instead of collecting and
 * sorting positions, each crossing toggles the first cell it counts for
 * (mask[ceil(x_c)] ^= 1) and a prefix xor along the row turns toggles into
 * parity: no buffer of crossings, so no bound on their number. */

/* (b - a) x (p - a): twice the signed area of (a, b, p), exact for
 * |coordinates| < 2^(TS_VOXEL_RANGE_BITS + TS_VOXEL_SUBCELL_BITS). */
TS_FN long ts_voxel_edge(long au, long av, long bu, long bv, long pu, long pv) {
  return (bu - au) * (pv - av) - (bv - av) * (pu - au);
}

/* Whether (pu + e^2, pv + e) lies left of a -> b. */
TS_FN int ts_voxel_left(long au, long av, long bu, long bv, long pu, long pv) {
  const long e = ts_voxel_edge(au, av, bu, bv, pu, pv);
  return e > 0 || (e == 0 && (bu > au || (bu == au && bv < av)));
}

/* The first cell of [0, nx] that a crossing of triangle yz/x by the ray
 * through (pu, pv) counts for (nx: none of the row's), or -1 where the ray
 * passes by. */
TS_FN long ts_voxel_crossing(TS_GLOBAL const int* yz, TS_GLOBAL const double* x, long pu, long pv,
                             long nx) {
  const long au = yz[0], av = yz[1], bu = yz[2], bv = yz[3], cu = yz[4], cv = yz[5];
  const int ab = ts_voxel_left(au, av, bu, bv, pu, pv);
  if (ts_voxel_left(bu, bv, cu, cv, pu, pv) != ab || ts_voxel_left(cu, cv, au, av, pu, pv) != ab)
    return -1;
  /* barycentric weights of b and c: the areas of (c, a, p) and (a, b, p) */
  const double wb = (double)ts_voxel_edge(cu, cv, au, av, pu, pv);
  const double wc = (double)ts_voxel_edge(au, av, bu, bv, pu, pv);
  const double w = (double)ts_voxel_edge(au, av, bu, bv, cu, cv);
  const double xa = x[0];
  const double xc = xa + (wb * (x[1] - xa) + wc * (x[2] - xa)) / w;
  if (xc <= 0) return 0;
  if (xc >= (double)nx) return nx;
  return (long)ceil(xc);
}

/* One ray (j, k): its row of the mask from the crossings of its tile's
 * triangles, and their number (odd: the ray met an open mesh). */
TS_CELL(voxel_rays, j, k, plane) {
  (void)plane;
  const long row = j + g.ny * k;
  TS_GLOBAL unsigned char* m = mask + row * g.nx;
  for (long i = 0; i < g.nx; i++) m[i] = 0;
  const long tile = j / TS_VOXEL_TILE + g.tiles_y * (k / TS_VOXEL_TILE);
  const long pu = j * (1L << TS_VOXEL_SUBCELL_BITS), pv = k * (1L << TS_VOXEL_SUBCELL_BITS);
  int count = 0;
  for (long t = tile_start[tile]; t < tile_start[tile + 1]; t++) {
    const long id = tile_tris[t];
    const long first = ts_voxel_crossing(tri_yz + 6 * id, tri_x + 3 * id, pu, pv, g.nx);
    if (first < 0) continue;
    count++;
    if (first < g.nx) m[first] ^= 1;
  }
  unsigned char inside = 0;
  for (long i = 0; i < g.nx; i++) {
    inside ^= m[i];
    m[i] = inside;
  }
  counts[row] = count;
}
