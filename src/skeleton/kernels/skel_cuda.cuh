// CUDA launchers of the skeleton operations: header-only templates for .cu
// files. A program that runs its own functor on CUDA includes this header in a
// .cu file and instantiates the operations it uses with the macros at the end
// (the built-in examples are instantiated in skel_examples_cuda.cu); a .cpp
// file that calls a skeleton with a functor nobody instantiated fails to link,
// naming the missing cuda_for_boxes<...>.
#pragma once
#include <concepts>
#include <cstring>
#include <type_traits>

#include "backends/cuda/cuda_check.hpp"
#include "backends/cuda/cuda_device.hpp"
#include "skeleton/kernels/skel_access.h"  // TS_SKEL_Z_CELLS
#include "skeleton/kernels/skel_launch.hpp"

namespace tessera::skeleton::kernels {

template <class Op>
concept SplitOp = requires(const Op& op, typename Op::result v) {
  { op.fast_run(index_t{}, index_t{}, index_t{}, int{}) } -> std::same_as<bool>;
  op.compute_run(index_t{}, index_t{}, index_t{}, int{});
  op.store_run(index_t{}, index_t{}, index_t{}, int{}, v);
};

/// One box: a 3-D grid, x fastest; each thread takes runs of
/// TS_SKEL_Z_CELLS consecutive z (skel_access.h says why), computed before
/// stored where the op's fast_run() allows, else cell by cell (a grid-stride
/// loop when the box is deeper than the grid).
template <class Op>
__global__ void skel_box_kernel(Op op, Box b) {
  constexpr int U = TS_SKEL_Z_CELLS;
  const index_t x = b.lo[0] + index_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const index_t y = b.lo[1] + index_t(blockIdx.y) * blockDim.y + threadIdx.y;
  if (x >= b.hi[0] || y >= b.hi[1]) return;
  for (index_t z = b.lo[2] + index_t(blockIdx.z) * U; z < b.hi[2]; z += index_t(gridDim.z) * U) {
    if constexpr (SplitOp<Op>) {
      if (z + U <= b.hi[2] && op.fast_run(x, y, z, U)) {
        typename Op::result v[U];
#pragma unroll
        for (int u = 0; u < U; ++u) v[u] = op.compute_run(x, y, z, u);
#pragma unroll
        for (int u = 0; u < U; ++u) op.store_run(x, y, z, u, v[u]);
        continue;
      }
    }
    for (index_t k = z; k < z + U && k < b.hi[2]; ++k) op(x, y, k);
  }
}

/// Several boxes (the outer frame) in one launch: a 1-D grid over their
/// cells, indexed in I (32-bit when the frame allows: 64-bit division is a
/// long software sequence on the GPU).
template <class Op, class I>
__global__ void skel_boxes_kernel(Op op, BoxList l, I total) {
  for (I i = I(blockIdx.x) * blockDim.x + threadIdx.x; i < total; i += I(gridDim.x) * blockDim.x) {
    I j = i;
    int k = 0;
    while (j >= I(l.box[k].volume())) j -= I(l.box[k++].volume());
    const Box& b = l.box[k];
    const I ex = I(b.extent(0)), ey = I(b.extent(1));
    const I row = j / ex;
    op(b.lo[0] + index_t(j - row * ex), b.lo[1] + index_t(row % ey), b.lo[2] + index_t(row / ey));
  }
}

template <class Op>
void cuda_for_boxes(Queue& q, const BoxList& boxes, const Op& op) {
  auto& cq = cuda::queue_of(q);
  cuda::DeviceGuard guard(cq.ordinal());
  if (boxes.count == 1) {
    const Box& b = boxes.box[0];
    if (b.empty()) return;
    const dim3 block(32, 8, 1);
    const index_t zruns = (b.extent(2) + TS_SKEL_Z_CELLS - 1) / TS_SKEL_Z_CELLS;
    const dim3 grid(unsigned((b.extent(0) + 31) / 32), unsigned((b.extent(1) + 7) / 8),
                    unsigned(zruns < 65535 ? zruns : 65535));
    skel_box_kernel<<<grid, block, 0, cq.native()>>>(op, b);
    cuda::check_launch("skeleton box kernel");
    return;
  }
  const index_t total = boxes.volume();
  if (!total) return;
  const index_t blocks = (total + 255) / 256;
  const unsigned grid = unsigned(blocks < 65535 ? blocks : 65535);
  if (total < (index_t(1) << 31))
    skel_boxes_kernel<<<grid, 256, 0, cq.native()>>>(op, boxes, unsigned(total));
  else
    skel_boxes_kernel<<<grid, 256, 0, cq.native()>>>(op, boxes, total);
  cuda::check_launch("skeleton frame kernel");
}

/// A warp shuffle of any trivially copyable T (4-byte words for the others).
template <class T>
__device__ __forceinline__ T shfl_down(const T& v, int d) {
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double> || std::is_same_v<T, int> ||
                std::is_same_v<T, unsigned> || std::is_same_v<T, long long> ||
                std::is_same_v<T, unsigned long long> || std::is_same_v<T, long> || std::is_same_v<T, unsigned long>) {
    return __shfl_down_sync(0xffffffffu, v, d);
  } else {
    unsigned w[(sizeof(T) + 3) / 4] = {};
    memcpy(w, &v, sizeof(T));
#pragma unroll
    for (int i = 0; i < int((sizeof(T) + 3) / 4); ++i) w[i] = __shfl_down_sync(0xffffffffu, w[i], d);
    T r;
    memcpy(&r, w, sizeof(T));
    return r;
  }
}

