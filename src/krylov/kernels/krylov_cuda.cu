// CUDA launchers of the Krylov kernels. The mathematics is krylov_point.h and
// the summation order that of krylov_cpu.cpp; here only indexing.
#include <string>
#include <type_traits>

#include "core/error.hpp"

#include "backends/cuda/cuda_check.hpp"
#include "backends/cuda/cuda_device.hpp"
#include "krylov/kernels/krylov_kernels.hpp"
#include "krylov/kernels/krylov_point.hpp"

namespace tessera::krylov::kernels {

namespace {

using namespace point;
constexpr unsigned kBlock = 256;

// Blocks per SM the dots kernel is compiled for: six for a float basis (40
// registers instead of 48, occupancy 75% instead of 62.5%, no spills; the
// fused GMRES's orthogonalisation 0.4 ms faster on an H100), else what the
// compiler picks (the double and half-basis instances would spill).
template <class R, class S>
constexpr int kDotsMinBlocks = std::is_same_v<R, float>&& std::is_same_v<S, float> ? 6 : 1;

// One block of TS_REDUCE_THREADS per (product k, chunk c); consecutive
// blocks share a chunk of w (c = block / k), so its re-reads hit L2. TWO: a
// second right-hand side w2 in the same pass, its partials 2 nch k reals on.
template <class R, class S, int TWO>
__global__ void __launch_bounds__(TS_REDUCE_THREADS, (kDotsMinBlocks<R, S>))
    dots_kernel(int nc, std::size_t n, std::size_t nch, std::size_t k, const S* __restrict__ v,
                std::size_t ld, const S* __restrict__ w, const R* __restrict__ w2, R* partials) {
  __shared__ R s[(TWO ? 4 : 2) * TS_REDUCE_THREADS];  // re, im (, re2, im2)
  const std::size_t kk = blockIdx.x % k, c = blockIdx.x / k;
  dots_group<R, S>(nc, n, c, kk * nch + c, 2 * nch * k, threadIdx.x, v + kk * ld, w, TWO, w2, s,
                   partials);
}

// s-step GMRES's block products: one block of TS_REDUCE_THREADS per (basis
// vector kk, chunk c), as dots; T (the block's vectors) a constant, so the
// sums stay in registers.
template <class R, int T>
__global__ void __launch_bounds__(TS_REDUCE_THREADS)
    dots_block_kernel(int nc, std::size_t n, std::size_t nch, std::size_t k,
                      const R* __restrict__ v, const R* __restrict__ y, std::size_t ld,
                      R* partials) {
  __shared__ R s[2 * T * TS_REDUCE_THREADS];
  const std::size_t kk = blockIdx.x % k, c = blockIdx.x / k;
  ts_kry_dotsb_group(nc, T, n, nch, k, kk, c, threadIdx.x, v + kk * ld, y, long(ld), s, partials);
}

// The block combination in place, one thread per element (ts_kry_combb_at).
template <class R, int T>
__global__ void combine_block_kernel(int nc, std::size_t n, int k, const R* __restrict__ coef,
                                     const R* v, R* y, std::size_t ld) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) ts_kry_combb_at(nc, T, long(i), k, coef, v, y, long(ld));
}

// Calls f(std::integral_constant<int, t>) for 1 <= t <= TS_KRY_BLOCK_MAX.
template <class F>
void with_width(int t, F&& f) {
  switch (t) {
    case 1:
      f(std::integral_constant<int, 1>{});
      break;
    case 2:
      f(std::integral_constant<int, 2>{});
      break;
    case 3:
      f(std::integral_constant<int, 3>{});
      break;
    case 4:
      f(std::integral_constant<int, 4>{});
      break;
    case 5:
      f(std::integral_constant<int, 5>{});
      break;
    case 6:
      f(std::integral_constant<int, 6>{});
      break;
    case 7:
      f(std::integral_constant<int, 7>{});
      break;
    case 8:
      f(std::integral_constant<int, 8>{});
      break;
    default:
      throw Error("krylov: a block of " + std::to_string(t) + " vectors (1 to " +
                  std::to_string(TS_KRY_BLOCK_MAX) + ")");
  }
}
static_assert(TS_KRY_BLOCK_MAX == 8, "with_width lists the widths");

