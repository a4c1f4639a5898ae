/* IEEE binary16 storage for C++ and CUDA (OpenCL has vload_half and
 * vstore_half_rte): halves are kept as their bits (unsigned short) and
 * converted with round to nearest even. CUDA device code uses the hardware
 * conversions; elsewhere an exact software routine gives the same bits
 * (tests/lbm/test_lbm_storage.cpp compares it with _Float16 for every half
 * and 800,000 floats). Used by the LBM's FP16S storage and the Krylov
 * solvers' compressed basis. */
#ifndef TESSERA_HALF_H
#define TESSERA_HALF_H
#if !defined(__OPENCL_VERSION__)
#include "core/kernels/portable.h"
#include "core/kernels/bits.h"
#if defined(__CUDACC__)
#include <cuda_fp16.h>
#endif

/* float -> half bits, round to nearest even (software) */
TS_FN unsigned short ts_half_from_float_sw(float v) {
  const unsigned x = ts_float_bits(v), sign = (x >> 16) & 0x8000u, ax = x & 0x7fffffffu;
  if (ax > 0x7f800000u) return (unsigned short)(sign | 0x7e00u | ((ax >> 13) & 0x3ffu));
  if (ax >= 0x477ff000u) return (unsigned short)(sign | 0x7c00u); /* >= 65520: infinity */
  if (ax < 0x38800000u) {                                         /* half subnormal or zero */
    if (ax <= 0x33000000u) return (unsigned short)sign;           /* <= 2^-25: ties to 0 */
    const unsigned e = ax >> 23, m = (ax & 0x7fffffu) | 0x800000u, shift = 126u - e;
    unsigned r = m >> shift;
    const unsigned rem = m & ((1u << shift) - 1u), halfway = 1u << (shift - 1u);
    if (rem > halfway || (rem == halfway && (r & 1u))) r++;
    return (unsigned short)(sign | r);
  }
  unsigned r = (ax - 0x38000000u) >> 13;
  const unsigned rem = ax & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (r & 1u))) r++;
  return (unsigned short)(sign | r);
}
/* half bits -> float (exact, software) */
TS_FN float ts_half_to_float_sw(unsigned short h) {
  const unsigned sign = ((unsigned)h & 0x8000u) << 16, e = ((unsigned)h >> 10) & 0x1fu,
                 m = (unsigned)h & 0x3ffu;
  if (e == 0) {
    const float v = (float)m * 5.9604644775390625e-8f; /* m * 2^-24, exact */
    return sign ? -v : v;
  }
  if (e == 31) return ts_bits_float(sign | 0x7f800000u | (m << 13));
  return ts_bits_float(sign | ((e + 112u) << 23) | (m << 13));
}
TS_FN unsigned short ts_half_from_float(float v) {
#if defined(__CUDA_ARCH__)
  return __half_as_ushort(__float2half_rn(v));
#else
  return ts_half_from_float_sw(v);
#endif
}
TS_FN float ts_half_to_float(unsigned short h) {
#if defined(__CUDA_ARCH__)
  return __half2float(__ushort_as_half(h));
#else
  return ts_half_to_float_sw(h);
#endif
}
#endif
#endif /* TESSERA_HALF_H */
