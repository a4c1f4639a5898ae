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
  if (i >= n) return;
  __global const ts_real* coef = coef_base + coef_off;
  if (nc == 1) {
    ts_real acc = has_x ? ts_kry_rmul(coef[0], x[x_off + i]) : (ts_real)0;
    for (int kk = 0; kk < k; ++kk) acc = acc + ts_kry_rmul(coef[1 + kk], v[v_off + (ulong)kk * ld + i]);
    y[y_off + i] = acc;
  } else {
    ts_real ar = 0, ai = 0;
    if (has_x) {
      ar = ts_kry_mul_re(coef[0], coef[1], x[x_off + 2 * i], x[x_off + 2 * i + 1]);
      ai = ts_kry_mul_im(coef[0], coef[1], x[x_off + 2 * i], x[x_off + 2 * i + 1]);
    }
    for (int kk = 0; kk < k; ++kk) {
      const ulong o = v_off + (ulong)kk * ld + 2 * i;
      const int cc = 2 * (1 + kk);
      ar = ar + ts_kry_mul_re(coef[cc], coef[cc + 1], v[o], v[o + 1]);
      ai = ai + ts_kry_mul_im(coef[cc], coef[cc + 1], v[o], v[o + 1]);
    }
    y[y_off + 2 * i] = ar;
    y[y_off + 2 * i + 1] = ai;
  }
}

/* y = blockdiag(D) x, one work-item per row. */
__kernel void kry_block_diag(int nc, ulong n, int bs, __global const ts_real* d,
                             __global const ts_real* x, __global ts_real* y) {
  const ulong i = get_global_id(0);
  if (i >= n) return;
  const ulong b = (ulong)bs, blk = i / b, r = i % b;
  __global const ts_real* drow = d + (blk * b * b + r * b) * (ulong)nc;
  __global const ts_real* xb = x + blk * b * (ulong)nc;
  ts_real ar = 0, ai = 0;
  for (ulong c = 0; c < b; ++c) {
    if (nc == 1) {
      ar = ar + ts_kry_rmul(drow[c], xb[c]);
    } else {
      ar = ar + ts_kry_mul_re(drow[2 * c], drow[2 * c + 1], xb[2 * c], xb[2 * c + 1]);
      ai = ai + ts_kry_mul_im(drow[2 * c], drow[2 * c + 1], xb[2 * c], xb[2 * c + 1]);
    }
  }
  if (nc == 1) {
    y[i] = ar;
  } else {
    y[2 * i] = ar;
    y[2 * i + 1] = ai;
  }
}
