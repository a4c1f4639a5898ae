/* The thesis's gas simulation kernels (core/kernels/kernel_args.h): argument
 * lists and bodies over thesis_gas_point.h, and the kernel list, for the CPU,
 * OpenCL (thesis_gas.cl) and CUDA (thesis_gas_cuda.cu); float only. One
 * work-item per cell. Variant (TS_VARIANT) 0: the thesis's AoS cells
 * (cs = 19, ds = 1); 1: the same values as structure of arrays (cs = 1,
 * ds = cells); compile-time strides either way. */
#if defined(__OPENCL_VERSION__) /* C++ includes the point header once, outside the passes */
#include "thesis_gas_point.h"
#endif

#include "thesis_gas_params.h"

#define TS_THESIS_CS (TS_VARIANT ? 1 : TS_THESIS_Q)
#define TS_THESIS_DS(g) (TS_VARIANT ? (g).nx * (g).ny * (g).nz : 1)

TS_CELL(thesis_gas_update, x, y, z) {
  ts_thesis_update(src, dst, x, y, z, g.nx, g.ny, g.nz, TS_THESIS_CS, TS_THESIS_DS(g), omega);
}

TS_CELL(thesis_gas_generate, x, y, z) {
  ts_thesis_generate(dst, x, y, z, g.nx, g.ny, g.nz, TS_THESIS_CS, TS_THESIS_DS(g));
}

/* frames are AoS whatever the layout of the single-device lattice */
TS_CELL(thesis_gas_update_part, x, y, z) {
  ts_thesis_update_part(src, dst, x, y, z, g.nx, g.ny, g.nz, g.gz0, g.sy, g.sz, g.origin,
                        TS_THESIS_Q, 1, omega);
}

#undef TS_THESIS_CS
#undef TS_THESIS_DS
