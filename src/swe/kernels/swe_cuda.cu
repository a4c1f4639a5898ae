// CUDA launchers of the shallow-water kernels of swe_kernel_list.h, and the
// device's "Max" work-group.
#include <cmath>

#include "core/launch/launch_cuda.cuh"
#include "swe/kernels/swe_kernels.hpp"

namespace tessera::swe::kernels {

using namespace point;
TS_SWE_KERNELS(TS_CUDA_KERNEL)

WorkGroup max_work_group(CudaTag, Device& d) {
  const cudaDeviceProp& pr = cuda::device_of(d).properties();
  int a = static_cast<int>(std::sqrt(double(pr.maxThreadsDim[1])));
  int b = static_cast<int>(std::sqrt(double(pr.maxThreadsDim[0])));
  while (a * b > pr.maxThreadsPerBlock) (a > b ? a : b) -= 1;
  return {std::max(a, 1), std::max(b, 1)};
}

}  // namespace tessera::swe::kernels
