/* OpenCL launchers of the matrix product C = A*B, row-major A (m x k),
 * B (k x n), C (m x n). Built with -Dts_real=float|double, -DTS_PACK=4|2 (one
 * pack is 16 bytes) and -DTS_TILE (tile edge of matmul_tiled). The arithmetic
 * is matmul_point.h's ts_mm_mac; these kernels only move operands. The same
 * three algorithms, with the same blocking and work-item mapping, are in
 * matmul_cuda.cu. Offsets are computed in ulong: m*k may exceed 2^31. */
#include "matmul_point.h"

#if TS_PACK == 4
#define ts_pack float4
#define TS_UNPACK(d, v) (d)[0] = (v).s0; (d)[1] = (v).s1; (d)[2] = (v).s2; (d)[3] = (v).s3
#define TS_PACK_OF(s) ((float4)((s)[0], (s)[1], (s)[2], (s)[3]))
#else
#define ts_pack double2
#define TS_UNPACK(d, v) (d)[0] = (v).s0; (d)[1] = (v).s1
#define TS_PACK_OF(s) ((double2)((s)[0], (s)[1]))
#endif

/* naive: work-item (x, y) computes C[y][x] from global memory; x runs along
 * the rows of B and C, so neighbouring work-items read neighbouring words. */
__kernel void matmul_naive(int m, int k, int n, __global const ts_real* A,
                           __global const ts_real* B, __global ts_real* C) {
  const int col = get_global_id(0), row = get_global_id(1);
  if (row >= m || col >= n) return;
  __global const ts_real* a = A + (ulong)row * k;
  ts_real acc = 0;
  for (int p = 0; p < k; ++p) acc = ts_mm_mac(acc, a[p], B[(ulong)p * n + col]);
  C[(ulong)row * n + col] = acc;
}

/* tiled (the lecture's): the work-group stages a TS_TILE x TS_TILE tile of A
 * and of B in local memory, so each global element is read once per tile
 * instead of once per work-item. Past the edges the tiles hold zeros. */
__kernel __attribute__((reqd_work_group_size(TS_TILE, TS_TILE, 1))) void matmul_tiled(
    int m, int k, int n, __global const ts_real* A, __global const ts_real* B,
    __global ts_real* C) {
  __local ts_real As[TS_TILE][TS_TILE];
  __local ts_real Bs[TS_TILE][TS_TILE];
  const int tx = get_local_id(0), ty = get_local_id(1);
  const int col = get_group_id(0) * TS_TILE + tx, row = get_group_id(1) * TS_TILE + ty;
  ts_real acc = 0;
  for (int p0 = 0; p0 < k; p0 += TS_TILE) {
    As[ty][tx] = (row < m && p0 + tx < k) ? A[(ulong)row * k + p0 + tx] : (ts_real)0;
    Bs[ty][tx] = (p0 + ty < k && col < n) ? B[(ulong)(p0 + ty) * n + col] : (ts_real)0;
    barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
    for (int p = 0; p < TS_TILE; ++p) acc = ts_mm_mac(acc, As[ty][p], Bs[p][tx]);
    barrier(CLK_LOCAL_MEM_FENCE); /* before the next tile overwrites this one */
  }
  if (row < m && col < n) C[(ulong)row * n + col] = acc;
}

/* register_blocked: see the constants in matmul_point.h. Per k slice of
 * TS_MM_BK, the work-group copies A's 128 x BK slice (transposed, so that a
 * column of it is contiguous) and B's BK x 128 slice into local memory; each
 * work-item then reads 8 elements of A and 8 of B per step (16-byte reads) and
 * does 64 multiply-accumulates on registers. Two local buffers: the next slice
 * is fetched into registers while the current one is used, and stored into
 * the other buffer, so one barrier per slice suffices. */
/* padded row of the transposed A slice: 16-byte aligned, no bank conflicts on store */
#define TS_MM_AP (TS_MM_BM + TS_PACK)
#define TS_MM_LA (TS_MM_BM * TS_MM_BK / (TS_MM_THREADS * TS_PACK)) /* A packs per work-item */
#define TS_MM_LB (TS_MM_BK * TS_MM_BN / (TS_MM_THREADS * TS_PACK)) /* B packs per work-item */
#define TS_MM_H 4 /* rows (columns) per half of a work-item's block */

