/* OpenCL SpMV kernels, built once per value type with
 *   -Dts_real=float|double -Dts_value=float|double|float2|double2 -DTS_COMPLEX=0|1
 * (spmv_opencl.cpp). They differ from the CUDA kernels (spmv_cuda.cu) only in
 * indexing and in reducing through local memory where CUDA shuffles; the
 * arithmetic is spmv_point.h and the summation orders are those of the CPU
 * twins (spmv_cpu.cpp). */
#include "spmv_point.h"

#define IDX __global const int*
#define VAL __global const ts_value*
#define ROW_OF(map, mapped, i) ((mapped) ? (long)(map)[i] : (long)(i))

__kernel void fill_zero(long n, __global ts_value* y) {
  const long i = get_global_id(0);
  if (i < n) y[i] = TS_SPMV_ZERO;
}

/* ---- CSR ---------------------------------------------------------------- */
__kernel void csr_scalar(long rows, IDX rp, IDX col, VAL val, VAL x, __global ts_value* y) {
  const long i = get_global_id(0);
  if (i < rows) y[i] = ts_spmv_gather(TS_SPMV_ZERO, col, val, x, rp[i], rp[i + 1], 1);
}

/* `lanes` chains per row: chain c sums entries c, c + lanes, ... in order;
 * then a halving tree over the chains (chain c += chain c + h, h = lanes/2
 * .. 1), as CUDA's shuffles do. Built with -DTS_SPMV_CHAINS=C (a power of
 * two dividing lanes; the host passes 4, capped at lanes): each of the W = lanes / C work-items of a
 * row keeps the C chains t, t + W, ..., interleaved, in registers and does
 * the first log2(C) tree levels there, so only log2(W) levels go through
 * local memory with a barrier each (NVIDIA's OpenCL has no shuffles). The
 * same terms in the same order for every C. */