/// fold: one warp per (row, chunk), 8 per block. The warp plays the canonical
/// order's 256 "threads" (portable.h; skel_cpu.hpp's reduce_chunk): lane L is
/// threads L, L + 32, ..., L + 224, so the halving tree's steps 128, 64, 32
/// stay in a lane and 16 .. 1 are shuffles, the same operations on the same
/// operands as one block of 256 threads with a shared array, without its
/// barriers (a block per 512-element row left the fold at 3% of the copy
/// bandwidth on an H200: 262,144 tiny blocks, eight barriers each).
constexpr int kFoldWarps = 8;
template <class F, class T>
__global__ void skel_reduce_rows_kernel(RowsReduce<F, T> op, index_t items) {
  constexpr int K = TS_REDUCE_THREADS / 32;  // virtual threads per lane
  static_assert(TS_REDUCE_THREADS == 256, "the tree below unrolls 256 threads");
  const index_t item = index_t(blockIdx.x) * kFoldWarps + threadIdx.x / 32;
  if (item >= items) return;  // whole warps leave together
  const int lane = int(threadIdx.x % 32);
  const index_t r = item / op.chunks, k = item % op.chunks;
  const index_t begin = k * TS_REDUCE_CHUNK;
  const index_t n = op.len - begin < TS_REDUCE_CHUNK ? op.len - begin : TS_REDUCE_CHUNK;
  const T* e = op.row(r) + begin;
  const int m0 = n < TS_REDUCE_THREADS ? int(n) : TS_REDUCE_THREADS;
  T v[K];
#pragma unroll
  for (int q = 0; q < K; ++q) {
    const int t = lane + 32 * q;
    if (t < m0) {
      T acc = e[t];
      for (index_t j = t + TS_REDUCE_THREADS; j < n; j += TS_REDUCE_THREADS) acc = op.f(acc, e[j]);
      v[q] = acc;
    }
  }
  int m = m0;
  // h = 128, 64, 32: thread t = lane + 32 q takes t + h = lane + 32 (q + h / 32)
#pragma unroll
  for (int h = 128; h >= 32; h /= 2) {
#pragma unroll
    for (int q = 0; q < h / 32; ++q)
      if (lane + 32 * q + h < m) v[q] = op.f(v[q], v[q + h / 32]);
    m = m < h ? m : h;
  }
#pragma unroll
  for (int h = 16; h >= 1; h /= 2) {
    const T other = shfl_down(v[0], h);
    if (lane < h && lane + h < m) v[0] = op.f(v[0], other);
    m = m < h ? m : h;
  }
  if (lane == 0) op.out[r * op.chunks + k] = v[0];
}

template <class F, class T>
void cuda_reduce_rows(Queue& q, const RowsReduce<F, T>& op, index_t rows) {
  if (rows == 0) return;
  auto& cq = cuda::queue_of(q);
  cuda::DeviceGuard guard(cq.ordinal());
  const index_t items = rows * op.chunks;
  const index_t blocks = (items + kFoldWarps - 1) / kFoldWarps;
  if (blocks > 0x7fffffffLL) throw Error("fold: too many rows for one launch");
  skel_reduce_rows_kernel<<<unsigned(blocks), 32 * kFoldWarps, 0, cq.native()>>>(op, items);
  cuda::check_launch("skeleton fold kernel");
}

}  // namespace tessera::skeleton::kernels

// ---- explicit instantiation for a functor used from .cpp files ----
#define TS_SKEL_CUDA_OP(...) \
  template void tessera::skeleton::kernels::cuda_for_boxes<__VA_ARGS__>(tessera::Queue&, const tessera::skeleton::kernels::BoxList&, const __VA_ARGS__&);
/// map/mapInPlace of F on T -> R (D: 1 DA, 2 DM, 3 DC)
#define TS_SKEL_CUDA_MAP(F, T, R, D) \
  TS_SKEL_CUDA_OP(tessera::skeleton::kernels::MapOp<F, T, T, R, tessera::skeleton::kernels::MapKind::map, D>)
#define TS_SKEL_CUDA_MAP_INDEX(F, T, R, D) \
  TS_SKEL_CUDA_OP(tessera::skeleton::kernels::MapOp<F, T, T, R, tessera::skeleton::kernels::MapKind::map_index, D>)
#define TS_SKEL_CUDA_ZIP(F, T, U, R, D) \
  TS_SKEL_CUDA_OP(tessera::skeleton::kernels::MapOp<F, T, U, R, tessera::skeleton::kernels::MapKind::zip, D>)
#define TS_SKEL_CUDA_ZIP_INDEX(F, T, U, R, D) \
  TS_SKEL_CUDA_OP(tessera::skeleton::kernels::MapOp<F, T, U, R, tessera::skeleton::kernels::MapKind::zip_index, D>)
/// mapStencil of F on T
#define TS_SKEL_CUDA_STENCIL(F, T) TS_SKEL_CUDA_OP(tessera::skeleton::kernels::StencilInnerOp<F, T>)
/// the ghost fill of T with boundary function B (NoBoundaryFunction if none),
/// once per pair; the library instantiates it for float and double without one
#define TS_SKEL_CUDA_BOUNDARY(T, B) TS_SKEL_CUDA_OP(tessera::skeleton::kernels::GhostFillOp<T, B>)
/// fold of F on T
#define TS_SKEL_CUDA_FOLD(F, T)                                                                        \
  template void tessera::skeleton::kernels::cuda_reduce_rows<F, T>(                                   \
      tessera::Queue&, const tessera::skeleton::kernels::RowsReduce<F, T>&, tessera::skeleton::index_t);
