/* One work-group's job of the GPU dots kernels (C99 subset; after
 * krylov_point.h, with TS_BARRIER defined). No include guard: krylov_point.hpp
 * includes it once per group size TS_KRY_DOTS_VECTORS (in its own namespace),
 * krylov.cl once with the size its build options name.
 *
 * A work-group takes chunk c of m <= TS_KRY_DOTS_VECTORS basis elements
 * v_first .. v_first+m-1 (element g at v + g ld) against w (and w2 when two,
 * a literal at every call, so each kernel keeps only its own loads). Per
 * element index the work-item loads w (and w2) once for all m basis elements:
 * with one element per group, w would come from L2 once per basis element,
 * and those re-reads were twice the bytes read from DRAM with two right-hand
 * sides. The loads of TS_KRY_DOTS_BATCH element indices of all m go out
 * before their sums.
 *
 * Every product keeps portable.h's canonical order, so the bits do not depend
 * on the group size: work-item t takes elements t, t + THREADS, ... of the
 * chunk, then the halving tree. Product first+g's partial goes to
 * partials[2 ((first + g) nch + c) + {0,1}], its second right-hand side's to
 * partials[set + the same]. s: 4 * TS_KRY_DOTS_VECTORS * TS_REDUCE_THREADS
 * reals of group memory (half of it without two). */
#ifndef TS_KRY_DOTS_VECTORS
#define TS_KRY_DOTS_VECTORS 4
#endif
TS_FN void ts_kry_dots_group(int nc, unsigned long n, unsigned long nch, unsigned long c, unsigned long first, int m,
                             unsigned long set, unsigned t, TS_GLOBAL const ts_vstore* v, unsigned long ld,
                             TS_GLOBAL const ts_vstore* w, int two, TS_GLOBAL const ts_real* w2, TS_LOCAL ts_real* s,
                             TS_GLOBAL ts_real* partials) {
  ts_real acc[TS_KRY_DOTS_VECTORS][4];
  TS_UNROLL for (int g = 0; g < TS_KRY_DOTS_VECTORS; ++g) acc[g][0] = acc[g][1] = acc[g][2] = acc[g][3] = 0;
  const unsigned long base = c * TS_REDUCE_CHUNK;
  if (base + TS_REDUCE_CHUNK <= n) {
    /* a whole chunk: no bounds test between the loads keeps them together */
    for (unsigned p0 = 0; p0 < TS_REDUCE_PER_THREAD; p0 += TS_KRY_DOTS_BATCH) {
      ts_real wr[TS_KRY_DOTS_BATCH], wi[TS_KRY_DOTS_BATCH], xr[TS_KRY_DOTS_BATCH], xi[TS_KRY_DOTS_BATCH];
      ts_real vr[TS_KRY_DOTS_VECTORS][TS_KRY_DOTS_BATCH], vi[TS_KRY_DOTS_VECTORS][TS_KRY_DOTS_BATCH];
      TS_UNROLL for (unsigned q = 0; q < TS_KRY_DOTS_BATCH; ++q)
        ts_kry_dots_load_rhs(nc, (long)(base + (unsigned long)(p0 + q) * TS_REDUCE_THREADS + t), w, two, w2, &wr[q],
                             &wi[q], &xr[q], &xi[q]);
      TS_UNROLL for (int g = 0; g < TS_KRY_DOTS_VECTORS; ++g) {
        if (g < m) {
          TS_UNROLL for (unsigned q = 0; q < TS_KRY_DOTS_BATCH; ++q)
            ts_kry_dots_load_v(nc, (long)(base + (unsigned long)(p0 + q) * TS_REDUCE_THREADS + t), v + g * ld,
                               &vr[g][q], &vi[g][q]);
        }
      }
      TS_UNROLL for (int g = 0; g < TS_KRY_DOTS_VECTORS; ++g) {
        if (g < m) {
          TS_UNROLL for (unsigned q = 0; q < TS_KRY_DOTS_BATCH; ++q)
            ts_kry_dots_add(nc, two, vr[g][q], vi[g][q], wr[q], wi[q], xr[q], xi[q], &acc[g][0], &acc[g][1],
                            &acc[g][2], &acc[g][3]);
        }
      }
    }
  } else {
    for (unsigned p = 0; p < TS_REDUCE_PER_THREAD; ++p) {
      const unsigned long i = base + (unsigned long)p * TS_REDUCE_THREADS + t;
      if (i < n) {
        ts_real wr, wi, xr, xi;
        ts_kry_dots_load_rhs(nc, (long)i, w, two, w2, &wr, &wi, &xr, &xi);
        TS_UNROLL for (int g = 0; g < TS_KRY_DOTS_VECTORS; ++g) {
          if (g < m) {
            ts_real vr, vi;
            ts_kry_dots_load_v(nc, (long)i, v + g * ld, &vr, &vi);
            ts_kry_dots_add(nc, two, vr, vi, wr, wi, xr, xi, &acc[g][0], &acc[g][1], &acc[g][2], &acc[g][3]);
          }
        }
      }
    }
  }
  /* the halving trees of all m products' sums side by side: sum q of
   * element g at s[(g * sums + q) * THREADS] */
  const int sums = two ? 4 : 2;
  TS_UNROLL for (int g = 0; g < TS_KRY_DOTS_VECTORS; ++g) {
    if (g < m)
      for (int q = 0; q < sums; ++q) s[(g * sums + q) * TS_REDUCE_THREADS + t] = acc[g][q];
  }
  TS_BARRIER();
  for (unsigned h = TS_REDUCE_THREADS / 2; h > 0; h >>= 1) {
    if (t < h)
      for (int r = 0; r < m * sums; ++r) {
        TS_LOCAL ts_real* sr = s + r * TS_REDUCE_THREADS;
        sr[t] = sr[t] + sr[t + h];
      }
    TS_BARRIER();
  }
  if (t == 0)
    for (int g = 0; g < m; ++g) {
      const unsigned long job = (first + (unsigned long)g) * nch + c;
      const TS_LOCAL ts_real* sg = s + g * sums * TS_REDUCE_THREADS;
      partials[2 * job] = sg[0];
      partials[2 * job + 1] = sg[TS_REDUCE_THREADS];
      if (two) {
        partials[set + 2 * job] = sg[2 * TS_REDUCE_THREADS];
        partials[set + 2 * job + 1] = sg[3 * TS_REDUCE_THREADS];
      }
    }
}
