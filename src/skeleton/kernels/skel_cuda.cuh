// CUDA launchers of the skeleton operations: header-only templates for .cu
// files. A program that runs its own functor on CUDA includes this header in a
// .cu file and instantiates the operations it uses with the macros at the end
// (the built-in examples are instantiated in skel_examples_cuda.cu); a .cpp
// file that calls a skeleton with a functor nobody instantiated fails to link,
// naming the missing cuda_for_boxes<...>.
#pragma once
#include <concepts>

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

/// Several boxes (a frame or the ghost shell) in one launch: a 1-D grid over their
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

/// fold: one block of 256 threads per (row, chunk), the canonical order.
template <class F, class T>
__global__ void skel_reduce_rows_kernel(RowsReduce<F, T> op, index_t rows) {
  __shared__ alignas(16) unsigned char raw[TS_REDUCE_THREADS * sizeof(T)];
  T* s = reinterpret_cast<T*>(raw);
  const index_t r = blockIdx.x / op.chunks, k = blockIdx.x % op.chunks;
  (void)rows;
  const index_t begin = k * TS_REDUCE_CHUNK;
  const index_t n = op.len - begin < TS_REDUCE_CHUNK ? op.len - begin : TS_REDUCE_CHUNK;
  const T* e = op.row(r) + begin;
  const int t = threadIdx.x;
  const int m0 = n < TS_REDUCE_THREADS ? int(n) : TS_REDUCE_THREADS;
  if (t < m0) {
    T acc = e[t];
    for (index_t j = t + TS_REDUCE_THREADS; j < n; j += TS_REDUCE_THREADS) acc = op.f(acc, e[j]);
    s[t] = acc;
  }
  __syncthreads();
  int m = m0;
  for (int h = TS_REDUCE_THREADS / 2; h >= 1; h /= 2) {
    if (t < h && t + h < m) s[t] = op.f(s[t], s[t + h]);
    __syncthreads();
    m = m < h ? m : h;
  }
  if (t == 0) op.out[r * op.chunks + k] = s[0];
}

template <class F, class T>
void cuda_reduce_rows(Queue& q, const RowsReduce<F, T>& op, index_t rows) {
  if (rows == 0) return;
  auto& cq = cuda::queue_of(q);
  cuda::DeviceGuard guard(cq.ordinal());
  const index_t blocks = rows * op.chunks;
  if (blocks > 0x7fffffffLL) throw Error("fold: too many rows for one launch");
  skel_reduce_rows_kernel<<<unsigned(blocks), TS_REDUCE_THREADS, 0, cq.native()>>>(op, rows);
  cuda::check_launch("skeleton fold kernel");
}

}  // namespace tessera::skeleton::kernels

// ---- explicit instantiation for a functor used from .cpp files ----
#define TS_SKEL_CUDA_OP(...)                                             \
  template void tessera::skeleton::kernels::cuda_for_boxes<__VA_ARGS__>( \
      tessera::Queue&, const tessera::skeleton::kernels::BoxList&, const __VA_ARGS__&);
/// map/mapInPlace of F on T -> R (D: 1 DA, 2 DM, 3 DC)
#define TS_SKEL_CUDA_MAP(F, T, R, D) \
  TS_SKEL_CUDA_OP(                   \
      tessera::skeleton::kernels::MapOp<F, T, T, R, tessera::skeleton::kernels::MapKind::map, D>)
#define TS_SKEL_CUDA_MAP_INDEX(F, T, R, D)          \
  TS_SKEL_CUDA_OP(                                  \
      tessera::skeleton::kernels::MapOp<F, T, T, R, \
                                        tessera::skeleton::kernels::MapKind::map_index, D>)
#define TS_SKEL_CUDA_ZIP(F, T, U, R, D) \
  TS_SKEL_CUDA_OP(                      \
      tessera::skeleton::kernels::MapOp<F, T, U, R, tessera::skeleton::kernels::MapKind::zip, D>)
#define TS_SKEL_CUDA_ZIP_INDEX(F, T, U, R, D)       \
  TS_SKEL_CUDA_OP(                                  \
      tessera::skeleton::kernels::MapOp<F, T, U, R, \
                                        tessera::skeleton::kernels::MapKind::zip_index, D>)
/// mapStencil of F on T with boundary function B (NoBoundaryFunction if none)
#define TS_SKEL_CUDA_STENCIL(F, T, B)                               \
  TS_SKEL_CUDA_OP(tessera::skeleton::kernels::StencilInnerOp<F, T>) \
  TS_SKEL_CUDA_OP(tessera::skeleton::kernels::GhostFillOp<F, T, B>)
/// only the ghost fill, for a second boundary function B of a stencil F
#define TS_SKEL_CUDA_STENCIL_BOUNDARY(F, T, B) \
  TS_SKEL_CUDA_OP(tessera::skeleton::kernels::GhostFillOp<F, T, B>)
/// fold of F on T
#define TS_SKEL_CUDA_FOLD(F, T)                                             \
  template void tessera::skeleton::kernels::cuda_reduce_rows<F, T>(         \
      tessera::Queue&, const tessera::skeleton::kernels::RowsReduce<F, T>&, \
      tessera::skeleton::index_t);
