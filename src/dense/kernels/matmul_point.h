/* Per-point mathematics of the dense matrix product C = A*B (C99 subset, shared
 * by matmul_cpu.cpp, matmul.cl and matmul_cuda.cu; see core/kernels/portable.h).
 *
 *   C_ij = sum_{p=0}^{k-1} A_ip * B_pj      (row-major A: m x k, B: k x n, C: m x n)
 *
 * Every variant on every backend (cuBLAS excepted) evaluates each C_ij as ONE
 * accumulator, started at +0 and updated by ts_mm_mac for p = 0, 1, ..., k-1 in
 * that order. A multiply-accumulate rounds once (fused), and the zero products
 * that tiled kernels add past the edge of k leave a nonzero accumulator
 * unchanged (and a zero one zero), so naive, tiled and register-blocked
 * kernels on the CPU, OpenCL and CUDA produce the same values bit for bit;
 * only the way the operands travel through the memory hierarchy differs. */
#include "core/kernels/portable.h"

#ifndef TESSERA_MATMUL_POINT_CONSTANTS
#define TESSERA_MATMUL_POINT_CONSTANTS
/* Tile edge of the `tiled` variant (the lecture's 16): one work-group of
 * TS_TILE x TS_TILE work-items per C tile. OpenCL receives it as -DTS_TILE=..,
 * CUDA as a template argument with this default. */
#ifndef TS_TILE
#define TS_TILE 16
#endif
/* Blocking of the `register_blocked` variant, identical on OpenCL and CUDA:
 * a work-group of TS_MM_THREADS computes a TS_MM_BM x TS_MM_BN block of C,
 * stepping through k in slices of TS_MM_BK; each work-item holds a
 * TS_MM_TM x TS_MM_TN block of C in registers, as two 4-row and two 4-column
 * halves TS_MM_BM/2 (TS_MM_BN/2) apart, so that neighbouring work-items read
 * neighbouring 16-byte words of local memory (no bank conflicts). */
#define TS_MM_BM 128
#define TS_MM_BN 128
#define TS_MM_BK 8
#define TS_MM_TM 8
#define TS_MM_TN 8
#define TS_MM_THREADS ((TS_MM_BM / TS_MM_TM) * (TS_MM_BN / TS_MM_TN))
#define TS_MM_H 4 /* rows (columns) per half of a work-item's block */
/* padded row of the transposed A slice: 16-byte aligned, no bank conflicts on store */
#define TS_MM_AP (TS_MM_BM + TS_PACK)
#define TS_MM_LA (TS_MM_BM * TS_MM_BK / (TS_MM_THREADS * TS_PACK)) /* A packs per work-item */
#define TS_MM_LB (TS_MM_BK * TS_MM_BN / (TS_MM_THREADS * TS_PACK)) /* B packs per work-item */
/* Local memory of register_blocked: two slices of A (transposed, padded) and of B. */
#define TS_MM_RB_SCRATCH \
  (2 * TS_MM_BK * (TS_MM_BM + 16 / (int)sizeof(ts_value)) + 2 * TS_MM_BK * TS_MM_BN)
/* register_blocked in float is built for two work-groups per compute unit
 * (at most 128 registers a work-item), in double for one. */
#define TS_MM_OCCUPANCY (sizeof(ts_value) == 4 ? 2 : 1)

/* The module's kernels (core/kernels/kernel_args.h). */
#define TS_MATMUL_KERNELS(X)                                                                \
  X(group, matmul_naive, TS_TILE* TS_TILE, 1, 0, TS_NO_VARIANTS)                            \
  X(group, matmul_tiled, TS_TILE* TS_TILE, 2 * TS_TILE * TS_TILE, 0, TS_NO_VARIANTS)        \
  X(group, matmul_rb_vec, TS_MM_THREADS, TS_MM_RB_SCRATCH, TS_MM_OCCUPANCY, TS_NO_VARIANTS) \
  X(group, matmul_rb_any, TS_MM_THREADS, TS_MM_RB_SCRATCH, TS_MM_OCCUPANCY, TS_NO_VARIANTS)
#endif

/* One step of the dot product behind C_ij: acc + a*b, rounded once. */
TS_FN ts_real ts_mm_mac(ts_real acc, ts_real a, ts_real b) { return ts_fma(a, b, acc); }

