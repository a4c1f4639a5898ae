/* The matrix-product kernels of matmul_point.h, built with launch_opencl.hpp's
 * precision options. */
#include "matmul_point.h"

TS_MATMUL_KERNELS(TS_CL_KERNEL)
