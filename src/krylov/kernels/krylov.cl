/* OpenCL Krylov kernels (built with -Dts_real=float|double). The mathematics
 * is krylov_point.h and the summation order that of krylov_cpu.cpp; this file
 * only indexes. Offsets and leading dimensions count reals. */
#include "krylov_point.h"

/* One work-group of TS_REDUCE_THREADS per (product k, chunk c); consecutive
 * groups share a chunk of w (c = group / k), so its re-reads hit the cache.
 * kry_dots2: a second right-hand side w2 in the same pass, its partials
 * 2 * nch * k reals on (two kernels, so that each compiles only its loads). */
__kernel void kry_dots(int nc, ulong n, ulong nch, ulong k, __global const ts_vstore* v,
                       ulong v_off, ulong ld, __global const ts_vstore* w, ulong w_off,
                       __global ts_real* partials) {
  __local ts_real s[2 * TS_REDUCE_THREADS];
  const ulong kk = get_group_id(0) % k, c = get_group_id(0) / k;
  ts_kry_dots_group(nc, n, c, kk * nch + c, 2 * nch * k, (uint)get_local_id(0), v + v_off + kk * ld,
                    w + w_off, 0, (__global const ts_real*)0, s, partials);
}
__kernel void kry_dots2(int nc, ulong n, ulong nch, ulong k, __global const ts_vstore* v,
                        ulong v_off, ulong ld, __global const ts_vstore* w, ulong w_off,
                        __global const ts_real* w2, ulong w2_off, __global ts_real* partials) {
  __local ts_real s[4 * TS_REDUCE_THREADS];
  const ulong kk = get_group_id(0) % k, c = get_group_id(0) / k;
  ts_kry_dots_group(nc, n, c, kk * nch + c, 2 * nch * k, (uint)get_local_id(0), v + v_off + kk * ld,
                    w + w_off, 1, w2 + w2_off, s, partials);
}

/* y = a*x + sum_k c_k v_k, and with two = 1 y2 = a2*x2 + sum_{k < k2} c2_k v_k
 * in the same pass; one work-item per element. has_x = 0: no x term. */
__kernel void kry_combine(int nc, ulong n, int k, __global const ts_real* coef_base, ulong coef_off,
                          int has_x, __global const ts_real* x, ulong x_off,
                          __global const ts_vstore* v, ulong v_off, ulong ld, __global ts_vstore* y,
                          ulong y_off, int y_real, int two, int k2, ulong coef2_off, int has_x2,
                          __global const ts_vstore* x2, ulong x2_off, __global ts_vstore* y2,
                          ulong y2_off) {
  const ulong i = get_global_id(0);
  /* y_off counts reals of y's own type */
  __global ts_vstore* yp = y_real ? (__global ts_vstore*)((__global ts_real*)y + y_off) : y + y_off;
  if (i < n)
    ts_kry_combine2_at(nc, (long)i, k, coef_base + coef_off, has_x, x + x_off, v + v_off, (long)ld,
                       yp, y_real, two, k2, coef_base + coef2_off, has_x2, x2 + x2_off,
                       y2 + y2_off);
}

#if !defined(TS_KRY_COMPRESSED) /* the other kernels work on working vectors only */
#if defined(TS_KRY_T) /* s-step GMRES's block kernels, built once per block width TS_KRY_T */
/* One work-group of TS_REDUCE_THREADS per (basis vector kk, chunk c), as kry_dots. */
__kernel void kry_dots_block(int nc, ulong n, ulong nch, ulong k, __global const ts_real* v,
                             ulong v_off, __global const ts_real* y, ulong y_off, ulong ld,
                             __global ts_real* partials) {
  __local ts_real s[2 * TS_KRY_T * TS_REDUCE_THREADS];
  const ulong kk = get_group_id(0) % k, c = get_group_id(0) / k;
  ts_kry_dotsb_group(nc, TS_KRY_T, n, nch, k, kk, c, (uint)get_local_id(0), v + v_off + kk * ld,
                     y + y_off, (long)ld, s, partials);
}
/* The block combination in place (ts_kry_combb_at), one work-item per element. */
__kernel void kry_combine_block(int nc, ulong n, int k, __global const ts_real* coef_base,
                                ulong coef_off, __global const ts_real* v, ulong v_off,
                                __global ts_real* y, ulong y_off, ulong ld) {
  const ulong i = get_global_id(0);
  if (i < n)
    ts_kry_combb_at(nc, TS_KRY_T, (long)i, k, coef_base + coef_off, v + v_off, y + y_off, (long)ld);
}
#endif

