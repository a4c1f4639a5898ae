/* Folds over a work-group and atomics on global uints, for TS_GROUP bodies
 * (C99 subset; guarded, see portable.h).
 *
 *   ts_group_max_min(g, &mx, &mn, s)  the maximum of mx and the minimum of
 *                                     mn over the group, in work-item 0
 *   ts_atomic_max_uint(p, v), ts_atomic_min_uint(p, v), ts_atomic_add_uint(p, v)
 *   ts_atomic_fetch_add_uint(p, v)    the same add, returning the old value
 *   ts_atomic_set_flag(p)             *p = 1 where it is 0: many work-items
 *                                     raising one flag read it first, so
 *                                     only the first few pay an atomic
 *
 * Maximum and minimum do not depend on the order of their operands, so each
 * backend folds its fastest way and every one gives the same bits: CUDA
 * within warps by shuffles, then the warps' values through local memory;
 * OpenCL by a halving tree in local memory. */
#ifndef TESSERA_GROUP_FOLD_H
#define TESSERA_GROUP_FOLD_H
#include "core/kernels/kernel_args.h"

/* The local uints ts_group_max_min needs for a group of n work-items (n a
 * power of two; on CUDA a multiple of 32), and the same as elements of the
 * ts_value scratch of a group kernel (kernel lists). */
#if defined(__CUDACC__)
#define TS_FOLD_UINTS(n) (2 * ((n) / 32))
#else
#define TS_FOLD_UINTS(n) (2 * (n))
#endif
#define TS_FOLD_SCRATCH(n) ((TS_FOLD_UINTS(n) * 4 + sizeof(ts_value) - 1) / sizeof(ts_value))

#define TS_UMAX(a, b) ((a) > (b) ? (a) : (b))
#define TS_UMIN(a, b) ((a) < (b) ? (a) : (b))

/* Every work-item of the 1D group g calls it (it holds barriers); work-item
 * 0 gets the results, the others partial values. s: TS_FOLD_UINTS(g.size). */
TS_FN void ts_group_max_min(ts_group g, ts_uint* mx, ts_uint* mn, TS_LOCAL ts_uint* s) {
#if defined(__CUDA_ARCH__)
  ts_uint a = *mx, b = *mn;
  for (int o = 16; o > 0; o >>= 1) {
    const ts_uint ao = __shfl_down_sync(0xffffffffu, a, o),
                  bo = __shfl_down_sync(0xffffffffu, b, o);
    a = TS_UMAX(a, ao);
    b = TS_UMIN(b, bo);
  }
  const ts_uint warps = g.size / 32, lane = g.lid & 31u, warp = g.lid >> 5;
  if (lane == 0) {
    s[warp] = a;
    s[warps + warp] = b;
  }
  __syncthreads();
  if (g.lid == 0)
    for (ts_uint k = 1; k < warps; ++k) {
      a = TS_UMAX(a, s[k]);
      b = TS_UMIN(b, s[warps + k]);
    }
  *mx = a;
  *mn = b;
#else
  s[g.lid] = *mx;
  s[g.size + g.lid] = *mn;
  TS_BARRIER();
  for (ts_uint h = g.size / 2; h > 0; h >>= 1) {
    if (g.lid < h) {
      s[g.lid] = TS_UMAX(s[g.lid], s[g.lid + h]);
      s[g.size + g.lid] = TS_UMIN(s[g.size + g.lid], s[g.size + g.lid + h]);
    }
    TS_BARRIER();
  }
  *mx = s[0];
  *mn = s[g.size];
#endif
}

#if defined(__OPENCL_VERSION__)
TS_FN void ts_atomic_max_uint(TS_GLOBAL ts_uint* p, ts_uint v) {
  atomic_max((volatile __global uint*)p, v);
}
TS_FN void ts_atomic_min_uint(TS_GLOBAL ts_uint* p, ts_uint v) {
  atomic_min((volatile __global uint*)p, v);
}
TS_FN void ts_atomic_add_uint(TS_GLOBAL ts_uint* p, ts_uint v) {
  atomic_add((volatile __global uint*)p, v);
}
TS_FN ts_uint ts_atomic_fetch_add_uint(TS_GLOBAL ts_uint* p, ts_uint v) {
  return atomic_add((volatile __global uint*)p, v);
}
TS_FN void ts_atomic_set_flag(TS_GLOBAL ts_uint* p) {
  if (!*(volatile __global uint*)p) atomic_max((volatile __global uint*)p, 1u);
}
#elif defined(__CUDA_ARCH__)
TS_FN void ts_atomic_max_uint(ts_uint* p, ts_uint v) { atomicMax(p, v); }
TS_FN void ts_atomic_min_uint(ts_uint* p, ts_uint v) { atomicMin(p, v); }
TS_FN void ts_atomic_add_uint(ts_uint* p, ts_uint v) { atomicAdd(p, v); }
TS_FN ts_uint ts_atomic_fetch_add_uint(ts_uint* p, ts_uint v) { return atomicAdd(p, v); }
TS_FN void ts_atomic_set_flag(ts_uint* p) {
  if (!*(volatile ts_uint*)p) atomicMax(p, 1u);
}
#else
/* C++ (and CUDA's host pass): compare-and-swap loops of the GCC builtins */
TS_FN void ts_atomic_max_uint(ts_uint* p, ts_uint v) {
  ts_uint old = __atomic_load_n(p, __ATOMIC_RELAXED);
  while (old < v &&
         !__atomic_compare_exchange_n(p, &old, v, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
  }
}
TS_FN void ts_atomic_min_uint(ts_uint* p, ts_uint v) {
  ts_uint old = __atomic_load_n(p, __ATOMIC_RELAXED);
  while (old > v &&
         !__atomic_compare_exchange_n(p, &old, v, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
  }
}
TS_FN void ts_atomic_add_uint(ts_uint* p, ts_uint v) { __atomic_fetch_add(p, v, __ATOMIC_RELAXED); }
TS_FN ts_uint ts_atomic_fetch_add_uint(ts_uint* p, ts_uint v) {
  return __atomic_fetch_add(p, v, __ATOMIC_RELAXED);
}
TS_FN void ts_atomic_set_flag(ts_uint* p) {
  if (!__atomic_load_n(p, __ATOMIC_RELAXED)) ts_atomic_max_uint(p, 1u);
}
#endif

#endif /* TESSERA_GROUP_FOLD_H */
