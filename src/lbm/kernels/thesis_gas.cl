/* OpenCL launchers of the thesis's gas simulation (thesis_gas_point.h): one
 * work-item per cell of an (nx, ny, nz) range, x padded to the group size. */
#include "thesis_gas_point.h"

__kernel void thesis_update(long nx, long ny, long nz, float omega, __global const float* src, __global float* dst) {
  const long x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  if (x < nx) ts_thesis_update(src, dst, x, y, z, nx, ny, nz, omega);
}

__kernel void thesis_generate(long nx, long ny, long nz, __global float* dst) {
  const long x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  if (x < nx) ts_thesis_generate(dst, x, y, z, nx, ny, nz);
}

__kernel void thesis_update_part(long nx, long ny, long nz, long pnx, long pny, long pnz, long gz0, long sy, long sz,
                                 long origin, float omega, __global const float* src, __global float* dst) {
  const long x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  if (x < pnx) ts_thesis_update_part(src, dst, x, y, z, nx, ny, nz, gz0, sy, sz, origin, omega);
}
