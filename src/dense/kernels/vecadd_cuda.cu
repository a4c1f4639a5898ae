// CUDA launcher of vector add. The addition is dense_point.h's ts_ew_add; the
// three kernels differ only in how a and b reach it.
#include <string>

#include "backends/cuda/cuda_check.hpp"
#include "backends/cuda/cuda_device.hpp"
#include "dense/kernels/dense_point.hpp"
#include "dense/kernels/vecadd_kernels.hpp"

namespace tessera::dense::kernels {

namespace {

constexpr int kGroup = kVecAddGroup;

template <class T>
__global__ void __launch_bounds__(kGroup)
    vecadd_global_kernel(std::size_t n, const T* __restrict__ a, const T* __restrict__ b, T* c) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) c[i] = point::ts_ew_add(T(0), a[i], b[i]);
}

// The lecture's local-memory kernel: the block copies its slice of a and b into
// shared memory, waits, then adds from shared memory. Nothing is reused, so it
// can only cost time; it is here to measure that. Every thread reaches the
// barrier (the bounds test only guards the accesses).
template <class T>
__device__ void vecadd_staged(std::size_t n, const T* __restrict__ a, const T* __restrict__ b, T* c,
                              T* la, T* lb) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const unsigned l = threadIdx.x;
  if (i < n) {
    la[l] = a[i];
    lb[l] = b[i];
  }
  __syncthreads();
  if (i < n) c[i] = point::ts_ew_add(T(0), la[l], lb[l]);
}

// Shared arrays of a compile-time size (the block size is fixed to match).
template <class T>
__global__ void __launch_bounds__(kGroup)
    vecadd_static_kernel(std::size_t n, const T* __restrict__ a, const T* __restrict__ b, T* c) {
  __shared__ T la[kGroup];
  __shared__ T lb[kGroup];
  vecadd_staged(n, a, b, c, la, lb);
}

// Shared arrays sized at launch: 2 * blockDim.x elements of extern __shared__
// (declared as bytes, since float and double instantiations share the symbol).
template <class T>
__global__ void __launch_bounds__(kGroup)
    vecadd_dynamic_kernel(std::size_t n, const T* __restrict__ a, const T* __restrict__ b, T* c) {
  extern __shared__ __align__(16) unsigned char dynamic_smem[];
  T* la = reinterpret_cast<T*>(dynamic_smem);
  vecadd_staged(n, a, b, c, la, la + blockDim.x);
}

}  // namespace

template <class T>
void vector_add(CudaTag, Queue& q, VecAddVariant v, const Buffer<T>& a, const Buffer<T>& b,
                Buffer<T>& c) {
  auto& cq = cuda::queue_of(q);
  cuda::DeviceGuard guard(cq.ordinal());
  const std::size_t n = c.size();
  const std::size_t blocks = (n + kGroup - 1) / kGroup;
  if (blocks > 0x7fffffffu)
    throw Error("dense::vector_add: " + std::to_string(n) + " elements exceed the CUDA grid");
  // The variants share a signature: pick the kernel and its dynamic shared
  // memory, then launch once.
  void (*kernel)(std::size_t, const T*, const T*, T*) = vecadd_global_kernel<T>;
  std::size_t smem = 0;
  if (v == VecAddVariant::local_static) kernel = vecadd_static_kernel<T>;
  if (v == VecAddVariant::local_dynamic) {
    kernel = vecadd_dynamic_kernel<T>;
    smem = 2 * kGroup * sizeof(T);
  }
  kernel<<<static_cast<unsigned>(blocks), kGroup, smem, cq.native()>>>(
      n, cuda::ptr<T>(a.handle()), cuda::ptr<T>(b.handle()), cuda::ptr<T>(c.handle()));
  cuda::check_launch(v == VecAddVariant::global         ? "vecadd_global"
                     : v == VecAddVariant::local_static ? "vecadd_local_static"
                                                        : "vecadd_local_dynamic");
}

#define TS_INSTANTIATE(T)                                                                         \
  template void vector_add<T>(CudaTag, Queue&, VecAddVariant, const Buffer<T>&, const Buffer<T>&, \
                              Buffer<T>&);
TS_INSTANTIATE(float)
TS_INSTANTIATE(double)
#undef TS_INSTANTIATE

}  // namespace tessera::dense::kernels