/* Every kernel: row-major A (m x k), B (k x n), C (m x n); a work-group per
 * tile of C, tiles numbered along the rows of C (group g covers tile column
 * g % tiles, tile row g / tiles; naive: down the columns) and fewer than
 * 2^31 groups, so int arithmetic.
 * Offsets in ts_size: m*k may exceed 2^31. */
#define TS_ARGS_matmul_naive(V, IN, OUT) \
  V(int, m) V(int, k) V(int, n) IN(ts_value, A) IN(ts_value, B) OUT(ts_value, C)

/* naive: work-item (tx, ty) of a TS_TILE x TS_TILE group computes C[row][col]
 * from global memory; tx runs along the rows of B and C, so neighbouring
 * work-items read neighbouring words. Its groups go down the columns of
 * tiles (group % row tiles is the tile row), unlike the other kernels: the
 * groups in flight then share columns of B in L2. Numbered along the rows,
 * the product in double at 8192 took 1.24x as long (H100, 379 against 296
 * ms; bench/probes/matmul_grid_order.cu). */
TS_GROUP(matmul_naive, g, s) {
  (void)s;
  const int tiles = (m + TS_TILE - 1) / TS_TILE, group = (int)g.id;
  const int col = (group / tiles) * TS_TILE + (int)(g.lid % TS_TILE);
  const int row = (group % tiles) * TS_TILE + (int)(g.lid / TS_TILE);
  if (row >= m || col >= n) return;
  TS_GLOBAL const ts_real* a = A + (ts_size)row * k;
  ts_real acc = 0;
  for (int p = 0; p < k; ++p) acc = ts_mm_mac(acc, a[p], B[(ts_size)p * n + col]);
  C[(ts_size)row * n + col] = acc;
}

/* tiled (the lecture's): the work-group stages a TS_TILE x TS_TILE tile of A
 * and of B in local memory, so each global element is read once per tile
 * instead of once per work-item. Past the edges the tiles hold zeros. */
#define TS_ARGS_matmul_tiled(V, IN, OUT) TS_ARGS_matmul_naive(V, IN, OUT)
TS_GROUP(matmul_tiled, g, s) {
  TS_LOCAL ts_real* As = s;
  TS_LOCAL ts_real* Bs = s + TS_TILE * TS_TILE;
  const int tiles = (n + TS_TILE - 1) / TS_TILE, group = (int)g.id;
  const int tx = (int)(g.lid % TS_TILE), ty = (int)(g.lid / TS_TILE);
  const int col = (group % tiles) * TS_TILE + tx, row = (group / tiles) * TS_TILE + ty;
  ts_real acc = 0;
  for (int p0 = 0; p0 < k; p0 += TS_TILE) {
    As[ty * TS_TILE + tx] = (row < m && p0 + tx < k) ? A[(ts_size)row * k + p0 + tx] : (ts_real)0;
    Bs[ty * TS_TILE + tx] = (p0 + ty < k && col < n) ? B[(ts_size)(p0 + ty) * n + col] : (ts_real)0;
    TS_BARRIER();
    TS_UNROLL for (int p = 0; p < TS_TILE; ++p) acc =
        ts_mm_mac(acc, As[ty * TS_TILE + p], Bs[p * TS_TILE + tx]);
    TS_BARRIER(); /* before the next tile overwrites this one */
  }
  if (row < m && col < n) C[(ts_size)row * n + col] = acc;
}

/* register_blocked: see the constants above. Per k slice of TS_MM_BK, the
 * work-group copies A's 128 x BK slice (transposed, so that a column of it is
 * contiguous) and B's BK x 128 slice into local memory; each work-item then
 * reads 8 elements of A and 8 of B per step (16-byte reads) and does 64
 * multiply-accumulates on registers. Two local buffers: the next slice is
 * fetched into registers while the current one is used, and stored into the
 * other buffer, so one barrier per slice suffices. */

/* The pack M[row][col .. col+TS_PACK) of a rows x cols matrix into d, zeros
 * outside. vec: cols % TS_PACK == 0, so a pack is wholly inside or outside and
 * 16-byte aligned. */
