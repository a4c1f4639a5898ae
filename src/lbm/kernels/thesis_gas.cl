/* OpenCL launchers of the thesis's gas simulation (thesis_gas_point.h): one
 * work-item per cell of an (nx, ny, nz) range, x padded to the group size.
 * Built with -DTS_THESIS_SOA=0 (the thesis's AoS cells) or 1 (structure of
 * arrays), so that the strides are compile-time where they can be. */
#include "thesis_gas_point.h"

#if TS_THESIS_SOA
#define TS_THESIS_STRIDES(nx, ny, nz) const long cs = 1, ds = (nx) * (ny) * (nz)
#else
#define TS_THESIS_STRIDES(nx, ny, nz) const long cs = TS_THESIS_Q, ds = 1
#endif

__kernel void thesis_update(long nx, long ny, long nz, float omega, __global const float* src,
                            __global float* dst) {
  const long x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  TS_THESIS_STRIDES(nx, ny, nz);
  if (x < nx) ts_thesis_update(src, dst, x, y, z, nx, ny, nz, cs, ds, omega);
}

__kernel void thesis_generate(long nx, long ny, long nz, __global float* dst) {
  const long x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  TS_THESIS_STRIDES(nx, ny, nz);
  if (x < nx) ts_thesis_generate(dst, x, y, z, nx, ny, nz, cs, ds);
}

__kernel void thesis_update_part(long nx, long ny, long nz, long pnx, long pny, long pnz, long gz0,
                                 long sy, long sz, long origin, float omega,
                                 __global const float* src, __global float* dst) {
  const long x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  if (x < pnx)
    ts_thesis_update_part(src, dst, x, y, z, nx, ny, nz, gz0, sy, sz, origin, TS_THESIS_Q, 1,
                          omega);
}
