/* The multigrid kernels of mg_kernel_list.h, built with launch_opencl.hpp's
 * precision options (and -DTS_VARIANT for the kernels compiled per
 * variant). */
#include "mg_kernel_list.h"

TS_MG_KERNELS(TS_CL_KERNEL)
