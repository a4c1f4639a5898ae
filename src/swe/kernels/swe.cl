/* The shallow-water kernels of swe_kernel_list.h, one program per precision
 * (launch_opencl.hpp's options; on NVIDIA also -DTS_NV_PTX=1: the PTX of
 * core/kernels/ieee_fast.h, as CUDA compiles). */
#include "swe_kernel_list.h"

TS_SWE_KERNELS(TS_CL_KERNEL)
