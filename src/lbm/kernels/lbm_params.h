/* The lattice Boltzmann kernels' parameters (core/kernels/kernel_args.h):
 * the lattice's geometry and the run's constants, one struct each, shared by
 * the point code (lbm_point.h), the kernel list (lbm_kernel_list.h) and the
 * host (lbm_steps.hpp). Included once, at file scope. */
#ifndef TESSERA_LBM_PARAMS_H
#define TESSERA_LBM_PARAMS_H
#include "core/kernels/kernel_args.h"
#include "lbm_flags.h"

/* Where a launch's cells are (long is 64-bit in OpenCL and on every host
 * tessera builds for, LP64). */
typedef struct {
  long nx, ny, nz; /* the lattice, x fastest; or a part's owned cells */
  long sy, sz, cs; /* a padded part (lbm_pull): strides of y, z and a direction */
  long origin;     /*   its offset of local (0, 0, 0) */
  long z0;         /*   the first owned layer the launch covers */
  long zg;         /*   the global z of its local layer 0 */
  int odd;         /* the step's parity: which esoteric-pull slots it reads */
} ts_lbm_geom;

/* The run's constants in the arithmetic type (the velocity-space boundary
 * and force terms); reals first, so that host and OpenCL agree on the layout. */
TS_PARAMS_STRUCT(ts_lbm_step_params) {
  ts_real omega_p, omega_m; /* relaxation rates: BGK uses omega_p only */
  ts_real fx, fy, fz;       /* body force density (Guo) */
  ts_real uwx, uwy, uwz;    /* moving-wall velocity */
  ts_real uix, uiy, uiz;    /* inlet velocity (a profile's peak) */
  ts_real rho_out;          /* outlet density */
  /* the inlet's profile: a parabola across each axis a of bit a of
   * `profile`, 4 (c - lo)(hi - c) / (hi - lo)^2 = (c - lo)(hi - c) inv at
   * cell-centre coordinate c, lo and hi the walls' surfaces */
  ts_real plo[3], phi[3], pinv[3];
  int trt;          /* two-relaxation-time collision (else BGK) */
  int profile;      /* axes of the inlet's parabola (0: uniform) */
  int inlet_normal; /* the inlet's inward normal, +-(axis + 1) (0: none given) */
};

/* A kernel's variant (launch::Cells::variant, OpenCL's -DTS_VARIANT): the
 * lattice Q (9, 19, 27) + 100 for 32-bit population offsets (Q * cells <
 * 2^31: fewer registers) + 1000 for narrow storage (ts_narrow: FP16S for
 * float) + 10000 times a register cap of the CUDA step (1: 48 registers,
 * 2: 40; lbm_kernel_list.h). */
#define TS_LBM_VARIANT(q, idx32, narrow, cap) \
  ((q) + ((idx32) ? 100 : 0) + ((narrow) ? 1000 : 0) + 10000 * (cap))
#endif /* TESSERA_LBM_PARAMS_H */
