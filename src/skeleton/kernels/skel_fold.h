/* One chunk of a fold row in the canonical order (skeletons.hpp's fold), as
 * one work-group of TS_REDUCE_THREADS: work-item t < min(n, 256) folds
 * e[t], e[t + 256], ... in sequence into s[t]; then a halving tree over the
 * valid prefix of s; work-item 0 stores the chunk's value at *out. Written
 * once for CUDA (a template over the user's C++ functor f) and the OpenCL
 * program generated around a user function (TS_SKEL_F). The CPU's oracle is
 * skel_cpu.hpp's reduce_chunk, the same order as a plain loop.
 * Guarded: include once. */
#ifndef TESSERA_SKEL_FOLD_H
#define TESSERA_SKEL_FOLD_H

#include "core/kernels/portable.h"

#if defined(__OPENCL_VERSION__)
#define TS_SKEL_COMBINE(x, y) TS_SKEL_F(x, y)
#define ts_skel_elem ts_real
TS_FN void ts_skel_fold_chunk(int t, __local ts_real* s, __global const ts_real* e, long n,
                              __global ts_real* out)
#else
#define TS_SKEL_COMBINE(x, y) f(x, y)
template <class F, class ts_skel_elem>
TS_FN void ts_skel_fold_chunk(const F& f, int t, ts_skel_elem* s, const ts_skel_elem* e, long n,
                              ts_skel_elem* out)
#endif
{
  const int m0 = n < TS_REDUCE_THREADS ? (int)n : TS_REDUCE_THREADS;
  if (n == TS_REDUCE_CHUNK) {
    /* A full chunk: every load issued before the first combine, so that a
     * work-item keeps TS_REDUCE_PER_THREAD loads in flight whatever the
     * device compiler's schedule (nvcc kept 4 to 8; the fold is bound by
     * memory-level parallelism). Same order, same bits. */
    ts_skel_elem v[TS_REDUCE_PER_THREAD];
    TS_UNROLL
    for (int u = 0; u < TS_REDUCE_PER_THREAD; ++u) v[u] = e[t + u * TS_REDUCE_THREADS];
    ts_skel_elem acc = v[0];
    TS_UNROLL
    for (int u = 1; u < TS_REDUCE_PER_THREAD; ++u) acc = TS_SKEL_COMBINE(acc, v[u]);
    s[t] = acc;
  } else if (t < m0) {
    ts_skel_elem acc = e[t];
    for (long j = t + TS_REDUCE_THREADS; j < n; j += TS_REDUCE_THREADS)
      acc = TS_SKEL_COMBINE(acc, e[j]);
    s[t] = acc;
  }
  TS_BARRIER();
  int m = m0;
  for (int h = TS_REDUCE_THREADS / 2; h >= 1; h /= 2) {
    if (t < h && t + h < m) s[t] = TS_SKEL_COMBINE(s[t], s[t + h]);
    TS_BARRIER();
    m = m < h ? m : h;
  }
  if (t == 0) *out = s[0];
}
#undef TS_SKEL_COMBINE

#endif /* TESSERA_SKEL_FOLD_H */
