// CUDA hand-written baseline stencils, 32 x 8 threads per block:
//   runs   each thread computes TS_SKEL_Z_CELLS consecutive z before storing
//          (the skeleton's box kernel shape, without its machinery);
//   march  each thread walks a column of kMarchPlanes planes and keeps the
//          centre and its z-neighbours in registers (7-point).
#include "backends/cuda/cuda_check.hpp"
#include "backends/cuda/cuda_device.hpp"
#include "skeleton/examples.hpp"
#include "skeleton/kernels/native_stencil.hpp"
#include "skeleton/kernels/skel_cuda.cuh"

namespace tessera::skeleton::kernels {

namespace {

// Planes per marching column: long enough that the two extra planes loaded at
// its start cost little, short enough that n = 512 still gives 16 columns of
// blocks in z (8k blocks: a few waves on 132 SMs).
constexpr int kMarchPlanes = 32;

template <class T, int Points>
__device__ T stencil_at(const T* __restrict__ p, index_t sy, index_t sz) {
  const RawAccess<T> s{p, sy, sz};
  if constexpr (Points == 7)
    return examples::stencil::ts_skel_heat7(s);
  else
    return examples::stencil::ts_skel_blur27(s);
}

template <class T, int Points>
__global__ void native_runs_kernel(const T* __restrict__ a, T* __restrict__ b, index_t n) {
  constexpr int U = TS_SKEL_Z_CELLS;
  const index_t x = 1 + index_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const index_t y = 1 + index_t(blockIdx.y) * blockDim.y + threadIdx.y;
  if (x > n || y > n) return;
  const index_t sy = n + 2, sz = sy * sy;
  for (index_t z = 1 + index_t(blockIdx.z) * U; z <= n; z += index_t(gridDim.z) * U) {
    const index_t c = z * sz + y * sy + x;
    if (z + U - 1 <= n) {
      T v[U];
#pragma unroll
      for (int u = 0; u < U; ++u) v[u] = stencil_at<T, Points>(a + c + u * sz, sy, sz);
#pragma unroll
      for (int u = 0; u < U; ++u) b[c + u * sz] = v[u];
    } else {
      for (index_t k = 0; z + k <= n; ++k)
        b[c + k * sz] = stencil_at<T, Points>(a + c + k * sz, sy, sz);
    }
  }
}

template <class T>
__global__ void native_march_kernel(const T* __restrict__ a, T* __restrict__ b, index_t n) {
  const index_t x = 1 + index_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const index_t y = 1 + index_t(blockIdx.y) * blockDim.y + threadIdx.y;
  if (x > n || y > n) return;
  const index_t sy = n + 2, sz = sy * sy;
  for (index_t z0 = 1 + index_t(blockIdx.z) * kMarchPlanes; z0 <= n;
       z0 += index_t(gridDim.z) * kMarchPlanes) {
    const index_t z1 = z0 + kMarchPlanes - 1 < n ? z0 + kMarchPlanes - 1 : n;
    index_t c = z0 * sz + y * sy + x;
    T below = a[c - sz], centre = a[c];
#pragma unroll 4
    for (index_t z = z0; z <= z1; ++z, c += sz) {
      const T above = a[c + sz];
      const ColumnAccess<T> s{a + c, sy, below, centre, above};
      b[c] = examples::stencil::ts_skel_heat7(s);
      below = centre;
      centre = above;
    }
  }
}

unsigned z_blocks(index_t n, index_t per_block) {
  const index_t g = (n + per_block - 1) / per_block;
  return unsigned(g < 65535 ? g : 65535);
}

}  // namespace

template <class T>
void native_stencil(CudaTag, Queue& q, int points, const Buffer<T>& in, Buffer<T>& out, index_t n,
                    NativeWalk walk) {
  check_native(points, walk);
  auto& cq = cuda::queue_of(q);
  cuda::DeviceGuard guard(cq.ordinal());
  const dim3 block(32, 8, 1);
  const unsigned gx = unsigned((n + 31) / 32), gy = unsigned((n + 7) / 8);
  const T* a = cuda::ptr<const T>(in.handle());
  T* b = cuda::ptr<T>(out.handle());
  if (walk == NativeWalk::march)
    native_march_kernel<T>
        <<<dim3(gx, gy, z_blocks(n, kMarchPlanes)), block, 0, cq.native()>>>(a, b, n);
  else if (points == 7)
    native_runs_kernel<T, 7>
        <<<dim3(gx, gy, z_blocks(n, TS_SKEL_Z_CELLS)), block, 0, cq.native()>>>(a, b, n);
  else
    native_runs_kernel<T, 27>
        <<<dim3(gx, gy, z_blocks(n, TS_SKEL_Z_CELLS)), block, 0, cq.native()>>>(a, b, n);
  cuda::check_launch("hand-written baseline stencil");
}

template void native_stencil<float>(CudaTag, Queue&, int, const Buffer<float>&, Buffer<float>&,
                                    index_t, NativeWalk);
template void native_stencil<double>(CudaTag, Queue&, int, const Buffer<double>&, Buffer<double>&,
                                     index_t, NativeWalk);

}  // namespace tessera::skeleton::kernels
