/* Self-check of ieee_fast.h (C99 subset; guarded): the same input samples on
 * every backend, and the per-sample comparison of the fast sequences with
 * the IEEE operations. Counts: [0] samples inside the fast range of 1/x,
 * [1] of those where the fast 1/x differs, [2] inside the range of sqrt,
 * [3] of those where the fast sqrt differs. */
#ifndef TESSERA_IEEE_CHECK_H
#define TESSERA_IEEE_CHECK_H
#include "ieee_fast.h"

#include "bits.h"

#if defined(__OPENCL_VERSION__)
#define TS_U64 ulong
#define ts_ieee_f64(u) as_double((ulong)(u))
#elif defined(__CUDA_ARCH__)
#define TS_U64 unsigned long long
#define ts_ieee_f64(u) __longlong_as_double((long long)(u))
#else
#include <string.h>
#define TS_U64 unsigned long long
TS_FN double ts_ieee_f64(TS_U64 u) {
  double d;
  memcpy(&d, &u, sizeof d);
  return d;
}
#endif

/* float sample s: the float with bit pattern s (all 2^32 of them for s < 2^32) */
TS_FN float ts_ieee_sample_f(TS_U64 s) { return ts_bits_float((unsigned int)s); }

/* double sample s: a splitmix64 hash of s gives the sign and the significand,
 * the exponent runs over [-1020, 1020]; one sample in four has a significand
 * of all ones, all zeros or a single low bit (rounding's hard cases). */
TS_FN double ts_ieee_sample_d(TS_U64 s) {
  TS_U64 z = s * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  const TS_U64 mask = 0x000FFFFFFFFFFFFFull;
  TS_U64 m = z & mask;
  const unsigned int kind = (unsigned int)(s & 15u);
  if (kind == 1u) m = mask;
  if (kind == 2u) m = 0u;
  if (kind == 3u) m = 1u;
  if (kind == 5u) m = mask - 1u;
  const TS_U64 e = (TS_U64)((z >> 52) % 2041u + 3u); /* biased exponent 3 .. 2043 */
  return ts_ieee_f64((z & 0x8000000000000000ull) | (e << 52) | m);
}

/* One sample through a fresh guard per operation; sqrt's low end, which
 * kernels vouch for themselves (ts_sqrt_fast_pos), is checked here. */
TS_FN void ts_ieee_check_f(float x, unsigned int* counts) {
  float gs = 0.0f, gl = TS_FAST_HI_F;
  const float r = ts_rcp_fast_f(x, &gs, &gl);
  if (ts_fast_ok_f(gs, gl)) {
    counts[0] += 1u;
    counts[1] += r != 1.0f / x;
  }
  gs = 0.0f;
  gl = fmin(TS_FAST_HI_F, x);
  const float q = ts_sqrt_fast_pos_f(x, &gs);
  if (ts_fast_ok_f(gs, gl)) {
    counts[2] += 1u;
    counts[3] += q != (float)sqrt(x);
  }
}

#if !defined(__OPENCL_VERSION__) || defined(TS_DOUBLE)
TS_FN void ts_ieee_check_d(double x, unsigned int* counts) {
  double gs = 0.0, gl = TS_FAST_HI_D;
  const double r = ts_rcp_fast_d(x, &gs, &gl);
  if (ts_fast_ok_d(gs, gl)) {
    counts[0] += 1u;
    counts[1] += r != 1.0 / x;
  }
  const double a = fabs(x);
  gs = 0.0;
  gl = fmin(TS_FAST_HI_D, a);
  const double q = ts_sqrt_fast_pos_d(a, &gs);
  if (ts_fast_ok_d(gs, gl)) {
    counts[2] += 1u;
    counts[3] += q != sqrt(a);
  }
}
#endif

#endif /* TESSERA_IEEE_CHECK_H */
