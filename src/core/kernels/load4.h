/* Four consecutive values of ts_real in one access (a per-precision header:
 * no include guard, see portable.h): OpenCL vload4 / vstore4 (float4,
 * double4), CUDA a float4 or two double2, C++ four scalars. The address is
 * 16-byte aligned (a multiple of four values from an aligned base).
 *
 *   ts_load4(p, r)             r[0..3] = p[0..3]
 *   ts_store4(p, v)            p[0..3] = v[0..3]
 *   ts_store4_lanes(p, v, m)   p[l] = v[l] for the lanes l of bit mask m:
 *                              all four as one store where m is 15 */
TS_FN void ts_load4(TS_GLOBAL const ts_real* p, ts_real* r) {
#if defined(__OPENCL_VERSION__)
  vstore4(vload4(0, p), 0, r);
#elif defined(__CUDA_ARCH__) && defined(TS_DOUBLE)
  const double2 a = reinterpret_cast<const double2*>(p)[0],
                b = reinterpret_cast<const double2*>(p)[1];
  r[0] = a.x, r[1] = a.y, r[2] = b.x, r[3] = b.y;
#elif defined(__CUDA_ARCH__)
  const float4 v = *reinterpret_cast<const float4*>(p);
  r[0] = v.x, r[1] = v.y, r[2] = v.z, r[3] = v.w;
#else
  for (int l = 0; l < 4; ++l) r[l] = p[l];
#endif
}

TS_FN void ts_store4(TS_GLOBAL ts_real* p, const ts_real* v) {
#if defined(__OPENCL_VERSION__)
  vstore4(vload4(0, v), 0, p);
#elif defined(__CUDA_ARCH__) && defined(TS_DOUBLE)
  reinterpret_cast<double2*>(p)[0] = make_double2(v[0], v[1]);
  reinterpret_cast<double2*>(p)[1] = make_double2(v[2], v[3]);
#elif defined(__CUDA_ARCH__)
  *reinterpret_cast<float4*>(p) = make_float4(v[0], v[1], v[2], v[3]);
#else
  for (int l = 0; l < 4; ++l) p[l] = v[l];
#endif
}

TS_FN void ts_store4_lanes(TS_GLOBAL ts_real* p, const ts_real* v, int mask) {
  if (mask == 15) {
    ts_store4(p, v);
    return;
  }
  for (int l = 0; l < 4; l++)
    if (mask & (1 << l)) p[l] = v[l];
}
