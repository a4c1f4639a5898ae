/* DCGS2's coefficients (gmres.hpp's dcgs2_cycle; docs/krylov.md, "DCGS2"),
 * computed in double from the sums of step j's fused reduction. Written once
 * for the host, which runs it for the resident mode and, for its Hessenberg
 * matrix, for every step of the fused mode, and for the fused mode's
 * coefficient kernel, which runs it on the device so that no host round trip
 * separates the reduction from the update. Both give the same bits: IEEE
 * +, -, *, / and sqrt in double, no contraction (portable.h), one order.
 * C99 subset, per precision (ts_real: the sums' and coefficients' type);
 * OpenCL needs cl_khr_fp64.
 *
 * sums: dots2's 2k products over slots 0..j (k = j + 1), (re, im) pairs:
 *   a_i = <q_i, u_j> at 2i (a_j = nu = u_j^H u_j), b_i = <q_i, w> at 2(k + i).
 * With alpha = sqrt(nu - |a|^2) (a: i < j), inv = 1 / alpha,
 * z = (b_j - a^H b) inv and g = z inv, coef receives the packed lists of
 * the two-output combine (nc reals per value):
 *   [inv, c_0 .. c_j]      c_i = -(b_i - a_i g) inv, c_j = -g inv (next candidate)
 *   [inv, c2_0 .. c2_{j-1}] c2_i = -a_i inv                         (q_j)
 * When nu - |a|^2 <= nu / 2 (cancellation: the explicit path) the first
 * list is all zero and the second [1, -a_0 .. -a_{j-1}]: u_j - Q a.
 * st receives alpha, z (re, im), 1 for the explicit path (else 0), inv
 * and g (re, im). */
/* Element i of the first 4j sums' pairs: (re, im) of a_i and b_i. */
TS_FN void ts_kry_dcgs2_pair(int nc, int k, int i, TS_GLOBAL const ts_real* sums, double* ar, double* ai,
                             double* br, double* bi) {
  *ar = (double)sums[2 * i];
  *br = (double)sums[2 * (k + i)];
  *ai = nc == 2 ? (double)sums[2 * i + 1] : 0.0;
  *bi = nc == 2 ? (double)sums[2 * (k + i) + 1] : 0.0;
}

/* The step's scalars into st: alpha, z (re, im), the explicit flag, inv, g
 * (re, im). The two sums run in order, loading eight pairs at a time (one
 * GPU work-item runs this: its loads overlap, its additions stay in order). */
TS_FN void ts_kry_dcgs2_scalars(int nc, int j, TS_GLOBAL const ts_real* sums, double* st) {
  const int k = j + 1;
  double asq = 0, hr = 0, hi = 0;
  for (int i0 = 0; i0 < j; i0 += 8) {
    double ar[8], ai[8], br[8], bi[8];
    const int m = j - i0 < 8 ? j - i0 : 8;
    for (int t = 0; t < m; ++t) ts_kry_dcgs2_pair(nc, k, i0 + t, sums, &ar[t], &ai[t], &br[t], &bi[t]);
    for (int t = 0; t < m; ++t) {
      if (nc == 2) {
        asq = asq + (ar[t] * ar[t] + ai[t] * ai[t]);
        hr = hr + (ar[t] * br[t] + ai[t] * bi[t]); /* conj(a) b */
        hi = hi + (ar[t] * bi[t] - ai[t] * br[t]);
      } else {
        asq = asq + ar[t] * ar[t];
        hr = hr + ar[t] * br[t];
      }
    }
  }
  const double nu = (double)sums[2 * j];
  const int expl = !(nu - asq > 0.5 * nu);
  const double alpha = expl ? 0.0 : sqrt(nu - asq), inv = 1.0 / alpha;
  const double zr = ((double)sums[2 * (k + j)] - hr) * inv;
  const double zi = nc == 2 ? ((double)sums[2 * (k + j) + 1] - hi) * inv : 0.0;
  st[0] = alpha;
  st[1] = zr;
  st[2] = zi;
  st[3] = expl;
  st[4] = inv;
  st[5] = zr * inv;
  st[6] = zi * inv;
}

/* Value q of the two lists (q < 2j + 3), from the sums and the scalars st:
 * independent of the other values (GPU work-items share them out). */
TS_FN void ts_kry_dcgs2_value(int nc, int j, int q, TS_GLOBAL const ts_real* sums, const double* st,
                              TS_GLOBAL ts_real* coef) {
  const int k = j + 1, expl = st[3] != 0.0;
  const double inv = st[4], gr = st[5], gi = st[6];
  double ar, ai, br, bi;
  ts_real re = 0, im = 0;
  if (q == 0 || q == k + 1) { /* the lists' a */
    re = expl ? (q == 0 ? (ts_real)0 : (ts_real)1) : (ts_real)inv;
  } else if (q <= k) { /* c_i of the next candidate */
    const int i = q - 1;
    if (!expl) {
      if (i < j) {
        ts_kry_dcgs2_pair(nc, k, i, sums, &ar, &ai, &br, &bi);
        re = (ts_real)(-(br - (ar * gr - ai * gi)) * inv);
        im = (ts_real)(-(bi - (ar * gi + ai * gr)) * inv);
      } else {
        re = (ts_real)(-gr * inv);
        im = (ts_real)(-gi * inv);
      }
    }
  } else { /* c2_i of q_j, or of u_j - Q a */
    const int i = q - k - 2;
    if (expl) {
      re = -sums[2 * i];
      if (nc == 2) im = -sums[2 * i + 1];
    } else {
      ts_kry_dcgs2_pair(nc, k, i, sums, &ar, &ai, &br, &bi);
      re = (ts_real)(-ar * inv);
      im = (ts_real)(-ai * inv);
    }
  }
  coef[nc * q] = re;
  if (nc == 2) coef[nc * q + 1] = im;
}

/* Both, one work-item (the host). st: 7 doubles. Returns the reals written. */
TS_FN int ts_kry_dcgs2_coef(int nc, int j, TS_GLOBAL const ts_real* sums, double* st, TS_GLOBAL ts_real* coef) {
  ts_kry_dcgs2_scalars(nc, j, sums, st);
  for (int q = 0; q < 2 * j + 3; ++q) ts_kry_dcgs2_value(nc, j, q, sums, st, coef);
  return nc * (2 * j + 3);
}

#if defined(TS_BARRIER)
/* One work-group's job of the GPU coefficient kernels: the scalars by
 * work-item 0 into the group's copy st_shared (7 doubles of group memory),
 * then every value by the work-items in turn (t of threads), each from its
 * own private copy of the scalars. */
TS_FN void ts_kry_dcgs2_group(int nc, int j, int t, int threads, TS_GLOBAL const ts_real* sums,
                              TS_LOCAL double* st_shared, TS_GLOBAL ts_real* coef) {
  double st[7];
  if (t == 0) {
    ts_kry_dcgs2_scalars(nc, j, sums, st);
    for (int q = 0; q < 7; ++q) st_shared[q] = st[q];
  }
  TS_BARRIER();
  for (int q = 0; q < 7; ++q) st[q] = st_shared[q];
  for (int q = t; q < 2 * j + 3; q += threads) ts_kry_dcgs2_value(nc, j, q, sums, st, coef);
}
#endif
