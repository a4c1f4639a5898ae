/* Correctly rounded reciprocal and square root without a branch per
 * operation (C99 subset; guarded, see portable.h).
 *
 * NVIDIA GPUs have no correctly rounded 1/x or sqrt instruction: the
 * compilers emit a hardware approximation (MUFU), one or two Newton steps with
 * fused multiply-adds, a range check and a call to a slow path for inputs
 * outside the range where the fast sequence is exact. The branch, its
 * convergence barrier and the call set-up cost about as much as the
 * arithmetic, and they cut the code into basic blocks the scheduler cannot
 * interleave. Here a kernel gets the fast sequence only and checks the
 * operands of a whole cell at once with a guard of two running values:
 *
 *   ts_rcp_fast(x, &gs, &gl)  1/x; adds x to the sum gs, takes min(gl, x)
 *   ts_rcp_fast_pos(x, &gs)   1/x for an x known to be >= TS_FAST_LO or NaN
 *   ts_sqrt_fast_pos(x, &gs)  sqrt(x) likewise
 *   ts_fast_ok(gs, gl)        every operand was in [TS_FAST_LO, TS_FAST_HI]
 *
 * (gs starts at 0, gl at TS_FAST_HI.) The sum catches NaN, infinities and
 * any operand above the range, the minimum any operand below it. The double
 * reciprocal also flags significands of all ones, the one case where the
 * final Newton step ties (Markstein). When the guard fails, the kernel
 * recomputes the cell with plain 1/x and sqrt(x) (never, in practice): every
 * result is the IEEE one, bit for bit equal to the CPU's. The sequences are
 * the ones NVIDIA's compilers emit for 1/x and sqrt(x) (sm_90, CUDA 13); the
 * ranges lie strictly inside theirs. The float pair is checked against 1/x
 * and sqrt(x) on all 2^32 inputs, the double pair on 2^28 random and
 * adversarial inputs (tests/swe/test_swe_ieee_fast.cpp).
 *
 * Elsewhere (CPUs, OpenCL devices other than NVIDIA's) both are the plain
 * operations and the guards are not updated. On NVIDIA's OpenCL the program
 * is built with -DTS_NV_PTX=1 and uses the same PTX as CUDA. */
#ifndef TESSERA_IEEE_FAST_H
#define TESSERA_IEEE_FAST_H
#include "portable.h"

#if defined(__CUDA_ARCH__) || (defined(__OPENCL_VERSION__) && defined(TS_NV_PTX))
#define TS_IEEE_FAST 1
#endif

/* the common range of the fast operations */
#define TS_FAST_LO_F 0x1p-100f
#define TS_FAST_HI_F 0x1p125f
#define TS_FAST_LO_D 0x1p-960
#define TS_FAST_HI_D 0x1p1000

#if defined(TS_IEEE_FAST)
/* float 1/x: one Newton step from MUFU.RCP; exact for |x| in [2^-125, 2^125] */
TS_FN float ts_frcp_seq(float x) {
  float r;
  asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
  return fma(r, fma(-x, r, 1.0f), r);
}
/* float sqrt: s = x y, one correction with y/2 (y = MUFU.RSQ); exact for x in [2^-101, 2^126] */
TS_FN float ts_fsqrt_seq(float x) {
  float y;
  asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  const float s = x * y, hy = 0.5f * y;
  return fma(fma(-s, s, x), hy, s);
}
#if !defined(__OPENCL_VERSION__) || defined(TS_DOUBLE)
/* double 1/x: a cubic then a Newton step from MUFU.RCP64H; exact for |x| in
 * [2^-1000, 2^1000] except significands of all ones (ts_drcp_tie) */
TS_FN double ts_drcp_seq(double x) {
  double r;
  asm("rcp.approx.ftz.f64 %0, %1;" : "=d"(r) : "d"(x));
  double e = fma(-x, r, 1.0);
  e = fma(e, e, e);
  r = fma(r, e, r);
  return fma(r, fma(-x, r, 1.0), r);
}
TS_FN int ts_drcp_tie(double x) {
#if defined(__OPENCL_VERSION__)
  const uint2 w = as_uint2(x);
  return w.x == 0xffffffffu && (w.y & 0xfffffu) == 0xfffffu;
#else
  return __double2loint(x) == -1 && (__double2hiint(x) & 0xfffff) == 0xfffff;
#endif
}
/* double sqrt: second-order refinement of MUFU.RSQ64H, then s = x y and one
 * correction with y/2; exact for x in [2^-970, 2^1023] */