#ifndef TS_SPMV_CHAINS
#define TS_SPMV_CHAINS 1
#endif
__kernel void csr_vector(long rows, int lanes, IDX rp, IDX col, VAL val, VAL x,
                         __global ts_value* y) {
  __local ts_value part[TS_SPMV_GROUP];
  const int w = lanes / TS_SPMV_CHAINS, lid = get_local_id(0), t = lid % w;
  const long i = get_global_id(0) / w;
  ts_value acc = TS_SPMV_ZERO;
  if (i < rows) acc = ts_spmv_gather_chains(TS_SPMV_CHAINS, col, val, x, rp[i] + t, rp[i + 1], w);
  part[lid] = acc;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int h = w / 2; h > 0; h /= 2) {
    if (t < h) part[lid] = ts_spmv_add(part[lid], part[lid + h]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (t == 0 && i < rows) y[i] = part[lid];
}

/* ---- ELL (column-major, n stored rows) ------------------------------------ */
/* Thesis ELL: work-item (subsection q, row s) sums slots [qL, (q+1)L). */
__kernel void ell_subsection(long n, long width, long L, long nsub, IDX col, VAL val, VAL x,
                             __global ts_value* partial) {
  const long g = get_global_id(0);
  if (g >= n * nsub) return;
  const long s = g % n, q = g / n;
  partial[g] =
      ts_spmv_gather(TS_SPMV_ZERO, col, val, x, q * L * n + s, min((q + 1) * L, width) * n, n);
}

__kernel void ell_reduce(long n, long nsub, int mapped, IDX map, __global const ts_value* partial,
                         __global ts_value* y) {
  const long s = get_global_id(0);
  if (s < n) y[ROW_OF(map, mapped, s)] = ts_spmv_sum(TS_SPMV_ZERO, partial, s, nsub * n, n);
}

/* Thesis ELL V2: one work-item per row. */
__kernel void ell_row(long n, long width, int mapped, IDX map, IDX col, VAL val, VAL x,
                      __global ts_value* y) {
  const long s = get_global_id(0);
  if (s < n) y[ROW_OF(map, mapped, s)] = ts_spmv_gather(TS_SPMV_ZERO, col, val, x, s, width * n, n);
}

/* ---- SELL-C-sigma: one work-item per (sorted) row ------------------------------ */
__kernel void sell(long rows, int C, int mapped, IDX map, IDX sp, IDX col, VAL val, VAL x,
                   __global ts_value* y) {
  const long p = get_global_id(0);
  if (p >= rows) return;
  const long s = p / C;
  y[ROW_OF(map, mapped, p)] =
      ts_spmv_gather(TS_SPMV_ZERO, col, val, x, sp[s] + p % C, sp[s + 1], C);
}

/* ---- BCSR (si, sj: in-block row and column strides) ------------------------------ */
/* Thesis V1: one work-item per block, writing its r partial row sums. */
__kernel void bcsr_block(long nblocks, int r, int c, long si, long sj, long cols, IDX col, VAL val,
                         VAL x, __global ts_value* partial) {
  const long b = get_global_id(0);
  if (b >= nblocks) return;
  const long first = (long)col[b] * c;
  for (int i = 0; i < r; ++i)
    partial[b * r + i] = ts_spmv_block_row(TS_SPMV_ZERO, val + b * r * c + i * si, sj, x, first,
                                           TS_SPMV_BLOCK_COLS(first, c, cols));
}

/* Thesis V2 (row-major blocks) and V3 (column-major): one work-item per
 * (block, in-block row). */
__kernel void bcsr_block_row(long nblocks, int r, int c, long si, long sj, long cols, IDX col,
                             VAL val, VAL x, __global ts_value* partial) {
  const long g = get_global_id(0);
  if (g >= nblocks * r) return;
  const long b = g / r, i = g % r, first = (long)col[b] * c;
  partial[g] = ts_spmv_block_row(TS_SPMV_ZERO, val + b * r * c + i * si, sj, x, first,
                                 TS_SPMV_BLOCK_COLS(first, c, cols));
}

/* The thesis's reduction: one work-item per stored scalar row. */
__kernel void bcsr_reduce(long nbr, int r, long rows, int mapped, IDX map, IDX rp,
                          __global const ts_value* partial, __global ts_value* y) {
  const long g = get_global_id(0);
  if (g >= nbr * r) return;
  const long sb = g / r, i = g % r, row = ROW_OF(map, mapped, sb) * r + i;
  if (row < rows)
    y[row] = ts_spmv_sum(TS_SPMV_ZERO, partial, (long)rp[sb] * r + i, (long)rp[sb + 1] * r + i, r);
}

/* One warp of TS_SPMV_WARP work-items per block row, column-major blocks of
 * at most 32 values: 32 / (r*c) blocks per step, read contiguously; the
 * lanes of each in-block row are reduced through local memory in lane order. */
__kernel void bcsr_warp(long nbr, int r, int c, long rows, long cols, int mapped, IDX map, IDX rp,
                        IDX col, VAL val, VAL x, __global ts_value* y) {
  __local ts_value part[TS_SPMV_GROUP];
  const int lid = get_local_id(0), lane = lid % TS_SPMV_WARP, bs = r * c, bps = TS_SPMV_WARP / bs;
  const long sb = get_global_id(0) / TS_SPMV_WARP;
  ts_value acc = TS_SPMV_ZERO;
  if (sb < nbr && lane < bps * bs)
    acc = ts_spmv_bcsr_lane(acc, col, val, x, rp[sb], rp[sb + 1], lane / bs, bps, lane % bs, r, c,
                            cols);
  part[lid] = acc;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (sb >= nbr || lane >= r) return;
  const long row = ROW_OF(map, mapped, sb) * r + lane;
  if (row >= rows) return;
  ts_value v = TS_SPMV_ZERO;
  for (int s = 0; s < bps; ++s)
    for (int j = 0; j < c; ++j) v = ts_spmv_add(v, part[lid - lane + s * bs + j * r + lane]);
  y[row] = v;
}

/* ---- BELL (matrix-wide column-major, n stored scalar rows) ---------------------- */
/* Thesis BELL: one work-item per stored scalar row. */
/* bell-bi too (block-row index, has_len: only the real blocks of each block
 * row; built with -DTS_SPMV_BLOCK=b for b x b blocks, which makes r, c, ir and
 * iscale compile-time constants, as CUDA's bell_row_k<K, RB>). */
__kernel void bell_row(long n, long width, int r_, int c_, long rows, long cols, int mapped,
                       IDX map, int ir_, int iscale_, int has_len, IDX len, IDX col, VAL val, VAL x,
                       __global ts_value* y) {
#if defined(TS_SPMV_BLOCK)
  const int r = TS_SPMV_BLOCK, c = TS_SPMV_BLOCK, ir = TS_SPMV_BLOCK, iscale = TS_SPMV_BLOCK;
#else
  const int r = r_, c = c_, ir = ir_, iscale = iscale_;
#endif
  const long R = get_global_id(0);
  if (R >= n) return;
  const long row = ROW_OF(map, mapped, R / r) * r + R % r;
  const long k1 = has_len ? (long)len[R / r] : width;
#if defined(TS_SPMV_BLOCK)
  if (row < rows)
    y[row] = ts_spmv_bell_row_ix_ahead(TS_SPMV_ZERO, col, val, x, R, n, ir, iscale, 0, k1, c, cols);
#else
  if (row < rows)
    y[row] = ts_spmv_bell_row_ix(TS_SPMV_ZERO, col, val, x, R, n, ir, iscale, 0, k1, c, cols);
#endif
}

/* Thesis BELL V2: one work-item per stored block row, block-row index. */
__kernel void bell_block_row(long nb, long width, int r, int c, long rows, long cols, int mapped,
                             IDX map, IDX col, VAL val, VAL x, __global ts_value* y) {
  const long sb = get_global_id(0);
  if (sb >= nb) return;
  const long n = nb * r;
  ts_value acc[TS_SPMV_MAX_BLOCK];
  for (int i = 0; i < r; ++i) acc[i] = TS_SPMV_ZERO;
  for (long s = 0; s < width; ++s) {
    const long first = (long)col[s * nb + sb] * c;
    const int nc = TS_SPMV_BLOCK_COLS(first, c, cols);
    for (int i = 0; i < r; ++i)
      acc[i] = ts_spmv_block_row(acc[i], val + s * c * n + sb * r + i, n, x, first, nc);
  }
  const long base = ROW_OF(map, mapped, sb) * r;
  for (int i = 0; i < r && base + i < rows; ++i) y[base + i] = acc[i];
}

/* Thesis BELL V3: the work-group first copies its x window (first, size per
 * group, precomputed) into local memory of dynamic size, then runs BELL. */
__kernel void bell_window(long n, long width, int r, int c, long rows, long cols, int mapped,
                          IDX map, IDX win, IDX col, VAL val, VAL x, __global ts_value* y,
                          __local ts_value* xw) {
  const long R = get_global_id(0), g = get_group_id(0);
  const long first = win[2 * g], size = win[2 * g + 1];
  for (long t = get_local_id(0); t < size; t += get_local_size(0)) xw[t] = x[first + t];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (R >= n) return;
  const long row = ROW_OF(map, mapped, R / r) * r + R % r;
  if (row < rows)
    y[row] = ts_spmv_bell_row_window(TS_SPMV_ZERO, col, val, xw, first, R, n, width, c, cols);
}

/* BELL with subsections: a work-group of 32 rows x nsub subsections of
 * `slots` block slots; partial sums reduced in subsection order. */
__kernel void bell_sub(long n, long width, int r, int c, long rows, long cols, int mapped, IDX map,
                       long slots, IDX col, VAL val, VAL x, __global ts_value* y) {
  __local ts_value part[TS_SPMV_WARP * TS_SPMV_WARP];
  const long R = get_global_id(0);
  const int lr = get_local_id(0), q = get_local_id(1), nsub = get_local_size(1);
  ts_value acc = TS_SPMV_ZERO;
  if (R < n)
    acc = ts_spmv_bell_row(acc, col, val, x, R, n, q * slots, min((q + 1) * slots, width), c, cols);
  part[q * TS_SPMV_WARP + lr] = acc;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (q != 0 || R >= n) return;
  const long row = ROW_OF(map, mapped, R / r) * r + R % r;
  if (row >= rows) return;
  ts_value v = TS_SPMV_ZERO;
  for (int p = 0; p < nsub; ++p) v = ts_spmv_add(v, part[p * TS_SPMV_WARP + lr]);
  y[row] = v;
}
