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
#endif

/* One step of the dot product behind C_ij: acc + a*b, rounded once. */
TS_FN ts_real ts_mm_mac(ts_real acc, ts_real a, ts_real b) { return ts_fma(a, b, acc); }
