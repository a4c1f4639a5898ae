/* Every SpMV kernel, once, for the CPU, the OpenCL programs (spmv.cl) and the
 * CUDA kernels (spmv_cuda.cu): the arithmetic, then the kernels built on it
 * (core/kernels/kernel_args.h), listed in TS_SPMV_KERNELS.
 *
 * The includer defines:
 *   ts_real     float or double
 *   ts_value    the stored value: ts_real, or a complex pair with members .x
 *               (real part) and .y (imaginary part): float2/double2 in OpenCL
 *               and CUDA, launch::Complex<R> on the CPU; the same bytes as
 *               std::complex (interleaved re, im)
 *   TS_COMPLEX  0 or 1
 * (OpenCL: launch::precision_options of the element type).
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
#include "sparse/kernels/spmv_params.h"

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

/* The module's kernels (kernel_args.h): each backend expands this list.
 * Kernels over rows take one work-item per item (each_one): rows differ in
 * length, and many short-lived groups balance better than a fixed stride.
 * csr-vector is compiled per chain count (ts_spmv_gather_chains), bell-row
 * per square block size of bell-bi (0: any shape, read at run time).
 * bell-sub's 8-byte types (complex float, double) are built for two groups
 * of 1024 per SM on CUDA, 32 registers: nvcc chose 42 for complex float,
 * half the occupancy of ac2f681's hand-written kernel (32), 1.22x slower. */
#define TS_SPMV_KERNELS(X)                                                                       \
  X(each, spmv_zero, 0, 0, 0, TS_NO_VARIANTS)                                                    \
  X(each_one, spmv_csr_scalar, 0, 0, 0, TS_NO_VARIANTS)                                          \
  X(each_one, spmv_merge_partition, 0, 0, 0, TS_NO_VARIANTS)                                     \
  X(group, spmv_csr_merge, TS_SPMV_MERGE_THREADS, TS_SPMV_MERGE_TILE + 1, 0, TS_NO_VARIANTS)     \
  X(group, spmv_merge_scan, TS_SPMV_MERGE_SCAN, 3 * TS_SPMV_MERGE_SCAN, 0, TS_NO_VARIANTS)       \
  X(each_one, spmv_merge_carry, 0, 0, 0, TS_NO_VARIANTS)                                         \
  X(group, spmv_csr_vector, TS_SPMV_GROUP, TS_SPMV_GROUP, 0, TS_VARIANTS(1, 2, 4, 8, 16, 32))    \
  X(each_one, spmv_ell_subsection, 0, 0, 0, TS_NO_VARIANTS)                                      \
  X(each_one, spmv_ell_reduce, 0, 0, 0, TS_NO_VARIANTS)                                          \
  X(each_one, spmv_ell_row, 0, 0, 0, TS_NO_VARIANTS)                                             \
  X(each_one, spmv_sell, 0, 0, 0, TS_NO_VARIANTS)                                                \
  X(each_one, spmv_bcsr_block, 0, 0, 0, TS_NO_VARIANTS)                                          \
  X(each_one, spmv_bcsr_block_row, 0, 0, 0, TS_NO_VARIANTS)                                      \
  X(each_one, spmv_bcsr_reduce, 0, 0, 0, TS_NO_VARIANTS)                                         \
  X(group, spmv_bcsr_warp, TS_SPMV_GROUP, TS_SPMV_GROUP, 0, TS_NO_VARIANTS)                      \
  X(group, spmv_bell_row, TS_SPMV_GROUP, 1, 0, TS_VARIANTS(0, 2, 3, 4, 5, 6))                    \
  X(each_one, spmv_bell_block_row, 0, 0, 0, TS_NO_VARIANTS)                                      \
  X(group_sized, spmv_bell_window, 0, 0, 0, TS_NO_VARIANTS)                                      \
  X(group_sized, spmv_bell_sub, 0, 0, TS_ON_CUDA(sizeof(ts_value) == 8 ? 2 : 0), TS_NO_VARIANTS) \
  X(each_one, spgemm_rows, 0, 0, 0, TS_NO_VARIANTS)                                              \
  X(each_one, spgemm_copy, 0, 0, 0, TS_NO_VARIANTS)

/* The row that stored row i writes. */
TS_FN long ts_spmv_row_of(TS_GLOBAL const int* map, int mapped, long i) {
  return mapped ? (long)map[i] : i;
}
TS_FN long ts_spmv_min(long a, long b) { return a < b ? a : b; }

