/* The arithmetic of every SpMV kernel, once, for the CPU loops, the OpenCL
 * programs (spmv.cl) and the CUDA kernels (spmv_cuda.cu).
 *
 * The includer defines:
 *   ts_real     float or double
 *   ts_value    the stored value: ts_real, or a complex pair with members .x
 *               (real part) and .y (imaginary part): float2/double2 in OpenCL
 *               and CUDA, point::Complex<R> on the CPU; the same bytes as
 *               std::complex (interleaved re, im)
 *   TS_COMPLEX  0 or 1
 * C++ and CUDA include this header once per value type (spmv_point.hpp), so
 * the functions below are overloads on ts_value; OpenCL builds one program per
 * value type. No include guard for that reason (the constant section has one).
 *
 * Every sum adds terms left to right starting from zero, acc + a*x with the
 * complex product written out as
 *   re: acc.re + (a.re*x.re - a.im*x.im),  im: acc.im + (a.re*x.im + a.im*x.re)
 * which is exactly sparse::madd() of the host reference (types.hpp), so a
 * kernel that visits a row's entries in storage order reproduces the host
 * reference bitwise (contraction is off on every backend).
 *
 * Index arrays are 32-bit (int); positions are computed in long (64-bit), so
 * an array may hold up to 2^31-1 entries without any product overflowing. */

#include "core/kernels/portable.h"

#ifndef TS_SPMV_POINT_CONSTANTS
#define TS_SPMV_POINT_CONSTANTS
#if defined(__OPENCL_VERSION__)
#define TS_SPMV_ZERO ((ts_value)(0))
#define TS_SPMV_COMPLEX(re, im) ((ts_value)((re), (im)))
#else
#define TS_SPMV_ZERO (ts_value{})
#define TS_SPMV_COMPLEX(re, im) (ts_value{(re), (im)})
#endif
/* Largest block height of kernels keeping one accumulator per block row
 * (BELL V2) and of the one-warp-per-block-row BCSR kernel's lane groups. */
#define TS_SPMV_MAX_BLOCK 8
/* Threads of the "warp" of the warp-per-row kernels (a CUDA warp; in OpenCL a
 * group of work-items of one work-group reducing through local memory). */
#define TS_SPMV_WARP 32
/* Work-group (thread block) size of the one-dimensional kernels. */
#define TS_SPMV_GROUP 256
/* Columns of a c-wide block starting at scalar column `first` that lie inside
 * a matrix of `cols` columns (the last block column may stick out). */
#define TS_SPMV_BLOCK_COLS(first, c, cols) ((first) + (c) <= (cols) ? (c) : (int)((cols) - (first)))
#endif

/* acc + a*x */
TS_FN ts_value ts_spmv_madd(ts_value acc, ts_value a, ts_value x) {
#if TS_COMPLEX
  return TS_SPMV_COMPLEX(acc.x + (a.x * x.x - a.y * x.y), acc.y + (a.x * x.y + a.y * x.x));
#else
  return acc + a * x;
#endif
}

/* a + b (combining partial sums) */
TS_FN ts_value ts_spmv_add(ts_value a, ts_value b) {
#if TS_COMPLEX
  return TS_SPMV_COMPLEX(a.x + b.x, a.y + b.y);
#else
  return a + b;
#endif
}

/* acc + sum of val[p] * x[col[p]] for p = first, first+step, ... < end:
 * a CSR row (step 1), one lane's share of a CSR row (step = lanes), an ELL or
 * SELL row (step = rows of the column-major array). Four terms' loads are
 * issued before their products are added (more bytes in flight per thread);
 * the additions stay in order, so the sum is that of the plain loop. */
TS_FN ts_value ts_spmv_gather(ts_value acc, TS_GLOBAL const int* col, TS_GLOBAL const ts_value* val,
                              TS_GLOBAL const ts_value* x, long first, long end, long step) {
  long p = first;
  for (; p + 3 * step < end; p += 4 * step) {
    const ts_value a0 = val[p], a1 = val[p + step], a2 = val[p + 2 * step], a3 = val[p + 3 * step];
    const ts_value x0 = x[col[p]], x1 = x[col[p + step]], x2 = x[col[p + 2 * step]],
                   x3 = x[col[p + 3 * step]];
    acc = ts_spmv_madd(acc, a0, x0);
    acc = ts_spmv_madd(acc, a1, x1);
    acc = ts_spmv_madd(acc, a2, x2);
    acc = ts_spmv_madd(acc, a3, x3);
  }
  for (; p < end; p += step) acc = ts_spmv_madd(acc, val[p], x[col[p]]);
  return acc;
}

