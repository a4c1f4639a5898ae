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
// launch::groups_per_unit per compute unit; each_one: one work-item per item;
// group kinds: n groups of `threads`, a kernel with variants built with
// -DTS_VARIANT=v.
#pragma once
#include <algorithm>
#include <complex>
#include <string>
#include <type_traits>

#include "backends/opencl/cl_device.hpp"
#include "core/launch/launch.hpp"

namespace tessera::launch {

constexpr std::size_t kClItemGroup = 256;

template <class T>
std::string precision_defines() {
  if constexpr (std::is_same_v<T, float>)
    return "-Dts_real=float -Dts_value=float -DTS_COMPLEX=0 -Dts_pack=float4 -DTS_PACK=4 "
           "-Dts_narrow=ushort";
  else if constexpr (std::is_same_v<T, double>)
    return "-Dts_real=double -Dts_value=double -DTS_COMPLEX=0 -DTS_DOUBLE=1 -Dts_pack=double2 "
           "-DTS_PACK=2 -Dts_narrow=float";
  else if constexpr (std::is_same_v<T, std::complex<float>>)
    return "-Dts_real=float -Dts_value=float2 -DTS_COMPLEX=1 -Dts_pack=float4 -DTS_PACK=4";
  else {
    static_assert(std::is_same_v<T, std::complex<double>>,
                  "an element type OpenCL has no name for");
    return "-Dts_real=double -Dts_value=double2 -DTS_COMPLEX=1 -DTS_DOUBLE=1 -Dts_pack=double2 "
           "-DTS_PACK=2";
  }
}

/// The one precision idiom in OpenCL: the program's element type ts_value,
/// its real type ts_real with a 16-byte pack of it, (for real types) its
/// narrow storage ts_narrow, and (for double) the fp64 extension; single
/// precision divisions and square roots correctly rounded, as CUDA's and
/// the CPU's are (NVIDIA's OpenCL approximates them otherwise).
template <class T>
std::string precision_options() {
  return "-cl-fp32-correctly-rounded-divide-sqrt " + precision_defines<T>();
}

/// Whether any array of a launch starts at an offset into its buffer: its
/// program is then built with -DTS_CL_OFFSETS=1 (kernel_args.h).
inline bool cl_has_offset() { return false; }
template <class A, class... Rest>
bool cl_has_offset(const A& a, const Rest&... rest) {
  if constexpr (requires { a.offset; })
    if (a.offset != 0) return true;
  return cl_has_offset(rest...);
}

/// Sets the kernel arguments of one list entry from `index` on and says how
/// many: an array is its buffer (and, with `offsets`, its offset:
/// kernel_args.h's TS_CL_PARAMS), a value itself.
template <class T, class Handle>
cl_uint cl_set_array(const cl::Kernel& k, cl_uint index, const ArrayArg<T, Handle>& a,
                     bool offsets) {
  const cl_mem m = opencl::mem(const_cast<void*>(static_cast<const void*>(a.handle)));
  const cl_ulong offset = a.offset;
  opencl::set_arg(k, index, sizeof(m), &m);
  if (offsets) opencl::set_arg(k, index + 1, sizeof(offset), &offset);
  return offsets ? 2 : 1;
}
template <class T>
cl_uint cl_set(const cl::Kernel& k, cl_uint index, const In<T>& a, bool offsets) {
  return cl_set_array(k, index, a, offsets);
}
template <class T>
cl_uint cl_set(const cl::Kernel& k, cl_uint index, const Out<T>& a, bool offsets) {
  return cl_set_array(k, index, a, offsets);
}
template <class V>
cl_uint cl_set(const cl::Kernel& k, cl_uint index, const V& v, bool = false) {
  static_assert(std::is_trivially_copyable_v<V>, "an OpenCL kernel value must be plain data");
  opencl::set_arg(k, index, sizeof(V), &v);
  return 1;
}

template <class... A>
void cl_set_all(const cl::Kernel& k, cl_uint first, bool offsets, const A&... args) {
  cl_uint i = first;
  ((i += cl_set(k, i, args, offsets)), ...);
}

/// The options every program gets on device `cl`: precision, on NVIDIA's
/// OpenCL -DTS_NV_PTX=1 (inline PTX, as CUDA compiles:
/// core/kernels/ieee_fast.h), and where a launch's arrays start at offsets
/// -DTS_CL_OFFSETS=1.
template <class T>
std::string device_options(const opencl::ClDevice& cl, bool offsets) {
  return precision_options<T>() + (cl.has_nv_compiler_options() ? " -DTS_NV_PTX=1" : "") +
         (offsets ? " -DTS_CL_OFFSETS=1" : "");
}

/// Kinds each (grid-stride) and each_one (one work-item per item): n items.
template <class T, class... A>
void cl_items(Queue& q, const char* program, const char* kernel, ts_size n, bool grid_stride,
              const A&... args) {
  Device& d = device_of(kernel, args...);
  if (n == 0) return;
  auto& cl = opencl::device_of(d);
  const bool offsets = cl_has_offset(args...);
  cl::Kernel k = cl.kernel(program, kernel, device_options<T>(cl, offsets));
  cl_set_all(k, 0, offsets, static_cast<cl_ulong>(n), args...);
  const ts_size groups = (n + kClItemGroup - 1) / kClItemGroup;
  const std::size_t items = (grid_stride ? grid_stride_groups(d, groups) : groups) * kClItemGroup;
  opencl::queue_of(q).launch(k, cl::NDRange(items), cl::NDRange(kClItemGroup), kernel);
}

/// The build options of a group or cells kernel: precision, variant, and
/// for occupancy > 0 NVIDIA's register cap for that many groups of `threads`
/// per compute unit (as `__launch_bounds__` gives CUDA the same kernel).
template <class T>
std::string kernel_options(const opencl::ClDevice& cl, bool variants, int variant,
                           std::size_t threads, int occupancy, bool offsets) {
  std::string options = device_options<T>(cl, offsets);
  if (variants) options += " -DTS_VARIANT=" + std::to_string(variant);
  if (occupancy > 0 && cl.has_nv_compiler_options())
    options += " -cl-nv-maxrregcount=" +
               std::to_string(std::min<std::size_t>(255, 65536 / (threads * occupancy)));
  if (occupancy < 0 && cl.has_nv_compiler_options())  // TS_MAX_REGISTERS(n)
    options += " -cl-nv-maxrregcount=" + std::to_string(-occupancy);
  return options;
}

/// The most work-items a group of kernel k can have on device cl.
inline std::size_t cl_kernel_items(const cl::Kernel& k, const opencl::ClDevice& cl,
                                   const char* kernel) {
  std::size_t most = 0;
  opencl::cl_check(clGetKernelWorkGroupInfo(k(), cl.native()(), CL_KERNEL_WORK_GROUP_SIZE,
                                            sizeof(most), &most, nullptr),
                   "clGetKernelWorkGroupInfo", std::string(kernel) + ": work-items a group");
  return most;
}

/// Kind cells: the box in work-groups of bx x by cells of one plane, or
/// of fewer along x (halving) where the compiled kernel allows fewer work-items
/// a group (a large kernel of many registers may): a cell's result does not
/// depend on its group. A shape the user gave is refused instead; with
/// driver_group the driver picks the group (a NULL local size over exactly
/// the box, of as many dimensions as the box has).
template <class T, class... A>
void cl_cells(Queue& q, const char* program, const char* kernel, const Cells& box, int occupancy,
              bool variants, const A&... args) {
  Device& d = device_of(kernel, args...);
  if (box.empty()) return;
  auto& cl = opencl::device_of(d);
  const bool offsets = cl_has_offset(args...);
  cl::Kernel k =
      cl.kernel(program, kernel,
                kernel_options<T>(cl, variants, box.variant, box.bx * box.by, occupancy, offsets));
  cl_set_all(k, 0, offsets, static_cast<cl_long>(box.nx), static_cast<cl_long>(box.ny),
             static_cast<cl_long>(box.nz), args...);
  auto& cq = opencl::queue_of(q);
  if (box.driver_group) {
    const auto n = [](long v) { return static_cast<std::size_t>(v); };
    const cl::NDRange range = box.nz > 1   ? cl::NDRange(n(box.nx), n(box.ny), n(box.nz))
                              : box.ny > 1 ? cl::NDRange(n(box.nx), n(box.ny))
                                           : cl::NDRange(n(box.nx));
    return cq.launch(k, range, cl::NullRange, kernel);
  }
  const std::size_t most = cl_kernel_items(k, cl, kernel);
  std::size_t bx = box.bx;
  if (box.users_shape && bx * box.by > most)
    throw UsageError(std::string(kernel) + ": work-groups of " + std::to_string(box.bx) + " x " +
                     std::to_string(box.by) + " work-items; it can run at most " +
                     std::to_string(most) + " on " + d.id());
  while (bx > 1 && bx * box.by > most) bx /= 2;
  const auto up = [](long n, std::size_t b) {
    return (static_cast<std::size_t>(n) + b - 1) / b * b;
  };
  cq.launch(k, cl::NDRange(up(box.nx, bx), up(box.ny, box.by), static_cast<std::size_t>(box.nz)),
            cl::NDRange(bx, box.by, 1), kernel);
}

/// Group kinds: shape.count groups of `threads` work-items, with `scratch`
/// elements of `__local` memory set at launch (0: a static array).
/// `occupancy` > 0: built for that many groups per compute unit (NVIDIA:
/// a register cap, as `__launch_bounds__` gives CUDA the same kernel);
/// `variants`: whether the kernel is built per variant (-DTS_VARIANT).
template <class T, class... A>
void cl_groups(Queue& q, const char* program, const char* kernel, const Groups& shape,
               std::size_t threads, std::size_t threads_y, std::size_t scratch, int occupancy,
               bool variants, const A&... args) {
  Device& d = device_of(kernel, args...);
  if (shape.empty()) return;
  auto& cl = opencl::device_of(d);
  const std::size_t local_bytes = scratch * sizeof(T);
  const bool offsets = cl_has_offset(args...);
  cl::Kernel k = cl.kernel(
      program, kernel,
      kernel_options<T>(cl, variants, shape.variant, threads * threads_y, occupancy, offsets));
  if (scratch) {  // a shape set at launch: checked against the device and the kernel
    const auto most_items = cl_kernel_items(k, cl, kernel);
    const auto most_bytes = cl.native().getInfo<CL_DEVICE_LOCAL_MEM_SIZE>();
    if (threads * threads_y < 1 || threads * threads_y > most_items)
      refuse_shape(shape.users_shape,
                   std::string(kernel) + ": work-groups of " + std::to_string(threads) + " x " +
                       std::to_string(threads_y) + " work-items; it can run 1 to " +
                       std::to_string(most_items) + " on " + d.id());
    if (local_bytes > most_bytes)
      refuse_shape(shape.users_shape, std::string(kernel) + ": " + format_bytes(local_bytes) +
                                          " of local memory per work-group; " + d.id() + " has " +
                                          format_bytes(most_bytes));
  }
  cl_set(k, 0, static_cast<cl_ulong>(shape.count));
  cl_uint next = 1;
  if (scratch) opencl::set_arg(k, next++, local_bytes, nullptr);
  cl_set_all(k, next, offsets, args...);
  opencl::queue_of(q).launch(
      k, cl::NDRange(shape.count * threads, shape.count_y * threads_y, shape.count_z),
      cl::NDRange(threads, threads_y, 1), kernel);
}

}  // namespace tessera::launch

