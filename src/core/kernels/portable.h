/* Portability layer for the shared per-point headers (C99 subset).
 *
 * Every numerical kernel's mathematics is written once in a header that the CPU
 * loops (C++), the OpenCL programs (OpenCL C) and the CUDA kernels all include.
 * Such headers use only: TS_FN functions, the scalar type `ts_real` (a macro the
 * includer defines), C99 arithmetic and the math functions below.
 *
 * In C++ and CUDA a per-point header is included once per precision with
 * ts_real defined as float and then double, producing overloads; OpenCL builds
 * the program once per precision with -Dts_real=float|double. Hence a per-point
 * header has no include guard and defines only functions taking a ts_real
 * argument (constants go in guarded headers such as this one). */
#ifndef TESSERA_PORTABLE_H
#define TESSERA_PORTABLE_H

#if defined(__OPENCL_VERSION__)
#define TS_FN static inline
#define TS_GLOBAL __global
#define TS_LOCAL __local
#define TS_BARRIER() barrier(CLK_LOCAL_MEM_FENCE)
#pragma OPENCL FP_CONTRACT OFF
#if defined(TS_DOUBLE)
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
#elif defined(__CUDACC__)
#define TS_FN __host__ __device__ inline
#define TS_GLOBAL
#define TS_LOCAL
#if defined(__CUDA_ARCH__)
#define TS_BARRIER() __syncthreads()
#else
#define TS_BARRIER() /* host pass of a __host__ __device__ function */
#endif
#include <math.h>
#else
#define TS_FN inline
#define TS_GLOBAL
#define TS_LOCAL
#include <math.h>
#endif

/* TS_UNROLL before a loop with a compile-time trip count asks device
 * compilers to unroll it (so small per-work-item arrays stay in registers). */
#if defined(__OPENCL_VERSION__) || defined(__CUDA_ARCH__)
#define TS_UNROLL _Pragma("unroll")
#else
#define TS_UNROLL
#endif

/* TS_PREFETCH(p): ask for the cache line of global address p ahead of its
 * load (CUDA: into L2; OpenCL: prefetch(), which a driver may ignore; the
 * CPU: nothing). It only moves data, never changes a value. */
#if defined(__OPENCL_VERSION__)
#define TS_PREFETCH(p) prefetch((p), 1)
#elif defined(__CUDA_ARCH__)
#define TS_PREFETCH(p) asm volatile("prefetch.global.L2 [%0];" ::"l"(p))
#else
#define TS_PREFETCH(p) ((void)(p))
#endif

/* Per-point functions that gather a stencil read their arrays through
 * `TS_GLOBAL const ts_real*` (the __global address space in OpenCL). Tile
 * functions shared by the OpenCL and CUDA launchers (never the CPU) use
 * TS_LOCAL (work-group / shared memory) and TS_BARRIER(). */

/* Fused multiply-add where the algorithm wants it (contraction is off
 * everywhere else so that backends can agree bitwise). */
#define ts_fma(a, b, c) fma((a), (b), (c))

/* Canonical reduction order shared by all backends: the input is cut into
 * chunks of TS_REDUCE_THREADS * TS_REDUCE_PER_THREAD elements; in a chunk,
 * "thread" t accumulates elements t, t + THREADS, ... in sequence, then the
 * THREADS partial values are combined by a halving tree (s[t] op= s[t+h] for
 * h = THREADS/2 .. 1). The per-chunk results are reduced the same way until one
 * value remains. Every backend follows this order exactly. */
#define TS_REDUCE_THREADS 256
#define TS_REDUCE_PER_THREAD 16
#define TS_REDUCE_CHUNK (TS_REDUCE_THREADS * TS_REDUCE_PER_THREAD)

#endif /* TESSERA_PORTABLE_H */