TS_FN void ts_mm_load_pack(TS_GLOBAL const ts_real* M, int rows, int cols, int row, int col,
                           const int vec, ts_real* d) {
  TS_GLOBAL const ts_real* src = M + (ts_size)row * cols + col;
  if (vec) {
    ts_pack v = TS_ZERO(ts_pack);
    if (row < rows && col < cols) v = *(TS_GLOBAL const ts_pack*)src;
#define TS_MM_UNPACK(c, j) d[j] = v c;
    TS_PACK_EACH(TS_MM_UNPACK)
#undef TS_MM_UNPACK
  } else {
    for (int j = 0; j < TS_PACK; ++j) d[j] = (row < rows && col + j < cols) ? src[j] : (ts_real)0;
  }
}

/* Work-item tid's share of the k slice starting at p0, into registers. */
TS_FN void ts_mm_fetch_slice(TS_GLOBAL const ts_real* A, TS_GLOBAL const ts_real* B, int m, int k,
                             int n, int bm, int bn, int p0, int tid, const int vec, ts_real* ra,
                             ts_real* rb) {
  TS_UNROLL for (int l = 0; l < TS_MM_LA; ++l) {
    const int e = tid + l * TS_MM_THREADS, r = e / (TS_MM_BK / TS_PACK);
    const int c = (e % (TS_MM_BK / TS_PACK)) * TS_PACK;
    ts_mm_load_pack(A, m, k, bm + r, p0 + c, vec, ra + l * TS_PACK);
  }
  TS_UNROLL for (int l = 0; l < TS_MM_LB; ++l) {
    const int e = tid + l * TS_MM_THREADS, r = e / (TS_MM_BN / TS_PACK);
    const int c = (e % (TS_MM_BN / TS_PACK)) * TS_PACK;
    ts_mm_load_pack(B, k, n, p0 + r, bn + c, vec, rb + l * TS_PACK);
  }
}

/* ... and from registers into one local buffer (A transposed). */
TS_FN void ts_mm_store_slice(TS_LOCAL ts_real* As, TS_LOCAL ts_real* Bs, int tid, const ts_real* ra,
                             const ts_real* rb) {
  TS_UNROLL for (int l = 0; l < TS_MM_LA; ++l) {
    const int e = tid + l * TS_MM_THREADS, r = e / (TS_MM_BK / TS_PACK);
    const int c = (e % (TS_MM_BK / TS_PACK)) * TS_PACK;
    TS_UNROLL for (int j = 0; j < TS_PACK; ++j) As[(c + j) * TS_MM_AP + r] = ra[l * TS_PACK + j];
  }
  TS_UNROLL for (int l = 0; l < TS_MM_LB; ++l) {
    const int e = tid + l * TS_MM_THREADS, r = e / (TS_MM_BN / TS_PACK);
    const int c = (e % (TS_MM_BN / TS_PACK)) * TS_PACK;
    ts_pack v;
#define TS_MM_PACK(cc, j) v cc = rb[l * TS_PACK + j];
    TS_PACK_EACH(TS_MM_PACK)
#undef TS_MM_PACK
    *(TS_LOCAL ts_pack*)(Bs + r * TS_MM_BN + c) = v;
  }
}

