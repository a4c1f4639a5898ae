/* The thesis's gas simulation kernels' geometry, argument lists and kernel
 * list (thesis_gas_kernel_list.h has the bodies); included once, at file
 * scope. */
#include "core/kernels/kernel_args.h"

#ifndef TESSERA_THESIS_GAS_PARAMS_H
#define TESSERA_THESIS_GAS_PARAMS_H
/* The lattice (nx, ny, nz: global), and for thesis_gas_update_part the part:
 * its first global layer gz0, strides sy, sz and the offset of its local
 * (0, 0, 0); long is 64-bit in OpenCL and on every host tessera builds for. */
typedef struct {
  long nx, ny, nz;
  long gz0, sy, sz, origin;
} ts_thesis_geom;

#define TS_ARGS_thesis_gas_update(V, IN, OUT) \
  V(ts_thesis_geom, g) V(float, omega) IN(float, src) OUT(float, dst)
#define TS_ARGS_thesis_gas_generate(V, IN, OUT) V(ts_thesis_geom, g) OUT(float, dst)
#define TS_ARGS_thesis_gas_update_part(V, IN, OUT) \
  V(ts_thesis_geom, g) V(float, omega) IN(float, src) OUT(float, dst)

/* Threads 0, occupancy 0: the compiler's own register choice. */
#define TS_THESIS_KERNELS(X)                                \
  X(cells, thesis_gas_update, 0, 0, 0, TS_VARIANTS(0, 1))   \
  X(cells, thesis_gas_generate, 0, 0, 0, TS_VARIANTS(0, 1)) \
  X(cells, thesis_gas_update_part, 0, 0, 0, TS_NO_VARIANTS)
#endif
