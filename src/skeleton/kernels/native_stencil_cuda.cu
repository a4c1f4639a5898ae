// CUDA hand-written baseline stencils: one thread per interior cell, the
// launch shape of the skeleton's interior kernel (32 x 8, z loop).
#include "backends/cuda/cuda_check.hpp"
#include "backends/cuda/cuda_device.hpp"
#include "skeleton/examples.hpp"
#include "skeleton/kernels/native_stencil.hpp"

namespace tessera::skeleton::kernels {

namespace {
template <class T, int Points>
__global__ void native_stencil_kernel(const T* __restrict__ a, T* __restrict__ b, index_t n) {
  const index_t x = 1 + index_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const index_t y = 1 + index_t(blockIdx.y) * blockDim.y + threadIdx.y;
  if (x > n || y > n) return;
  const index_t sy = n + 2, sz = sy * sy;
  for (index_t z = 1 + blockIdx.z; z <= n; z += gridDim.z) {
    const index_t c = z * sz + y * sy + x;
    const RawAccess<T> s{a + c, sy, sz};
    if constexpr (Points == 7)
      b[c] = examples::stencil::ts_skel_heat7(s);
    else
      b[c] = examples::stencil::ts_skel_blur27(s);
  }
}
}  // namespace

template <class T>
void native_stencil(CudaTag, Queue& q, int points, const Buffer<T>& in, Buffer<T>& out, index_t n) {
  auto& cq = cuda::queue_of(q);
  cuda::DeviceGuard guard(cq.ordinal());
  const dim3 block(32, 8, 1);
  const dim3 grid(unsigned((n + 31) / 32), unsigned((n + 7) / 8), unsigned(n < 65535 ? n : 65535));
  const T* a = cuda::ptr<const T>(in.handle());
  T* b = cuda::ptr<T>(out.handle());
  if (points == 7)
    native_stencil_kernel<T, 7><<<grid, block, 0, cq.native()>>>(a, b, n);
  else
    native_stencil_kernel<T, 27><<<grid, block, 0, cq.native()>>>(a, b, n);
  cuda::check_launch("hand-written baseline stencil");
}

template void native_stencil<float>(CudaTag, Queue&, int, const Buffer<float>&, Buffer<float>&, index_t);
template void native_stencil<double>(CudaTag, Queue&, int, const Buffer<double>&, Buffer<double>&, index_t);

}  // namespace tessera::skeleton::kernels
