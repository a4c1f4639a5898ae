/* OpenCL Krylov kernels (built with -Dts_real=float|double). The mathematics
 * is krylov_point.h and the summation order that of krylov_cpu.cpp; this file
 * only indexes. Offsets and leading dimensions count reals. */
#include "krylov_point.h"

/* One work-group of TS_REDUCE_THREADS per (product k, chunk c); consecutive
 * groups share a chunk of w (c = group / k), so its re-reads hit the cache. */
__kernel void kry_dots(int nc, ulong n, ulong nch, ulong k, __global const ts_real* v, ulong v_off, ulong ld,
                       __global const ts_real* w, ulong w_off, __global ts_real* partials) {
  __local ts_real sr[TS_REDUCE_THREADS];
  __local ts_real si[TS_REDUCE_THREADS];
  const ulong kk = get_group_id(0) % k, c = get_group_id(0) / k;
  const ulong job = kk * nch + c;
  const uint t = (uint)get_local_id(0);
  __global const ts_real* vk = v + v_off + kk * ld;
  __global const ts_real* wp = w + w_off;
  ts_real ar = 0, ai = 0;
  for (uint p = 0; p < TS_REDUCE_PER_THREAD; ++p) {
    const ulong i = c * TS_REDUCE_CHUNK + (ulong)p * TS_REDUCE_THREADS + t;
    if (i < n) {
      if (nc == 1) {
        ar = ar + ts_kry_rdot(vk[i], wp[i]);
      } else {
        ar = ar + ts_kry_hdot_re(vk[2 * i], vk[2 * i + 1], wp[2 * i], wp[2 * i + 1]);
        ai = ai + ts_kry_hdot_im(vk[2 * i], vk[2 * i + 1], wp[2 * i], wp[2 * i + 1]);
      }
    }
  }
  sr[t] = ar;
  si[t] = ai;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint h = TS_REDUCE_THREADS / 2; h > 0; h >>= 1) {
    if (t < h) {
      sr[t] = sr[t] + sr[t + h];
      si[t] = si[t] + si[t + h];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (t == 0) {
    partials[2 * job] = sr[0];
    partials[2 * job + 1] = si[0];
  }
}

/* y = a*x + sum_k c_k v_k; one work-item per element. has_x = 0: no x term. */
__kernel void kry_combine(int nc, ulong n, int k, __global const ts_real* coef_base, ulong coef_off, int has_x,
                          __global const ts_real* x, ulong x_off, __global const ts_real* v,
                          ulong v_off, ulong ld, __global ts_real* y, ulong y_off) {
  const ulong i = get_global_id(0);
  if (i < n)
    ts_kry_combine_at(nc, (long)i, k, coef_base + coef_off, has_x, x + x_off, v + v_off, (long)ld,
                      y + y_off);
}

/* y = blockdiag(D) x, one work-item per row. */
__kernel void kry_block_diag(int nc, ulong n, int bs, __global const ts_real* d,
                             __global const ts_real* x, __global ts_real* y) {
  const ulong i = get_global_id(0);
  if (i < n) ts_kry_block_diag_at(nc, (long)i, bs, d, x, y);
}

/* One level of a sparse triangular solve: one work-item per row of the level. */
__kernel void kry_tri_level(int nc, ulong count, __global const int* rows, ulong rows_off, __global const int* ptr,
                            __global const int* col, __global const ts_real* val, int has_d,
                            __global const ts_real* inv_d, __global const ts_real* b, __global ts_real* x) {
  const ulong t = get_global_id(0);
  if (t < count) ts_kry_tri_row(nc, (long)rows[rows_off + t], ptr, col, val, has_d, inv_d, b, x);
}
