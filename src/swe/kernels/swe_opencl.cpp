// OpenCL launchers of the shallow-water kernels of swe_kernel_list.h
// (device code: swe.cl), and the device's "Max" work-group.
#include <cmath>

#include "core/launch/launch_opencl.hpp"
#include "swe/kernels/swe_kernels.hpp"

namespace tessera::swe::kernels {

#define TS_OPENCL_PROGRAM "swe/kernels/swe.cl"
TS_SWE_KERNELS(TS_OPENCL_KERNEL)

WorkGroup max_work_group(OpenCLTag, Device& d) {
  const cl::Device& dev = opencl::device_of(d).native();
  const auto sizes = dev.getInfo<CL_DEVICE_MAX_WORK_ITEM_SIZES>();
  const std::size_t total = dev.getInfo<CL_DEVICE_MAX_WORK_GROUP_SIZE>();
  // seed §4.2: floor(sqrt(per-dimension maximum)) per side, within the total
  int a = static_cast<int>(std::sqrt(double(sizes.size() > 1 ? sizes[1] : 1)));
  int b = static_cast<int>(std::sqrt(double(sizes.empty() ? 1 : sizes[0])));
  while (static_cast<std::size_t>(a) * b > total) (a > b ? a : b) -= 1;
  return {std::max(a, 1), std::max(b, 1)};
}

}  // namespace tessera::swe::kernels
