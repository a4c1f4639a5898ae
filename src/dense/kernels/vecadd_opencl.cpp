// OpenCL launcher of vector add (device code: vecadd.cl).
#include <fmt/format.h>

#include "backends/opencl/cl_device.hpp"
#include "dense/kernels/vecadd_kernels.hpp"

namespace tessera::dense::kernels {

namespace {

template <class T>
std::string options() {
  return fmt::format("-Dts_real={} -DTS_VA_GROUP={}",
                     std::is_same_v<T, float> ? "float" : "double -DTS_DOUBLE=1", kVecAddGroup);
}

const char* kernel_name(VecAddVariant v) {
  switch (v) {
    case VecAddVariant::global: return "vecadd_global";
    case VecAddVariant::local_static: return "vecadd_local_static";
    case VecAddVariant::local_dynamic: break;
  }
  return "vecadd_local_dynamic";
}

// A __local kernel argument: a size and no value, which opencl::set_args
// (one value per argument) cannot express.
void set_local_arg(const cl::Kernel& k, cl_uint index, std::size_t bytes) {
  opencl::cl_check(
      clSetKernelArg(k(), index, bytes, nullptr), "clSetKernelArg",
      fmt::format("setting __local argument {} ({} bytes) of vecadd_local_dynamic", index, bytes));
}

}  // namespace

template <class T>
void vector_add(OpenCLTag, Queue& q, VecAddVariant v, const Buffer<T>& a, const Buffer<T>& b,
                Buffer<T>& c) {
  const char* name = kernel_name(v);
  cl::Kernel k =
      opencl::device_of(c.device()).kernel("dense/kernels/vecadd.cl", name, options<T>());
  opencl::set_args(k, static_cast<cl_ulong>(c.size()), opencl::mem(a.handle()),
                   opencl::mem(b.handle()), opencl::mem(c.handle()));
  const std::size_t group = kVecAddGroup;
  if (v == VecAddVariant::local_dynamic) {
    set_local_arg(k, 4, group * sizeof(T));
    set_local_arg(k, 5, group * sizeof(T));
  }
  const std::size_t items = (c.size() + group - 1) / group * group;
  opencl::queue_of(q).launch(k, cl::NDRange(items), cl::NDRange(group), name);
}

#define TS_INSTANTIATE(T)                                                         \
  template void vector_add<T>(OpenCLTag, Queue&, VecAddVariant, const Buffer<T>&, \
                              const Buffer<T>&, Buffer<T>&);
TS_INSTANTIATE(float)
TS_INSTANTIATE(double)
#undef TS_INSTANTIATE

}  // namespace tessera::dense::kernels
