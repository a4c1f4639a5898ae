/* The lattice Boltzmann kernels (core/kernels/kernel_args.h): argument
 * lists, bodies over the mathematics of lbm_point.h, and the module's kernel
 * lists, written once for the CPU, OpenCL (lbm.cl) and CUDA (lbm_cuda.cu).
 * Which kernel a step runs: lbm_steps.hpp. Every kernel is a cells kernel
 * over the lattice, one work-item per cell (x fastest, groups along x of
 * KernelVariant::group_x() cells). */
#include "lbm_point.h"

#ifndef TESSERA_LBM_KERNEL_LIST
#define TESSERA_LBM_KERNEL_LIST
/* The arrays of populations are in the storage type S: ts_value (FP32,
 * FP64) or ts_narrow (FP16S), a kernel of each name (the second suffixed
 * _narrow); flags one byte per cell; fields 4 * cells values (rho, ux, uy,
 * uz, structure of arrays). */
/* clang-format off */
/* one time step in place (esoteric pull) */
#define TS_LBM_ARGS_STEP(S, V, IN, OUT) \
  V(ts_lbm_geom, g) V(TS_STRUCT(ts_lbm_step_params), p) OUT(S, f) IN(unsigned char, flags)
/* the equilibrium of fields, or of (rho0, u0) everywhere when `uniform` */
#define TS_LBM_ARGS_INIT(S, V, IN, OUT)                                                  \
  V(ts_lbm_geom, g) V(ts_value, rho0) V(ts_value, ux0) V(ts_value, uy0) V(ts_value, uz0) \
  V(int, uniform) OUT(S, f) IN(unsigned char, flags) IN(ts_value, fields)
/* rho and u (with half the body force) at the start of step g.odd */
#define TS_LBM_ARGS_MOMENTS(S, V, IN, OUT)                                                 \
  V(ts_lbm_geom, g) V(TS_STRUCT(ts_lbm_step_params), p) IN(S, f) IN(unsigned char, flags) \
  OUT(ts_value, fields)
/* two-lattice pull step of the owned layers z0 <= z < z0 + nz of a padded part */
#define TS_LBM_ARGS_PULL(S, V, IN, OUT)                                           \
  V(ts_lbm_geom, g) V(TS_STRUCT(ts_lbm_step_params), p) IN(S, src) OUT(S, dst) \
  IN(unsigned char, flags)
/* interpolated bounce-back of a box of links after a step (lbm_links:
 * g.odd the next step's parity; lbm_links_pull: g a padded part's; code,
 * coef: ts_lbm_interpolate_link's, two coefficients per link), each link's
 * f*_d(n) into `sent` (storage units) */
#define TS_LBM_ARGS_LINKS(S, V, IN, OUT)                                           \
  V(ts_lbm_geom, g) IN(long, code) IN(ts_value, coef) OUT(S, f) OUT(ts_value, sent)
/* clang-format on */

#define TS_ARGS_lbm_step(V, IN, OUT) TS_LBM_ARGS_STEP(ts_value, V, IN, OUT)
#define TS_ARGS_lbm_init(V, IN, OUT) TS_LBM_ARGS_INIT(ts_value, V, IN, OUT)
#define TS_ARGS_lbm_moments(V, IN, OUT) TS_LBM_ARGS_MOMENTS(ts_value, V, IN, OUT)
#define TS_ARGS_lbm_pull(V, IN, OUT) TS_LBM_ARGS_PULL(ts_value, V, IN, OUT)
#define TS_ARGS_lbm_links(V, IN, OUT) TS_LBM_ARGS_LINKS(ts_value, V, IN, OUT)
#define TS_ARGS_lbm_links_pull(V, IN, OUT) TS_LBM_ARGS_LINKS(ts_value, V, IN, OUT)
#define TS_ARGS_lbm_step_narrow(V, IN, OUT) TS_LBM_ARGS_STEP(ts_narrow, V, IN, OUT)
#define TS_ARGS_lbm_init_narrow(V, IN, OUT) TS_LBM_ARGS_INIT(ts_narrow, V, IN, OUT)
#define TS_ARGS_lbm_moments_narrow(V, IN, OUT) TS_LBM_ARGS_MOMENTS(ts_narrow, V, IN, OUT)
#define TS_ARGS_lbm_pull_narrow(V, IN, OUT) TS_LBM_ARGS_PULL(ts_narrow, V, IN, OUT)
#define TS_ARGS_lbm_links_narrow(V, IN, OUT) TS_LBM_ARGS_LINKS(ts_narrow, V, IN, OUT)
#define TS_ARGS_lbm_links_pull_narrow(V, IN, OUT) TS_LBM_ARGS_LINKS(ts_narrow, V, IN, OUT)

