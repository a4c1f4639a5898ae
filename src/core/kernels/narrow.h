/* Reading and writing ts_narrow, the storage at half the width of ts_real
 * (kernel_args.h, each_precision.h): binary16 bits for float, float for
 * double. A load widens exactly; a store rounds to nearest even on every
 * backend (half.h), so all backends keep the same bits. Included once, at
 * file scope, by a point header's includer; the C++ and CUDA functions are
 * overloads on the storage type, OpenCL's follow the program's precision. */
#ifndef TESSERA_NARROW_H
#define TESSERA_NARROW_H
/* portable.h first: OpenCL's include expansion takes each file once, and
 * half.h names it only for C++ and CUDA */
#include "core/kernels/portable.h"  // IWYU pragma: keep
#include "core/kernels/half.h"

#if defined(__OPENCL_VERSION__)
#if defined(TS_DOUBLE)
TS_FN double ts_narrow_get(TS_GLOBAL const float* p, long j) { return (double)p[j]; }
TS_FN void ts_narrow_put(TS_GLOBAL float* p, long j, double v) { p[j] = (float)v; }
#else
TS_FN float ts_narrow_get(TS_GLOBAL const ushort* p, long j) {
  return vload_half(j, (TS_GLOBAL const half*)p);
}
TS_FN void ts_narrow_put(TS_GLOBAL ushort* p, long j, float v) {
  vstore_half_rte(v, j, (TS_GLOBAL half*)p);
}
#endif
#else
TS_FN float ts_narrow_get(const unsigned short* p, long j) { return ts_half_to_float(p[j]); }
TS_FN void ts_narrow_put(unsigned short* p, long j, float v) { p[j] = ts_half_from_float(v); }
TS_FN double ts_narrow_get(const float* p, long j) { return (double)p[j]; }
TS_FN void ts_narrow_put(float* p, long j, double v) { p[j] = (float)v; }
#endif

#endif /* TESSERA_NARROW_H */
