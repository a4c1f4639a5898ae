/* Stencil functions of the skeleton examples, tests and benchmarks, written
 * once for all backends with skel_access.h (guarded: the C++ versions are
 * templates over the accessor, so one inclusion serves every type). */
#ifndef TESSERA_SKEL_EXAMPLES_STENCIL_H
#define TESSERA_SKEL_EXAMPLES_STENCIL_H

/* 2-D 5-point Jacobi step of the heat (Laplace) equation: mean of the four
 * neighbours (radius 1, 1, 0). */
TS_STENCIL_FN(ts_skel_jacobi5, s) {
  return (ts_real)0.25 *
         ((TS_AT(s, -1, 0, 0) + TS_AT(s, 1, 0, 0)) + (TS_AT(s, 0, -1, 0) + TS_AT(s, 0, 1, 0)));
}

/* 3-D 7-point explicit heat step, u + 1/8 (sum of neighbours - 6 u)
 * (radius 1, 1, 1; the benchmark's 7-point stencil). */
TS_STENCIL_FN(ts_skel_heat7, s) {
  const ts_real c = TS_AT(s, 0, 0, 0);
  const ts_real n =
      ((TS_AT(s, -1, 0, 0) + TS_AT(s, 1, 0, 0)) + (TS_AT(s, 0, -1, 0) + TS_AT(s, 0, 1, 0))) +
      (TS_AT(s, 0, 0, -1) + TS_AT(s, 0, 0, 1));
  return c + (ts_real)0.125 * (n - (ts_real)6 * c);
}

/* 3-D mean blur over the 3x3x3 box (27 points; the IJPP follow-up example). */
TS_STENCIL_FN(ts_skel_blur27, s) {
  ts_real acc = (ts_real)0;
  for (int dz = -1; dz <= 1; ++dz)
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) acc += TS_AT(s, dx, dy, dz);
  return acc * (ts_real)0.037037037037037035; /* 1/27: multiply, never divide (NVIDIA OpenCL) */
}

/* An asymmetric star of radius (RX, RY, RZ): different weights on the two
 * sides of every axis, so that a wrong boundary mode or halo shows (weights
 * are exact binary fractions: every backend computes the same bits). */
#define TS_SKEL_DEFINE_STAR(name, RX, RY, RZ)                                \
  TS_STENCIL_FN(name, s) {                                                   \
    ts_real acc = TS_AT(s, 0, 0, 0);                                         \
    for (int k = 1; k <= (RX); ++k)                                          \
      acc += TS_AT(s, -k, 0, 0) * ((ts_real)(k + 1) * (ts_real)0.0625) +     \
             TS_AT(s, k, 0, 0) * ((ts_real)(k + 3) * (ts_real)0.03125);      \
    for (int k = 1; k <= (RY); ++k)                                          \
      acc += TS_AT(s, 0, -k, 0) * ((ts_real)(k + 5) * (ts_real)0.0078125) +  \
             TS_AT(s, 0, k, 0) * ((ts_real)(k + 7) * (ts_real)0.015625);     \
    for (int k = 1; k <= (RZ); ++k)                                          \
      acc += TS_AT(s, 0, 0, -k) * ((ts_real)(k + 9) * (ts_real)0.00390625) + \
             TS_AT(s, 0, 0, k) * ((ts_real)(k + 11) * (ts_real)0.001953125); \
    return acc;                                                              \
  }
TS_SKEL_DEFINE_STAR(ts_skel_star1, 1, 1, 1)
TS_SKEL_DEFINE_STAR(ts_skel_star2, 2, 2, 2)
TS_SKEL_DEFINE_STAR(ts_skel_star3, 3, 3, 3)
TS_SKEL_DEFINE_STAR(ts_skel_star312, 3, 1, 2)

#endif /* TESSERA_SKEL_EXAMPLES_STENCIL_H */