/* csr-vector's chains: nch chains (a compile-time constant where the caller
 * inlines this; nch <= TS_SPMV_WARP) w apart, chain k summing entries
 * first + k*w, first + k*w + nch*w, ... < end in order, then the first
 * log2(nch) levels of the row's halving tree over them (chain k += chain
 * k + h, h = nch/2 .. 1); returns chain 0, which the caller's remaining
 * log2(w) levels (shuffles or local memory) combine with the other work-items'.
 * The same terms in the same order as nch separate ts_spmv_gather(...,
 * first + k*w, end, nch*w) followed by the tree. Each entry is guarded and the
 * schedule left to the compiler: a variant issuing a whole round's loads
 * before its products measured slower on both backends (H100: NVIDIA OpenCL
 * case 2 0.199 vs 0.178 ms, 7-point stencil 0.362 vs 0.282 ms; CUDA case 4
 * 0.372 vs 0.347 ms). */
TS_FN ts_value ts_spmv_gather_chains(int nch, TS_GLOBAL const int* col,
                                     TS_GLOBAL const ts_value* val, TS_GLOBAL const ts_value* x,
                                     long first, long end, long w) {
  if (nch == 1) return ts_spmv_gather(TS_SPMV_ZERO, col, val, x, first, end, w);
  ts_value acc[TS_SPMV_WARP];
  for (int k = 0; k < nch; ++k) acc[k] = TS_SPMV_ZERO;
  for (long base = first; base < end; base += (long)nch * w)
    for (int k = 0; k < nch; ++k) {
      const long p = base + k * w;
      if (p < end) acc[k] = ts_spmv_madd(acc[k], val[p], x[col[p]]);
    }
  for (int h = nch / 2; h > 0; h /= 2)
    for (int k = 0; k < h; ++k) acc[k] = ts_spmv_add(acc[k], acc[k + h]);
  return acc[0];
}

/* acc + sum of v[p] for p = first, first+step, ... < end (reduction of the
 * partial sums of the two-kernel thesis variants). */
TS_FN ts_value ts_spmv_sum(ts_value acc, TS_GLOBAL const ts_value* v, long first, long end,
                           long step) {
  for (long p = first; p < end; p += step) acc = ts_spmv_add(acc, v[p]);
  return acc;
}

/* One in-block row of one r x c block: acc + sum over j < nc of
 * row[j * sj] * x[xfirst + j]. `row` points at the row's element (i, 0); sj is
 * the distance between in-block columns (1 row-major, r column-major, the
 * number of stored rows in BELL's matrix-wide column-major order); nc < c cuts
 * a block that sticks out of the matrix. */
TS_FN ts_value ts_spmv_block_row(ts_value acc, TS_GLOBAL const ts_value* row, long sj,
                                 TS_GLOBAL const ts_value* x, long xfirst, int nc) {
  for (int j = 0; j < nc; ++j) acc = ts_spmv_madd(acc, row[j * sj], x[xfirst + j]);
  return acc;
}

/* Scalar row `row` of a BELL matrix (matrix-wide column-major values), slots
 * [k0, k1), with either index: slot k's first column is
 * col[k * (stored_rows / ir) + row / ir] * iscale. The thesis's per-scalar-row
 * index (ir = iscale = 1) holds first columns, one 4-byte load per scalar row
 * and block; the block-row index (ir = r, iscale = c) holds block columns, one
 * load per block, shared by its r rows (bell-bi: 4 instead of 4r index bytes
 * per block, the BCSR model's traffic). The same terms in the same order. */
TS_FN ts_value ts_spmv_bell_row_ix(ts_value acc, TS_GLOBAL const int* col,
                                   TS_GLOBAL const ts_value* val, TS_GLOBAL const ts_value* x,
                                   long row, long stored_rows, int ir, int iscale, long k0, long k1,
                                   int c, long cols) {
  const long irow = row / ir, istride = stored_rows / ir;
  for (long k = k0; k < k1; ++k) {
    const long first = (long)col[k * istride + irow] * iscale;
    acc = ts_spmv_block_row(acc, val + k * c * stored_rows + row, stored_rows, x, first,
                            TS_SPMV_BLOCK_COLS(first, c, cols));
  }
  return acc;
}

/* The same sum for launchers that make the block shape (c, ir, iscale)
 * compile-time constants (bell-bi's square blocks): a whole block gets the
 * loop bound c, so its loop unrolls and its 2c loads are in flight together,
 * and the index is read one slot ahead, so that a slot's loads do not wait
 * for its index (one memory latency per slot, not two). With a run-time c
 * this form was slower (H200: BELL on NVIDIA OpenCL 1.15x, bell-sub on CUDA
 * 1.16x), so the generic kernels keep the loop above. */
