/* The streaming mode's kernels of mg_stream_kernel_list.h, built with
 * launch_opencl.hpp's precision options. */
#include "mg_stream_kernel_list.h"

TS_MGS_KERNELS(TS_CL_KERNEL)
