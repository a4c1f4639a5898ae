// CUDA generator of the one launcher: a module's _cuda.cu expands its kernel
// list with TS_CUDA_KERNEL. Kind each: a grid-stride loop over [0, n) in
// blocks of 256 threads, at most launch::groups_per_unit per SM; each_one:
// one thread per item; cells: blocks of bx x by cells, one plane each. Group kinds: n blocks of `threads` (the list's, or
// the launch's for group_sized), with the scratch array in shared memory
// (static, or sized at launch); a kernel with variants is compiled once per
// variant, as a template argument.
#pragma once
#include <algorithm>
#include <map>
#include <mutex>
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

/// The most threads a block of kernel `k` can have (its registers may allow
/// fewer than 1024), asked of the runtime once per kernel.
inline int cuda_kernel_threads(const void* k, const char* kernel) {
  static std::mutex mutex;
  static std::map<const void*, int> known;
  const std::lock_guard<std::mutex> lock(mutex);
  const auto it = known.find(k);
  if (it != known.end()) return it->second;
  cudaFuncAttributes a{};
  cuda::cuda_check(cudaFuncGetAttributes(&a, k), "cudaFuncGetAttributes", kernel);
  return known[k] = a.maxThreadsPerBlock;
}

/// Refuses a block of `threads` (x by y) that kernel `k` cannot run: more
/// than 1024 or `bound` (its __launch_bounds__), or, above 256 threads
/// (which every kernel can run: 255 registers each), more than its
/// registers allow.
inline void cuda_check_block(const void* k, const char* kernel, unsigned x, unsigned y,
                             unsigned bound, bool users_shape) {
  const unsigned threads = x * y;
  const auto shape = [&] {
    return std::string(kernel) + ": work-groups of " + std::to_string(x) + " x " +
           std::to_string(y) + " threads";
  };
  if (threads < 1 || threads > 1024)
    refuse_shape(users_shape, shape() + " (CUDA allows 1 to 1024 a block)");
  if (threads > bound)
    refuse_shape(users_shape,
                 shape() + "; the kernel is compiled for at most " + std::to_string(bound));
  if (threads > 256) {
    const int most = cuda_kernel_threads(reinterpret_cast<const void*>(k), kernel);
    if (threads > static_cast<unsigned>(most))
      refuse_shape(users_shape,
                   shape() + "; its registers allow at most " + std::to_string(most) + " a block");
  }
}

/// A group kernel's launch: the block size checked, and dynamic shared
/// memory beyond the default 48 KiB opted into where the device allows it.
template <class... P, class... A>
void cuda_group_launch(Queue& q, Device& d, const char* kernel, const Groups& shape, dim3 block,
                       std::size_t shared_bytes, void (*k)(P...), A&&... args) {
  cuda_check_block(reinterpret_cast<const void*>(k), kernel, block.x, block.y, 1024,
                   shape.users_shape);
  if (shared_bytes > 48 * 1024) {
    const std::size_t most = cuda::device_of(d).properties().sharedMemPerBlockOptin;
    if (shared_bytes > most)
      refuse_shape(shape.users_shape, std::string(kernel) + ": " + format_bytes(shared_bytes) +
                                          " of shared memory per block; " + d.id() + " allows " +
                                          format_bytes(most));
    cuda::DeviceGuard guard(cuda::queue_of(q).ordinal());
    cuda::cuda_check(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          static_cast<int>(shared_bytes)),
                     "cudaFuncSetAttribute", kernel);
  }
  if (shape.count_y > 65535 || shape.count_z > 65535)
    throw Error(std::string(kernel) + ": " + std::to_string(shape.count_y) + " x " +
                std::to_string(shape.count_z) + " work-groups in y and z exceed the CUDA grid");
  auto& cq = cuda::queue_of(q);
  cuda::DeviceGuard guard(cq.ordinal());
  k<<<dim3(cuda_groups(kernel, shape.count), unsigned(shape.count_y), unsigned(shape.count_z)),
      block, shared_bytes, cq.native()>>>(device_arg(args)...);
  cuda::check_launch(kernel);
}