#define TS_SPMV_MERGE_TOTAL(p) ((long)(p).rows + (long)(p).nnz)
/* csr-merge's partition (one definition: no value type in it), tiles + 1
 * entries: tile_row[t] is the row at tile t's first item, the merge path's
 * split at diagonal t * TS_SPMV_MERGE_TILE (the rows whose ends come before
 * it); tile_row[tiles] = rows. */
#define TS_ARGS_spmv_merge_partition(V, IN, OUT) V(ts_spmv_params, p) IN(int, rp) OUT(int, tile_row)
TS_ITEM(spmv_merge_partition, t) {
  const long total = TS_SPMV_MERGE_TOTAL(p);
  const long d = ts_spmv_min((long)t * TS_SPMV_MERGE_TILE, total);
  long lo = d > (long)p.nnz ? d - (long)p.nnz : 0, hi = ts_spmv_min(d, (long)p.rows);
  while (lo < hi) { /* the first row i whose end is not before item d */
    const long mid = lo + (hi - lo) / 2;
    if ((long)rp[mid + 1] <= d - mid - 1)
      lo = mid + 1;
    else
      hi = mid;
  }
  tile_row[t] = (int)lo;
}

/* The same split inside a tile staged in local memory: ends[0 .. rows) the
 * entries (relative to the tile's first) where its rows end, d a diagonal
 * of the tile; returns the rows that end before its item d. */
