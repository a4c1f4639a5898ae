// CUDA generator of the one launcher: a module's _cuda.cu expands its kernel
// list with TS_CUDA_KERNEL. Kind each: a grid-stride loop over [0, n) in
// blocks of 256 threads, at most launch::groups_per_unit per SM. Kinds group and
// group_dynamic: n blocks of `threads`, with the scratch array in shared
// memory (static, or sized at launch).
#pragma once
#include <algorithm>
#include <string>

#include "backends/cuda/cuda_check.hpp"
#include "backends/cuda/cuda_device.hpp"
#include "core/launch/launch.hpp"

namespace tessera::launch {

constexpr unsigned kCudaItemBlock = 256;

inline unsigned cuda_item_blocks(const Device& d, ts_size n) {
  return static_cast<unsigned>(grid_stride_groups(d, (n + kCudaItemBlock - 1) / kCudaItemBlock));
}

inline unsigned cuda_groups(const char* kernel, ts_size groups) {
  if (groups > 0x7fffffffu)
    throw Error(std::string(kernel) + ": " + std::to_string(groups) +
                " work-groups exceed the CUDA grid");
  return static_cast<unsigned>(groups);
}

template <class... P, class... A>
void cuda_launch(Queue& q, const char* kernel, unsigned blocks, unsigned threads,
                 std::size_t shared_bytes, void (*k)(P...), A&&... args) {
  auto& cq = cuda::queue_of(q);
  cuda::DeviceGuard guard(cq.ordinal());
  k<<<blocks, threads, shared_bytes, cq.native()>>>(device_arg(args)...);
  cuda::check_launch(kernel);
}

}  // namespace tessera::launch

// Occupancy 0 gives __launch_bounds__(threads, 0): no minimum, the
// compiler's own register choice (a minimum of 1 would let it take more).
#define TS_CUDA_KERNEL(kind, K, THREADS, SCRATCH, OCCUPANCY) \
  TS_CUDA_##kind(K, THREADS, SCRATCH, (OCCUPANCY))

#define TS_CUDA_each(K, THREADS, SCRATCH, OCC)                                                   \
  template <class ts_real>                                                                       \
  __global__ void __launch_bounds__(::tessera::launch::kCudaItemBlock)                           \
      K##_kernel(ts_size ts_n TS_PARAMS(K)) {                                                    \
    const ts_size ts_stride = ts_size(gridDim.x) * blockDim.x;                                   \
    for (ts_size ts_i = ts_size(blockIdx.x) * blockDim.x + threadIdx.x; ts_i < ts_n;             \
         ts_i += ts_stride)                                                                      \
      K##_item(ts_i TS_NAMES(K));                                                                \
  }                                                                                              \
  template <class ts_real>                                                                       \
  TS_LAUNCHER_SIGNATURE(::tessera::CudaTag, each, K) {                                           \
    auto& ts_dev = ::tessera::launch::device_of(#K TS_HOST_NAMES(K));                            \
    if (ts_count == 0) return;                                                                   \
    ::tessera::launch::cuda_launch(q, #K, ::tessera::launch::cuda_item_blocks(ts_dev, ts_count), \
                                   ::tessera::launch::kCudaItemBlock, 0, K##_kernel<ts_real>,    \
                                   ts_count TS_HOST_NAMES(K));                                   \
  }                                                                                              \
  TS_INSTANTIATE_LAUNCHER(::tessera::CudaTag, each, K)

// A group kernel: SCRATCH_DECL declares ts_scratch, SHARED_BYTES is the
// dynamic shared memory of a launch.
#define TS_CUDA_GROUP_KERNEL(kind, K, THREADS, OCC, SCRATCH_DECL, SHARED_BYTES)                   \
  template <class ts_real>                                                                        \
  __global__ void __launch_bounds__(THREADS, OCC) K##_kernel(ts_size ts_n TS_PARAMS(K)) {         \
    SCRATCH_DECL                                                                                  \
    ts_group ts_g;                                                                                \
    ts_g.id = blockIdx.x;                                                                         \
    ts_g.count = ts_n;                                                                            \
    ts_g.lid = threadIdx.x;                                                                       \
    K##_group(ts_g, ts_scratch TS_NAMES(K));                                                      \
  }                                                                                               \
  template <class ts_real>                                                                        \
  TS_LAUNCHER_SIGNATURE(::tessera::CudaTag, kind, K) {                                            \
    ::tessera::launch::device_of(#K TS_HOST_NAMES(K));                                            \
    if (ts_count == 0) return;                                                                    \
    ::tessera::launch::cuda_launch(q, #K, ::tessera::launch::cuda_groups(#K, ts_count), THREADS,  \
                                   SHARED_BYTES, K##_kernel<ts_real>, ts_count TS_HOST_NAMES(K)); \
  }                                                                                               \
  TS_INSTANTIATE_LAUNCHER(::tessera::CudaTag, kind, K)

#define TS_CUDA_group(K, THREADS, SCRATCH, OCC) \
  TS_CUDA_GROUP_KERNEL(                         \
      group, K, THREADS, OCC, __shared__ __align__(16) ts_real ts_scratch[SCRATCH];, 0)

// Dynamic shared memory is declared as bytes: the float and double
// instantiations share the extern symbol.
#define TS_CUDA_group_dynamic(K, THREADS, SCRATCH, OCC)                                     \
  TS_CUDA_GROUP_KERNEL(group_dynamic, K, THREADS, OCC,                                      \
                       extern __shared__ __align__(16) unsigned char ts_dynamic_shared[];   \
                       ts_real* ts_scratch = reinterpret_cast<ts_real*>(ts_dynamic_shared); \
                       , ts_scratch_elems * sizeof(ts_real))