/* The lists (kernel_args.h), for storage ts_value and ts_narrow. Threads 0
 * and occupancy 0: no bound, nvcc's own register choice (a bound of the
 * largest group, KernelVariant::group_x, moved the registers of most
 * kernels and spilled FP64). The narrow step's cap variants (D3Q19 only)
 * hold it to 48 registers (the fastest on an H100) or 40 (on an H200;
 * docs/lbm-history.md). */
#define TS_LBM_KERNELS(X)                                            \
  X(cells, lbm_step, 0, 0, 0, TS_VARIANTS(9, 19, 27, 109, 119, 127)) \
  X(cells, lbm_init, 0, 0, 0, TS_VARIANTS(9, 19, 27))                \
  X(cells, lbm_moments, 0, 0, 0, TS_VARIANTS(9, 19, 27))             \
  X(cells, lbm_pull, 0, 0, 0, TS_VARIANTS(9, 19, 27))                \
  X(cells, lbm_links, 0, 0, 0, TS_VARIANTS(9, 19, 27))               \
  X(cells, lbm_links_pull, 0, 0, 0, TS_VARIANTS(9, 19, 27))
#define TS_LBM_CAP(v) \
  ((v) / 10000 == 1 ? TS_MAX_REGISTERS(48) : (v) / 10000 == 2 ? TS_MAX_REGISTERS(40) : 0)
#define TS_LBM_NARROW_KERNELS(X)                                                 \
  X(cells, lbm_step_narrow, 0, 0, TS_ON_CUDA(TS_LBM_CAP(ts_variant)),            \
    TS_VARIANTS(1009, 1019, 1027, 1109, 1119, 1127, 11019, 11119, 21019, 21119)) \
  X(cells, lbm_init_narrow, 0, 0, 0, TS_VARIANTS(1009, 1019, 1027))              \
  X(cells, lbm_moments_narrow, 0, 0, 0, TS_VARIANTS(1009, 1019, 1027))           \
  X(cells, lbm_pull_narrow, 0, 0, 0, TS_VARIANTS(1009, 1019, 1027))              \
  X(cells, lbm_links_narrow, 0, 0, 0, TS_VARIANTS(1009, 1019, 1027))             \
  X(cells, lbm_links_pull_narrow, 0, 0, 0, TS_VARIANTS(1009, 1019, 1027))
#endif

/* The bodies, named for this pass's storage. */
#if TS_LBM_NARROW
#define TS_LBM_K(name) name##_narrow
#else
#define TS_LBM_K(name) name
#endif
#define TS_LBM_CELL(K, x, y, z) TS_CELL(K, x, y, z)

TS_LBM_CELL(TS_LBM_K(lbm_step), x, y, z) {
  ts_lbm_stream_collide_by_parity(f, flags, x, y, z, g.nx, g.ny, g.nz, g.odd, &p);
}

TS_LBM_CELL(TS_LBM_K(lbm_init), x, y, z) {
  const long n = x + g.nx * (y + g.ny * z), N = g.nx * g.ny * g.nz;
  if (uniform)
    ts_lbm_init_point(f, flags, x, y, z, g.nx, g.ny, g.nz, rho0, ux0, uy0, uz0);
  else
    ts_lbm_init_point(f, flags, x, y, z, g.nx, g.ny, g.nz, fields[n], fields[N + n],
                      fields[2 * N + n], fields[3 * N + n]);
}

TS_LBM_CELL(TS_LBM_K(lbm_moments), x, y, z) {
  ts_lbm_moments_point(f, flags, x, y, z, g.nx, g.ny, g.nz, g.odd, &p, fields);
}

TS_LBM_CELL(TS_LBM_K(lbm_pull), x, y, z) {
  ts_lbm_stream_collide_pull(src, dst, flags, x, y, g.z0 + z, g.nx, g.ny, g.sy, g.sz, g.cs,
                             g.origin, g.zg + g.z0 + z, &p);
}

/* one link per cell of a links x 1 x 1 box */
TS_LBM_CELL(TS_LBM_K(lbm_links), l, y, z) {
  (void)y;
  (void)z;
  sent[l] =
      ts_lbm_interpolate_link(f, code[l], coef[2 * l], coef[2 * l + 1], g.nx, g.ny, g.nz, g.odd);
}

TS_LBM_CELL(TS_LBM_K(lbm_links_pull), l, y, z) {
  (void)y;
  (void)z;
  sent[l] = ts_lbm_interpolate_link_pull(f, code[l], coef[2 * l], coef[2 * l + 1], g.nx, g.ny, g.sy,
                                         g.sz, g.cs, g.origin);
}

#undef TS_LBM_K
#undef TS_LBM_CELL
