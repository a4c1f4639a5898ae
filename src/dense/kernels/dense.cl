/* The dense kernels of dense_point.h, built with launch_opencl.hpp's
 * precision options. */
#include "dense_point.h"

TS_DENSE_KERNELS(TS_CL_KERNEL)