/* The pack M[row][col .. col+TS_PACK) of a rows x cols matrix into d, zeros
 * outside. vec: cols % TS_PACK == 0, so a pack is wholly inside or outside and
 * 16-byte aligned. */
static inline void load_pack(__global const ts_real* M, int rows, int cols, int row, int col,
                             const int vec, ts_real* d) {
  __global const ts_real* src = M + (ulong)row * cols + col;
  if (vec) {
    ts_pack v = (ts_pack)(0);
    if (row < rows && col < cols) v = *(__global const ts_pack*)src;
    TS_UNPACK(d, v);
  } else {
    for (int j = 0; j < TS_PACK; ++j) d[j] = (row < rows && col + j < cols) ? src[j] : (ts_real)0;
  }
}

/* Work-item tid's share of the k slice starting at p0, into registers. */
static inline void fetch_slice(__global const ts_real* A, __global const ts_real* B, int m, int k,
                               int n, int bm, int bn, int p0, int tid, const int vec,
                               ts_real* ra, ts_real* rb) {
#pragma unroll
  for (int l = 0; l < TS_MM_LA; ++l) {
    const int e = tid + l * TS_MM_THREADS, r = e / (TS_MM_BK / TS_PACK);
    const int c = (e % (TS_MM_BK / TS_PACK)) * TS_PACK;
    load_pack(A, m, k, bm + r, p0 + c, vec, ra + l * TS_PACK);
  }
#pragma unroll
  for (int l = 0; l < TS_MM_LB; ++l) {
    const int e = tid + l * TS_MM_THREADS, r = e / (TS_MM_BN / TS_PACK);
    const int c = (e % (TS_MM_BN / TS_PACK)) * TS_PACK;
    load_pack(B, k, n, p0 + r, bn + c, vec, rb + l * TS_PACK);
  }
}

/* ... and from registers into one local buffer (A transposed). */
static inline void store_slice(__local ts_real* As, __local ts_real* Bs, int tid,
                               const ts_real* ra, const ts_real* rb) {
#pragma unroll
  for (int l = 0; l < TS_MM_LA; ++l) {
    const int e = tid + l * TS_MM_THREADS, r = e / (TS_MM_BK / TS_PACK);
    const int c = (e % (TS_MM_BK / TS_PACK)) * TS_PACK;
#pragma unroll
    for (int j = 0; j < TS_PACK; ++j) As[(c + j) * TS_MM_AP + r] = ra[l * TS_PACK + j];
  }
#pragma unroll
  for (int l = 0; l < TS_MM_LB; ++l) {
    const int e = tid + l * TS_MM_THREADS, r = e / (TS_MM_BN / TS_PACK);
    const int c = (e % (TS_MM_BN / TS_PACK)) * TS_PACK;
    *(__local ts_pack*)(Bs + r * TS_MM_BN + c) = TS_PACK_OF(rb + l * TS_PACK);
  }
}

