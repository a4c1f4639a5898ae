// OpenCL launchers of the SpMV kernels (device code: spmv.cl).
#include "core/launch/launch_opencl.hpp"
#include "sparse/kernels/spmv_kernels.hpp"

namespace tessera::sparse::kernels {
#undef TS_LAUNCH_TYPES
#define TS_LAUNCH_TYPES TS_REAL_AND_COMPLEX_TYPES
#define TS_OPENCL_PROGRAM "sparse/kernels/spmv.cl"
TS_SPMV_KERNELS(TS_OPENCL_KERNEL)
}  // namespace tessera::sparse::kernels
