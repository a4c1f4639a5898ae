/* The kernels generated around a user function (after the user's source).
 * Build options select one: TS_SKEL_KIND 0 map, 1 mapIndex, 2 zip, 3 zipIndex,
 * 4 stencil (TS_SKEL_FILL 0 the stencil / 1 the ghost fill), 5 fold rows;
 * TS_SKEL_F is the user function, TS_SKEL_T/U/R the element types,
 * TS_SKEL_DIMS the index arity. Same per-cell operations as skel_ops.hpp. */

#if TS_SKEL_KIND <= 3
#if TS_SKEL_DIMS == 1
#define TS_SKEL_INDEX(z) gx + x
#elif TS_SKEL_DIMS == 2
#define TS_SKEL_INDEX(z) gx + x, gy + y
#else
#define TS_SKEL_INDEX(z) gx + x, gy + y, gz + (z)
#endif
/* The value of component c of cell (x, y, z) (skel_ops.hpp's MapOp::compute). */
#if TS_SKEL_KIND == 0
#define TS_SKEL_MAP_VALUE(c, z) TS_SKEL_F(a[a_o + (c)*a_cs + (z)*a_sz + y * a_sy + x])
#elif TS_SKEL_KIND == 1
#define TS_SKEL_MAP_VALUE(c, z) \
  TS_SKEL_F(TS_SKEL_INDEX(z), a[a_o + (c)*a_cs + (z)*a_sz + y * a_sy + x])
#elif TS_SKEL_KIND == 2
#define TS_SKEL_MAP_VALUE(c, z)                          \
  TS_SKEL_F(a[a_o + (c)*a_cs + (z)*a_sz + y * a_sy + x], \
            b[b_o + (c)*b_cs + (z)*b_sz + y * b_sy + x])
#else
#define TS_SKEL_MAP_VALUE(c, z)                                            \
  TS_SKEL_F(TS_SKEL_INDEX(z), a[a_o + (c)*a_cs + (z)*a_sz + y * a_sy + x], \
            b[b_o + (c)*b_cs + (z)*b_sz + y * b_sy + x])
#endif

/* TS_SKEL_Z_CELLS consecutive z per work-item; one component: all computed
 * before any is stored (in place, each work-item reads only its own cells). */
__kernel void ts_skel_map(long bx, long by, long bz, long gx, long gy, long gz, int components,
                          __global const TS_SKEL_T* a, long a_o, long a_sy, long a_sz, long a_cs,
                          __global const TS_SKEL_U* b, long b_o, long b_sy, long b_sz, long b_cs,
                          __global TS_SKEL_R* out, long o_o, long o_sy, long o_sz, long o_cs) {
  const long x = get_global_id(0), y = get_global_id(1), z0 = get_global_id(2) * TS_SKEL_Z_CELLS;
  if (x >= bx || y >= by || z0 >= bz) return;
  const int m = bz - z0 < TS_SKEL_Z_CELLS ? (int)(bz - z0) : TS_SKEL_Z_CELLS;
  if (components == 1) {
    TS_SKEL_R v[TS_SKEL_Z_CELLS];
#pragma unroll
    for (int u = 0; u < TS_SKEL_Z_CELLS; ++u)
      if (u < m) v[u] = TS_SKEL_MAP_VALUE(0, z0 + u);
#pragma unroll
    for (int u = 0; u < TS_SKEL_Z_CELLS; ++u)
      if (u < m) out[o_o + (z0 + u) * o_sz + y * o_sy + x] = v[u];
    return;
  }
  for (int u = 0; u < m; ++u)
    for (int c = 0; c < components; ++c)
      out[o_o + c * o_cs + (z0 + u) * o_sz + y * o_sy + x] = TS_SKEL_MAP_VALUE(c, z0 + u);
}
#endif

#if TS_SKEL_KIND == 4
/* The ghost layers hold what the boundary modes say: plain loads. */
TS_FN ts_real ts_stencil_at(const ts_stencil* s, int dx, int dy, int dz) {
  return s->p[dz * s->sz + dy * s->sy + dx];
}

#if TS_SKEL_FILL
/* Applies axis a's mode to its documented coordinate *w and load coordinate
 * *c (extent n); the first axis whose mode yields a value of its own
 * (neutral 0, user 4) sets *m and the coordinates the user function sees
 * (u, from w); its coordinates are clamped only to keep the load inside. A
 * periodic axis with a halo wraps w but leaves c outside (the halo holds the
 * wrap). (skel_ops.hpp's BoundaryAccess::resolve.) */
TS_FN void ts_stencil_resolve(long* w, long* c, long n, int mode, int has_halo, int* m,
                              const long* ws, long* u) {
  if (*w >= 0 && *w < n) return;
  switch (mode) {
    case 0:
    case 4:
      if (*m < 0) {
        *m = mode;
        u[0] = ws[0];
        u[1] = ws[1];
        u[2] = ws[2];
      }
      *c = *w = *w < 0 ? 0 : n - 1;
      return;
    case 1:
      *w = *w < 0 ? *w + n : *w - n;
      if (!has_halo) *c = *w;
      return;
    case 2:
      *c = *w = *w < 0 ? 0 : n - 1;
      return;
    default:
      *c = *w = *w < 0 ? -*w : 2 * (n - 1) - *w;
      return;
  }
}