/// A cells kernel's launch: work-groups of bx x by cells of one plane.
/// `bound`: the most threads a group of the kernel may have (its
/// __launch_bounds__).
template <class... P, class... A>
void cuda_cells_launch(Queue& q, const char* kernel, const Cells& box, unsigned bound,
                       void (*k)(P...), A&&... args) {
  cuda_check_block(reinterpret_cast<const void*>(k), kernel, box.bx, box.by, bound,
                   box.users_shape);
  const unsigned long gx = (box.nx + box.bx - 1) / box.bx, gy = (box.ny + box.by - 1) / box.by;
  if (gx > 0x7fffffffu || gy > 65535 || box.nz > 65535)
    throw Error(std::string(kernel) + ": a box of " + std::to_string(box.nx) + " x " +
                std::to_string(box.ny) + " x " + std::to_string(box.nz) + " cells in groups of " +
                std::to_string(box.bx) + " x " + std::to_string(box.by) +
                " exceeds the CUDA grid (65535 groups in y and z, 1024 threads a group)");
  auto& cq = cuda::queue_of(q);
  cuda::DeviceGuard guard(cq.ordinal());
  k<<<dim3(unsigned(gx), unsigned(gy), unsigned(box.nz)), dim3(box.bx, box.by, 1), 0,
      cq.native()>>>(device_arg(args)...);
  cuda::check_launch(kernel);
}

}  // namespace tessera::launch

// Occupancy 0 gives __launch_bounds__(threads, 0): no minimum, the
// compiler's own register choice (a minimum of 1 would let it take more).
#define TS_CUDA_KERNEL(kind, K, THREADS, SCRATCH, OCCUPANCY, VARIANTS) \
  TS_CUDA_##kind(K, THREADS, SCRATCH, (OCCUPANCY), VARIANTS)

#define TS_CUDA_ITEM_LAUNCHER(kind, K, BLOCKS)                                              \
  template <class ts_value>                                                                 \
  TS_LAUNCHER_SIGNATURE(::tessera::CudaTag, kind, K) {                                      \
    [[maybe_unused]] auto& ts_dev = ::tessera::launch::device_of(#K TS_HOST_NAMES(K));      \
    if (ts_count == 0) return;                                                              \
    ::tessera::launch::cuda_launch(q, #K, BLOCKS, ::tessera::launch::kCudaItemBlock, 0,     \
                                   K##_kernel<::tessera::launch::device_value_t<ts_value>>, \
                                   ts_count TS_HOST_NAMES(K));                              \
  }                                                                                         \
  TS_INSTANTIATE_LAUNCHER(::tessera::CudaTag, kind, K)

#define TS_CUDA_each(K, THREADS, SCRATCH, OCC, VARIANTS)                             \
  template <class ts_value>                                                          \
  __global__ void __launch_bounds__(::tessera::launch::kCudaItemBlock)               \
      K##_kernel(ts_size ts_n TS_PARAMS(K)) {                                        \
    const ts_size ts_stride = ts_size(gridDim.x) * blockDim.x;                       \
    for (ts_size ts_i = ts_size(blockIdx.x) * blockDim.x + threadIdx.x; ts_i < ts_n; \
         ts_i += ts_stride)                                                          \
      K##_item(ts_i TS_NAMES(K));                                                    \
  }                                                                                  \
  TS_CUDA_ITEM_LAUNCHER(each, K, ::tessera::launch::cuda_item_blocks(ts_dev, ts_count))

#define TS_CUDA_each_one(K, THREADS, SCRATCH, OCC, VARIANTS)                                  \
  template <class ts_value>                                                                   \
  __global__ void __launch_bounds__(::tessera::launch::kCudaItemBlock)                        \
      K##_kernel(ts_size ts_n TS_PARAMS(K)) {                                                 \
    const ts_size ts_i = ts_size(blockIdx.x) * blockDim.x + threadIdx.x;                      \
    if (ts_i < ts_n) K##_item(ts_i TS_NAMES(K));                                              \
  }                                                                                           \
  TS_CUDA_ITEM_LAUNCHER(                                                                      \
      each_one, K,                                                                            \
      ::tessera::launch::cuda_groups(#K, (ts_count + ::tessera::launch::kCudaItemBlock - 1) / \
                                             ::tessera::launch::kCudaItemBlock))

