/* The AMG aggregation kernels of aggregation_point.h, built with
 * launch_opencl.hpp's precision options. */
#include "aggregation_point.h"

TS_AMG_KERNELS(TS_CL_KERNEL)
