/* Per-point mathematics of the thesis's gas simulation (Dieckmann 2023,
 * Listings 3.13-3.15, A.4, A.5), float only, in the thesis's operation
 * order so that every backend reproduces the thesis code's bits:
 *   D3Q19 in the thesis's direction order, 76-byte AoS cells float[19]
 *   (or, with the same values, structure of arrays: see update_part),
 *   two lattices (A-B), stream (pull from x + c_i) then collide (BGK),
 *   flags in the NaN payload of f_0: 0x7FC00001 obstacle (full-way
 *   bounce-back), 0x7FC00002 keep velocity (cell held constant).
 * Shared by thesis_gas_cpu.cpp, thesis_gas.cl and thesis_gas_cuda.cu. */
#include "core/kernels/bits.h"
#include "core/kernels/portable.h"

#ifndef TESSERA_THESIS_GAS_CONSTANTS
#define TESSERA_THESIS_GAS_CONSTANTS
#define TS_THESIS_Q 19
#define TS_THESIS_FLAG_OBSTACLE 1u
#define TS_THESIS_FLAG_KEEP_VELOCITY 2u
/* sign 0, exponent 255, mantissa bit 22 set: a quiet NaN carrying the flags */
#define TS_THESIS_NAN_BASE 0x7FC00000u
#endif

/* offsets (thesis Table 3.2: i = 1 is -x, 2 is +x, ...) */
TS_FN int ts_thesis_ox(int i) {
  const int o[19] = {0, -1, 1, 0, 0, 0, 0, -1, -1, 1, 1, -1, -1, 1, 1, 0, 0, 0, 0};
  return o[i];
}
TS_FN int ts_thesis_oy(int i) {
  const int o[19] = {0, 0, 0, -1, 1, 0, 0, -1, 1, -1, 1, 0, 0, 0, 0, -1, -1, 1, 1};
  return o[i];
}
TS_FN int ts_thesis_oz(int i) {
  const int o[19] = {0, 0, 0, 0, 0, -1, 1, 0, 0, 0, 0, -1, 1, -1, 1, -1, 1, -1, 1};
  return o[i];
}
TS_FN int ts_thesis_opposite(int i) {
  const int o[19] = {0, 2, 1, 4, 3, 6, 5, 10, 9, 8, 7, 14, 13, 12, 11, 18, 17, 16, 15};
  return o[i];
}
/* wis: 1.f/3, 1.f/18, 1.f/36 (the values of those float divisions) */
TS_FN float ts_thesis_w(int i) {
  return i == 0 ? 0x1.555556p-2f : i < 7 ? 0x1.c71c72p-5f : 0x1.c71c72p-6f;
}

/* Listing 3.15, with vec3 '*' as the dot product x*x' + y*y' + z*z' */
TS_FN float ts_thesis_feq(int i, float p, float vx, float vy, float vz, float c) {
  const float wi = ts_thesis_w(i);
  const float dot = ((float)ts_thesis_ox(i) * c) * vx + ((float)ts_thesis_oy(i) * c) * vy +
                    ((float)ts_thesis_oz(i) * c) * vz;
  const float vv = vx * vx + vy * vy + vz * vz;
  return wi * p * (1 + (1 / (c * c)) * (3 * dot + (9 / (2 * c * c)) * dot * dot - (3.f / 2) * vv));
}

/* collisionStep: full-way bounce-back for obstacles, BGK for fluid cells;
 * omega = deltaT / tau (a float division done by the caller once). */
TS_FN void ts_thesis_collide(float* cell, float omega, float c) {
  const unsigned b0 = ts_float_bits(cell[0]);
  if (((b0 >> 23) & 0xffu) == 255u) {
    if (b0 & TS_THESIS_FLAG_OBSTACLE) {
      float cell2[TS_THESIS_Q];
      for (int i = 0; i < TS_THESIS_Q; i++) cell2[i] = cell[i];
      for (int i = 1; i < TS_THESIS_Q; i++) cell[i] = cell2[ts_thesis_opposite(i)];
    }
    return;
  }
  float p = 0, vpx = 0, vpy = 0, vpz = 0;
  for (int i = 0; i < TS_THESIS_Q; i++) {
    p += cell[i];
    vpx += ((float)ts_thesis_ox(i) * c) * cell[i];
    vpy += ((float)ts_thesis_oy(i) * c) * cell[i];
    vpz += ((float)ts_thesis_oz(i) * c) * cell[i];
  }
  float vx = vpx, vy = vpy, vz = vpz;
  if (p != 0) {
    const float inv = 1 / p;
    vx = vpx * inv;
    vy = vpy * inv;
    vz = vpz * inv;
  }
  for (int i = 0; i < TS_THESIS_Q; i++)
    cell[i] = cell[i] + omega * (ts_thesis_feq(i, p, vx, vy, vz, c) - cell[i]);
}

