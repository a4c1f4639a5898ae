// The one launcher for C++ functors on CUDA: a functor object (the
// skeletons' operations around a user's function) run over the cells of a
// box, over items, or as work-groups, from the same call site as the CPU's
// launch::cpu_for_cells / cpu_for_each (launch_cpu.hpp). Header-only
// templates: a .cu file that includes this header instantiates them for its
// functors (the kernel lists of kernel_args.h serve the C99 kernels; this
// serves functors that only C++ can name).
#pragma once
#include <string>

#include "backends/cuda/cuda_check.hpp"
#include "backends/cuda/cuda_device.hpp"
#include "core/kernels/kernel_args.h"
#include "core/launch/launch_cuda.cuh"

namespace tessera::launch {

/// f(i, j, k) per cell: blocks of bx x by cells of one plane, a grid-stride
/// loop over the planes beyond CUDA's 65535 blocks in z.
template <class F>
__global__ void functor_cells_kernel(F f, long nx, long ny, long nz) {
  const long i = long(blockIdx.x) * blockDim.x + threadIdx.x;
  const long j = long(blockIdx.y) * blockDim.y + threadIdx.y;
  if (i >= nx || j >= ny) return;
  for (long k = blockIdx.z; k < nz; k += gridDim.z) f(i, j, k);
}

/// f(i) per item of [0, n): a grid-stride loop, indexed in I (32-bit where
/// n allows: 64-bit division is a long software sequence on the GPU).
template <class F, class I>
__global__ void functor_items_kernel(F f, I n) {
  for (I i = I(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += I(gridDim.x) * blockDim.x) f(i);
}

/// f(g, scratch) per work-item of shape.count groups of Threads, with a
/// group's scratch of Threads elements of S in shared memory.
template <unsigned Threads, class S, class F>
__global__ void __launch_bounds__(Threads) functor_groups_kernel(F f) {
  __shared__ __align__(16) unsigned char raw[Threads * sizeof(S)];
  ts_group g;
  g.id = blockIdx.x;
  g.count = gridDim.x;
  g.id_y = blockIdx.y;
  g.id_z = blockIdx.z;
  g.lx = g.lid = threadIdx.x;
  g.ly = 0;
  g.size = g.sx = Threads;
  g.sy = 1;
  g.variant = 0;
  f(g, reinterpret_cast<S*>(raw));
}

template <class F>
void cuda_for_cells(Queue& q, const char* what, const Cells& box, const F& f) {
  if (box.empty()) return;
  cuda_check_block(reinterpret_cast<const void*>(functor_cells_kernel<F>), what, box.bx, box.by,
                   1024, box.users_shape);
  const long gx = (box.nx + box.bx - 1) / box.bx, gy = (box.ny + box.by - 1) / box.by;
  if (gx > 0x7fffffffL || gy > 65535)
    throw Error(std::string(what) + ": a box of " + std::to_string(box.nx) + " x " +
                std::to_string(box.ny) + " cells exceeds the CUDA grid");
  auto& cq = cuda::queue_of(q);
  cuda::DeviceGuard guard(cq.ordinal());
  const dim3 grid(unsigned(gx), unsigned(gy), unsigned(box.nz < 65535 ? box.nz : 65535));
  functor_cells_kernel<<<grid, dim3(box.bx, box.by, 1), 0, cq.native()>>>(f, box.nx, box.ny,
                                                                          box.nz);
  cuda::check_launch(what);
}

template <class F>
void cuda_for_items(Queue& q, const Device& d, const char* what, ts_size n, const F& f) {
  if (n == 0) return;
  auto& cq = cuda::queue_of(q);
  cuda::DeviceGuard guard(cq.ordinal());
  const unsigned blocks = cuda_item_blocks(d, n);
  if (n < (ts_size(1) << 31))
    functor_items_kernel<<<blocks, kCudaItemBlock, 0, cq.native()>>>(f, unsigned(n));
  else
    functor_items_kernel<<<blocks, kCudaItemBlock, 0, cq.native()>>>(f, n);
  cuda::check_launch(what);
}

template <unsigned Threads, class S, class F>
void cuda_for_groups(Queue& q, const char* what, ts_size groups, const F& f) {
  if (groups == 0) return;
  auto& cq = cuda::queue_of(q);
  cuda::DeviceGuard guard(cq.ordinal());
  functor_groups_kernel<Threads, S><<<cuda_groups(what, groups), Threads, 0, cq.native()>>>(f);
  cuda::check_launch(what);
}

}  // namespace tessera::launch