/* Whether global coordinate g along an axis is a ghost to fill (outside the
 * domain, not a periodic wrap the exchange brings into the halo). */
TS_FN int ts_stencil_ghost(long g, long n, int mode, int has_halo) {
  return (g < 0 || g >= n) && !(has_halo && mode == 1);
}

/* The ghost cells of the input in box (lx.., bx..) of its shell (local
 * coordinates): what a stencil reads there under the boundary modes
 * (skel_ops.hpp's GhostFillOp). */
__kernel void ts_skel_fill(long lx, long ly, long lz, long bx, long by, long bz, long gx, long gy,
                           long gz, __global ts_real* in, long i_o, long i_sy, long i_sz, long nx,
                           long ny, long nz, int m0, int m1, int m2, int h0, int h1, int h2,
                           ts_real neutral) {
  const long x = lx + get_global_id(0), y = ly + get_global_id(1), z = lz + get_global_id(2);
  if (x >= lx + bx || y >= ly + by || z >= lz + bz) return;
  long w[3], c[3], u[3] = {0, 0, 0};
  w[0] = c[0] = gx + x;
  w[1] = c[1] = gy + y;
  w[2] = c[2] = gz + z;
  if (!(ts_stencil_ghost(w[0], nx, m0, h0) || ts_stencil_ghost(w[1], ny, m1, h1) ||
        ts_stencil_ghost(w[2], nz, m2, h2)))
    return;
  int m = -1;
  ts_stencil_resolve(&w[0], &c[0], nx, m0, h0, &m, w, u);
  ts_stencil_resolve(&w[1], &c[1], ny, m1, h1, &m, w, u);
  ts_stencil_resolve(&w[2], &c[2], nz, m2, h2, &m, w, u);
  ts_real v = in[i_o + (c[2] - gz) * i_sz + (c[1] - gy) * i_sy + (c[0] - gx)];
  if (m == 0) v = neutral;
#ifdef TS_SKEL_USER_BOUNDARY
  if (m == 4) v = TS_SKEL_USER_BOUNDARY(u[0], u[1], u[2], neutral);
#endif
  in[i_o + z * i_sz + y * i_sy + x] = v;
}
#else
/* TS_SKEL_Z_CELLS consecutive z per work-item, all computed before any is stored. */
__kernel void ts_skel_stencil(long lx, long ly, long lz, long bx, long by, long bz, long gx,
                              long gy, long gz, __global const ts_real* restrict in, long i_o,
                              long i_sy, long i_sz, __global ts_real* restrict out, long o_o,
                              long o_sy, long o_sz) {
  const long x = lx + get_global_id(0), y = ly + get_global_id(1),
             z0 = lz + get_global_id(2) * TS_SKEL_Z_CELLS;
  if (x >= lx + bx || y >= ly + by || z0 >= lz + bz) return;
  const int m = lz + bz - z0 < TS_SKEL_Z_CELLS ? (int)(lz + bz - z0) : TS_SKEL_Z_CELLS;
  ts_stencil s;
  s.sy = i_sy;
  s.sz = i_sz;
  s.pos[0] = gx + x;
  s.pos[1] = gy + y;
  ts_real v[TS_SKEL_Z_CELLS];
#pragma unroll
  for (int u = 0; u < TS_SKEL_Z_CELLS; ++u)
    if (u < m) {
      s.p = in + i_o + (z0 + u) * i_sz + y * i_sy + x;
      s.pos[2] = gz + z0 + u;
      v[u] = TS_SKEL_F(&s);
    }
#pragma unroll
  for (int u = 0; u < TS_SKEL_Z_CELLS; ++u)
    if (u < m) out[o_o + (z0 + u) * o_sz + y * o_sy + x] = v[u];
}
#endif
#endif

#if TS_SKEL_KIND == 5
/* One work-group of TS_REDUCE_THREADS per (row, chunk): the canonical order. */
__kernel void ts_skel_reduce_rows(__global const ts_real* in, long origin, long len, long rows_y,
                                  long sy, long sz, __global ts_real* out, long chunks) {
  __local ts_real s[TS_REDUCE_THREADS];
  const long g = get_group_id(0), r = g / chunks, k = g % chunks;
  const int t = (int)get_local_id(0);
  const long begin = k * TS_REDUCE_CHUNK;
  const long n = len - begin < TS_REDUCE_CHUNK ? len - begin : TS_REDUCE_CHUNK;
  __global const ts_real* e = in + origin + (r / rows_y) * sz + (r % rows_y) * sy + begin;
  const int m0 = n < TS_REDUCE_THREADS ? (int)n : TS_REDUCE_THREADS;
  if (t < m0) {
    ts_real acc = e[t];
    for (long j = t + TS_REDUCE_THREADS; j < n; j += TS_REDUCE_THREADS) acc = TS_SKEL_F(acc, e[j]);
    s[t] = acc;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  int m = m0;
  for (int h = TS_REDUCE_THREADS / 2; h >= 1; h /= 2) {
    if (t < h && t + h < m) s[t] = TS_SKEL_F(s[t], s[t + h]);
    barrier(CLK_LOCAL_MEM_FENCE);
    m = m < h ? m : h;
  }
  if (t == 0) out[r * chunks + k] = s[0];
}
#endif
