/* OpenCL launchers of the dense kernels (built with -Dts_real=float|double,
 * -DTS_PACK=4|2 so that one pack is 16 bytes). The mathematics is in
 * dense_point.h; this file only indexes. */
#include "dense_point.h"

#if TS_PACK == 4
#define ts_pack float4
#define TS_PACK_APPLY(r, FN, s, a, b) \
  r.s0 = FN(s, a.s0, b.s0); r.s1 = FN(s, a.s1, b.s1); r.s2 = FN(s, a.s2, b.s2); r.s3 = FN(s, a.s3, b.s3)
#define TS_PACK_FOLD(acc, TERM, COMB, a, b)                           \
  acc = COMB(acc, TERM(a.s0, b.s0)); acc = COMB(acc, TERM(a.s1, b.s1)); \
  acc = COMB(acc, TERM(a.s2, b.s2)); acc = COMB(acc, TERM(a.s3, b.s3))
#else
#define ts_pack double2
#define TS_PACK_APPLY(r, FN, s, a, b) r.s0 = FN(s, a.s0, b.s0); r.s1 = FN(s, a.s1, b.s1)
#define TS_PACK_FOLD(acc, TERM, COMB, a, b) \
  acc = COMB(acc, TERM(a.s0, b.s0)); acc = COMB(acc, TERM(a.s1, b.s1))
#endif

/* y = f(s, x, z): 16-byte packs in a grid-stride loop, then the scalar tail.
 * x and z may alias y (same index); an operation that ignores x or z gets y
 * passed in their place and never loads it. */
#define TS_ELEMENTWISE_KERNEL(NAME, FN)                                                    \
  __kernel void NAME(ulong n, ts_real s, __global const ts_real* x,                          \
                     __global const ts_real* z, __global ts_real* y) {                       \
    const ulong packs = n / TS_PACK;                                                       \
    const ulong stride = get_global_size(0);                                               \
    __global const ts_pack* xv = (__global const ts_pack*)x;                               \
    __global const ts_pack* zv = (__global const ts_pack*)z;                               \
    __global ts_pack* yv = (__global ts_pack*)y;                                           \
    for (ulong p = get_global_id(0); p < packs; p += stride) {                             \
      ts_pack a = xv[p], b = zv[p], r;                                                     \
      TS_PACK_APPLY(r, FN, s, a, b);                                                       \
      yv[p] = r;                                                                           \
    }                                                                                      \
    ulong i = packs * TS_PACK + get_global_id(0);                                          \
    if (i < n) y[i] = FN(s, x[i], z[i]);                                                   \
  }

TS_ELEMENTWISE_KERNEL(ew_fill, ts_ew_fill)
TS_ELEMENTWISE_KERNEL(ew_copy, ts_ew_copy)
TS_ELEMENTWISE_KERNEL(ew_scale, ts_ew_scale)
TS_ELEMENTWISE_KERNEL(ew_axpy, ts_ew_axpy)
TS_ELEMENTWISE_KERNEL(ew_add, ts_ew_add)
TS_ELEMENTWISE_KERNEL(ew_triad, ts_ew_triad)

/* Canonical order (portable.h): one work-group of TS_REDUCE_THREADS per chunk. */
#define TS_TREE(COMBINE)                                                 \
  s[t] = acc;                                                            \
  barrier(CLK_LOCAL_MEM_FENCE);                                          \
  for (uint h = TS_REDUCE_THREADS / 2; h > 0; h >>= 1) {                 \
    if (t < h) s[t] = COMBINE(s[t], s[t + h]);                           \
    barrier(CLK_LOCAL_MEM_FENCE);                                        \
  }                                                                      \
  if (t == 0) out[get_group_id(0)] = s[0];

#define TS_REDUCE_KERNEL(NAME, TERM, COMBINE, IDENTITY)                                   \
  __kernel __attribute__((reqd_work_group_size(TS_REDUCE_THREADS, 1, 1))) void NAME(       \
      ulong n, __global const ts_real* x, __global const ts_real* y, __global ts_real* out) { \
    __local ts_real s[TS_REDUCE_THREADS];                                                 \
    const uint t = get_local_id(0);                                                       \
    const ulong base = (ulong)get_group_id(0) * TS_REDUCE_CHUNK;                          \
    ts_real acc = IDENTITY;                                                               \
    for (uint k = 0; k < TS_REDUCE_PER_THREAD; ++k) {                                     \
      ulong i = base + (ulong)k * TS_REDUCE_THREADS + t;                                  \
      if (i < n) acc = COMBINE(acc, TERM(x[i], y[i]));                                    \
    }                                                                                     \
    TS_TREE(COMBINE)                                                                      \
  }

TS_REDUCE_KERNEL(reduce_dot_sum, ts_term_dot, ts_combine_sum, TS_IDENTITY_SUM)
TS_REDUCE_KERNEL(reduce_sumsq_sum, ts_term_sumsq, ts_combine_sum, TS_IDENTITY_SUM)
TS_REDUCE_KERNEL(reduce_value_sum, ts_term_value, ts_combine_sum, TS_IDENTITY_SUM)
TS_REDUCE_KERNEL(reduce_value_min, ts_term_value, ts_combine_min, TS_IDENTITY_MIN)
TS_REDUCE_KERNEL(reduce_value_max, ts_term_value, ts_combine_max, TS_IDENTITY_MAX)

/* Device order: 16-byte packs in a grid-stride loop, one partial per group. */
#define TS_REDUCE_DEVICE_KERNEL(NAME, TERM, COMBINE, IDENTITY)                             \
  __kernel __attribute__((reqd_work_group_size(TS_REDUCE_THREADS, 1, 1))) void NAME(        \
      ulong n, __global const ts_real* x, __global const ts_real* y, __global ts_real* out) {  \
    __local ts_real s[TS_REDUCE_THREADS];                                                  \
    const uint t = get_local_id(0);                                                        \
    const ulong packs = n / TS_PACK, stride = get_global_size(0);                          \
    __global const ts_pack* xv = (__global const ts_pack*)x;                               \
    __global const ts_pack* yv = (__global const ts_pack*)y;                               \
    ts_real acc = IDENTITY;                                                                \
    for (ulong p = get_global_id(0); p < packs; p += stride) {                             \
      ts_pack a = xv[p], b = yv[p];                                                        \
      TS_PACK_FOLD(acc, TERM, COMBINE, a, b);                                              \
    }                                                                                      \
    ulong i = packs * TS_PACK + get_global_id(0);                                          \
    if (i < n) acc = COMBINE(acc, TERM(x[i], y[i]));                                       \
    TS_TREE(COMBINE)                                                                       \
  }

TS_REDUCE_DEVICE_KERNEL(reduce_device_dot_sum, ts_term_dot, ts_combine_sum, TS_IDENTITY_SUM)
TS_REDUCE_DEVICE_KERNEL(reduce_device_sumsq_sum, ts_term_sumsq, ts_combine_sum, TS_IDENTITY_SUM)
TS_REDUCE_DEVICE_KERNEL(reduce_device_value_sum, ts_term_value, ts_combine_sum, TS_IDENTITY_SUM)
TS_REDUCE_DEVICE_KERNEL(reduce_device_value_min, ts_term_value, ts_combine_min, TS_IDENTITY_MIN)
TS_REDUCE_DEVICE_KERNEL(reduce_device_value_max, ts_term_value, ts_combine_max, TS_IDENTITY_MAX)
