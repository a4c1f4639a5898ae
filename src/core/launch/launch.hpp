// Host side of the one launcher: every kernel of a module is declared once,
// for every backend, from its argument list (core/kernels/kernel_args.h).
//
//   namespace tessera::dense::kernels { TS_DENSE_KERNELS(TS_DECLARE_KERNEL) }
//
// declares, for a kernel K with TS_ARGS_K(V, IN, OUT) = V(ts_value, s) IN(ts_value, x) OUT(ts_value, y):
//   template <class ts_value> void K(Tag, Queue&, ts_size count, const ts_value& s,
//                                    const Buffer<ts_value>& x, Buffer<ts_value>& y);
// for Tag = CpuTag, OpenCLTag and CudaTag, instantiated for the module's
// element types by the backend files (launch_cpu.hpp, launch_opencl.hpp,
// launch_cuda.cuh): float and double, or the list TS_LAUNCH_TYPES names
// where the module defines it before expanding its kernel list (sparse adds
// std::complex<float> and std::complex<double>).
// The count of kinds each and each_one is of items; group kinds take a
// launch::Groups (work-groups, and the scratch size, threads and variant
// where the kind leaves them to the launch); a plain count converts to it.
#pragma once
#include <complex>
#include <cstdint>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include "core/buffer.hpp"
#include "core/dispatch.hpp"
#include "core/error.hpp"
#include "core/kernels/portable.h"

// The list as host parameters: values by const reference, arrays as
// launch::In / launch::Out (a Buffer, or a tile of one from an offset).
#define TS_H_VALUE(type, name) , const type& name
#define TS_H_IN(elem, ...) TS_IN_ARGS(TS_H_IN_, elem, __VA_ARGS__)
#define TS_H_IN_(elem, name, qualifier) , const ::tessera::launch::In<elem>& name
#define TS_H_OUT(elem, name) , const ::tessera::launch::Out<elem>& name
#define TS_HOST_PARAMS(K) TS_ARGS_##K(TS_H_VALUE, TS_H_IN, TS_H_OUT)
// ts_narrow in an argument list: the narrow storage of the launch's element
// type (the per-point passes of core/kernels/each_precision.h and OpenCL's
// precision options name it for themselves).
#define ts_narrow ::tessera::launch::narrow_t<ts_value>
#define TS_HOST_NAMES(K) TS_ARGS_##K(TS_P_NAME, TS_P_IN_NAME, TS_P_NAME)

// The first parameter of a launcher, by kind (items, launch::Groups or
// launch::Cells).
#define TS_LAUNCH_HEAD_each ts_size ts_count
#define TS_LAUNCH_HEAD_each_one ts_size ts_count
#define TS_LAUNCH_HEAD_group [[maybe_unused]] const ::tessera::launch::Groups& ts_shape
#define TS_LAUNCH_HEAD_group_dynamic [[maybe_unused]] const ::tessera::launch::Groups& ts_shape
#define TS_LAUNCH_HEAD_group_xy [[maybe_unused]] const ::tessera::launch::Groups& ts_shape
#define TS_LAUNCH_HEAD_group_sized [[maybe_unused]] const ::tessera::launch::Groups& ts_shape
#define TS_LAUNCH_HEAD_group_sized_xy [[maybe_unused]] const ::tessera::launch::Groups& ts_shape
#define TS_LAUNCH_HEAD_cells const ::tessera::launch::Cells& ts_cells

