// OpenCL generator of the one launcher: a module's _opencl.cpp names its
// program and expands its kernel list with TS_OPENCL_KERNEL:
//
//   #define TS_OPENCL_PROGRAM "dense/kernels/dense.cl"
//   TS_DENSE_KERNELS(TS_OPENCL_KERNEL)
//
// The program (whose __kernels come from the same list, kernel_args.h) is
// built once per precision with precision_options<T>(); the arguments are set
// in the list's order from the launcher's own parameters, so no argument list
// is written twice. Kind each: a grid-stride loop in groups of 256, at most
// launch::groups_per_unit per compute unit; group kinds: n groups of `threads`.
#pragma once
#include <algorithm>
#include <string>
#include <type_traits>

#include "backends/opencl/cl_device.hpp"
#include "core/launch/launch.hpp"

namespace tessera::launch {

constexpr std::size_t kClItemGroup = 256;

/// The one precision idiom in OpenCL: the program's ts_real, its 16-byte
/// pack and (for double) the fp64 extension.
template <class T>
std::string precision_options() {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>);
  return std::is_same_v<T, float> ? "-Dts_real=float -Dts_pack=float4 -DTS_PACK=4"
                                  : "-Dts_real=double -DTS_DOUBLE=1 -Dts_pack=double2 -DTS_PACK=2";
}

template <class T>
void cl_set(const cl::Kernel& k, cl_uint index, const Buffer<T>& b) {
  const cl_mem m = opencl::mem(b.handle());
  opencl::set_arg(k, index, sizeof(m), &m);
}
template <class V>
void cl_set(const cl::Kernel& k, cl_uint index, const V& v) {
  static_assert(std::is_trivially_copyable_v<V>, "an OpenCL kernel value must be plain data");
  opencl::set_arg(k, index, sizeof(V), &v);
}

template <class... A>
void cl_set_all(const cl::Kernel& k, cl_uint first, const A&... args) {
  cl_uint i = first;
  (cl_set(k, i++, args), ...);
}

/// Kind each: n items, grid-stride.
template <class T, class... A>
void cl_for_each(Queue& q, const char* program, const char* kernel, ts_size n, const A&... args) {
  Device& d = device_of(kernel, args...);
  if (n == 0) return;
  cl::Kernel k = opencl::device_of(d).kernel(program, kernel, precision_options<T>());
  cl_set_all(k, 0, static_cast<cl_ulong>(n), args...);
  const std::size_t items =
      grid_stride_groups(d, (n + kClItemGroup - 1) / kClItemGroup) * kClItemGroup;
  opencl::queue_of(q).launch(k, cl::NDRange(items), cl::NDRange(kClItemGroup), kernel);
}

/// Kinds group and group_dynamic: n groups of `threads` work-items, with
/// `scratch` elements of `__local` memory set at launch (0: a static array).
/// `occupancy` > 0: built for that many groups per compute unit (NVIDIA:
/// a register cap, as `__launch_bounds__` gives CUDA the same kernel).
template <class T, class... A>
void cl_groups(Queue& q, const char* program, const char* kernel, ts_size n, std::size_t threads,
               std::size_t scratch, int occupancy, const A&... args) {
  Device& d = device_of(kernel, args...);
  if (n == 0) return;
  auto& cl = opencl::device_of(d);
  std::string options = precision_options<T>();
  if (occupancy > 0 && cl.has_nv_compiler_options())
    options += " -cl-nv-maxrregcount=" +
               std::to_string(std::min<std::size_t>(255, 65536 / (threads * occupancy)));
  cl::Kernel k = cl.kernel(program, kernel, options);
  cl_set(k, 0, static_cast<cl_ulong>(n));
  cl_uint next = 1;
  if (scratch) opencl::set_arg(k, next++, scratch * sizeof(T), nullptr);
  cl_set_all(k, next, args...);
  opencl::queue_of(q).launch(k, cl::NDRange(n * threads), cl::NDRange(threads), kernel);
}

}  // namespace tessera::launch

#define TS_OPENCL_KERNEL(kind, K, THREADS, SCRATCH, OCCUPANCY) \
  TS_OPENCL_##kind(K, THREADS, (OCCUPANCY))
#define TS_OPENCL_each(K, THREADS, OCC)                                                           \
  template <class ts_real>                                                                        \
  TS_LAUNCHER_SIGNATURE(::tessera::OpenCLTag, each, K) {                                          \
    ::tessera::launch::cl_for_each<ts_real>(q, TS_OPENCL_PROGRAM, #K, ts_count TS_HOST_NAMES(K)); \
  }                                                                                               \
  TS_INSTANTIATE_LAUNCHER(::tessera::OpenCLTag, each, K)
#define TS_OPENCL_group(K, THREADS, OCC)                                                  \
  template <class ts_real>                                                                \
  TS_LAUNCHER_SIGNATURE(::tessera::OpenCLTag, group, K) {                                 \
    ::tessera::launch::cl_groups<ts_real>(q, TS_OPENCL_PROGRAM, #K, ts_count, THREADS, 0, \
                                          OCC TS_HOST_NAMES(K));                          \
  }                                                                                       \
  TS_INSTANTIATE_LAUNCHER(::tessera::OpenCLTag, group, K)
#define TS_OPENCL_group_dynamic(K, THREADS, OCC)                                               \
  template <class ts_real>                                                                     \
  TS_LAUNCHER_SIGNATURE(::tessera::OpenCLTag, group_dynamic, K) {                              \
    if (ts_scratch_elems == 0) throw ::tessera::Error(#K ": a dynamic scratch of 0 elements"); \
    ::tessera::launch::cl_groups<ts_real>(q, TS_OPENCL_PROGRAM, #K, ts_count, THREADS,         \
                                          ts_scratch_elems, OCC TS_HOST_NAMES(K));             \
  }                                                                                            \
  TS_INSTANTIATE_LAUNCHER(::tessera::OpenCLTag, group_dynamic, K)
