// OpenCL launchers of the dense kernels (device code: dense.cl).
#include "core/launch/launch_opencl.hpp"
#include "dense/kernels/dense_kernels.hpp"

namespace tessera::dense::kernels {
#define TS_OPENCL_PROGRAM "dense/kernels/dense.cl"
TS_DENSE_KERNELS(TS_OPENCL_KERNEL)
}  // namespace tessera::dense::kernels