// One block of TS_REDUCE_THREADS per product q (ts_kry_sum_chunks_group).
template <class R>
__global__ void __launch_bounds__(TS_REDUCE_THREADS)
    sum_chunks_kernel(std::size_t chunks, const R* __restrict__ partials, R* __restrict__ out) {
  __shared__ R s[2 * TS_REDUCE_THREADS];
  ts_kry_sum_chunks_group(chunks, blockIdx.x, threadIdx.x, partials, s, out);
}

// DCGS2's coefficients of one step (krylov_dcgs2.h), one block of 128
// threads: the reduction's sums become the update's coefficients without the
// host (ts_kry_dcgs2_group).
template <class R>
__global__ void dcgs2_coef_kernel(int nc, int j, const R* __restrict__ sums, R* __restrict__ coef) {
  __shared__ double part[3 * TS_KRY_DCGS2_LANES], st[7];
  ts_kry_dcgs2_group(nc, j, int(threadIdx.x), int(blockDim.x), sums, part, st, coef);
}

template <class R, class S>
__global__ void combine_kernel(int nc, std::size_t n, int k, const R* __restrict__ coef, const R* x,
                               const S* v, std::size_t ld, S* y, int y_real, int k2,
                               const R* __restrict__ coef2, const S* x2, S* y2) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n)
    combine2_at<R, S>(nc, long(i), k, coef, x != nullptr, x, v, long(ld), y, y_real, y2 != nullptr,
                      k2, coef2, x2 != nullptr, x2, y2);
}

// The fused update (ts_kry_update_at): one block of TS_REDUCE_THREADS per
// chunk, elements in dots' order, so its products have dots' bits.
template <class R>
__global__ void __launch_bounds__(TS_REDUCE_THREADS)
    update_kernel(int nc, std::size_t n, std::size_t nch, unsigned f, int products,
                  const R* __restrict__ coef, const R* x, const R* u, const R* w, R* y, const R* x2,
                  const R* u2, const R* w2, R* y2, const R* __restrict__ d, R* z, const R* e,
                  R* partials) {
  __shared__ R s[3 * TS_REDUCE_THREADS];
  ts_kry_update_group(blockIdx.x, threadIdx.x, nc, n, nch, f, products, coef, x, u, w, y, x2, u2,
                      w2, y2, d, z, e, s, partials);
}

template <class R>
__global__ void block_diag_kernel(int nc, std::size_t n, int bs, const R* __restrict__ d,
                                  const R* __restrict__ x, R* __restrict__ y) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) ts_kry_block_diag_at(nc, long(i), bs, d, x, y);
}

// One block of TS_KRY_TRI_THREADS per group of rows (ts_kry_tri_group).
template <class R>
__global__ void __launch_bounds__(TS_KRY_TRI_THREADS)
    tri_group_kernel(int nc, const int* __restrict__ groups, int group, long n, int backward,
                     const int* __restrict__ ptr, const int* __restrict__ col,
                     const R* __restrict__ val, const R* __restrict__ inv_d, const R* b, R* x) {
  __shared__ R s[2 * TS_KRY_TRI_CAP], acc[2 * TS_KRY_TRI_ROWS], xs[2 * TS_KRY_TRI_ROWS];
  __shared__ int at[TS_KRY_TRI_CAP], span[3 * TS_KRY_TRI_ROWS];
  const long r0 = long(groups[blockIdx.x]) * group, r1 = r0 + group < n ? r0 + group : n;
  ts_kry_tri_group(nc, r0, r1, backward, threadIdx.x, ptr, col, val, inv_d != nullptr, inv_d, b, x,
                   s, at, acc, xs, span);
}

template <class R>
const R* at(const void* h, std::size_t off) {
  return h ? cuda::ptr<R>(const_cast<void*>(h)) + off : nullptr;
}

unsigned blocks_for(std::size_t n) { return static_cast<unsigned>((n + kBlock - 1) / kBlock); }

}  // namespace

template <class R>
void dots(CudaTag, Device& dev, int nc, std::size_t n, int k, const void* v, std::size_t v_off,
          std::size_t ld, const void* w, std::size_t w_off, const void* w2, std::size_t w2_off,
          void* partials, bool compressed) {
  if (n == 0 || k == 0) return;
  auto& cq = cuda::queue_of(dev.queue());
  cuda::DeviceGuard guard(cq.ordinal());
  const std::size_t nch = chunks(n);
  const unsigned blocks = static_cast<unsigned>(nch * std::size_t(k));
  point::with_storage<R>(compressed, [&](auto s) {
    using S = decltype(s);
    if (w2)
      dots_kernel<R, S, 1><<<blocks, TS_REDUCE_THREADS, 0, cq.native()>>>(
          nc, n, nch, std::size_t(k), at<S>(v, v_off), ld, at<S>(w, w_off), at<R>(w2, w2_off),
          cuda::ptr<R>(partials));
    else
      dots_kernel<R, S, 0><<<blocks, TS_REDUCE_THREADS, 0, cq.native()>>>(
          nc, n, nch, std::size_t(k), at<S>(v, v_off), ld, at<S>(w, w_off), nullptr,
          cuda::ptr<R>(partials));
  });
  cuda::check_launch("krylov dots");
}

