/* The kernels generated around a user function (after the user's source).
 * Build options select one: TS_SKEL_KIND 0 map, 1 mapIndex, 2 zip, 3 zipIndex,
 * 4 stencil (TS_SKEL_FILL 0 the stencil / 1 the ghost fill), 5 fold rows;
 * TS_SKEL_F is the user function, TS_SKEL_T/U/R the element types,
 * TS_SKEL_DIMS the index arity. The per-cell operations of skel_ops.hpp, on
 * the parameter structs of skel_params.h; the boundary modes and the fold's
 * order are the shared skel_boundary.h and skel_fold.h. */

#if TS_SKEL_KIND <= 3
#if TS_SKEL_DIMS == 1
#define TS_SKEL_INDEX(z) B.g[0] + x
#elif TS_SKEL_DIMS == 2
#define TS_SKEL_INDEX(z) B.g[0] + x, B.g[1] + y
#else
#define TS_SKEL_INDEX(z) B.g[0] + x, B.g[1] + y, B.g[2] + (z)
#endif
#define TS_SKEL_AT(p, v, c, z) p[v.o + (c)*v.cs + (z)*v.sz + y * v.sy + x]
/* The value of component c of cell (x, y, z) (skel_ops.hpp's MapOp::compute). */
#if TS_SKEL_KIND == 0
#define TS_SKEL_MAP_VALUE(c, z) TS_SKEL_F(TS_SKEL_AT(a, A, c, z))
#elif TS_SKEL_KIND == 1
#define TS_SKEL_MAP_VALUE(c, z) TS_SKEL_F(TS_SKEL_INDEX(z), TS_SKEL_AT(a, A, c, z))
#elif TS_SKEL_KIND == 2
#define TS_SKEL_MAP_VALUE(c, z) TS_SKEL_F(TS_SKEL_AT(a, A, c, z), TS_SKEL_AT(b, V, c, z))
#else
#define TS_SKEL_MAP_VALUE(c, z) \
  TS_SKEL_F(TS_SKEL_INDEX(z), TS_SKEL_AT(a, A, c, z), TS_SKEL_AT(b, V, c, z))
#endif

/* TS_SKEL_Z_CELLS consecutive z per work-item; one component: all computed
 * before any is stored (in place, each work-item reads only its own cells). */
__kernel void ts_skel_map(ts_skel_box B, int components, __global const TS_SKEL_T* a,
                          ts_skel_view A, __global const TS_SKEL_U* b, ts_skel_view V,
                          __global TS_SKEL_R* out, ts_skel_view O) {
  const long x = B.lo[0] + get_global_id(0), y = B.lo[1] + get_global_id(1),
             z0 = B.lo[2] + get_global_id(2) * TS_SKEL_Z_CELLS;
  const long ze = B.lo[2] + B.n[2];
  if (x >= B.lo[0] + B.n[0] || y >= B.lo[1] + B.n[1] || z0 >= ze) return;
  const int m = ze - z0 < TS_SKEL_Z_CELLS ? (int)(ze - z0) : TS_SKEL_Z_CELLS;
  if (components == 1) {
    TS_SKEL_R v[TS_SKEL_Z_CELLS];
#pragma unroll
    for (int u = 0; u < TS_SKEL_Z_CELLS; ++u)
      if (u < m) v[u] = TS_SKEL_MAP_VALUE(0, z0 + u);
#pragma unroll
    for (int u = 0; u < TS_SKEL_Z_CELLS; ++u)
      if (u < m) TS_SKEL_AT(out, O, 0, z0 + u) = v[u];
    return;
  }
  for (int u = 0; u < m; ++u)
    for (int c = 0; c < components; ++c)
      TS_SKEL_AT(out, O, c, z0 + u) = TS_SKEL_MAP_VALUE(c, z0 + u);
}
#endif

#if TS_SKEL_KIND == 4
/* The ghost layers hold what the boundary modes say: plain loads. */
TS_FN ts_real ts_stencil_at(const ts_stencil* s, int dx, int dy, int dz) {
  return s->p[dz * s->sz + dy * s->sy + dx];
}

