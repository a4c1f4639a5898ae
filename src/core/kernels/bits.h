/* Bit casts between a float and its uint32 pattern (C99 subset; guarded, see
 * portable.h): OpenCL's as_uint/as_float, CUDA's intrinsics in device code,
 * memcpy elsewhere. */
#ifndef TESSERA_BITS_H
#define TESSERA_BITS_H
#include "portable.h"

#if defined(__OPENCL_VERSION__)
TS_FN unsigned int ts_float_bits(float f) { return as_uint(f); }
TS_FN float ts_bits_float(unsigned int u) { return as_float(u); }
#elif defined(__CUDA_ARCH__)
TS_FN unsigned int ts_float_bits(float f) { return __float_as_uint(f); }
TS_FN float ts_bits_float(unsigned int u) { return __uint_as_float(u); }
#else
#include <string.h>
TS_FN unsigned int ts_float_bits(float f) {
  unsigned int u;
  memcpy(&u, &f, sizeof u);
  return u;
}
TS_FN float ts_bits_float(unsigned int u) {
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}
#endif

#endif /* TESSERA_BITS_H */