// A cells kernel comes in three forms, of which a launch instantiates the
// one its list entry asks for: bounded (__launch_bounds__(threads,
// occupancy)), capped (occupancy TS_MAX_REGISTERS(n): __maxnreg__(n)) or
// free (threads 0 and occupancy 0: no attribute, the compiler's own
// register choice; a bound of 512 alone moved lbm's registers).
#define TS_CUDA_CELL_KERNEL(K, NAME, ATTRIBUTE)                                           \
  template <class ts_value, int ts_variant>                                               \
  __global__ void ATTRIBUTE NAME(long ts_nx, long ts_ny TS_PARAMS(K)) {                   \
    const long ts_i = long(blockIdx.x) * blockDim.x + threadIdx.x;                        \
    const long ts_j = long(blockIdx.y) * blockDim.y + threadIdx.y;                        \
    if (ts_i < ts_nx && ts_j < ts_ny)                                                     \
      K##_cell(::ts_variant_tag<ts_variant>{}, ts_i, ts_j, long(blockIdx.z) TS_NAMES(K)); \
  }
#define TS_CUDA_cells(K, THREADS, SCRATCH, OCC, VARIANTS)                                          \
  TS_CUDA_CELL_KERNEL(K, K##_kernel,                                                               \
                      __launch_bounds__((THREADS) > 0 ? (THREADS) : 1024, (OCC) > 0 ? (OCC) : 0))  \
  TS_CUDA_CELL_KERNEL(K, K##_capped_kernel, __maxnreg__((OCC) < 0 ? -(OCC) : 255))                 \
  TS_CUDA_CELL_KERNEL(K, K##_free_kernel, )                                                        \
  template <class ts_value>                                                                        \
  TS_LAUNCHER_SIGNATURE(::tessera::CudaTag, cells, K) {                                            \
    ::tessera::launch::device_of(#K TS_HOST_NAMES(K));                                             \
    if (ts_cells.empty()) return;                                                                  \
    using ts_device_value = ::tessera::launch::device_value_t<ts_value>;                           \
    ::tessera::launch::with_variant(VARIANTS{}, #K, ts_cells.variant, [&](auto ts_v) {             \
      constexpr int ts_variant = decltype(ts_v)::value;                                            \
      constexpr int ts_occupancy = OCC, ts_threads = THREADS;                                      \
      constexpr unsigned ts_bound = ts_threads > 0 ? ts_threads : 1024;                            \
      if constexpr (ts_occupancy < 0)                                                              \
        ::tessera::launch::cuda_cells_launch(q, #K, ts_cells, ts_bound,                            \
                                             K##_capped_kernel<ts_device_value, ts_variant>,       \
                                             ts_cells.nx, ts_cells.ny TS_HOST_NAMES(K));           \
      else if constexpr (ts_occupancy > 0 || ts_threads > 0)                                       \
        ::tessera::launch::cuda_cells_launch(q, #K, ts_cells, ts_bound,                            \
                                             K##_kernel<ts_device_value, ts_variant>, ts_cells.nx, \
                                             ts_cells.ny TS_HOST_NAMES(K));                        \
      else                                                                                         \
        ::tessera::launch::cuda_cells_launch(q, #K, ts_cells, ts_bound,                            \
                                             K##_free_kernel<ts_device_value, ts_variant>,         \
                                             ts_cells.nx, ts_cells.ny TS_HOST_NAMES(K));           \
    });                                                                                            \
  }                                                                                                \
  TS_INSTANTIATE_LAUNCHER(::tessera::CudaTag, cells, K)

// A group kernel: SCRATCH_DECL declares ts_scratch; SIZE is the block size
// in the kernel (a constant where the list fixes it), BLOCK the block of a
// launch (dim3), SHARED_BYTES its dynamic shared memory, LY the work-item's
// y in its group (0 for 1D groups: no register spent on threadIdx.y).
#define TS_CUDA_GROUP_KERNEL(kind, K, BOUNDS, VARIANTS, SCRATCH_DECL, SIZE, SX, SY, BLOCK,     \
                             SHARED_BYTES, LY)                                                 \
  template <class ts_value, int ts_variant>                                                    \
  __global__ void BOUNDS K##_kernel(ts_size ts_n TS_PARAMS(K)) {                               \
    SCRATCH_DECL                                                                               \
    ts_group ts_g;                                                                             \
    ts_g.id = blockIdx.x;                                                                      \
    ts_g.count = ts_n;                                                                         \
    ts_g.id_y = blockIdx.y;                                                                    \
    ts_g.id_z = blockIdx.z;                                                                    \
    ts_g.lx = threadIdx.x;                                                                     \
    ts_g.ly = LY;                                                                              \
    ts_g.lid = threadIdx.x + ts_g.ly * blockDim.x;                                             \
    ts_g.size = SIZE;                                                                          \
    ts_g.sx = SX;                                                                              \
    ts_g.sy = SY;                                                                              \
    ts_g.variant = ts_variant;                                                                 \
    K##_group(ts_g, ts_scratch TS_NAMES(K));                                                   \
  }                                                                                            \
  template <class ts_value>                                                                    \
  TS_LAUNCHER_SIGNATURE(::tessera::CudaTag, kind, K) {                                         \
    auto& ts_dev = ::tessera::launch::device_of(#K TS_HOST_NAMES(K));                          \
    if (ts_shape.empty()) return;                                                              \
    using ts_device_value = ::tessera::launch::device_value_t<ts_value>;                       \
    ::tessera::launch::with_variant(VARIANTS{}, #K, ts_shape.variant, [&](auto ts_v) {         \
      ::tessera::launch::cuda_group_launch(q, ts_dev, #K, ts_shape, BLOCK, SHARED_BYTES,       \
                                           K##_kernel<ts_device_value, decltype(ts_v)::value>, \
                                           ts_shape.count TS_HOST_NAMES(K));                   \
    });                                                                                        \
  }                                                                                            \
  TS_INSTANTIATE_LAUNCHER(::tessera::CudaTag, kind, K)