#if TS_SKEL_FILL
#include "skel_boundary.h"
/* The ghost cells of the input in box B of its shell (skel_ops.hpp's
 * GhostFillOp): what a stencil reads there under the boundary modes. */
__kernel void ts_skel_fill(ts_skel_box B, __global ts_real* in, ts_skel_view I, ts_skel_bounds D,
                           ts_real neutral) {
  const long x = B.lo[0] + get_global_id(0), y = B.lo[1] + get_global_id(1),
             z = B.lo[2] + get_global_id(2);
  if (x >= B.lo[0] + B.n[0] || y >= B.lo[1] + B.n[1] || z >= B.lo[2] + B.n[2]) return;
  long g[3], c[3], u[3] = {0, 0, 0};
  g[0] = B.g[0] + x;
  g[1] = B.g[1] + y;
  g[2] = B.g[2] + z;
  const int m = ts_skel_fill_source(&D, g, c, u);
  if (m == TS_SKEL_NOT_GHOST) return;
  ts_real v = neutral;
#ifdef TS_SKEL_USER_BOUNDARY
  if (m == TS_SKEL_USER) v = TS_SKEL_USER_BOUNDARY(u[0], u[1], u[2], neutral);
#endif
  if (m < 0) v = in[I.o + (c[2] - B.g[2]) * I.sz + (c[1] - B.g[1]) * I.sy + (c[0] - B.g[0])];
  in[I.o + z * I.sz + y * I.sy + x] = v;
}
#else
/* TS_SKEL_Z_CELLS consecutive z per work-item, all computed before any is stored. */
__kernel void ts_skel_stencil(ts_skel_box B, __global const ts_real* restrict in, ts_skel_view I,
                              __global ts_real* restrict out, ts_skel_view O) {
  const long x = B.lo[0] + get_global_id(0), y = B.lo[1] + get_global_id(1),
             z0 = B.lo[2] + get_global_id(2) * TS_SKEL_Z_CELLS;
  const long ze = B.lo[2] + B.n[2];
  if (x >= B.lo[0] + B.n[0] || y >= B.lo[1] + B.n[1] || z0 >= ze) return;
  const int m = ze - z0 < TS_SKEL_Z_CELLS ? (int)(ze - z0) : TS_SKEL_Z_CELLS;
  ts_stencil s;
  s.sy = I.sy;
  s.sz = I.sz;
  s.pos[0] = B.g[0] + x;
  s.pos[1] = B.g[1] + y;
  ts_real v[TS_SKEL_Z_CELLS];
#pragma unroll
  for (int u = 0; u < TS_SKEL_Z_CELLS; ++u)
    if (u < m) {
      s.p = in + I.o + (z0 + u) * I.sz + y * I.sy + x;
      s.pos[2] = B.g[2] + z0 + u;
      v[u] = TS_SKEL_F(&s);
    }
#pragma unroll
  for (int u = 0; u < TS_SKEL_Z_CELLS; ++u)
    if (u < m) out[O.o + (z0 + u) * O.sz + y * O.sy + x] = v[u];
}
#endif
#endif

#if TS_SKEL_KIND == 5
#include "skel_fold.h"
/* One work-group of TS_REDUCE_THREADS per (row, chunk), skel_fold.h's order;
 * row r of `len` elements starts at I.o + (r / rows_y) * I.sz + (r % rows_y) * I.sy. */
__kernel void ts_skel_reduce_rows(__global const ts_real* in, ts_skel_view I, long len, long rows_y,
                                  __global ts_real* out, long chunks) {
  __local ts_real s[TS_REDUCE_THREADS];
  const long g = get_group_id(0), r = g / chunks, k = g % chunks;
  const long begin = k * TS_REDUCE_CHUNK;
  const long n = len - begin < TS_REDUCE_CHUNK ? len - begin : TS_REDUCE_CHUNK;
  ts_skel_fold_chunk((int)get_local_id(0), s,
                     in + I.o + (r / rows_y) * I.sz + (r % rows_y) * I.sy + begin, n,
                     out + r * chunks + k);
}
#endif
