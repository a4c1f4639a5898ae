/* The flag byte of a lattice Boltzmann cell and other constants shared by
 * the kernels (lbm_point.h) and the host code (no ts_real here). */
#ifndef TESSERA_LBM_FLAGS_H
#define TESSERA_LBM_FLAGS_H
/* flag byte of a cell: bits 0-2 its type, bit 6 part of a body whose force
 * is measured, bit 7 has a wall neighbour (the only cells that read
 * neighbour flags) */
#define TS_LBM_FLUID 0
#define TS_LBM_WALL 1   /* resting wall: halfway bounce-back */
#define TS_LBM_MOVING 2 /* moving wall (lid): bounce-back with u_wall */
#define TS_LBM_INLET 3  /* equilibrium, velocity u_in, local density */
#define TS_LBM_OUTLET 4 /* equilibrium, density rho_out, local velocity */
/* free-slip wall with its normal along x, y or z: its fluid neighbours
 * reflect populations specularly (lbm_point.h ts_lbm_slip_axis) */
#define TS_LBM_SLIP_X 5
#define TS_LBM_SLIP_Y 6
#define TS_LBM_SLIP_Z 7
#define TS_LBM_TYPE_MASK 7
/* whether a flag byte is a wall of any kind (not updated; host and kernels) */
#define TS_LBM_IS_WALL(flag)                                                                 \
  (((flag)&TS_LBM_TYPE_MASK) == TS_LBM_WALL || ((flag)&TS_LBM_TYPE_MASK) == TS_LBM_MOVING || \
   ((flag)&TS_LBM_TYPE_MASK) >= TS_LBM_SLIP_X)
#define TS_LBM_BODY 64
#define TS_LBM_NEAR_WALL 128
/* FP16S: f - w is stored times 2^15 (exact scaling), using half's range */
#define TS_LBM_HALF_SCALE 32768
#define TS_LBM_HALF_UNSCALE 3.0517578125e-05f /* 2^-15, exact */
#if defined(__OPENCL_VERSION__) || defined(__CUDACC__)
#define TS_LBM_UNROLL _Pragma("unroll")
#else
#define TS_LBM_UNROLL _Pragma("GCC unroll 32")
#endif
#endif /* TESSERA_LBM_FLAGS_H */
