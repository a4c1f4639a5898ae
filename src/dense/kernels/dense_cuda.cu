// CUDA launchers of the dense kernels. The mathematics is in dense_point.h;
// here only indexing: 16-byte packs, grid-stride loops, the canonical tree.
#include <algorithm>

#include "backends/cuda/cuda_check.hpp"
#include "backends/cuda/cuda_device.hpp"
#include "dense/kernels/dense_select.hpp"

namespace tessera::dense::kernels {

namespace {

constexpr int kBlock = 256;

// 16 bytes of T, loaded and stored with one 128-bit access.
template <class T>
struct alignas(16) Pack {
  static constexpr int size = 16 / sizeof(T);
  T v[size];
};

template <class T, class F>
__global__ void elementwise_kernel(std::size_t n, T s, const T* __restrict__ x,
                                   const T* __restrict__ z, T* y, bool rx, bool rz) {
  F f;
  constexpr int P = Pack<T>::size;
  const std::size_t packs = n / P;
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  const std::size_t gid = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  auto xv = reinterpret_cast<const Pack<T>*>(x);
  auto zv = reinterpret_cast<const Pack<T>*>(z);
  auto yv = reinterpret_cast<Pack<T>*>(y);
  for (std::size_t p = gid; p < packs; p += stride) {
    Pack<T> a{}, b{}, r;
    if (rx) a = xv[p];
    if (rz) b = zv[p];
#pragma unroll
    for (int k = 0; k < P; ++k) r.v[k] = f(s, a.v[k], b.v[k]);
    yv[p] = r;
  }
  const std::size_t i = packs * P + gid;
  if (i < n) y[i] = f(s, rx ? x[i] : T(0), rz ? z[i] : T(0));
}

template <class T, class Comb>
__device__ void block_tree(T acc, T* out) {
  __shared__ T s[TS_REDUCE_THREADS];
  const unsigned t = threadIdx.x;
  Comb comb;
  s[t] = acc;
  __syncthreads();
#pragma unroll
  for (unsigned h = TS_REDUCE_THREADS / 2; h > 0; h >>= 1) {
    if (t < h) s[t] = comb(s[t], s[t + h]);
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}

// Canonical order (portable.h): one block per chunk.
template <class T, class Term, class Comb>
__global__ void __launch_bounds__(TS_REDUCE_THREADS)
    reduce_canonical_kernel(std::size_t n, const T* __restrict__ x, const T* __restrict__ y,
                            T* out) {
  Term term;
  Comb comb;
  const std::size_t base = std::size_t(blockIdx.x) * TS_REDUCE_CHUNK;
  T acc = Comb::template identity<T>();
#pragma unroll
  for (int k = 0; k < TS_REDUCE_PER_THREAD; ++k) {
    const std::size_t i = base + std::size_t(k) * TS_REDUCE_THREADS + threadIdx.x;
    if (i < n) acc = comb(acc, term(x[i], y[i]));
  }
  block_tree<T, Comb>(acc, out);
}

// Device order: 16-byte packs in a grid-stride loop.
template <class T, class Term, class Comb>
__global__ void __launch_bounds__(TS_REDUCE_THREADS)
    reduce_device_kernel(std::size_t n, const T* __restrict__ x, const T* __restrict__ y, T* out) {
  Term term;
  Comb comb;
  constexpr int P = Pack<T>::size;
  const std::size_t packs = n / P;
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  const std::size_t gid = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  auto xv = reinterpret_cast<const Pack<T>*>(x);
  auto yv = reinterpret_cast<const Pack<T>*>(y);
  T acc = Comb::template identity<T>();
  for (std::size_t p = gid; p < packs; p += stride) {
    Pack<T> a = xv[p], b = yv[p];
#pragma unroll
    for (int k = 0; k < P; ++k) acc = comb(acc, term(a.v[k], b.v[k]));
  }
  const std::size_t i = packs * P + gid;
  if (i < n) acc = comb(acc, term(x[i], y[i]));
  block_tree<T, Comb>(acc, out);
}

unsigned grid_stride_blocks(Device& d, std::size_t packs) {
  const std::size_t cap = static_cast<std::size_t>(std::max(1, d.info().compute_units)) * 8;
  return static_cast<unsigned>(std::max<std::size_t>(1, std::min((packs + kBlock - 1) / kBlock, cap)));
}

}  // namespace

template <class T>
void elementwise(CudaTag, Queue& q, Elementwise op, T s, const Buffer<T>* x, const Buffer<T>* z,
                 Buffer<T>& y) {
  if (y.empty()) return;
  auto& cq = cuda::queue_of(q);
  cuda::DeviceGuard guard(cq.ordinal());
  const T* xp = x ? cuda::ptr<T>(x->handle()) : nullptr;
  const T* zp = z ? cuda::ptr<T>(z->handle()) : nullptr;
  unsigned blocks = grid_stride_blocks(y.device(), y.size() / Pack<T>::size);
  select_elementwise(op, [&](auto f) {
    elementwise_kernel<T, decltype(f)><<<blocks, kBlock, 0, cq.native()>>>(
        y.size(), s, xp, zp, cuda::ptr<T>(y.handle()), reads_x(op), reads_z(op));
  });
  cuda::check_launch("dense elementwise");
}

template <class T>
void reduce_chunks(CudaTag, Queue& q, Term t, Combine c, std::size_t n, const Buffer<T>& x,
                   const Buffer<T>* y, Buffer<T>& partials) {
  auto& cq = cuda::queue_of(q);
  cuda::DeviceGuard guard(cq.ordinal());
  const T* xp = cuda::ptr<T>(x.handle());
  const T* yp = y ? cuda::ptr<T>(y->handle()) : xp;
  const auto chunks = static_cast<unsigned>((n + TS_REDUCE_CHUNK - 1) / TS_REDUCE_CHUNK);
  select_term(t, [&](auto term) {
    select_combine(c, [&](auto comb) {
      reduce_canonical_kernel<T, decltype(term), decltype(comb)>
          <<<chunks, TS_REDUCE_THREADS, 0, cq.native()>>>(n, xp, yp,
                                                           cuda::ptr<T>(partials.handle()));
    });
  });
  cuda::check_launch("dense reduce (canonical order)");
}

template <class T>
void combine_chunks(CudaTag tag, Queue& q, Combine c, std::size_t n, const Buffer<T>& in,
                    Buffer<T>& out) {
  reduce_chunks<T>(tag, q, Term::value, c, n, in, nullptr, out);
}

template <class T>
std::size_t reduce_device_order(CudaTag, Queue& q, Term t, Combine c, std::size_t n,
                                const Buffer<T>& x, const Buffer<T>* y, Buffer<T>& partials) {
  auto& cq = cuda::queue_of(q);
  cuda::DeviceGuard guard(cq.ordinal());
  const T* xp = cuda::ptr<T>(x.handle());
  const T* yp = y ? cuda::ptr<T>(y->handle()) : xp;
  unsigned blocks = std::min<unsigned>(grid_stride_blocks(x.device(), n / Pack<T>::size),
                                       static_cast<unsigned>(kMaxDeviceOrderPartials));
  select_term(t, [&](auto term) {
    select_combine(c, [&](auto comb) {
      reduce_device_kernel<T, decltype(term), decltype(comb)>
          <<<blocks, TS_REDUCE_THREADS, 0, cq.native()>>>(n, xp, yp,
                                                          cuda::ptr<T>(partials.handle()));
    });
  });
  cuda::check_launch("dense reduce (device order)");
  return blocks;
}

#define TS_INSTANTIATE(T)                                                                       \
  template void elementwise<T>(CudaTag, Queue&, Elementwise, T, const Buffer<T>*,              \
                               const Buffer<T>*, Buffer<T>&);                                   \
  template void reduce_chunks<T>(CudaTag, Queue&, Term, Combine, std::size_t, const Buffer<T>&, \
                                 const Buffer<T>*, Buffer<T>&);                                 \
  template void combine_chunks<T>(CudaTag, Queue&, Combine, std::size_t, const Buffer<T>&,     \
                                  Buffer<T>&);                                                  \
  template std::size_t reduce_device_order<T>(CudaTag, Queue&, Term, Combine, std::size_t,     \
                                              const Buffer<T>&, const Buffer<T>*, Buffer<T>&);
TS_INSTANTIATE(float)
TS_INSTANTIATE(double)
#undef TS_INSTANTIATE

}  // namespace tessera::dense::kernels
