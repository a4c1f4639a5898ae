/* OpenCL kernels of the streaming thesis mode (build options -Dts_real=...).
 * One work-item per point of the region written, in level coordinates
 * (ri0 + x, rj0 + y); tile addressing in mg_stream_point.h. */
#include "mg_stream_cache.h"

#define TS_REGION long ri0, long rj0, long rw, long rh
#define TS_ARRAY(n) __global ts_real *n, long n##_off, long n##_p, long n##_i0, long n##_j0
#define TS_CARRAY(n) __global const ts_real *n, long n##_off, long n##_p, long n##_i0, long n##_j0
#define TS_REGION_POINT                                    \
  const long gx = get_global_id(0), gy = get_global_id(1); \
  if (gx >= rw || gy >= rh) return;                        \
  const long i = ri0 + gx, j = rj0 + gy

/* b, xs and xd share pitch and origin (xs_p, xs_i0, xs_j0) */
__kernel void mgs_jacobi(TS_REGION, __global const ts_real* b, long b_off,
                         __global const ts_real* xs, long xs_off, __global ts_real* xd, long xd_off,
                         long p, long a_i0, long a_j0) {
  TS_REGION_POINT;
  const long c = TS_MGS_AT(0, p, a_i0, a_j0, i, j);
  xd[xd_off + c] = ts_mgs_jacobi_at(b, xs, b_off + c, xs_off + c, p);
}

/* The same step with the thesis's local-memory row cache (mg_stream_cache.h):
 * groups of TS_MGS_CACHE_WG x 1 work-items, group row g covers the band of
 * rows [rj0 + g ROWS, rj0 + (g + 1) ROWS) of the region. */
__kernel __attribute__((reqd_work_group_size(TS_MGS_CACHE_WG, 1, 1))) void mgs_jacobi_cache(
    TS_REGION, __global const ts_real* b, long b_off, __global const ts_real* xs, long xs_off,
    __global ts_real* xd, long xd_off, long p, long a_i0, long a_j0) {
  __local ts_real cache[9 * TS_MGS_CACHE_WG];
  ts_mgs_jacobi_cache_at(b + b_off, xs + xs_off, xd + xd_off, p, a_i0, a_j0, ri0, rj0, rw, rh,
                         (long)get_group_id(0), (long)get_group_id(1), (int)get_local_id(0), cache);
}

/* out may be b (in place): no restrict qualifiers */
__kernel void mgs_residual(TS_REGION, __global const ts_real* b, long b_off,
                           __global const ts_real* x, long x_off, __global ts_real* out,
                           long out_off, long p, long a_i0, long a_j0) {
  TS_REGION_POINT;
  const long c = TS_MGS_AT(0, p, a_i0, a_j0, i, j);
  out[out_off + c] = ts_mgs_residual_at(b, x, b_off + c, x_off + c, p);
}

/* region: coarse points */
__kernel void mgs_restrict(TS_REGION, TS_CARRAY(s), TS_ARRAY(d)) {
  TS_REGION_POINT;
  d[TS_MGS_AT(d_off, d_p, d_i0, d_j0, i, j)] = ts_mgs_restrict_at(s, s_off, s_p, s_i0, s_j0, i, j);
}

/* region: fine points */
__kernel void mgs_prolong(TS_REGION, TS_ARRAY(f), TS_CARRAY(c), int accumulate) {
  TS_REGION_POINT;
  const ts_real v = ts_mgs_prolong_at(c, c_off, c_p, c_i0, c_j0, i, j);
  const long o = TS_MGS_AT(f_off, f_p, f_i0, f_j0, i, j);
  f[o] = accumulate ? f[o] + v : v;
}

/* the ring of a w x h tile array at a_off: 2(w + 2) + 2h points */
__kernel void mgs_zero_ring(__global ts_real* a, long a_off, long p, long w, long h) {
  const long t = get_global_id(0);
  if (t < w + 2)
    a[a_off + t] = 0;
  else if (t < 2 * (w + 2))
    a[a_off + (h + 1) * p + (t - (w + 2))] = 0;
  else if (t < 2 * (w + 2) + h)
    a[a_off + (t - 2 * (w + 2) + 1) * p] = 0;
  else if (t < 2 * (w + 2) + 2 * h)
    a[a_off + (t - 2 * (w + 2) - h + 1) * p + w + 1] = 0;
}