static inline void matmul_rb(int m, int k, int n, __global const ts_real* A,
                             __global const ts_real* B, __global ts_real* C, __local ts_real* As,
                             __local ts_real* Bs, const int vec) {
  const int tid = get_local_id(0);
  const int tx = tid % (TS_MM_BN / TS_MM_TN), ty = tid / (TS_MM_BN / TS_MM_TN);
  const int bm = get_group_id(1) * TS_MM_BM, bn = get_group_id(0) * TS_MM_BN;
  const int slices = (k + TS_MM_BK - 1) / TS_MM_BK;
  ts_real acc[TS_MM_TM][TS_MM_TN];
#pragma unroll
  for (int i = 0; i < TS_MM_TM; ++i)
#pragma unroll
    for (int j = 0; j < TS_MM_TN; ++j) acc[i][j] = 0;
  ts_real ra[TS_MM_LA * TS_PACK], rb[TS_MM_LB * TS_PACK];

  fetch_slice(A, B, m, k, n, bm, bn, 0, tid, vec, ra, rb);
  store_slice(As, Bs, tid, ra, rb);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int t = 0; t < slices; ++t) {
    __local const ts_real* as = As + (t & 1) * (TS_MM_BK * TS_MM_AP);
    __local const ts_real* bs = Bs + (t & 1) * (TS_MM_BK * TS_MM_BN);
    if (t + 1 < slices) fetch_slice(A, B, m, k, n, bm, bn, (t + 1) * TS_MM_BK, tid, vec, ra, rb);
#pragma unroll
    for (int kk = 0; kk < TS_MM_BK; ++kk) {
      ts_real a[TS_MM_TM], b[TS_MM_TN];
#pragma unroll
      for (int h = 0; h < 2; ++h)
#pragma unroll
        for (int q = 0; q < TS_MM_H; q += TS_PACK) {
          ts_pack va = *(__local const ts_pack*)(as + kk * TS_MM_AP + h * (TS_MM_BM / 2) +
                                                 ty * TS_MM_H + q);
          ts_pack vb = *(__local const ts_pack*)(bs + kk * TS_MM_BN + h * (TS_MM_BN / 2) +
                                                 tx * TS_MM_H + q);
          TS_UNPACK(a + h * TS_MM_H + q, va);
          TS_UNPACK(b + h * TS_MM_H + q, vb);
        }
#pragma unroll
      for (int i = 0; i < TS_MM_TM; ++i)
#pragma unroll
        for (int j = 0; j < TS_MM_TN; ++j) acc[i][j] = ts_mm_mac(acc[i][j], a[i], b[j]);
    }
    /* The other buffer was last read in slice t-1, before the barrier below it. */
    if (t + 1 < slices)
      store_slice(As + ((t + 1) & 1) * (TS_MM_BK * TS_MM_AP),
                  Bs + ((t + 1) & 1) * (TS_MM_BK * TS_MM_BN), tid, ra, rb);
    barrier(CLK_LOCAL_MEM_FENCE);
  }

#pragma unroll
  for (int i = 0; i < TS_MM_TM; ++i) {
    const int row = bm + (i / TS_MM_H) * (TS_MM_BM / 2) + ty * TS_MM_H + i % TS_MM_H;
    if (row >= m) continue;
    __global ts_real* crow = C + (ulong)row * n;
#pragma unroll
    for (int h = 0; h < 2; ++h)
#pragma unroll
      for (int q = 0; q < TS_MM_H; q += TS_PACK) {
        const int col = bn + h * (TS_MM_BN / 2) + tx * TS_MM_H + q;
        const ts_real* v = &acc[i][h * TS_MM_H + q];
        if (vec) {
          if (col < n) *(__global ts_pack*)(crow + col) = TS_PACK_OF(v);
        } else {
          for (int j = 0; j < TS_PACK; ++j)
            if (col + j < n) crow[col + j] = v[j];
        }
      }
  }
}

/* The local buffers must be declared at kernel scope (OpenCL 1.2); declared as
 * packs so that 16-byte reads and writes of them are aligned. */
#define TS_MM_RB_KERNEL(NAME, VEC)                                                          \
  __kernel __attribute__((reqd_work_group_size(TS_MM_THREADS, 1, 1))) void NAME(            \
      int m, int k, int n, __global const ts_real* A, __global const ts_real* B,            \
      __global ts_real* C) {                                                                \
    __local ts_pack As[2 * TS_MM_BK * TS_MM_AP / TS_PACK];                                  \
    __local ts_pack Bs[2 * TS_MM_BK * TS_MM_BN / TS_PACK];                                  \
    matmul_rb(m, k, n, A, B, C, (__local ts_real*)As, (__local ts_real*)Bs, VEC);          \
  }
/* k and n multiples of TS_PACK: 16-byte loads and stores. */
TS_MM_RB_KERNEL(matmul_rb_vec, 1)
/* any shape: element-wise loads and stores at the edges of A, B and C. */
TS_MM_RB_KERNEL(matmul_rb_any, 0)