#define TS_OPENCL_KERNEL(kind, K, THREADS, SCRATCH, OCCUPANCY, VARIANTS) \
  TS_OPENCL_##kind(K, THREADS, (OCCUPANCY), VARIANTS)
#define TS_OPENCL_ITEMS(kind, K, GRID_STRIDE)                                 \
  template <class ts_value>                                                   \
  TS_LAUNCHER_SIGNATURE(::tessera::OpenCLTag, kind, K) {                      \
    ::tessera::launch::cl_items<ts_value>(q, TS_OPENCL_PROGRAM, #K, ts_count, \
                                          GRID_STRIDE TS_HOST_NAMES(K));      \
  }                                                                           \
  TS_INSTANTIATE_LAUNCHER(::tessera::OpenCLTag, kind, K)
#define TS_OPENCL_each(K, THREADS, OCC, VARIANTS) TS_OPENCL_ITEMS(each, K, true)
#define TS_OPENCL_each_one(K, THREADS, OCC, VARIANTS) TS_OPENCL_ITEMS(each_one, K, false)
#define TS_OPENCL_GROUPS(kind, K, THREADS_AT_LAUNCH, THREADS_Y, SCRATCH_AT_LAUNCH, OCC, VARIANTS) \
  template <class ts_value>                                                                       \
  TS_LAUNCHER_SIGNATURE(::tessera::OpenCLTag, kind, K) {                                          \
    [[maybe_unused]] const int ts_variant = ts_shape.variant;                                     \
    ::tessera::launch::with_variant(VARIANTS{}, #K, ts_variant, [](auto) {});                     \
    ::tessera::launch::cl_groups<ts_value>(                                                       \
        q, TS_OPENCL_PROGRAM, #K, ts_shape, THREADS_AT_LAUNCH, THREADS_Y, SCRATCH_AT_LAUNCH, OCC, \
        ::tessera::launch::has_variants<VARIANTS> TS_HOST_NAMES(K));                              \
  }                                                                                               \
  TS_INSTANTIATE_LAUNCHER(::tessera::OpenCLTag, kind, K)
#define TS_OPENCL_group(K, THREADS, OCC, VARIANTS) \
  TS_OPENCL_GROUPS(group, K, THREADS, 1, 0, OCC, VARIANTS)
#define TS_OPENCL_group_xy(K, THREADS, OCC, VARIANTS) \
  TS_OPENCL_GROUPS(group_xy, K, TS_XY_X(THREADS), TS_XY_Y(THREADS), 0, OCC, VARIANTS)
#define TS_OPENCL_group_dynamic(K, THREADS, OCC, VARIANTS)                                         \
  TS_OPENCL_GROUPS(group_dynamic, K, THREADS, 1, ::tessera::launch::dynamic_scratch(#K, ts_shape), \
                   OCC, VARIANTS)
#define TS_OPENCL_group_sized(K, THREADS, OCC, VARIANTS) \
  TS_OPENCL_GROUPS(group_sized, K, ts_shape.threads, 1,  \
                   ::tessera::launch::dynamic_scratch(#K, ts_shape), OCC, VARIANTS)
#define TS_OPENCL_group_sized_xy(K, THREADS, OCC, VARIANTS)                 \
  TS_OPENCL_GROUPS(group_sized_xy, K, ts_shape.threads, ts_shape.threads_y, \
                   ::tessera::launch::dynamic_scratch(#K, ts_shape), OCC, VARIANTS)
#define TS_OPENCL_cells(K, THREADS, OCC, VARIANTS)                            \
  template <class ts_value>                                                   \
  TS_LAUNCHER_SIGNATURE(::tessera::OpenCLTag, cells, K) {                     \
    [[maybe_unused]] const int ts_variant = ts_cells.variant;                 \
    ::tessera::launch::with_variant(VARIANTS{}, #K, ts_variant, [](auto) {}); \
    ::tessera::launch::cl_cells<ts_value>(                                    \
        q, TS_OPENCL_PROGRAM, #K, ts_cells, OCC,                              \
        ::tessera::launch::has_variants<VARIANTS> TS_HOST_NAMES(K));          \
  }                                                                           \
  TS_INSTANTIATE_LAUNCHER(::tessera::OpenCLTag, cells, K)
