// Host side of the one launcher: every kernel of a module is declared once,
// for every backend, from its argument list (core/kernels/kernel_args.h).
//
//   namespace tessera::dense::kernels { TS_DENSE_KERNELS(TS_DECLARE_KERNEL) }
//
// declares, for a kernel K with TS_ARGS_K(V, IN, OUT) = V(ts_real, s) IN(ts_real, x) OUT(ts_real, y):
//   template <class ts_real> void K(Tag, Queue&, ts_size count, const ts_real& s,
//                                   const Buffer<ts_real>& x, Buffer<ts_real>& y);
// for Tag = CpuTag, OpenCLTag and CudaTag, instantiated for float and double
// by the backend files (launch_cpu.hpp, launch_opencl.hpp, launch_cuda.cuh).
// The count (ts_count) is of items (kind each) or work-groups (kinds group);
// a group_dynamic kernel takes its scratch size in elements after it.
#pragma once
#include <string>

#include "core/buffer.hpp"
#include "core/dispatch.hpp"
#include "core/error.hpp"
#include "core/kernels/portable.h"

// The list as host parameters: values by const reference, arrays as buffers.
#define TS_H_VALUE(type, name) , const type& name
#define TS_H_IN(elem, name) , const ::tessera::Buffer<elem>& name
#define TS_H_OUT(elem, name) , ::tessera::Buffer<elem>& name
#define TS_HOST_PARAMS(K) TS_ARGS_##K(TS_H_VALUE, TS_H_IN, TS_H_OUT)
#define TS_HOST_NAMES(K) TS_ARGS_##K(TS_P_NAME, TS_P_NAME, TS_P_NAME)

// The first parameters of a launcher, by kind.
#define TS_LAUNCH_HEAD_each ts_size ts_count
#define TS_LAUNCH_HEAD_group ts_size ts_count
#define TS_LAUNCH_HEAD_group_dynamic ts_size ts_count, [[maybe_unused]] ts_size ts_scratch_elems

#define TS_LAUNCHER_SIGNATURE(Tag, kind, K) \
  void K(Tag, [[maybe_unused]] ::tessera::Queue& q, TS_LAUNCH_HEAD_##kind TS_HOST_PARAMS(K))
#define TS_DECLARE_KERNEL(kind, K, THREADS, SCRATCH, OCCUPANCY) \
  template <class ts_real>                                      \
  TS_LAUNCHER_SIGNATURE(::tessera::CpuTag, kind, K);            \
  template <class ts_real>                                      \
  TS_LAUNCHER_SIGNATURE(::tessera::OpenCLTag, kind, K);         \
  template <class ts_real>                                      \
  TS_LAUNCHER_SIGNATURE(::tessera::CudaTag, kind, K);

// Explicit instantiation of a launcher for both precisions (an alias
// template spells the function type, so the list is not written again).
#define TS_INSTANTIATE_LAUNCHER(Tag, kind, K)                                \
  template <class ts_real>                                                   \
  using K##_##kind##_launcher_t =                                            \
      void(Tag, ::tessera::Queue&, TS_LAUNCH_HEAD_##kind TS_HOST_PARAMS(K)); \
  template K##_##kind##_launcher_t<float> K<float>;                          \
  template K##_##kind##_launcher_t<double> K<double>;

namespace tessera::launch {

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

// The device of a launch: that of its buffers, which must all be on one.
inline void same_device(Device*&, const char*) {}
template <class A, class... Rest>
void same_device(Device*& d, const char* kernel, const A& a, const Rest&... rest) {
  if constexpr (requires {
                  a.device();
                  a.handle();
                }) {
    if (d && d != &a.device())
      throw Error(std::string(kernel) + ": buffers on different devices (" + d->id() + ", " +
                  a.device().id() + ")");
    d = &a.device();
  }
  same_device(d, kernel, rest...);
}

/// What a kernel argument becomes on the CPU and CUDA, where a buffer's
/// handle is its address: a buffer its element pointer, a value itself.
template <class T>
T* device_arg(Buffer<T>& b) {
  return static_cast<T*>(b.handle());
}
template <class T>
const T* device_arg(const Buffer<T>& b) {
  return static_cast<const T*>(b.handle());
}
template <class V>
const V& device_arg(const V& v) {
  return v;
}

template <class... A>
Device& device_of(const char* kernel, const A&... args) {
  Device* d = nullptr;
  same_device(d, kernel, args...);
  if (!d) throw Error(std::string(kernel) + ": a kernel needs at least one buffer");
  return *d;
}

}  // namespace tessera::launch
