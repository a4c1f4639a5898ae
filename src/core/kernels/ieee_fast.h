/* Correctly rounded reciprocal and square root without a branch per
 * operation (C99 subset; guarded, see portable.h).
 *
 * NVIDIA GPUs have no correctly rounded 1/x or sqrt instruction: the
 * compilers emit a hardware approximation (MUFU), one or two Newton steps with
 * fused multiply-adds, a range check and a call to a slow path for inputs
 * outside the range where the fast sequence is exact. The branch, its
 * convergence barrier and the call set-up cost about as much as the
 * arithmetic, and they cut the code into basic blocks the scheduler cannot
 * interleave. Here the caller gets the fast sequence only, plus a flag:
 *
 *   ts_rcp_fast(x, &ok)   1/x, correctly rounded wherever *ok stays 1
 *   ts_sqrt_fast(x, &ok)  sqrt(x), likewise
 *
 * *ok is cleared (never set) when x lies outside the range in which the
 * sequence is exact, so a kernel evaluates a whole cell with the fast
 * sequences and recomputes it with plain 1/x and sqrt(x) in the rare case
 * that a flag was cleared: every result is the IEEE one, bit for bit equal to
 * the CPU's. The sequences are the ones NVIDIA's compilers emit for 1/x and
 * sqrt(x) (sm_90, CUDA 13); the ranges are strictly inside theirs. The float
 * pair is checked against 1/x and sqrt(x) on all 2^32 inputs, the double
 * pair on random and adversarial inputs (tests/swe/test_swe_ieee_fast.cpp).
 *
 * Elsewhere (CPUs, OpenCL devices other than NVIDIA's) both are the plain
 * operations and *ok is left alone. On NVIDIA's OpenCL the program is built
 * with -DTS_NV_PTX=1 and uses the same PTX as CUDA. */
#ifndef TESSERA_IEEE_FAST_H
#define TESSERA_IEEE_FAST_H
#include "portable.h"

#if defined(__CUDA_ARCH__) || (defined(__OPENCL_VERSION__) && defined(TS_NV_PTX))
#define TS_IEEE_FAST 1
#endif

#if defined(TS_IEEE_FAST)
/* float: one Newton step from MUFU.RCP; |x| in [2^-125, 2^125] */
TS_FN float ts_frcp_fast(float x, int* ok) {
  float r;
  asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
  const float ax = fabs(x);
  *ok &= ax >= 0x1p-125f && ax <= 0x1p125f;
  return fma(r, fma(-x, r, 1.0f), r);
}
/* float: s = x y, one correction with y/2 (y = MUFU.RSQ); x in [2^-100, 2^126] */
TS_FN float ts_fsqrt_fast(float x, int* ok) {
  float y;
  asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  *ok &= x >= 0x1p-100f && x <= 0x1p126f;
  const float s = x * y, hy = 0.5f * y;
  return fma(fma(-s, s, x), hy, s);
}
#if !defined(__OPENCL_VERSION__) || defined(TS_DOUBLE)
/* double: a cubic then a Newton step from MUFU.RCP64H; |x| in [2^-1000, 2^1000] */
TS_FN double ts_drcp_fast(double x, int* ok) {
  double r;
  asm("rcp.approx.ftz.f64 %0, %1;" : "=d"(r) : "d"(x));
  const double ax = fabs(x);
  *ok &= ax >= 0x1p-1000 && ax <= 0x1p1000;
  double e = fma(-x, r, 1.0);
  e = fma(e, e, e);
  r = fma(r, e, r);
  return fma(r, fma(-x, r, 1.0), r);
}
/* double: second-order refinement of MUFU.RSQ64H, then s = x y and one
 * correction with y/2; x in [2^-960, 2^1000] */
TS_FN double ts_dsqrt_fast(double x, int* ok) {
  double y;
  asm("rsqrt.approx.ftz.f64 %0, %1;" : "=d"(y) : "d"(x));
  *ok &= x >= 0x1p-960 && x <= 0x1p1000;
  const double e = fma(x, -(y * y), 1.0);
  y = fma(fma(e, 0.375, 0.5), y * e, y);
  const double s = x * y;
  return fma(fma(-s, s, x), 0.5 * y, s);
}
#endif
#else
TS_FN float ts_frcp_fast(float x, int* ok) { return (void)ok, 1.0f / x; }
TS_FN float ts_fsqrt_fast(float x, int* ok) { return (void)ok, sqrt(x); }
#if !defined(__OPENCL_VERSION__) || defined(TS_DOUBLE)
TS_FN double ts_drcp_fast(double x, int* ok) { return (void)ok, 1.0 / x; }
TS_FN double ts_dsqrt_fast(double x, int* ok) { return (void)ok, sqrt(x); }
#endif
#endif

/* The ts_real forms: overloads in C++/CUDA, the build's precision in OpenCL. */
#if defined(__OPENCL_VERSION__)
#if defined(TS_DOUBLE)
#define ts_rcp_fast ts_drcp_fast
#define ts_sqrt_fast ts_dsqrt_fast
#else
#define ts_rcp_fast ts_frcp_fast
#define ts_sqrt_fast ts_fsqrt_fast
#endif
#else
TS_FN float ts_rcp_fast(float x, int* ok) { return ts_frcp_fast(x, ok); }
TS_FN double ts_rcp_fast(double x, int* ok) { return ts_drcp_fast(x, ok); }
TS_FN float ts_sqrt_fast(float x, int* ok) { return ts_fsqrt_fast(x, ok); }
TS_FN double ts_sqrt_fast(double x, int* ok) { return ts_dsqrt_fast(x, ok); }
#endif

#endif /* TESSERA_IEEE_FAST_H */
