// OpenCL launchers of the matrix-product kernels (device code: matmul.cl).
#include "core/launch/launch_opencl.hpp"
#include "dense/kernels/matmul_kernels.hpp"

namespace tessera::dense::kernels {
#define TS_OPENCL_PROGRAM "dense/kernels/matmul.cl"
TS_MATMUL_KERNELS(TS_OPENCL_KERNEL)
}  // namespace tessera::dense::kernels
