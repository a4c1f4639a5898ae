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
TS_FN void ts_kry_dcgs2_pair(int nc, int k, int i, TS_GLOBAL const ts_real* sums, double* ar,
                             double* ai, double* br, double* bi) {
  *ar = (double)sums[2 * i];
  *br = (double)sums[2 * (k + i)];
  *ai = nc == 2 ? (double)sums[2 * i + 1] : 0.0;
  *bi = nc == 2 ? (double)sums[2 * (k + i) + 1] : 0.0;
}

/* The two sums of the step's scalars, |a|^2 and a^H b over i < j, each in
 * TS_KRY_DCGS2_LANES strided partial sums (lane l: i = l, l + LANES, ...,
 * in order) added in lane order afterwards, so that a GPU work-group can
 * take the lanes in parallel with the bits of one work-item. */
TS_FN void ts_kry_dcgs2_lane(int nc, int j, int l, TS_GLOBAL const ts_real* sums, double* asq,
                             double* hr, double* hi) {
  const int k = j + 1;
  double s0 = 0, s1 = 0, s2 = 0, ar, ai, br, bi;
  for (int i = l; i < j; i += TS_KRY_DCGS2_LANES) {
    ts_kry_dcgs2_pair(nc, k, i, sums, &ar, &ai, &br, &bi);
    if (nc == 2) {
      s0 = s0 + (ar * ar + ai * ai);
      s1 = s1 + (ar * br + ai * bi); /* conj(a) b */
      s2 = s2 + (ar * bi - ai * br);
    } else {
      s0 = s0 + ar * ar;
      s1 = s1 + ar * br;
    }
  }
  *asq = s0;
  *hr = s1;
  *hi = s2;
}

/* The scalars into st (alpha, z (re, im), the explicit flag, inv, g (re,
 * im)) from the two sums. */
TS_FN void ts_kry_dcgs2_finish(int nc, int j, TS_GLOBAL const ts_real* sums, double asq, double hr,
                               double hi, double* st) {
  const int k = j + 1;
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

/* The lanes' partial sums part[3 l + {0, 1, 2}] added in lane order, and the
 * scalars from them. */
TS_FN void ts_kry_dcgs2_lanes_finish(int nc, int j, TS_GLOBAL const ts_real* sums,
                                     TS_LOCAL const double* part, double* st) {
  double asq = 0, hr = 0, hi = 0;
  for (int l = 0; l < TS_KRY_DCGS2_LANES; ++l) {
    asq = asq + part[3 * l];
    hr = hr + part[3 * l + 1];
    hi = hi + part[3 * l + 2];
  }
  ts_kry_dcgs2_finish(nc, j, sums, asq, hr, hi, st);
}

#if !defined(__OPENCL_VERSION__)
/* The scalars by one work-item (the host; TS_LOCAL is empty here). */
TS_FN void ts_kry_dcgs2_scalars(int nc, int j, TS_GLOBAL const ts_real* sums, double* st) {
  double part[3 * TS_KRY_DCGS2_LANES];
  for (int l = 0; l < TS_KRY_DCGS2_LANES; ++l)
    ts_kry_dcgs2_lane(nc, j, l, sums, &part[3 * l], &part[3 * l + 1], &part[3 * l + 2]);
  ts_kry_dcgs2_lanes_finish(nc, j, sums, part, st);
}
#endif

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

#if !defined(__OPENCL_VERSION__)
/* Both, one work-item (the host). st: 7 doubles. Returns the reals written. */
TS_FN int ts_kry_dcgs2_coef(int nc, int j, TS_GLOBAL const ts_real* sums, double* st,
                            TS_GLOBAL ts_real* coef) {
  ts_kry_dcgs2_scalars(nc, j, sums, st);
  for (int q = 0; q < 2 * j + 3; ++q) ts_kry_dcgs2_value(nc, j, q, sums, st, coef);
  return nc * (2 * j + 3);
}
#endif

#if defined(TS_BARRIER)
/* One work-group's job of the GPU coefficient kernels (any number of
 * work-items): the lanes' partial sums by the work-items in turn into part
 * (3 LANES doubles of group memory), added in lane order by work-item 0 into
 * the scalars (st_shared: 7 doubles of group memory), then every value by the
 * work-items in turn, each from its own private copy of the scalars. The
 * bits of ts_kry_dcgs2_coef. */
TS_FN void ts_kry_dcgs2_group(int nc, int j, int t, int threads, TS_GLOBAL const ts_real* sums,
                              TS_LOCAL double* part, TS_LOCAL double* st_shared,
                              TS_GLOBAL ts_real* coef) {
  double st[7];
  for (int l = t; l < TS_KRY_DCGS2_LANES; l += threads) {
    double p0, p1, p2;
    ts_kry_dcgs2_lane(nc, j, l, sums, &p0, &p1, &p2);
    part[3 * l] = p0;
    part[3 * l + 1] = p1;
    part[3 * l + 2] = p2;
  }
  TS_BARRIER();
  if (t == 0) {
    ts_kry_dcgs2_lanes_finish(nc, j, sums, part, st);
    for (int q = 0; q < 7; ++q) st_shared[q] = st[q];
  }
  TS_BARRIER();
  for (int q = 0; q < 7; ++q) st[q] = st_shared[q];
  for (int q = t; q < 2 * j + 3; q += threads) ts_kry_dcgs2_value(nc, j, q, sums, st, coef);
}
#endif

/* dcgs2_coef: step p.j's coefficient lists from the sums, by one work-group
 * (the host refuses a device without double precision) */
TS_GROUP(kry_dcgs2_coef, g, s) {
  TS_LOCAL double* part = (TS_LOCAL double*)s;
  ts_kry_dcgs2_group(p.nc, p.j, (int)g.lid, (int)g.size, sums, part, part + 3 * TS_KRY_DCGS2_LANES,
                     coef);
}
