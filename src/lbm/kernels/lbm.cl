/* OpenCL launchers of the lattice Boltzmann kernels; one program per variant
 * (-DTS_LBM_Q=9|19|27 -DTS_LBM_STORE=16|32|64 -Dts_real=float|double). One
 * work-item per cell of an (nx, ny, nz) range (x padded to the group size);
 * the mathematics is in lbm_point.h. */
#include "lbm_point.h"

#define TS_LBM_CELL                                                            \
  const long x = get_global_id(0), y = get_global_id(1), z = get_global_id(2); \
  if (x >= nx) return

#define TS_LBM_PARAMS_ARGS                                                                    \
  ts_real omega_p, ts_real omega_m, int trt, ts_real fx, ts_real fy, ts_real fz, ts_real uwx, \
      ts_real uwy, ts_real uwz, ts_real uix, ts_real uiy, ts_real uiz, ts_real rho_out

TS_FN ts_lbm_params ts_lbm_make_params(ts_real omega_p, ts_real omega_m, int trt, ts_real fx,
                                       ts_real fy, ts_real fz, ts_real uwx, ts_real uwy,
                                       ts_real uwz, ts_real uix, ts_real uiy, ts_real uiz,
                                       ts_real rho_out) {
  ts_lbm_params p;
  p.omega_p = omega_p;
  p.omega_m = omega_m;
  p.trt = trt;
  p.fx = fx;
  p.fy = fy;
  p.fz = fz;
  p.uwx = uwx;
  p.uwy = uwy;
  p.uwz = uwz;
  p.uix = uix;
  p.uiy = uiy;
  p.uiz = uiz;
  p.rho_out = rho_out;
  return p;
}
#define TS_LBM_PARAMS \
  ts_lbm_make_params(omega_p, omega_m, trt, fx, fy, fz, uwx, uwy, uwz, uix, uiy, uiz, rho_out)

__kernel void stream_collide(long nx, long ny, long nz, int odd, __global ts_lbm_store* f,
                             __global const unsigned char* flags, TS_LBM_PARAMS_ARGS) {
  TS_LBM_CELL;
  const ts_lbm_params p = TS_LBM_PARAMS;
  ts_lbm_stream_collide_by_parity(f, flags, x, y, z, nx, ny, nz, odd, &p);
}

__kernel void initialize(long nx, long ny, long nz, __global ts_lbm_store* f,
                         __global const unsigned char* flags, int uniform,
                         __global const ts_real* fields, ts_real rho0, ts_real ux0, ts_real uy0,
                         ts_real uz0) {
  TS_LBM_CELL;
  const long n = x + nx * (y + ny * z), N = nx * ny * nz;
  if (uniform)
    ts_lbm_init_point(f, flags, x, y, z, nx, ny, nz, rho0, ux0, uy0, uz0);
  else
    ts_lbm_init_point(f, flags, x, y, z, nx, ny, nz, fields[n], fields[N + n], fields[2 * N + n],
                      fields[3 * N + n]);
}

__kernel void moments(long nx, long ny, long nz, int odd, __global const ts_lbm_store* f,
                      __global const unsigned char* flags, __global ts_real* fields,
                      TS_LBM_PARAMS_ARGS) {
  TS_LBM_CELL;
  const ts_lbm_params p = TS_LBM_PARAMS;
  ts_lbm_moments_point(f, flags, x, y, z, nx, ny, nz, odd, &p, fields);
}

__kernel void stream_collide_pull(long nx, long ny, long z0, long z1, long sy, long sz, long cs,
                                  long origin, __global const ts_lbm_store* src,
                                  __global ts_lbm_store* dst, __global const unsigned char* flags,
                                  TS_LBM_PARAMS_ARGS) {
  const long x = get_global_id(0), y = get_global_id(1), z = z0 + (long)get_global_id(2);
  if (x >= nx || z >= z1) return;
  const ts_lbm_params p = TS_LBM_PARAMS;
  ts_lbm_stream_collide_pull(src, dst, flags, x, y, z, nx, ny, sy, sz, cs, origin, &p);
}
