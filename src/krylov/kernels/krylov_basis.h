/* The Krylov kernels' operations on basis operands (ts_vstore), included
 * by krylov_point.h twice in each precision: for a basis of ts_real
 * (TS_KRY_NARROW 0: the names as written) and for a narrow one (GMRES's
 * compressed basis: ts_vstore is ts_narrow, TS_KRY_NARROW 1, every name
 * with the suffix _narrow, TS_KRY_B). No include guard. */
/* The basis operands' accessors: ts_vstore is ts_real, or with
 * TS_KRY_NARROW the narrow storage (core/kernels/narrow.h). */
#if TS_KRY_NARROW
TS_FN ts_real TS_KRY_B(ts_kry_vget)(TS_GLOBAL const ts_vstore* p, long j) {
  return ts_narrow_get(p, j);
}
TS_FN void TS_KRY_B(ts_kry_vput)(TS_GLOBAL ts_vstore* p, long j, ts_real v) {
  ts_narrow_put(p, j, v);
}
TS_FN void TS_KRY_B(ts_kry_vget2)(TS_GLOBAL const ts_vstore* p, long i, ts_real* re, ts_real* im) {
  *re = ts_narrow_get(p, 2 * i);
  *im = ts_narrow_get(p, 2 * i + 1);
}
TS_FN void TS_KRY_B(ts_kry_vput2)(TS_GLOBAL ts_vstore* p, long i, ts_real re, ts_real im) {
  ts_narrow_put(p, 2 * i, re);
  ts_narrow_put(p, 2 * i + 1, im);
}
#else
TS_FN ts_real TS_KRY_B(ts_kry_vget)(TS_GLOBAL const ts_vstore* p, long j) { return p[j]; }
TS_FN void TS_KRY_B(ts_kry_vput)(TS_GLOBAL ts_vstore* p, long j, ts_real v) { p[j] = v; }
TS_FN void TS_KRY_B(ts_kry_vget2)(TS_GLOBAL const ts_vstore* p, long i, ts_real* re, ts_real* im) {
  ts_kry_ld2(p, i, re, im);
}
TS_FN void TS_KRY_B(ts_kry_vput2)(TS_GLOBAL ts_vstore* p, long i, ts_real re, ts_real im) {
  ts_kry_st2(p, i, re, im);
}
#endif
/* y, a basis operand, or with y_real the working vector yw (a narrow
 * basis widened: the SpMV's input, the solution update) */
TS_FN void TS_KRY_B(ts_kry_yput)(TS_GLOBAL ts_vstore* y, TS_GLOBAL ts_real* yw, int y_real, long j,
                                 ts_real v) {
  if (y_real)
    yw[j] = v;
  else
    TS_KRY_B(ts_kry_vput)(y, j, v);
}
TS_FN void TS_KRY_B(ts_kry_yput2)(TS_GLOBAL ts_vstore* y, TS_GLOBAL ts_real* yw, int y_real, long i,
                                  ts_real re, ts_real im) {
  if (y_real)
    ts_kry_st2(yw, i, re, im);
  else
    TS_KRY_B(ts_kry_vput2)(y, i, re, im);
}

/* combine at element i: y_i = a * x_i + sum_k c_k * v_k,i with the
 * coefficients (a, c_0, ..., c_{k-1}) in coef (nc = 1 real, 2 interleaved
 * complex) and the basis vectors ld apart in v; has_x = 0: no x term (x is
 * not read). Terms are added in the order a x, c_0 v_0, c_1 v_1, ...
 * With two = 1 the same pass also forms a second combination of the first
 * k2 <= k basis vectors, y2_i = a2 * x2_i + sum_{k < k2} c2_k * v_k,i
 * (coefficients coef2, same order), reading each v_k,i once: DCGS2's two
 * updates. Every input of element i is read before y_i or y2_i is written,
 * so the outputs may be inputs (a basis slot updated in place). v, x2, y2
 * and y (unless y_real) are basis operands (ts_vstore). */