#define TS_LAUNCHER_SIGNATURE(Tag, kind, K) \
  void K(Tag, [[maybe_unused]] ::tessera::Queue& q, TS_LAUNCH_HEAD_##kind TS_HOST_PARAMS(K))
#define TS_DECLARE_KERNEL(kind, K, THREADS, SCRATCH, OCCUPANCY, VARIANTS) \
  template <class ts_value>                                               \
  TS_LAUNCHER_SIGNATURE(::tessera::CpuTag, kind, K);                      \
  template <class ts_value>                                               \
  TS_LAUNCHER_SIGNATURE(::tessera::OpenCLTag, kind, K);                   \
  template <class ts_value>                                               \
  TS_LAUNCHER_SIGNATURE(::tessera::CudaTag, kind, K);

// The element types a module's launchers are instantiated for (a module
// with other types #defines TS_LAUNCH_TYPES before expanding its list).
#define TS_REAL_TYPES(M, ...) M(float, __VA_ARGS__) M(double, __VA_ARGS__)
#define TS_REAL_AND_COMPLEX_TYPES(M, ...) \
  TS_REAL_TYPES(M, __VA_ARGS__)           \
  M(::std::complex<float>, __VA_ARGS__) M(::std::complex<double>, __VA_ARGS__)
#ifndef TS_LAUNCH_TYPES
#define TS_LAUNCH_TYPES TS_REAL_TYPES
#endif

// Explicit instantiation of a launcher for every element type (an alias
// template spells the function type, so the list is not written again).
#define TS_INSTANTIATE_ONE(T, K, kind) template K##_##kind##_launcher_t<T> K<T>;
#define TS_INSTANTIATE_LAUNCHER(Tag, kind, K)                                \
  template <class ts_value>                                                  \
  using K##_##kind##_launcher_t =                                            \
      void(Tag, ::tessera::Queue&, TS_LAUNCH_HEAD_##kind TS_HOST_PARAMS(K)); \
  TS_LAUNCH_TYPES(TS_INSTANTIATE_ONE, K, kind)

// The variants column of a kernel list (kernel_args.h): a type, written so
// that its commas stay inside parentheses through the generators' macros.
#define TS_NO_VARIANTS decltype(::tessera::launch::variant_list<>())
#define TS_VARIANTS(...) decltype(::tessera::launch::variant_list<__VA_ARGS__>())

namespace tessera::launch {

/// The shape of a group kernel's launch: `count` work-groups (times
/// count_y times count_z, a grid the groups find themselves in as g.id,
/// g.id_y, g.id_z); where the kernel's kind leaves them to the launch,
/// `scratch` elements of local memory (group_dynamic, group_sized*) and
/// `threads` work-items per group (group_sized; group_sized_xy: threads
/// x threads_y); `variant`, one of the kernel's compiled variants.
/// `users_shape`: the group shape is an option the user gave, so a shape
/// the kernel cannot run is a UsageError.
struct Groups {
  ts_size count = 0;
  ts_size scratch = 0;
  unsigned threads = 0;
  int variant = 0;
  ts_size count_y = 1, count_z = 1;
  unsigned threads_y = 1;
  bool users_shape = false;
  Groups(ts_size c) : count(c) {}  // NOLINT: a plain count is a Groups
  Groups(ts_size c, ts_size s, unsigned t = 0, int v = 0)
      : count(c), scratch(s), threads(t), variant(v) {}
  /// A grid of x * y * z groups.
  static Groups grid(ts_size x, ts_size y, ts_size z, int variant = 0) {
    Groups g(x, 0, 0, variant);
    g.count_y = y;
    g.count_z = z;
    return g;
  }
  bool empty() const { return count == 0 || count_y == 0 || count_z == 0; }
};

template <int... V>
std::integer_sequence<int, V...> variant_list();  // only named in decltype

/// The shape of a cells kernel's launch: the box of nx x ny x nz cells and,
/// on GPUs, work-groups of bx x by cells of one plane; `variant`, one of
/// the kernel's compiled variants.
struct Cells {
  long nx = 0, ny = 1, nz = 1;
  unsigned bx = 32, by = 1;
  int variant = 0;
  /// OpenCL picks the work-group itself (a NULL local size over exactly
  /// the box); bx x by then serve CUDA only.
  bool driver_group = false;
  /// bx x by is an option the user gave: a shape the kernel cannot run is
  /// a UsageError (else OpenCL halves bx until the kernel can).
  bool users_shape = false;
  bool empty() const { return nx <= 0 || ny <= 0 || nz <= 0; }
};

/// The scratch elements of a kind that sizes them at launch: at least one.
inline ts_size dynamic_scratch(const char* kernel, const Groups& shape) {
  if (shape.scratch == 0) throw Error(std::string(kernel) + ": a dynamic scratch of 0 elements");
  return shape.scratch;
}

/// A group shape a kernel cannot run: a UsageError where the shape is the
/// user's option, an Error where the module chose it.
[[noreturn]] inline void refuse_shape(bool users_shape, const std::string& what) {
  if (users_shape) throw UsageError(what);
  throw Error(what);
}

/// Calls f(std::integral_constant<int, v>) for the run-time variant `v`,
/// which must be one of the kernel's compiled ones (0 for a kernel without).
template <int... Vs, class F>
void with_variant(std::integer_sequence<int, Vs...>, const char* kernel, int v, F&& f) {
  if constexpr (sizeof...(Vs) == 0) {
    if (v != 0)
      throw Error(std::string(kernel) + ": variant " + std::to_string(v) +
                  " asked of a kernel without variants");
    f(std::integral_constant<int, 0>{});
  } else {
    const bool found = ((v == Vs ? (f(std::integral_constant<int, Vs>{}), true) : false) || ...);
    if (!found) {
      std::string list;
      ((list += (list.empty() ? "" : ", ") + std::to_string(Vs)), ...);
      throw Error(std::string(kernel) + ": variant " + std::to_string(v) +
                  " is not compiled (compiled: " + list + ")");
    }
  }
}
template <class Seq>
constexpr bool has_variants = Seq::size() > 0;

/// Work-groups per compute unit that a grid-stride loop launches at most:
/// CUDA 8 blocks of 256 fill an SM (2048 threads); NVIDIA's OpenCL and PoCL
/// reach their copy bandwidth with 32 groups of 256; the CPU one per core.
inline ts_size groups_per_unit(Backend b) {
  return b == Backend::cuda ? 8 : b == Backend::opencl ? 32 : 1;
}

/// Work-groups for a grid-stride loop that needs `needed` groups' worth of
/// work: no more than that, and no more than groups_per_unit per unit.
inline ts_size grid_stride_groups(const Device& d, ts_size needed) {
  const int units = d.info().compute_units > 1 ? d.info().compute_units : 1;
  const ts_size cap = static_cast<ts_size>(units) * groups_per_unit(d.backend());
  return needed < 1 ? 1 : needed < cap ? needed : cap;
}

/// Elements of T per ts_pack on `d` (TS_PACK: 16 bytes on GPUs, 1 on the CPU).
template <class T>
ts_size pack_width(const Device& d) {
  return d.backend() == Backend::cpu ? 1 : 16 / sizeof(T);
}

/// A kernel's array argument: a whole Buffer<T>, or the elements of a
/// device allocation from `offset` on (a tile of a larger block, whose
/// owner keeps it alive). In: the kernel only reads it; Out: it writes it.
/// A Buffer converts to either; an unallocated one has no device (an
/// optional array the kernel does not read).
template <class T, class Handle>
struct ArrayArg {
  Handle handle = nullptr;
  std::size_t offset = 0;  ///< in elements of T
  Device* device = nullptr;
};
template <class T>
struct In : ArrayArg<T, const void*> {
  In() = default;         // an absent array (no device; the kernel does not read it)
  In(const Buffer<T>& b)  // NOLINT: a buffer is an array argument
      : ArrayArg<T, const void*>{b.handle(), 0, b.device_ptr().get()} {}
  In(Device& d, const void* handle, std::size_t offset)
      : ArrayArg<T, const void*>{handle, offset, &d} {}
};
template <class T>
struct Out : ArrayArg<T, void*> {
  Out() = default;   // an absent array (no device; the kernel does not write it)
  Out(Buffer<T>& b)  // NOLINT: a buffer is an array argument
      : ArrayArg<T, void*>{b.handle(), 0, b.device_ptr().get()} {}
  Out(Device& d, void* handle, std::size_t offset) : ArrayArg<T, void*>{handle, offset, &d} {}
};

/// An array argument from a device handle (as core/device.hpp hands them
/// out) from `offset` on; a null handle is an absent array (an operand the
/// kernel's flag leaves out and does not read).
template <class T>
In<T> in(Device& d, const void* handle, std::size_t offset = 0) {
  return In<T>(d, handle, handle ? offset : 0);
}
template <class T>
Out<T> out(Device& d, void* handle, std::size_t offset = 0) {
  return Out<T>(d, handle, handle ? offset : 0);
}

// The device of a launch: that of its arrays, which must all be on one.
inline void same_device(Device*&, const char*) {}
template <class A, class... Rest>
void same_device(Device*& d, const char* kernel, const A& a, const Rest&... rest) {
  if constexpr (requires {
                  a.device;
                  a.offset;
                }) {
    if (!a.device) return same_device(d, kernel, rest...);  // an unallocated optional array
    if (d && d != a.device)
      throw Error(std::string(kernel) + ": buffers on different devices (" + d->id() + ", " +
                  a.device->id() + ")");
    d = a.device;
  }
  same_device(d, kernel, rest...);
}

/// A complex element on the device: a pair with members .x (real part) and
/// .y, the bytes of std::complex; CUDA's float2 / double2 in CUDA code (its
/// 8- and 16-byte loads), this struct in C++.
template <class R>
struct alignas(2 * sizeof(R)) Complex {
  R x, y;
};

/// The element type kernels see for a host element type T.
template <class T>
struct device_value {
  using type = T;
};
#if defined(__CUDACC__)
template <>
struct device_value<std::complex<float>> {
  using type = float2;
};
template <>
struct device_value<std::complex<double>> {
  using type = double2;
};
#else
template <class R>
struct device_value<std::complex<R>> {
  using type = Complex<R>;
};
#endif
template <class T>
using device_value_t = typename device_value<T>::type;

/// The narrow storage of a real type (kernel_args.h's ts_narrow): binary16
/// bits for float, float for double.
template <class T>
struct narrow;
template <>
struct narrow<float> {
  using type = std::uint16_t;
};
template <>
struct narrow<double> {
  using type = float;
};
template <class T>
using narrow_t = typename narrow<T>::type;
static_assert(sizeof(device_value_t<std::complex<double>>) == sizeof(std::complex<double>));

/// What a kernel argument becomes on the CPU and CUDA, where a buffer's
/// handle is its address: a buffer its element pointer, a value itself.
template <class T>
device_value_t<T>* device_arg(const Out<T>& a) {
  return static_cast<device_value_t<T>*>(a.handle) + a.offset;
}
template <class T>
const device_value_t<T>* device_arg(const In<T>& a) {
  return static_cast<const device_value_t<T>*>(a.handle) + a.offset;
}
template <class V>
const V& device_arg(const V& v) {
  return v;
}
/// device_arg of each argument, as a tuple (for structured bindings in the
/// hand-written CPU launchers of group kernels).
template <class... A>
auto device_args(const A&... args) {
  return std::make_tuple(device_arg(args)...);
}

template <class... A>
Device& device_of(const char* kernel, const A&... args) {
  Device* d = nullptr;
  same_device(d, kernel, args...);
  if (!d) throw Error(std::string(kernel) + ": a kernel needs at least one buffer");
  return *d;
}

}  // namespace tessera::launch
