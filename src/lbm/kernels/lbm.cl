/* The lattice Boltzmann kernels of lbm_kernel_list.h, one program per
 * precision and variant (launch_opencl.hpp's options with -DTS_VARIANT):
 * a narrow variant's program holds the _narrow kernels. */
#include "lbm_kernel_list.h"

#if TS_LBM_NARROW
TS_LBM_NARROW_KERNELS(TS_CL_KERNEL)
#else
TS_LBM_KERNELS(TS_CL_KERNEL)
#endif