#define TS_CUDA_STATIC_SCRATCH(SCRATCH) __shared__ __align__(16) ts_value ts_scratch[SCRATCH];
#define TS_CUDA_group(K, THREADS, SCRATCH, OCC, VARIANTS)                   \
  TS_CUDA_GROUP_KERNEL(group, K, __launch_bounds__(THREADS, OCC), VARIANTS, \
                       TS_CUDA_STATIC_SCRATCH(SCRATCH), THREADS, THREADS, 1, dim3(THREADS), 0, 0)
#define TS_CUDA_group_xy(K, THREADS, SCRATCH, OCC, VARIANTS)                                     \
  TS_CUDA_GROUP_KERNEL(group_xy, K, __launch_bounds__(TS_XY_X(THREADS) * TS_XY_Y(THREADS), OCC), \
                       VARIANTS, TS_CUDA_STATIC_SCRATCH(SCRATCH),                                \
                       TS_XY_X(THREADS) * TS_XY_Y(THREADS), TS_XY_X(THREADS), TS_XY_Y(THREADS),  \
                       dim3(TS_XY_X(THREADS), TS_XY_Y(THREADS)), 0, threadIdx.y)

// Dynamic shared memory is declared as bytes: the instantiations for every
// element type share the extern symbol.
#define TS_CUDA_DYNAMIC_SCRATCH                                      \
  extern __shared__ __align__(16) unsigned char ts_dynamic_shared[]; \
  ts_value* ts_scratch = reinterpret_cast<ts_value*>(ts_dynamic_shared);
#define TS_CUDA_DYNAMIC_BYTES(K) \
  ::tessera::launch::dynamic_scratch(#K, ts_shape) * sizeof(ts_device_value)
#define TS_CUDA_group_dynamic(K, THREADS, SCRATCH, OCC, VARIANTS)                   \
  TS_CUDA_GROUP_KERNEL(group_dynamic, K, __launch_bounds__(THREADS, OCC), VARIANTS, \
                       TS_CUDA_DYNAMIC_SCRATCH, THREADS, THREADS, 1, dim3(THREADS), \
                       TS_CUDA_DYNAMIC_BYTES(K), 0)
#define TS_CUDA_group_sized(K, THREADS, SCRATCH, OCC, VARIANTS)                                    \
  TS_CUDA_GROUP_KERNEL(group_sized, K, __launch_bounds__(1024, OCC), VARIANTS,                     \
                       TS_CUDA_DYNAMIC_SCRATCH, blockDim.x, blockDim.x, 1, dim3(ts_shape.threads), \
                       TS_CUDA_DYNAMIC_BYTES(K), 0)
// A group_sized_xy kernel's shape is the user's: no bound (nvcc's own
// register choice; a bound of 1024 took the thesis tile from 46 to 50
// registers, a block of 256 threads fewer per SM), so no occupancy either.
#define TS_CUDA_group_sized_xy(K, THREADS, SCRATCH, OCC, VARIANTS)                           \
  TS_CUDA_GROUP_KERNEL(group_sized_xy, K, , VARIANTS, TS_CUDA_DYNAMIC_SCRATCH,               \
                       blockDim.x* blockDim.y, blockDim.x, blockDim.y,                       \
                       dim3(ts_shape.threads, ts_shape.threads_y), TS_CUDA_DYNAMIC_BYTES(K), \
                       threadIdx.y)