/* One work-group of TS_REDUCE_THREADS per product q (ts_kry_sum_chunks_group). */
__kernel void kry_sum_chunks(ulong chunks, __global const ts_real* partials,
                             __global ts_real* out) {
  __local ts_real s[2 * TS_REDUCE_THREADS];
  ts_kry_sum_chunks_group(chunks, get_group_id(0), (uint)get_local_id(0), partials, s, out);
}

/* The fused update (ts_kry_update_at): one work-group of TS_REDUCE_THREADS
 * per chunk, elements in kry_dots' order, so its products have its bits.
 * Absent operands (flags f) are bound to some valid buffer and not read. */
__kernel void kry_update(int nc, ulong n, ulong nch, uint f, int products,
                         __global const ts_real* coef_base, ulong coef_off,
                         __global const ts_real* x, __global const ts_real* u,
                         __global const ts_real* w, __global ts_real* y, __global const ts_real* x2,
                         __global const ts_real* u2, __global const ts_real* w2,
                         __global ts_real* y2, __global const ts_real* d, __global ts_real* z,
                         __global const ts_real* e, __global ts_real* partials) {
  __local ts_real s[3 * TS_REDUCE_THREADS];
  ts_kry_update_group(get_group_id(0), (uint)get_local_id(0), nc, n, nch, f, products,
                      coef_base + coef_off, x, u, w, y, x2, u2, w2, y2, d, z, e, s, partials);
}

/* y = blockdiag(D) x, one work-item per row. */
__kernel void kry_block_diag(int nc, ulong n, int bs, __global const ts_real* d,
                             __global const ts_real* x, __global ts_real* y) {
  const ulong i = get_global_id(0);
  if (i < n) ts_kry_block_diag_at(nc, (long)i, bs, d, x, y);
}

/* One level of a grouped triangular solve: one work-group of
 * TS_KRY_TRI_THREADS per group of rows (ts_kry_tri_group). */
__kernel void kry_tri_group(int nc, __global const int* groups, ulong groups_off, int group, long n,
                            int backward, __global const int* ptr, __global const int* col,
                            __global const ts_real* val, int has_d, __global const ts_real* inv_d,
                            __global const ts_real* b, __global ts_real* x) {
  __local ts_real s[2 * TS_KRY_TRI_CAP], acc[2 * TS_KRY_TRI_ROWS], xs[2 * TS_KRY_TRI_ROWS];
  __local int at[TS_KRY_TRI_CAP], span[3 * TS_KRY_TRI_ROWS];
  const long r0 = (long)groups[groups_off + get_group_id(0)] * group;
  const long r1 = r0 + group < n ? r0 + group : n;
  ts_kry_tri_group(nc, r0, r1, backward, (uint)get_local_id(0), ptr, col, val, has_d, inv_d, b, x,
                   s, at, acc, xs, span);
}

#if defined(cl_khr_fp64)
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#include "krylov_dcgs2.h"
/* DCGS2's coefficients of step j from the sums, on the device (one
 * work-group; ts_kry_dcgs2_group). */
__kernel void kry_dcgs2_coef(int nc, int j, __global const ts_real* sums, ulong sums_off,
                             __global ts_real* coef, ulong coef_off) {
  __local double part[3 * TS_KRY_DCGS2_LANES], st[7];
  ts_kry_dcgs2_group(nc, j, (int)get_local_id(0), (int)get_local_size(0), sums + sums_off, part, st,
                     coef + coef_off);
}
#endif
#endif
