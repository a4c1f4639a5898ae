/* The voxelizer's kernel (voxel_point.h), built as a double program
 * (launch_opencl.hpp's options: the fp64 extension). */
#include "voxel_params.h"
#include "voxel_point.h"

TS_VOXEL_KERNELS(TS_CL_KERNEL)