TS_FN void TS_KRY_B(ts_kry_combine2_at)(int nc, long i, int k, TS_GLOBAL const ts_real* coef,
                                        int has_x, TS_GLOBAL const ts_real* x,
                                        TS_GLOBAL const ts_vstore* v, long ld,
                                        TS_GLOBAL ts_vstore* y, TS_GLOBAL ts_real* yw, int y_real,
                                        int two, int k2, TS_GLOBAL const ts_real* coef2, int has_x2,
                                        TS_GLOBAL const ts_vstore* x2, TS_GLOBAL ts_vstore* y2) {
  if (nc == 1) {
    ts_real acc = has_x ? ts_kry_rmul(coef[0], x[i]) : (ts_real)0;
    ts_real acc2 =
        (two && has_x2) ? ts_kry_rmul(coef2[0], TS_KRY_B(ts_kry_vget)(x2, i)) : (ts_real)0;
    TS_KRY_UNROLL4
    for (int kk = 0; kk < k; ++kk) {
      const ts_real vk = TS_KRY_B(ts_kry_vget)(v, (long)kk * ld + i);
      acc = acc + ts_kry_rmul(coef[1 + kk], vk);
      if (two && kk < k2) acc2 = acc2 + ts_kry_rmul(coef2[1 + kk], vk);
    }
    TS_KRY_B(ts_kry_yput)(y, yw, y_real, i, acc);
    if (two) TS_KRY_B(ts_kry_vput)(y2, i, acc2);
    return;
  }
  ts_real ar = 0, ai = 0, br = 0, bi = 0, xr, xi;
  if (has_x) {
    ts_kry_ld2(x, i, &xr, &xi);
    ar = ts_kry_mul_re(coef[0], coef[1], xr, xi);
    ai = ts_kry_mul_im(coef[0], coef[1], xr, xi);
  }
  if (two && has_x2) {
    TS_KRY_B(ts_kry_vget2)(x2, i, &xr, &xi);
    br = ts_kry_mul_re(coef2[0], coef2[1], xr, xi);
    bi = ts_kry_mul_im(coef2[0], coef2[1], xr, xi);
  }
  TS_KRY_UNROLL4
  for (int kk = 0; kk < k; ++kk) {
    const int cc = 2 * (1 + kk);
    ts_real vr, vi;
    TS_KRY_B(ts_kry_vget2)(v + (long)kk * ld, i, &vr, &vi);
    ar = ar + ts_kry_mul_re(coef[cc], coef[cc + 1], vr, vi);
    ai = ai + ts_kry_mul_im(coef[cc], coef[cc + 1], vr, vi);
    if (two && kk < k2) {
      br = br + ts_kry_mul_re(coef2[cc], coef2[cc + 1], vr, vi);
      bi = bi + ts_kry_mul_im(coef2[cc], coef2[cc + 1], vr, vi);
    }
  }
  TS_KRY_B(ts_kry_yput2)(y, yw, y_real, i, ar, ai);
  if (two) TS_KRY_B(ts_kry_vput2)(y2, i, br, bi);
}

/* Element i of the dots kernels' operands: the basis element v (vr, vi),
 * w (wr, wi) and, with two = 1, w2 (xr, xi); real vectors (nc = 1) leave
 * the imaginary parts 0. v and w are basis operands (ts_vstore), w2 a
 * working vector. Loading and adding are apart so that a GPU work-item can
 * put the loads of several elements in flight before the first sum. */
TS_FN void TS_KRY_B(ts_kry_dots_load)(int nc, long i, TS_GLOBAL const ts_vstore* v,
                                      TS_GLOBAL const ts_vstore* w, int two,
                                      TS_GLOBAL const ts_real* w2, ts_real* vr, ts_real* vi,
                                      ts_real* wr, ts_real* wi, ts_real* xr, ts_real* xi) {
  *vi = *wi = *xi = *xr = (ts_real)0;
  if (nc == 1) {
    *vr = TS_KRY_B(ts_kry_vget)(v, i);
    *wr = TS_KRY_B(ts_kry_vget)(w, i);
    if (two) *xr = w2[i];
    return;
  }
  TS_KRY_B(ts_kry_vget2)(v, i, vr, vi);
  TS_KRY_B(ts_kry_vget2)(w, i, wr, wi);
  if (two) ts_kry_ld2(w2, i, xr, xi);
}
/* Both for element i (the CPU's loop). */
TS_FN void TS_KRY_B(ts_kry_dots_at)(int nc, long i, TS_GLOBAL const ts_vstore* v,
                                    TS_GLOBAL const ts_vstore* w, int two,
                                    TS_GLOBAL const ts_real* w2, ts_real* re, ts_real* im,
                                    ts_real* re2, ts_real* im2) {
  ts_real vr, vi, wr, wi, xr, xi;
  TS_KRY_B(ts_kry_dots_load)(nc, i, v, w, two, w2, &vr, &vi, &wr, &wi, &xr, &xi);
  ts_kry_dots_add(nc, two, vr, vi, wr, wi, xr, xi, re, im, re2, im2);
}