TS_FN void ts_mm_register_blocked(ts_group g, TS_LOCAL ts_real* s, int m, int k, int n,
                                  TS_GLOBAL const ts_real* A, TS_GLOBAL const ts_real* B,
                                  TS_GLOBAL ts_real* C, const int vec) {
  TS_LOCAL ts_real* As = s;
  TS_LOCAL ts_real* Bs = s + 2 * TS_MM_BK * TS_MM_AP;
  const int tid = (int)g.lid;
  const int tx = tid % (TS_MM_BN / TS_MM_TN), ty = tid / (TS_MM_BN / TS_MM_TN);
  /* tile g.id_y * g.count + g.id: a 2D grid (x the tile columns, y the tile
   * rows) or a 1D one, both numbered along the rows of C */
  const int tiles = (n + TS_MM_BN - 1) / TS_MM_BN, group = (int)(g.id_y * g.count + g.id);
  const int bm = (group / tiles) * TS_MM_BM, bn = (group % tiles) * TS_MM_BN;
  const int slices = (k + TS_MM_BK - 1) / TS_MM_BK;
  ts_real acc[TS_MM_TM][TS_MM_TN];
  TS_UNROLL for (int i = 0; i < TS_MM_TM; ++i) TS_UNROLL for (int j = 0; j < TS_MM_TN; ++j)
      acc[i][j] = 0;
  ts_real ra[TS_MM_LA * TS_PACK], rb[TS_MM_LB * TS_PACK];

  ts_mm_fetch_slice(A, B, m, k, n, bm, bn, 0, tid, vec, ra, rb);
  ts_mm_store_slice(As, Bs, tid, ra, rb);
  TS_BARRIER();
  for (int t = 0; t < slices; ++t) {
    TS_LOCAL const ts_real* as = As + (t & 1) * (TS_MM_BK * TS_MM_AP);
    TS_LOCAL const ts_real* bs = Bs + (t & 1) * (TS_MM_BK * TS_MM_BN);
    if (t + 1 < slices)
      ts_mm_fetch_slice(A, B, m, k, n, bm, bn, (t + 1) * TS_MM_BK, tid, vec, ra, rb);
    TS_UNROLL for (int kk = 0; kk < TS_MM_BK; ++kk) {
      ts_real a[TS_MM_TM], b[TS_MM_TN];
      TS_UNROLL for (int h = 0; h < 2; ++h) TS_UNROLL for (int q = 0; q < TS_MM_H; q += TS_PACK) {
        const ts_pack va =
            *(TS_LOCAL const ts_pack*)(as + kk * TS_MM_AP + h * (TS_MM_BM / 2) + ty * TS_MM_H + q);
        const ts_pack vb =
            *(TS_LOCAL const ts_pack*)(bs + kk * TS_MM_BN + h * (TS_MM_BN / 2) + tx * TS_MM_H + q);
#define TS_MM_UNPACK2(c, j)      \
  a[h * TS_MM_H + q + j] = va c; \
  b[h * TS_MM_H + q + j] = vb c;
        TS_PACK_EACH(TS_MM_UNPACK2)
#undef TS_MM_UNPACK2
      }
      TS_UNROLL for (int i = 0; i < TS_MM_TM; ++i) TS_UNROLL for (int j = 0; j < TS_MM_TN; ++j)
          acc[i][j] = ts_mm_mac(acc[i][j], a[i], b[j]);
    }
    /* The other buffer was last read in slice t-1, before the barrier below it. */
    if (t + 1 < slices)
      ts_mm_store_slice(As + ((t + 1) & 1) * (TS_MM_BK * TS_MM_AP),
                        Bs + ((t + 1) & 1) * (TS_MM_BK * TS_MM_BN), tid, ra, rb);
    TS_BARRIER();
  }

  TS_UNROLL for (int i = 0; i < TS_MM_TM; ++i) {
    const int row = bm + (i / TS_MM_H) * (TS_MM_BM / 2) + ty * TS_MM_H + i % TS_MM_H;
    if (row >= m) continue;
    TS_GLOBAL ts_real* crow = C + (ts_size)row * n;
    TS_UNROLL for (int h = 0; h < 2; ++h) TS_UNROLL for (int q = 0; q < TS_MM_H; q += TS_PACK) {
      const int col = bn + h * (TS_MM_BN / 2) + tx * TS_MM_H + q;
      const ts_real* v = &acc[i][h * TS_MM_H + q];
      if (vec) {
        ts_pack out;
#define TS_MM_PACK2(c, j) out c = v[j];
        TS_PACK_EACH(TS_MM_PACK2)
#undef TS_MM_PACK2
        if (col < n) *(TS_GLOBAL ts_pack*)(crow + col) = out;
      } else {
        for (int j = 0; j < TS_PACK; ++j)
          if (col + j < n) crow[col + j] = v[j];
      }
    }
  }
}

/* k and n multiples of TS_PACK: 16-byte loads and stores. */
#define TS_ARGS_matmul_rb_vec(V, IN, OUT) TS_ARGS_matmul_naive(V, IN, OUT)
TS_GROUP(matmul_rb_vec, g, s) { ts_mm_register_blocked(g, s, m, k, n, A, B, C, 1); }
/* any shape: element-wise loads and stores at the edges of A, B and C. */
#define TS_ARGS_matmul_rb_any(V, IN, OUT) TS_ARGS_matmul_naive(V, IN, OUT)
TS_GROUP(matmul_rb_any, g, s) { ts_mm_register_blocked(g, s, m, k, n, A, B, C, 0); }
