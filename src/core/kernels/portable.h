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
/* Group functions (TS_GROUP) compile in C++ translation units too, but only
 * GPU launchers call them: the CPU runs its own loop for such kernels. */
#define TS_BARRIER() ((void)0)
#include <math.h>
#endif

/* TS_UNROLL before a loop with a compile-time trip count asks device
 * compilers to unroll it (so small per-work-item arrays stay in registers). */
/* TS_ROLLED keeps a loop rolled where unrolling costs registers or time
 * (the multigrid kernels' march over planes). */
#if defined(__OPENCL_VERSION__) || defined(__CUDA_ARCH__)
#define TS_UNROLL _Pragma("unroll")
#define TS_ROLLED _Pragma("unroll 1")
#else
#define TS_UNROLL
#define TS_ROLLED
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

/* TS_LOAD_ONCE(p): *p for data a kernel reads once and does not keep (a
 * sparse matrix's values and column indices): on CUDA an evict-first load
 * (ld.global.cs), which leaves the caches to the data that is read again.
 * TS_LOAD_READONLY(p): *p for data read many times and written by no
 * work-item of the launch (SpMV's x): on CUDA the read-only path
 * (ld.global.nc). Elsewhere plain loads. Only the caching changes, never a
 * value. */
#if defined(__CUDA_ARCH__)
#define TS_LOAD_ONCE(p) __ldcs(p)
#define TS_LOAD_READONLY(p) __ldg(p)
#else
#define TS_LOAD_ONCE(p) (*(p))
#define TS_LOAD_READONLY(p) (*(p))
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

/* Zero of a scalar or vector type (a pack below). */
#if defined(__OPENCL_VERSION__)
#define TS_ZERO(type) ((type)(0))
#else
#define TS_ZERO(type) (type{})
#endif

/* 16-byte packs: ts_pack holds TS_PACK values of ts_real and is loaded and
 * stored in one access (OpenCL and CUDA: float4 / double2). The CPU builds
 * with TS_PACK 1 (ts_pack is ts_real): its compilers vectorise the plain loop.
 * TS_PACK_EACH(M) expands M(c, k) once per component: c its selector (.x .y
 * .z .w, or nothing for TS_PACK 1), k its index, e.g.
 *   #define LANE(c, k) r c = a c + b c;   or   #define UNPACK(c, k) d[k] = v c; */
#define TS_PACK_EACH(M) TS_PACK_EACH_I(TS_PACK)(M)
#define TS_PACK_EACH_I(P) TS_PACK_EACH_II(P)
#define TS_PACK_EACH_II(P) TS_PACK_EACH_##P
#define TS_PACK_EACH_1(M) M(, 0)
#define TS_PACK_EACH_2(M) M(.x, 0) M(.y, 1)
#define TS_PACK_EACH_4(M) M(.x, 0) M(.y, 1) M(.z, 2) M(.w, 3)

#include "core/kernels/kernel_args.h"

#endif /* TESSERA_PORTABLE_H */