#if defined(TS_BARRIER)
/* Work-group `id`'s job of the GPU dots kernels: chunk c = id / k of basis
 * vector kk = id % k (p.ld reals apart from v; consecutive groups share a
 * chunk of w, so its re-reads hit the cache) against w (and w2 when two, a
 * constant in each kernel, so that each keeps only its own loads), in
 * portable.h's canonical order: work-item t takes elements t, t + THREADS,
 * ... of the chunk, then the halving tree. The chunk's partial goes to
 * partials[2 job + {0,1}], job = kk nch + c, the second right-hand side's
 * 2 nch k reals on. s: 4 * TS_REDUCE_THREADS reals of group memory
 * (2 * THREADS without two). */
TS_FN void TS_KRY_B(ts_kry_dots_group)(ts_kry_params p, ts_size id, unsigned t,
                                       TS_GLOBAL const ts_vstore* v, TS_GLOBAL const ts_vstore* w,
                                       int two, TS_GLOBAL const ts_real* w2, TS_LOCAL ts_real* s,
                                       TS_GLOBAL ts_real* partials) {
  const int nc = p.nc;
  const unsigned long n = p.n, kk = id % p.k, c = id / p.k;
  const unsigned long job = kk * p.nch + c, set = 2 * p.nch * p.k;
  TS_GLOBAL const ts_vstore* vk = v + kk * p.ld;
  ts_real acc[4] = {0, 0, 0, 0};
  if ((c + 1) * TS_REDUCE_CHUNK <= n) {
    /* a whole chunk: the loads of TS_KRY_DOTS_BATCH elements go out before
     * their sums (no bounds test between them to keep them apart) */
    for (unsigned p0 = 0; p0 < TS_REDUCE_PER_THREAD; p0 += TS_KRY_DOTS_BATCH) {
      ts_real vr[TS_KRY_DOTS_BATCH], vi[TS_KRY_DOTS_BATCH], wr[TS_KRY_DOTS_BATCH],
          wi[TS_KRY_DOTS_BATCH], xr[TS_KRY_DOTS_BATCH], xi[TS_KRY_DOTS_BATCH];
      TS_UNROLL for (unsigned q = 0; q < TS_KRY_DOTS_BATCH; ++q) TS_KRY_B(ts_kry_dots_load)(
          nc, (long)(c * TS_REDUCE_CHUNK + (unsigned long)(p0 + q) * TS_REDUCE_THREADS + t), vk, w,
          two, w2, &vr[q], &vi[q], &wr[q], &wi[q], &xr[q], &xi[q]);
      TS_UNROLL for (unsigned q = 0; q < TS_KRY_DOTS_BATCH; ++q) ts_kry_dots_add(
          nc, two, vr[q], vi[q], wr[q], wi[q], xr[q], xi[q], &acc[0], &acc[1], &acc[2], &acc[3]);
    }
  } else {
    TS_UNROLL for (unsigned p = 0; p < TS_REDUCE_PER_THREAD; ++p) {
      const unsigned long i = c * TS_REDUCE_CHUNK + (unsigned long)p * TS_REDUCE_THREADS + t;
      if (i < n)
        TS_KRY_B(ts_kry_dots_at)(nc, (long)i, vk, w, two, w2, &acc[0], &acc[1], &acc[2], &acc[3]);
    }
  }
  const int sums = two ? 4 : 2;
  for (int q = 0; q < sums; ++q) s[q * TS_REDUCE_THREADS + t] = acc[q];
  TS_BARRIER();
  for (unsigned h = TS_REDUCE_THREADS / 2; h > 0; h >>= 1) {
    if (t < h)
      for (int q = 0; q < sums; ++q)
        s[q * TS_REDUCE_THREADS + t] =
            s[q * TS_REDUCE_THREADS + t] + s[q * TS_REDUCE_THREADS + t + h];
    TS_BARRIER();
  }
  if (t == 0) {
    partials[2 * job] = s[0];
    partials[2 * job + 1] = s[TS_REDUCE_THREADS];
    if (two) {
      partials[set + 2 * job] = s[2 * TS_REDUCE_THREADS];
      partials[set + 2 * job + 1] = s[3 * TS_REDUCE_THREADS];
    }
  }
}
#endif
