/* The Krylov kernels of krylov_point.h and krylov_dcgs2.h, built once per
 * precision with launch_opencl.hpp's precision options (and -DTS_VARIANT
 * for the kernels compiled per variant). */
#include "krylov_point.h"

#if defined(cl_khr_fp64)
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#include "krylov_dcgs2.h"
#else
/* DCGS2's device coefficients need double precision: the host refuses the
 * launch on such a device, and the program keeps the kernel's name. */
TS_GROUP(kry_dcgs2_coef, g, s) {}
#endif

TS_KRYLOV_KERNELS(TS_CL_KERNEL)
