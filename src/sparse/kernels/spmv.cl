/* The SpMV kernels of spmv_point.h, built once per element type with
 * launch_opencl.hpp's precision options (and -DTS_VARIANT for the kernels
 * compiled per variant). */
#include "spmv_point.h"

TS_SPMV_KERNELS(TS_CL_KERNEL)