TS_FN ts_value ts_spmv_bell_row_ix_ahead(ts_value acc, TS_GLOBAL const int* col,
                                         TS_GLOBAL const ts_value* val, TS_GLOBAL const ts_value* x,
                                         long row, long stored_rows, int ir, int iscale, long k0,
                                         long k1, int c, long cols) {
  const long irow = row / ir, istride = stored_rows / ir;
  long next = k0 < k1 ? (long)col[k0 * istride + irow] : 0;
  for (long k = k0; k < k1; ++k) {
    const long first = next * iscale;
    if (k + 1 < k1) next = (long)col[(k + 1) * istride + irow];
    const int nc = TS_SPMV_BLOCK_COLS(first, c, cols);
    acc = nc == c
              ? ts_spmv_block_row(acc, val + k * c * stored_rows + row, stored_rows, x, first, c)
              : ts_spmv_block_row(acc, val + k * c * stored_rows + row, stored_rows, x, first, nc);
  }
  return acc;
}

/* The thesis's BELL kernel (per-scalar-row index) and one subsection of it. */
TS_FN ts_value ts_spmv_bell_row(ts_value acc, TS_GLOBAL const int* col,
                                TS_GLOBAL const ts_value* val, TS_GLOBAL const ts_value* x,
                                long row, long stored_rows, long k0, long k1, int c, long cols) {
  return ts_spmv_bell_row_ix(acc, col, val, x, row, stored_rows, 1, 1, k0, k1, c, cols);
}

/* One lane of the one-warp-per-block-row BCSR kernel (column-major r x c
 * blocks of bs = r*c <= TS_SPMV_WARP values): the warp covers bps = 32 / bs
 * blocks per step, lane (sub, pos) reading in-block position pos (row pos % r,
 * column pos / r) of blocks b0 + sub, b0 + sub + bps, ... < b1. Consecutive
 * lanes read consecutive values (coalesced), no division in the loop, and
 * four blocks' loads are issued before their products are added (same order
 * as one block at a time). */
TS_FN ts_value ts_spmv_bcsr_lane(ts_value acc, TS_GLOBAL const int* col,
                                 TS_GLOBAL const ts_value* val, TS_GLOBAL const ts_value* x,
                                 long b0, long b1, int sub, int bps, int pos, int r, int c,
                                 long cols) {
  const long bs = (long)r * c, j = pos / r;
  long b = b0 + sub;
  for (; b + 3 * bps < b1; b += 4 * bps) { /* four blocks' loads in flight */
    const long x0 = (long)col[b] * c + j, x1 = (long)col[b + bps] * c + j;
    const long x2 = (long)col[b + 2 * bps] * c + j, x3 = (long)col[b + 3 * bps] * c + j;
    const ts_value a0 = val[b * bs + pos], a1 = val[(b + bps) * bs + pos];
    const ts_value a2 = val[(b + 2 * bps) * bs + pos], a3 = val[(b + 3 * bps) * bs + pos];
    if (x0 < cols) acc = ts_spmv_madd(acc, a0, x[x0]);
    if (x1 < cols) acc = ts_spmv_madd(acc, a1, x[x1]);
    if (x2 < cols) acc = ts_spmv_madd(acc, a2, x[x2]);
    if (x3 < cols) acc = ts_spmv_madd(acc, a3, x[x3]);
  }
  for (; b < b1; b += bps) {
    const long x0 = (long)col[b] * c + j;
    if (x0 < cols) acc = ts_spmv_madd(acc, val[b * bs + pos], x[x0]);
  }
  return acc;
}

#if defined(__OPENCL_VERSION__) || defined(__CUDACC__)
/* BELL V3: ts_spmv_bell_row with x read from the work-group's window
 * xw[0, size) = x[xfirst, xfirst + size) in local (shared) memory. The same
 * terms in the same order, so the same result. */
TS_FN ts_value ts_spmv_bell_row_window(ts_value acc, TS_GLOBAL const int* col,
                                       TS_GLOBAL const ts_value* val, TS_LOCAL const ts_value* xw,
                                       long xfirst, long row, long stored_rows, long width, int c,
                                       long cols) {
  for (long k = 0; k < width; ++k) {
    const long first = col[k * stored_rows + row];
    const int nc = TS_SPMV_BLOCK_COLS(first, c, cols);
    TS_GLOBAL const ts_value* v = val + k * c * stored_rows + row;
    for (int j = 0; j < nc; ++j)
      acc = ts_spmv_madd(acc, v[j * stored_rows], xw[first - xfirst + j]);
  }
  return acc;
}
#endif