template <class R>
void dots_block(CudaTag, Device& dev, int nc, std::size_t n, int k, const void* v,
                std::size_t v_off, int t, const void* y, std::size_t y_off, std::size_t ld,
                void* partials) {
  if (n == 0 || k == 0 || t == 0) return;
  auto& cq = cuda::queue_of(dev.queue());
  cuda::DeviceGuard guard(cq.ordinal());
  const std::size_t nch = chunks(n);
  const unsigned blocks = static_cast<unsigned>(nch * std::size_t(k));
  with_width(t, [&](auto width) {
    dots_block_kernel<R, decltype(width)::value><<<blocks, TS_REDUCE_THREADS, 0, cq.native()>>>(
        nc, n, nch, std::size_t(k), at<R>(v, v_off), at<R>(y, y_off), ld, cuda::ptr<R>(partials));
  });
  cuda::check_launch("krylov dots_block");
}

template <class R>
void combine_block(CudaTag, Device& dev, int nc, std::size_t n, int t, const void* coef,
                   std::size_t coef_off, int k, const void* v, std::size_t v_off, void* y,
                   std::size_t y_off, std::size_t ld) {
  if (n == 0 || t == 0) return;
  auto& cq = cuda::queue_of(dev.queue());
  cuda::DeviceGuard guard(cq.ordinal());
  with_width(t, [&](auto width) {
    combine_block_kernel<R, decltype(width)::value><<<blocks_for(n), kBlock, 0, cq.native()>>>(
        nc, n, k, at<R>(coef, coef_off), at<R>(v, v_off), cuda::ptr<R>(y) + y_off, ld);
  });
  cuda::check_launch("krylov combine_block");
}

template <class R>
void sum_chunks(CudaTag, Device& dev, std::size_t chunks, int count, const void* partials,
                void* out) {
  if (count <= 0) return;
  auto& cq = cuda::queue_of(dev.queue());
  cuda::DeviceGuard guard(cq.ordinal());
  sum_chunks_kernel<R><<<unsigned(count), TS_REDUCE_THREADS, 0, cq.native()>>>(
      chunks, at<R>(partials, 0), cuda::ptr<R>(out));
  cuda::check_launch("krylov sum_chunks");
}

template <class R>
void dcgs2_coef(CudaTag, Device& dev, int nc, int j, const void* sums, std::size_t sums_off,
                void* coef, std::size_t coef_off) {
  auto& cq = cuda::queue_of(dev.queue());
  cuda::DeviceGuard guard(cq.ordinal());
  dcgs2_coef_kernel<R>
      <<<1, 128, 0, cq.native()>>>(nc, j, at<R>(sums, sums_off), cuda::ptr<R>(coef) + coef_off);
  cuda::check_launch("krylov dcgs2_coef");
}

template <class R>
void combine(CudaTag, Device& dev, int nc, std::size_t n, int k, const void* coef,
             std::size_t coef_off, const void* x, std::size_t x_off, const void* v,
             std::size_t v_off, std::size_t ld, void* y, std::size_t y_off,
             const SecondOutput& second, bool compressed, bool y_real) {
  if (n == 0) return;
  auto& cq = cuda::queue_of(dev.queue());
  cuda::DeviceGuard guard(cq.ordinal());
  point::with_storage<R>(compressed, [&](auto s) {
    using S = decltype(s);
    S* yp = y_real ? reinterpret_cast<S*>(cuda::ptr<R>(y) + y_off) : cuda::ptr<S>(y) + y_off;
    S* y2 = second.y ? cuda::ptr<S>(second.y) + second.y_off : nullptr;
    combine_kernel<R, S><<<blocks_for(n), kBlock, 0, cq.native()>>>(
        nc, n, k, at<R>(coef, coef_off), at<R>(x, x_off), at<S>(v, v_off), ld, yp, int(y_real),
        second.k, at<R>(coef, second.coef_off), at<S>(second.x, second.x_off), y2);
  });
  cuda::check_launch("krylov combine");
}