TS_FN double ts_dsqrt_seq(double x) {
  double y;
  asm("rsqrt.approx.ftz.f64 %0, %1;" : "=d"(y) : "d"(x));
  const double e = fma(x, -(y * y), 1.0);
  y = fma(fma(e, 0.375, 0.5), y * e, y);
  const double s = x * y;
  return fma(fma(-s, s, x), 0.5 * y, s);
}
#endif
TS_FN float ts_rcp_fast_f(float x, float* gs, float* gl) {
  *gs += x;
  *gl = fmin(*gl, x);
  return ts_frcp_seq(x);
}
TS_FN float ts_rcp_fast_pos_f(float x, float* gs) {
  *gs += x;
  return ts_frcp_seq(x);
}
TS_FN float ts_sqrt_fast_pos_f(float x, float* gs) {
  *gs += x;
  return ts_fsqrt_seq(x);
}
#if !defined(__OPENCL_VERSION__) || defined(TS_DOUBLE)
TS_FN double ts_rcp_fast_d(double x, double* gs, double* gl) {
  *gs += x;
  /* the running minimum by compare and select: fmin in double expands to six
   * instructions; a NaN x leaves gl as fmin would (the sum gs catches it) */
  const double v = ts_drcp_tie(x) ? 0.0 : x;
  *gl = v < *gl ? v : *gl;
  return ts_drcp_seq(x);
}
TS_FN double ts_rcp_fast_pos_d(double x, double* gs) {
  *gs += ts_drcp_tie(x) ? (double)INFINITY : x;
  return ts_drcp_seq(x);
}
TS_FN double ts_sqrt_fast_pos_d(double x, double* gs) {
  *gs += x;
  return ts_dsqrt_seq(x);
}
#endif
#else
TS_FN float ts_rcp_fast_f(float x, float* gs, float* gl) { return (void)gs, (void)gl, 1.0f / x; }
TS_FN float ts_rcp_fast_pos_f(float x, float* gs) { return (void)gs, 1.0f / x; }
TS_FN float ts_sqrt_fast_pos_f(float x, float* gs) { return (void)gs, sqrt(x); }
#if !defined(__OPENCL_VERSION__) || defined(TS_DOUBLE)
TS_FN double ts_rcp_fast_d(double x, double* gs, double* gl) { return (void)gs, (void)gl, 1.0 / x; }
TS_FN double ts_rcp_fast_pos_d(double x, double* gs) { return (void)gs, 1.0 / x; }
TS_FN double ts_sqrt_fast_pos_d(double x, double* gs) { return (void)gs, sqrt(x); }
#endif
#endif
TS_FN int ts_fast_ok_f(float gs, float gl) { return gs <= TS_FAST_HI_F && gl >= TS_FAST_LO_F; }
#if !defined(__OPENCL_VERSION__) || defined(TS_DOUBLE)
TS_FN int ts_fast_ok_d(double gs, double gl) { return gs <= TS_FAST_HI_D && gl >= TS_FAST_LO_D; }
#endif

/* The ts_real forms: overloads in C++/CUDA, the build's precision in OpenCL. */
#if defined(__OPENCL_VERSION__)
#if defined(TS_DOUBLE)
#define ts_rcp_fast ts_rcp_fast_d
#define ts_rcp_fast_pos ts_rcp_fast_pos_d
#define ts_sqrt_fast_pos ts_sqrt_fast_pos_d
#define ts_fast_ok ts_fast_ok_d
#define TS_FAST_LO(T) TS_FAST_LO_D
#define TS_FAST_HI(T) TS_FAST_HI_D
#else
#define ts_rcp_fast ts_rcp_fast_f
#define ts_rcp_fast_pos ts_rcp_fast_pos_f
#define ts_sqrt_fast_pos ts_sqrt_fast_pos_f
#define ts_fast_ok ts_fast_ok_f
#define TS_FAST_LO(T) TS_FAST_LO_F
#define TS_FAST_HI(T) TS_FAST_HI_F
#endif
#else
TS_FN float ts_rcp_fast(float x, float* gs, float* gl) { return ts_rcp_fast_f(x, gs, gl); }
TS_FN double ts_rcp_fast(double x, double* gs, double* gl) { return ts_rcp_fast_d(x, gs, gl); }
TS_FN float ts_rcp_fast_pos(float x, float* gs) { return ts_rcp_fast_pos_f(x, gs); }
TS_FN double ts_rcp_fast_pos(double x, double* gs) { return ts_rcp_fast_pos_d(x, gs); }
TS_FN float ts_sqrt_fast_pos(float x, float* gs) { return ts_sqrt_fast_pos_f(x, gs); }
TS_FN double ts_sqrt_fast_pos(double x, double* gs) { return ts_sqrt_fast_pos_d(x, gs); }
TS_FN int ts_fast_ok(float gs, float gl) { return ts_fast_ok_f(gs, gl); }
TS_FN int ts_fast_ok(double gs, double gl) { return ts_fast_ok_d(gs, gl); }
/* the range ends of ts_real, for code written once for both */
#define TS_FAST_LO(T) (sizeof(T) == 4 ? (T)TS_FAST_LO_F : (T)TS_FAST_LO_D)
#define TS_FAST_HI(T) (sizeof(T) == 4 ? (T)TS_FAST_HI_F : (T)TS_FAST_HI_D)
#endif

#endif /* TESSERA_IEEE_FAST_H */
