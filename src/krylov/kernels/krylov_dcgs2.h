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
 * st (may be null) receives alpha, z (re, im), and 1 for the explicit
 * path, else 0. Returns the reals written to coef. */
TS_FN int ts_kry_dcgs2_coef(int nc, int j, TS_GLOBAL const ts_real* sums, double* st, TS_GLOBAL ts_real* coef) {
  const int k = j + 1;
  double asq = 0, ar, ai = 0, br, bi = 0;
  for (int i = 0; i < j; ++i) {
    ar = (double)sums[2 * i];
    if (nc == 2) ai = (double)sums[2 * i + 1];
    asq = nc == 2 ? asq + (ar * ar + ai * ai) : asq + ar * ar;
  }
  const double nu = (double)sums[2 * j];
  const int expl = !(nu - asq > 0.5 * nu);
  const double alpha = expl ? 0.0 : sqrt(nu - asq), inv = 1.0 / alpha;
  /* a^H b, then z and g */
  double hr = 0, hi = 0;
  for (int i = 0; i < j; ++i) {
    ar = (double)sums[2 * i];
    br = (double)sums[2 * (k + i)];
    if (nc == 2) {
      ai = (double)sums[2 * i + 1];
      bi = (double)sums[2 * (k + i) + 1];
      hr = hr + (ar * br + ai * bi);
      hi = hi + (ar * bi - ai * br);
    } else {
      hr = hr + ar * br;
    }
  }
  const double zr = ((double)sums[2 * (k + j)] - hr) * inv;
  const double zi = nc == 2 ? ((double)sums[2 * (k + j) + 1] - hi) * inv : 0.0;
  const double gr = zr * inv, gi = zi * inv;
  const int second = nc * (k + 1); /* where the second list starts */
  for (int q = 0; q < nc * (k + 1 + 1 + j); ++q) coef[q] = (ts_real)0;
  if (expl) {
    coef[second] = (ts_real)1;
    for (int i = 0; i < j; ++i)
      for (int c = 0; c < nc; ++c) coef[second + nc * (1 + i) + c] = -sums[2 * i + c];
  } else {
    coef[0] = (ts_real)inv;
    coef[second] = (ts_real)inv;
    for (int i = 0; i < j; ++i) {
      ar = (double)sums[2 * i];
      br = (double)sums[2 * (k + i)];
      if (nc == 2) {
        ai = (double)sums[2 * i + 1];
        bi = (double)sums[2 * (k + i) + 1];
        coef[nc * (1 + i)] = (ts_real)(-(br - (ar * gr - ai * gi)) * inv);
        coef[nc * (1 + i) + 1] = (ts_real)(-(bi - (ar * gi + ai * gr)) * inv);
        coef[second + nc * (1 + i)] = (ts_real)(-ar * inv);
        coef[second + nc * (1 + i) + 1] = (ts_real)(-ai * inv);
      } else {
        coef[1 + i] = (ts_real)(-(br - ar * gr) * inv);
        coef[second + 1 + i] = (ts_real)(-ar * inv);
      }
    }
    coef[nc * (1 + j)] = (ts_real)(-gr * inv);
    if (nc == 2) coef[nc * (1 + j) + 1] = (ts_real)(-gi * inv);
  }
  if (st) {
    st[0] = alpha;
    st[1] = zr;
    st[2] = zi;
    st[3] = expl;
  }
  return nc * (k + 1 + 1 + j);
}