template <class R>
void update(CudaTag, Device& dev, int nc, std::size_t n, const void* coef, std::size_t coef_off,
            const UpdateOperands& op, void* partials) {
  if (n == 0) return;
  auto& cq = cuda::queue_of(dev.queue());
  cuda::DeviceGuard guard(cq.ordinal());
  const std::size_t nch = chunks(n);
  auto out = [](void* h) { return h ? cuda::ptr<R>(h) : nullptr; };
  update_kernel<R><<<static_cast<unsigned>(nch), TS_REDUCE_THREADS, 0, cq.native()>>>(
      nc, n, nch, op.flags(), op.products(), at<R>(coef, coef_off), at<R>(op.x, 0), at<R>(op.u, 0),
      at<R>(op.w, 0), out(op.y), at<R>(op.x2, 0), at<R>(op.u2, 0), at<R>(op.w2, 0), out(op.y2),
      at<R>(op.d, 0), out(op.z), at<R>(op.e, 0), out(partials));
  cuda::check_launch("krylov update");
}

template <class R>
void block_diag(CudaTag, Device& dev, int nc, std::size_t n, int bs, const void* d, const void* x,
                void* y) {
  if (n == 0) return;
  auto& cq = cuda::queue_of(dev.queue());
  cuda::DeviceGuard guard(cq.ordinal());
  block_diag_kernel<R><<<blocks_for(n), kBlock, 0, cq.native()>>>(nc, n, bs, at<R>(d, 0),
                                                                  at<R>(x, 0), cuda::ptr<R>(y));
  cuda::check_launch("krylov block_diag");
}

template <class R>
void tri_group(CudaTag, Device& dev, int nc, std::size_t count, const void* groups,
               std::size_t groups_off, int group, std::size_t n, bool backward, const void* ptr,
               const void* col, const void* val, const void* inv_d, const void* b, void* x) {
  if (count == 0) return;
  auto& cq = cuda::queue_of(dev.queue());
  cuda::DeviceGuard guard(cq.ordinal());
  tri_group_kernel<R><<<static_cast<unsigned>(count), TS_KRY_TRI_THREADS, 0, cq.native()>>>(
      nc, at<int>(groups, groups_off), group, long(n), int(backward), at<int>(ptr, 0),
      at<int>(col, 0), at<R>(val, 0), at<R>(inv_d, 0), at<R>(b, 0), cuda::ptr<R>(x));
  cuda::check_launch("krylov tri_group");
}

#define TS_INSTANTIATE(R)                                                                          \
  template void tri_group<R>(CudaTag, Device&, int, std::size_t, const void*, std::size_t, int,    \
                             std::size_t, bool, const void*, const void*, const void*,             \
                             const void*, const void*, void*);                                     \
  template void dots<R>(CudaTag, Device&, int, std::size_t, int, const void*, std::size_t,         \
                        std::size_t, const void*, std::size_t, const void*, std::size_t, void*,    \
                        bool);                                                                     \
  template void sum_chunks<R>(CudaTag, Device&, std::size_t, int, const void*, void*);             \
  template void dots_block<R>(CudaTag, Device&, int, std::size_t, int, const void*, std::size_t,   \
                              int, const void*, std::size_t, std::size_t, void*);                  \
  template void combine_block<R>(CudaTag, Device&, int, std::size_t, int, const void*,             \
                                 std::size_t, int, const void*, std::size_t, void*, std::size_t,   \
                                 std::size_t);                                                     \
  template void dcgs2_coef<R>(CudaTag, Device&, int, int, const void*, std::size_t, void*,         \
                              std::size_t);                                                        \
  template void combine<R>(CudaTag, Device&, int, std::size_t, int, const void*, std::size_t,      \
                           const void*, std::size_t, const void*, std::size_t, std::size_t, void*, \
                           std::size_t, const SecondOutput&, bool, bool);                          \
  template void block_diag<R>(CudaTag, Device&, int, std::size_t, int, const void*, const void*,   \
                              void*);                                                              \
  template void update<R>(CudaTag, Device&, int, std::size_t, const void*, std::size_t,            \
                          const UpdateOperands&, void*);
TS_INSTANTIATE(float)
TS_INSTANTIATE(double)
#undef TS_INSTANTIATE

}  // namespace tessera::krylov::kernels