TS_FN int ts_spmv_merge_search(TS_LOCAL const int* ends, int d, int rows, int nnz) {
  int lo = d > nnz ? d - nnz : 0, hi = d < rows ? d : rows;
  while (lo < hi) {
    const int mid = (lo + hi) / 2;
    if (ends[mid] <= d - mid - 1)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}
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

/* a*x, the product ts_spmv_madd adds: add(acc, mul(a, x)) == madd(acc, a, x)
 * bit for bit (contraction is off) */
TS_FN ts_value ts_spmv_mul(ts_value a, ts_value x) {
#if TS_COMPLEX
  return TS_SPMV_COMPLEX(a.x * x.x - a.y * x.y, a.x * x.y + a.y * x.x);
#else
  return a * x;
#endif
}

/* acc + sum of val[p] * x[col[p]] for p = first, first+step, ... < end:
 * a CSR row (step 1), one lane's share of a CSR row (step = lanes), an ELL or
 * SELL row (step = rows of the column-major array). Four terms' loads are
 * issued before their products are added (more bytes in flight per thread);
 * the additions stay in order, so the sum is that of the plain loop. val and
 * col are read once (evict-first on CUDA), x through the read-only path, as
 * in csr-merge (not csr-vector's chains: 16 float chains then spill 8 bytes
 * under their 40-register bound): on an H100 that took SELL-32 from
 * 89-99% of the copy bandwidth to 95-114% (bench/probes/sell_inflight.cu,
 * with the compile-time slice height of spmv_sell below). */
TS_FN ts_value ts_spmv_gather(ts_value acc, TS_GLOBAL const int* col, TS_GLOBAL const ts_value* val,
                              TS_GLOBAL const ts_value* x, long first, long end, long step) {
  long p = first;
  for (; p + 3 * step < end; p += 4 * step) {
    const ts_value a0 = TS_LOAD_ONCE(val + p), a1 = TS_LOAD_ONCE(val + p + step),
                   a2 = TS_LOAD_ONCE(val + p + 2 * step), a3 = TS_LOAD_ONCE(val + p + 3 * step);
    const ts_value x0 = TS_LOAD_READONLY(x + TS_LOAD_ONCE(col + p)),
                   x1 = TS_LOAD_READONLY(x + TS_LOAD_ONCE(col + p + step)),
                   x2 = TS_LOAD_READONLY(x + TS_LOAD_ONCE(col + p + 2 * step)),
                   x3 = TS_LOAD_READONLY(x + TS_LOAD_ONCE(col + p + 3 * step));
    acc = ts_spmv_madd(acc, a0, x0);
    acc = ts_spmv_madd(acc, a1, x1);
    acc = ts_spmv_madd(acc, a2, x2);
    acc = ts_spmv_madd(acc, a3, x3);
  }
  for (; p < end; p += step)
    acc = ts_spmv_madd(acc, TS_LOAD_ONCE(val + p), TS_LOAD_READONLY(x + TS_LOAD_ONCE(col + p)));
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

/* a + b of a warp's lane h positions down (csr-vector's reduction on CUDA:
 * shuffles where OpenCL goes through local memory; the same additions). */
#if defined(__CUDACC__)
TS_FN ts_value ts_spmv_shfl_down(ts_value v, int h, int w) {
#if defined(__CUDA_ARCH__)
#if TS_COMPLEX
  return TS_SPMV_COMPLEX(__shfl_down_sync(0xffffffffu, v.x, h, w),
                         __shfl_down_sync(0xffffffffu, v.y, h, w));
#else
  return __shfl_down_sync(0xffffffffu, v, h, w);
#endif
#else
  (void)h;
  (void)w;
  return v;
#endif
}
#endif

/* ---- the kernels ---------------------------------------------------------- */

/* y = 0 (rows that no stored row of a mapped format writes) */
#define TS_ARGS_spmv_zero(V, IN, OUT) OUT(ts_value, y)
TS_ITEM(spmv_zero, i) { y[i] = TS_SPMV_ZERO; }

/* CSR, one work-item per row */
#define TS_ARGS_spmv_csr_scalar(V, IN, OUT) \
  IN(int, rp) IN(int, col) IN(ts_value, val) IN(ts_value, x) OUT(ts_value, y)
TS_ITEM(spmv_csr_scalar, i) {
  y[i] = ts_spmv_gather(TS_SPMV_ZERO, col, val, x, rp[i], rp[i + 1], 1);
}

/* csr-merge: CSR with the work split by rows + nonzeros, not by rows, as
 * CUB's merge-path SpMV does it (Merrill and Garland, "Merge-based parallel
 * sparse matrix-vector multiplication", SC 2016). The rows' ends
 * (row_ptr[1..]) and the nonzeros 0 .. nnz-1 merge into one sequence of rows
 * + nnz items, a nonzero j before the end of row i exactly when j <
 * row_ptr[i + 1]. A work-group takes TS_SPMV_MERGE_TILE consecutive items (a
 * tile, its first row from the partition), stages the tile's row ends and
 * products val[j] * x[col[j]] in local memory with coalesced loads, and each
 * of its work-items takes TS_SPMV_MERGE_ITEMS consecutive items from there
 * (a share): a row of 3,000 entries costs its ~430 shares what 430 short
 * rows cost theirs, and an empty row one item.
 *
 * Sums, the same on every backend (the CPU runs the same tiles, shares and
 * scan: the same bits):
 * - a share sums each row's products in storage order from zero;
 * - the shares' carry-outs (the partial of the row each share ends in) are
 *   combined by a segmented inclusive scan over the work-group's
 *   work-items (Hillis-Steele: level h adds the value h work-items back
 *   where both carry the same row, earlier + later), and a row that ends in
 *   share t is y = (scan of share t-1) + (share t's partial);
 * - a row spread over tiles a < b: tile b stores its part in y, tile k's
 *   carry-out (the partial of its last row) goes to carry[k], and
 *   spmv_merge_carry makes y = (the carries of the row) + y. Where a row can
 *   span three tiles or more (p.sub), spmv_merge_scan first scans the
 *   carries, segmented by row, within blocks of TS_SPMV_MERGE_SCAN tiles; the
 *   row's carries are then its scan at tile b-1, plus the scans at the ends
 *   of the earlier blocks it covers, right to left (a row over k tiles: k /
 *   256 loads in one work-item, not k). */

/* One work-item's share: the n (<= TS_SPMV_MERGE_ITEMS) items from
 * coordinate (row xi, entry yi) of a tile whose rows end at ends[] (entries
 * relative to the tile's; ends[rows] past its last) with products prod[].
 * A row that begins and ends in the share is stored in y[x0 + row]; the
 * partial of the share's first row, where it ends in the share, in *first
 * (*has_first = 1). Returns the partial of the row the share ends in (its
 * carry-out), that row in *xo. */
TS_FN ts_value ts_spmv_merge_share(TS_LOCAL const int* ends, TS_LOCAL const ts_value* prod, int xi,
                                   int yi, int n, long x0, TS_GLOBAL ts_value* y, ts_value* first,
                                   int* has_first, int* xo) {
  ts_value acc = TS_SPMV_ZERO;
  int end = ends[xi], done = 0;
  TS_UNROLL
  for (int q = 0; q < TS_SPMV_MERGE_ITEMS; ++q) {
    if (q >= n) break;
    if (yi < end) {
      acc = ts_spmv_add(acc, prod[yi]);
      ++yi;
    } else {
      if (done)
        y[x0 + xi] = acc;
      else
        *first = acc;
      done = 1;
      acc = TS_SPMV_ZERO;
      end = ends[++xi];
    }
  }
  *has_first = done;
  *xo = xi;
  return acc;
}

/* One level of the segmented scan: work-item t's value after the level
 * that adds the value h back (key: the row of each value). */
TS_FN ts_value ts_spmv_merge_scan_step(TS_LOCAL const int* key, TS_LOCAL const ts_value* v, int t,
                                       int h) {
  return t >= h && key[t - h] == key[t] ? ts_spmv_add(v[t - h], v[t]) : v[t];
}

/* The segmented inclusive scan over the n work-items of a group (n a power
 * of two), keys in key[], values in v0[] (written, then a barrier, by the
 * caller); v1[] the second buffer. Returns 0 or 1: the buffer holding the
 * result. GPUs only (the CPU runs the same levels in a loop). */
TS_FN int ts_spmv_merge_scan(TS_LOCAL const int* key, TS_LOCAL ts_value* v0, TS_LOCAL ts_value* v1,
                             int t, int n) {
  int from = 0;
  for (int h = 1; h < n; h *= 2) {
    if (from == 0)
      v1[t] = ts_spmv_merge_scan_step(key, v0, t, h);
    else
      v0[t] = ts_spmv_merge_scan_step(key, v1, t, h);
    TS_BARRIER();
    from ^= 1;
  }
  return from;
}

/* A tile: its rows end in it, the products and row ends staged, the shares,
 * the scan; carry[tile] = the partial of its last row (tile_row[tile + 1]). */
#define TS_ARGS_spmv_csr_merge(V, IN, OUT) \
  V(ts_spmv_params, p)                     \
  IN(int, tile_row)                        \
  IN(int, rp) IN(int, col) IN(ts_value, val) IN(ts_value, x) OUT(ts_value, y) OUT(ts_value, carry)
TS_GROUP(spmv_csr_merge, g, s) {
  const long d0 = (long)g.id * TS_SPMV_MERGE_TILE;
  const long d1 = ts_spmv_min(d0 + TS_SPMV_MERGE_TILE, TS_SPMV_MERGE_TOTAL(p));
  const long x0 = tile_row[g.id], y0 = d0 - x0;
  const int rows = (int)((long)tile_row[g.id + 1] - x0), nnz = (int)(d1 - d0) - rows;
  const int t = (int)g.lid;
  TS_LOCAL int* ends = (TS_LOCAL int*)s;    /* rows + 1 ints */
  TS_LOCAL ts_value* prod = s + (rows + 1); /* nnz values: rows + 1 + nnz <= tile + 1 */
  /* Every load of a round is issued before the first is used: indices
   * past the tile's last row or entry read its last one again (the same
   * address for the whole warp) and store nothing, so no branch stands
   * between the loads. */
  if (rows > 0) {
    int e[TS_SPMV_MERGE_ITEMS];
    TS_UNROLL
    for (int q = 0; q < TS_SPMV_MERGE_ITEMS; ++q) {
      const int i = t + q * TS_SPMV_MERGE_THREADS;
      e[q] = rp[x0 + 1 + (i < rows ? i : rows - 1)];
    }
    TS_UNROLL
    for (int q = 0; q < TS_SPMV_MERGE_ITEMS; ++q) {
      const int i = t + q * TS_SPMV_MERGE_THREADS;
      if (i < rows) ends[i] = (int)((long)e[q] - y0);
    }
  }
  if (t == 0) ends[rows] = nnz;
  if (nnz > 0) {
    int c[TS_SPMV_MERGE_ITEMS];
    ts_value a[TS_SPMV_MERGE_ITEMS];
    TS_UNROLL
    for (int q = 0; q < TS_SPMV_MERGE_ITEMS; ++q) {
      const int j = t + q * TS_SPMV_MERGE_THREADS;
      c[q] = TS_LOAD_ONCE(col + y0 + (j < nnz ? j : nnz - 1));
      a[q] = TS_LOAD_ONCE(val + y0 + (j < nnz ? j : nnz - 1));
    }
    TS_UNROLL
    for (int q = 0; q < TS_SPMV_MERGE_ITEMS; ++q) {
      const int j = t + q * TS_SPMV_MERGE_THREADS;
      const ts_value xj = TS_LOAD_READONLY(x + c[q]);
      if (j < nnz) prod[j] = ts_spmv_mul(a[q], xj);
    }
  }
  TS_BARRIER();
  const int items = rows + nnz;
  const int d = t * TS_SPMV_MERGE_ITEMS < items ? t * TS_SPMV_MERGE_ITEMS : items;
  const int xi = ts_spmv_merge_search(ends, d, rows, nnz);
  ts_value first = TS_SPMV_ZERO;
  int has_first = 0, xo = 0;
  const ts_value out =
      ts_spmv_merge_share(ends, prod, xi, d - xi, items - d, x0, y, &first, &has_first, &xo);
  TS_BARRIER(); /* the staged tile is read: the scan takes the scratch */
  TS_LOCAL int* key = (TS_LOCAL int*)s;
  TS_LOCAL ts_value* v0 = s + TS_SPMV_MERGE_THREADS;
  TS_LOCAL ts_value* v1 = s + 2 * TS_SPMV_MERGE_THREADS;
  key[t] = xo;
  v0[t] = out;
  TS_BARRIER();
  TS_LOCAL const ts_value* v = ts_spmv_merge_scan(key, v0, v1, t, TS_SPMV_MERGE_THREADS) ? v1 : v0;
  if (has_first) y[x0 + xi] = ts_spmv_add(t > 0 ? v[t - 1] : TS_SPMV_ZERO, first);
  if (t == TS_SPMV_MERGE_THREADS - 1) carry[g.id] = v[t];
}

/* Where a row can span three tiles or more (p.sub): the carries scanned,
 * segmented by row (tile k's carry is row tile_row[k + 1]'s), within blocks
 * of TS_SPMV_MERGE_SCAN tiles (p.n: the tiles). */
#define TS_ARGS_spmv_merge_scan(V, IN, OUT) \
  V(ts_spmv_params, p) IN(int, tile_row) IN(ts_value, carry) OUT(ts_value, scan)
TS_GROUP(spmv_merge_scan, g, s) {
  const int t = (int)g.lid;
  const long k = (long)g.id * TS_SPMV_MERGE_SCAN + t;
  TS_LOCAL int* key = (TS_LOCAL int*)s;
  TS_LOCAL ts_value* v0 = s + TS_SPMV_MERGE_SCAN;
  TS_LOCAL ts_value* v1 = s + 2 * TS_SPMV_MERGE_SCAN;
  key[t] = k < (long)p.n ? tile_row[k + 1] : -1;
  v0[t] = k < (long)p.n ? carry[k] : TS_SPMV_ZERO;
  TS_BARRIER();
  TS_LOCAL const ts_value* v = ts_spmv_merge_scan(key, v0, v1, t, TS_SPMV_MERGE_SCAN) ? v1 : v0;
  if (k < (long)p.n) scan[k] = v[t];
}

/* Tile b (p.n tiles) whose first row r began in an earlier tile and ends in
 * it: y[r] = (r's carries) + y[r]. Without p.sub a row spans at most two
 * tiles and its carry is carry[b - 1]; with it, scan[b - 1] plus, right to
 * left, the scans at the ends of the earlier blocks whose last tile
 * carries row r. */
#define TS_ARGS_spmv_merge_carry(V, IN, OUT) \
  V(ts_spmv_params, p)                       \
  IN(int, tile_row) IN(int, rp) IN(ts_value, carry) IN(ts_value, scan) OUT(ts_value, y)
TS_ITEM(spmv_merge_carry, b) {
  if (b == 0) return;
  const long r = tile_row[b];
  if (r >= (long)p.rows || (long)tile_row[b + 1] <= r) return; /* r ends in a later tile */
  if ((long)b * TS_SPMV_MERGE_TILE - r <= (long)rp[r]) return; /* r begins in tile b */
  ts_value sum;
  if (p.sub) {
    sum = scan[b - 1];
    for (long j = ((long)b - 1) / TS_SPMV_MERGE_SCAN; j > 0; --j) {
      if ((long)tile_row[j * TS_SPMV_MERGE_SCAN] != r) break; /* block j-1 ends in another row */
      sum = ts_spmv_add(sum, scan[j * TS_SPMV_MERGE_SCAN - 1]);
    }
  } else {
    sum = carry[b - 1];
  }
  y[r] = ts_spmv_add(sum, y[r]);
}

/* CSR, p.lanes chains per row: chain t sums entries t, t + lanes, ... in
 * order, then a halving tree over the chains (chain t += chain t + h, h =
 * lanes/2 .. 1). Each of the w = lanes / g.variant work-items of a row keeps
 * g.variant chains in registers (ts_spmv_gather_chains) and does the first
 * log2(variant) tree levels there; the last log2(w) go through shuffles
 * (CUDA) or local memory with a barrier each (OpenCL has no shuffles on
 * NVIDIA). The same terms in the same order for every variant. Every
 * work-item stays to the end (the barriers, the full-warp shuffles). */
#define TS_ARGS_spmv_csr_vector(V, IN, OUT) \
  V(ts_spmv_params, p) IN(int, rp) IN(int, col) IN(ts_value, val) IN(ts_value, x) OUT(ts_value, y)
TS_GROUP(spmv_csr_vector, g, s) {
  const int chains = g.variant, w = p.lanes / chains;
  const long item = (long)(g.id * TS_SPMV_GROUP + g.lid), i = item / w, rows = (long)p.rows;
  const int t = (int)(item % w);
  ts_value acc = TS_SPMV_ZERO;
  if (i < rows) acc = ts_spmv_gather_chains(chains, col, val, x, rp[i] + t, rp[i + 1], w);
#if defined(__CUDA_ARCH__)
  (void)s;
  for (int h = w / 2; h > 0; h /= 2) {
    const ts_value other = ts_spmv_shfl_down(acc, h, w);
    if (t < h) acc = ts_spmv_add(acc, other);
  }
  if (t == 0 && i < rows) y[i] = acc;
#else
  s[g.lid] = acc;
  TS_BARRIER();
  for (int h = w / 2; h > 0; h /= 2) {
    if (t < h) s[g.lid] = ts_spmv_add(s[g.lid], s[g.lid + h]);
    TS_BARRIER();
  }
  if (t == 0 && i < rows) y[i] = s[g.lid];
#endif
}

/* ---- ELL (column-major, p.n stored rows) ---- */
/* Thesis ELL: item (subsection q, stored row s) sums slots [q sub, (q+1) sub);
 * n * nsub items, partial sums by subsection. */
#define TS_ARGS_spmv_ell_subsection(V, IN, OUT) \
  V(ts_spmv_params, p) IN(int, col) IN(ts_value, val) IN(ts_value, x) OUT(ts_value, partial)
TS_ITEM(spmv_ell_subsection, item) {
  const long n = (long)p.n, L = (long)p.sub, g = (long)item, s = g % n, q = g / n;
  partial[g] = ts_spmv_gather(TS_SPMV_ZERO, col, val, x, q * L * n + s,
                              ts_spmv_min((q + 1) * L, (long)p.width) * n, n);
}
/* ... and the sum of each row's partial sums in subsection order */
#define TS_ARGS_spmv_ell_reduce(V, IN, OUT) \
  V(ts_spmv_params, p) IN(int, map) IN(ts_value, partial) OUT(ts_value, y)
TS_ITEM(spmv_ell_reduce, s) {
  const long n = (long)p.n;
  y[ts_spmv_row_of(map, p.mapped, (long)s)] =
      ts_spmv_sum(TS_SPMV_ZERO, partial, (long)s, (long)p.nsub * n, n);
}
/* Thesis ELL V2: one work-item per stored row */
#define TS_ARGS_spmv_ell_row(V, IN, OUT) \
  V(ts_spmv_params, p) IN(int, map) IN(int, col) IN(ts_value, val) IN(ts_value, x) OUT(ts_value, y)
TS_ITEM(spmv_ell_row, s) {
  const long n = (long)p.n;
  y[ts_spmv_row_of(map, p.mapped, (long)s)] =
      ts_spmv_gather(TS_SPMV_ZERO, col, val, x, (long)s, (long)p.width * n, n);
}

/* ---- SELL-C-sigma: one work-item per (sorted) row ---- */
#define TS_ARGS_spmv_sell(V, IN, OUT) \
  V(ts_spmv_params, p)                \
  IN(int, map) IN(int, sp) IN(int, col) IN(ts_value, val) IN(ts_value, x) OUT(ts_value, y)
/* The default slice height, 32, is a constant here: the slice and the
 * step of the gather then cost shifts, not a 64-bit division and products
 * (one uniform branch; rows < 2^31 as sp is int). */
TS_ITEM(spmv_sell, item) {
  const int r = (int)item, C = p.slice;
  const ts_value sum =
      C == 32 ? ts_spmv_gather(TS_SPMV_ZERO, col, val, x, sp[r / 32] + r % 32, sp[r / 32 + 1], 32)
              : ts_spmv_gather(TS_SPMV_ZERO, col, val, x, sp[r / C] + r % C, sp[r / C + 1], C);
  y[ts_spmv_row_of(map, p.mapped, r)] = sum;
}

/* ---- BCSR (p.si, p.sj: in-block row and column strides) ---- */
/* Thesis V1: one work-item per block, writing its r partial row sums */
#define TS_ARGS_spmv_bcsr_block(V, IN, OUT) \
  V(ts_spmv_params, p) IN(int, col) IN(ts_value, val) IN(ts_value, x) OUT(ts_value, partial)
TS_ITEM(spmv_bcsr_block, item) {
  const long b = (long)item, r = p.r, first = (long)col[b] * p.c;
  const int nc = TS_SPMV_BLOCK_COLS(first, p.c, (long)p.cols);
  for (long i = 0; i < r; ++i)
    partial[b * r + i] = ts_spmv_block_row(TS_SPMV_ZERO, val + b * r * p.c + i * (long)p.si,
                                           (long)p.sj, x, first, nc);
}
/* Thesis V2 (row-major blocks) and V3 (column-major): one work-item per
 * (block, in-block row) */
#define TS_ARGS_spmv_bcsr_block_row(V, IN, OUT) TS_ARGS_spmv_bcsr_block(V, IN, OUT)
TS_ITEM(spmv_bcsr_block_row, item) {
  const long g = (long)item, r = p.r, b = g / r, i = g % r, first = (long)col[b] * p.c;
  partial[g] = ts_spmv_block_row(TS_SPMV_ZERO, val + b * r * p.c + i * (long)p.si, (long)p.sj, x,
                                 first, TS_SPMV_BLOCK_COLS(first, p.c, (long)p.cols));
}
/* The thesis's reduction: one work-item per stored scalar row */
#define TS_ARGS_spmv_bcsr_reduce(V, IN, OUT) \
  V(ts_spmv_params, p) IN(int, map) IN(int, rp) IN(ts_value, partial) OUT(ts_value, y)
TS_ITEM(spmv_bcsr_reduce, item) {
  const long g = (long)item, r = p.r, sb = g / r, i = g % r;
  const long row = ts_spmv_row_of(map, p.mapped, sb) * r + i;
  if (row < (long)p.rows)
    y[row] = ts_spmv_sum(TS_SPMV_ZERO, partial, (long)rp[sb] * r + i, (long)rp[sb + 1] * r + i, r);
}
/* One warp of TS_SPMV_WARP work-items per block row, column-major blocks of
 * at most 32 values: 32 / (r c) blocks per step, read contiguously; the
 * lanes of each in-block row are reduced through local memory in lane order. */
#define TS_ARGS_spmv_bcsr_warp(V, IN, OUT) \
  V(ts_spmv_params, p)                     \
  IN(int, map) IN(int, rp) IN(int, col) IN(ts_value, val) IN(ts_value, x) OUT(ts_value, y)
TS_GROUP(spmv_bcsr_warp, g, s) {
  const int lid = (int)g.lid, lane = lid % TS_SPMV_WARP, r = p.r, c = p.c, bs = r * c;
  const int bps = TS_SPMV_WARP / bs;
  const long sb = (long)((g.id * TS_SPMV_GROUP + g.lid) / TS_SPMV_WARP), nbr = (long)p.n;
  ts_value acc = TS_SPMV_ZERO;
  if (sb < nbr && lane < bps * bs)
    acc = ts_spmv_bcsr_lane(acc, col, val, x, rp[sb], rp[sb + 1], lane / bs, bps, lane % bs, r, c,
                            (long)p.cols);
  s[lid] = acc;
  TS_BARRIER();
  if (sb >= nbr || lane >= r) return;
  const long row = ts_spmv_row_of(map, p.mapped, sb) * r + lane;
  if (row >= (long)p.rows) return;
  ts_value v = TS_SPMV_ZERO;
  for (int q = 0; q < bps; ++q)
    for (int j = 0; j < c; ++j) v = ts_spmv_add(v, s[lid - lane + q * bs + j * r + lane]);
  y[row] = v;
}

/* ---- BELL (matrix-wide column-major, p.n stored scalar rows) ---- */
/* BELL, BELL V4 (ir = iscale = 1: the per-scalar-row index, every slot) and
 * bell-bi (ir = r, iscale = c: the block-row index; has_len: only the real
 * blocks of each block row); one work-item per stored scalar row.
 * Variant b > 0: bell-bi with b x b blocks as constants, so the divisions by
 * r become multiplications and a block's loop unrolls (ts_spmv_bell_row_ix_ahead). */
#define TS_ARGS_spmv_bell_row(V, IN, OUT) \
  V(ts_spmv_params, p)                    \
  IN(int, map) IN(int, len) IN(int, col) IN(ts_value, val) IN(ts_value, x) OUT(ts_value, y)
TS_GROUP(spmv_bell_row, g, s) {
  (void)s;
  const int b = g.variant;
  const int r = b ? b : p.r, c = b ? b : p.c, ir = b ? b : p.ir, iscale = b ? b : p.iscale;
  const long R = (long)(g.id * TS_SPMV_GROUP + g.lid), n = (long)p.n;
  if (R >= n) return;
  const long row = ts_spmv_row_of(map, p.mapped, R / r) * r + R % r;
  const long k1 = p.has_len ? (long)len[R / r] : (long)p.width;
  if (row >= (long)p.rows) return;
  y[row] =
      b ? ts_spmv_bell_row_ix_ahead(TS_SPMV_ZERO, col, val, x, R, n, ir, iscale, 0, k1, c,
                                    (long)p.cols)
        : ts_spmv_bell_row_ix(TS_SPMV_ZERO, col, val, x, R, n, ir, iscale, 0, k1, c, (long)p.cols);
}
/* Thesis BELL V2: one work-item per stored block row (block-row index), r
 * accumulators */
#define TS_ARGS_spmv_bell_block_row(V, IN, OUT) TS_ARGS_spmv_ell_row(V, IN, OUT)
TS_ITEM(spmv_bell_block_row, item) {
  const long sb = (long)item, n = (long)p.n, nb = n / p.r, c = p.c;
  ts_value acc[TS_SPMV_MAX_BLOCK];
  for (int i = 0; i < p.r; ++i) acc[i] = TS_SPMV_ZERO;
  for (long k = 0; k < (long)p.width; ++k) {
    const long first = (long)col[k * nb + sb] * c;
    const int nc = TS_SPMV_BLOCK_COLS(first, c, (long)p.cols);
    for (int i = 0; i < p.r; ++i)
      acc[i] = ts_spmv_block_row(acc[i], val + k * c * n + sb * p.r + i, n, x, first, nc);
  }
  const long base = ts_spmv_row_of(map, p.mapped, sb) * p.r;
  for (int i = 0; i < p.r && base + i < (long)p.rows; ++i) y[base + i] = acc[i];
}
/* Thesis BELL V3: the work-group first copies its x window (first, size per
 * group, precomputed in win) into its local scratch, then runs BELL. */
#define TS_ARGS_spmv_bell_window(V, IN, OUT) \
  V(ts_spmv_params, p)                       \
  IN(int, map) IN(int, win) IN(int, col) IN(ts_value, val) IN(ts_value, x) OUT(ts_value, y)
TS_GROUP(spmv_bell_window, g, s) {
  const long R = (long)(g.id * g.size + g.lid), n = (long)p.n, r = p.r;
  const long first = win[2 * g.id], size = win[2 * g.id + 1];
  for (long t = g.lid; t < size; t += g.size) s[t] = x[first + t];
  TS_BARRIER();
  if (R >= n) return;
  const long row = ts_spmv_row_of(map, p.mapped, R / r) * r + R % r;
  if (row < (long)p.rows)
    y[row] = ts_spmv_bell_row_window(TS_SPMV_ZERO, col, val, s, first, R, n, (long)p.width, p.c,
                                     (long)p.cols);
}
/* BELL with subsections: work-item (row lr, subsection q) of a group of
 * TS_SPMV_WARP rows x (size / TS_SPMV_WARP) subsections of p.sub slots sums
 * its slots; the partial sums are added in subsection order. */
#define TS_ARGS_spmv_bell_sub(V, IN, OUT) TS_ARGS_spmv_ell_row(V, IN, OUT)
TS_GROUP(spmv_bell_sub, g, s) {
  const int lr = (int)(g.lid % TS_SPMV_WARP), q = (int)(g.lid / TS_SPMV_WARP);
  const int nsub = (int)(g.size / TS_SPMV_WARP);
  const long R = (long)g.id * TS_SPMV_WARP + lr, n = (long)p.n;
  const int r = p.r, slots = (int)p.sub;
  ts_value acc = TS_SPMV_ZERO;
  if (R < n)
    acc = ts_spmv_bell_row(acc, col, val, x, R, n, (long)q * slots,
                           ts_spmv_min((long)(q + 1) * slots, (long)p.width), p.c, (long)p.cols);
  s[q * TS_SPMV_WARP + lr] = acc;
  TS_BARRIER();
  if (q != 0 || R >= n) return;
  const long row = ts_spmv_row_of(map, p.mapped, R / r) * r + R % r;
  if (row >= (long)p.rows) return;
  ts_value v = TS_SPMV_ZERO;
  for (int k = 0; k < nsub; ++k) v = ts_spmv_add(v, s[k * TS_SPMV_WARP + lr]);
  y[row] = v;
}

/* The sparse product's kernels (C = A B), on this header's arithmetic. */
#include "sparse/kernels/product_point.h"