/* The native update kernel (A.5, optimised: register cell, one store) on a
 * padded part of a distributed lattice: x, y, z local (z owned), sy, sz, origin
 * in cells; the bounds check uses GLOBAL coordinates (gz0 = the part's first
 * global layer; the thesis compares a local z with the global depth).
 * Value i of cell n is at n * cs + i * ds: the thesis's AoS cells (cs = 19,
 * ds = 1), or the same values as structure of arrays (cs = 1, ds = cells),
 * where a warp's loads of one direction are contiguous. A cell's own value
 * of direction i is read only where the pull source lies outside the lattice
 * (the thesis's code reads all of them first; the values are the same). */
TS_FN void ts_thesis_update_part(TS_GLOBAL const float* src, TS_GLOBAL float* dst, long x, long y,
                                 long z, long nx, long ny, long nz, long gz0, long sy, long sz,
                                 long origin, long cs, long ds, float omega) {
  const long index = origin + z * sz + y * sy + x;
  float cell[TS_THESIS_Q];
  cell[0] = src[index * cs];
  const unsigned b0 = ts_float_bits(cell[0]);
  if (((b0 >> 23) & 0xffu) == 255u && (b0 & TS_THESIS_FLAG_KEEP_VELOCITY)) {
    for (int i = 0; i < TS_THESIS_Q; i++) dst[index * cs + i * ds] = src[index * cs + i * ds];
    return;
  }
  for (int i = 1; i < TS_THESIS_Q; i++) {
    const long sx = x + ts_thesis_ox(i), sy_ = y + ts_thesis_oy(i), sz_ = gz0 + z + ts_thesis_oz(i);
    const int outside = sx < 0 || sy_ < 0 || sz_ < 0 || sx >= nx || sy_ >= ny || sz_ >= nz;
    const long from =
        outside ? index : index + ts_thesis_ox(i) + ts_thesis_oy(i) * sy + ts_thesis_oz(i) * sz;
    cell[i] = src[from * cs + i * ds];
  }
  ts_thesis_collide(cell, omega, 1.0f);
  for (int i = 0; i < TS_THESIS_Q; i++) dst[index * cs + i * ds] = cell[i];
}

/* The single-device lattice: one part, no padding. */
TS_FN void ts_thesis_update(TS_GLOBAL const float* src, TS_GLOBAL float* dst, long x, long y,
                            long z, long nx, long ny, long nz, long cs, long ds, float omega) {
  ts_thesis_update_part(src, dst, x, y, z, nx, ny, nz, 0, nx, nx * ny, 0, cs, ds, omega);
}

/* generate/Initialize: feq(i, 1, (0.1, 0, 0)) everywhere; the 2-cell shell
 * keeps its velocity, the sphere r^2 <= 225 at (50, 50, 8) is an obstacle. */
TS_FN void ts_thesis_generate(TS_GLOBAL float* dst, long x, long y, long z, long nx, long ny,
                              long nz, long cs, long ds) {
  const long index = (z * ny + y) * nx + x;
  for (int i = 0; i < TS_THESIS_Q; i++)
    dst[index * cs + i * ds] = ts_thesis_feq(i, 1.f, .1f, 0, 0, 1.f);
  const int shell = x <= 1 || y <= 1 || z <= 1 || x >= nx - 2 || y >= ny - 2 || z >= nz - 2;
  const long dx = x - 50, dy = y - 50, dz = z - 8;
  if (shell || dx * dx + dy * dy + dz * dz <= 225) {
    const unsigned flag = shell ? TS_THESIS_FLAG_KEEP_VELOCITY : TS_THESIS_FLAG_OBSTACLE;
    dst[index * cs] = ts_bits_float(TS_THESIS_NAN_BASE | flag);
  }
}
