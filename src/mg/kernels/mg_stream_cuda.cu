// CUDA launchers of the streaming-mode kernels (one thread per point of the
// region written, level coordinates) and its rectangular copies
// (cudaMemcpy2DAsync: truly asynchronous from pinned host memory, staged by
// the driver from pageable memory).
#include <string>

#include "backends/cuda/cuda_check.hpp"
#include "backends/cuda/cuda_device.hpp"
#include "mg/kernels/mg_stream_kernels.hpp"
#include "mg/kernels/mg_stream_point.hpp"

#include "core/kernels/portable.h"  // at file scope: before each_precision.h

namespace tessera::mg::stream::tiles {
#define TS_POINT_HEADER "mg/kernels/mg_stream_cache.h"
#include "core/kernels/each_precision.h"
}  // namespace tessera::mg::stream::tiles

namespace tessera::mg::stream::kernels {

namespace {

using namespace point;

// A tile array by value: base pointer (block + off), pitch, origin.
template <class T>
struct Arr {
  T* a;
  long p, i0, j0;
};
template <class T>
Arr<T> arr(const TileArray& t) {
  return {cuda::ptr<T>(t.block) + t.off, t.pitch, t.i0, t.j0};
}

struct Reg {
  long i0, j0, w, h;
};

__device__ bool point_of(const Reg& r, long& i, long& j) {
  const long x = long(blockIdx.x) * blockDim.x + threadIdx.x,
             y = long(blockIdx.y) * blockDim.y + threadIdx.y;
  i = r.i0 + x;
  j = r.j0 + y;
  return x < r.w && y < r.h;
}

template <class T>
__global__ void jacobi_k(Reg r, Arr<T> b, Arr<T> xs, Arr<T> xd) {
  long i, j;
  if (!point_of(r, i, j)) return;
  const long c = TS_MGS_AT(0, xs.p, xs.i0, xs.j0, i, j);
  xd.a[c] = ts_mgs_jacobi_at(b.a, xs.a, c, c, xs.p);
}

// The thesis's local-memory row cache (mg_stream_cache.h): blocks of
// TS_MGS_CACHE_WG x 1, block row g covers a band of TS_MGS_CACHE_ROWS rows.
template <class T>
__global__ void __launch_bounds__(TS_MGS_CACHE_WG)
    jacobi_cache_k(Reg r, Arr<T> b, Arr<T> xs, Arr<T> xd) {
  __shared__ T cache[9 * TS_MGS_CACHE_WG];
  tiles::ts_mgs_jacobi_cache_at(b.a, xs.a, xd.a, xs.p, xs.i0, xs.j0, r.i0, r.j0, r.w, r.h,
                                long(blockIdx.x), long(blockIdx.y), int(threadIdx.x), cache);
}

template <class T>
__global__ void residual_k(Reg r, Arr<T> b, Arr<T> x, Arr<T> out) {
  long i, j;
  if (!point_of(r, i, j)) return;
  const long c = TS_MGS_AT(0, x.p, x.i0, x.j0, i, j);
  out.a[c] = ts_mgs_residual_at(b.a, x.a, c, c, x.p);
}

template <class T>
__global__ void restrict_k(Reg r, Arr<T> s, Arr<T> d) {
  long I, J;
  if (!point_of(r, I, J)) return;
  d.a[TS_MGS_AT(0, d.p, d.i0, d.j0, I, J)] = ts_mgs_restrict_at(s.a, 0, s.p, s.i0, s.j0, I, J);
}

template <class T>
__global__ void prolong_k(Reg r, Arr<T> f, Arr<T> c, bool accumulate) {
  long i, j;
  if (!point_of(r, i, j)) return;
  const T v = ts_mgs_prolong_at(c.a, 0, c.p, c.i0, c.j0, i, j);
  T& y = f.a[TS_MGS_AT(0, f.p, f.i0, f.j0, i, j)];
  y = accumulate ? y + v : v;
}

template <class T>
__global__ void zero_ring_k(Arr<T> a, long w, long h) {
  const long t = long(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t < w + 2)
    a.a[t] = 0;
  else if (t < 2 * (w + 2))
    a.a[(h + 1) * a.p + (t - (w + 2))] = 0;
  else if (t < 2 * (w + 2) + h)
    a.a[(t - 2 * (w + 2) + 1) * a.p] = 0;
  else if (t < 2 * (w + 2) + 2 * h)
    a.a[(t - 2 * (w + 2) - h + 1) * a.p + w + 1] = 0;
}

template <class K, class... Args>
void launch(Queue& q, const Region& r, const char* name, K kernel, Args... args) {
  if (r.empty()) return;
  auto& cq = cuda::queue_of(q);
  cuda::DeviceGuard guard(cq.ordinal());
  dim3 block(32, 8, 1);
  dim3 grid(unsigned((r.w() + 31) / 32), unsigned((r.h() + 7) / 8), 1);
  kernel<<<grid, block, 0, cq.native()>>>(Reg{r.i0, r.j0, r.w(), r.h()}, args...);
  cuda::check_launch(name);
}

}  // namespace

template <class T>
void jacobi(CudaTag, Device&, Queue& q, const Region& r, const TileArray& b, const TileArray& xs,
            const TileArray& xd) {
  launch(q, r, "mgs jacobi", jacobi_k<T>, arr<T>(b), arr<T>(xs), arr<T>(xd));
}
template <class T>
void jacobi_cache(CudaTag, Device&, Queue& q, const Region& r, const TileArray& b,
                  const TileArray& xs, const TileArray& xd) {
  if (r.empty()) return;
  auto& cq = cuda::queue_of(q);
  cuda::DeviceGuard guard(cq.ordinal());
  const dim3 grid(unsigned((r.w() + TS_MGS_CACHE_WG - 1) / TS_MGS_CACHE_WG),
                  unsigned((r.h() + TS_MGS_CACHE_ROWS - 1) / TS_MGS_CACHE_ROWS), 1);
  jacobi_cache_k<T><<<grid, dim3(TS_MGS_CACHE_WG, 1, 1), 0, cq.native()>>>(
      Reg{r.i0, r.j0, r.w(), r.h()}, arr<T>(b), arr<T>(xs), arr<T>(xd));
  cuda::check_launch("mgs jacobi_cache");
}
template <class T>
void residual(CudaTag, Device&, Queue& q, const Region& r, const TileArray& b, const TileArray& x,
              const TileArray& out) {
  launch(q, r, "mgs residual", residual_k<T>, arr<T>(b), arr<T>(x), arr<T>(out));
}
template <class T>
void restrict_tile(CudaTag, Device&, Queue& q, const Region& coarse, const TileArray& src,
                   const TileArray& dst) {
  launch(q, coarse, "mgs restrict", restrict_k<T>, arr<T>(src), arr<T>(dst));
}
template <class T>
void prolong(CudaTag, Device&, Queue& q, const Region& fine, const TileArray& xf,
             const TileArray& xc, bool accumulate) {
  launch(q, fine, "mgs prolong", prolong_k<T>, arr<T>(xf), arr<T>(xc), accumulate);
}
template <class T>
void zero_ring(CudaTag, Device&, Queue& q, const TileArray& a, long w, long h) {
  auto& cq = cuda::queue_of(q);
  cuda::DeviceGuard guard(cq.ordinal());
  const long n = 2 * (w + 2) + 2 * h;
  zero_ring_k<T><<<unsigned((n + 63) / 64), 64, 0, cq.native()>>>(arr<T>(a), w, h);
  cuda::check_launch("mgs zero_ring");
}

void write_rect(CudaTag, Device&, Queue& q, void* block, std::size_t dev_off, std::size_t dev_pitch,
                const void* host, std::size_t host_pitch, std::size_t width, std::size_t rows) {
  if (!rows || !width) return;
  auto& cq = cuda::queue_of(q);
  cuda::DeviceGuard guard(cq.ordinal());
  cuda::cuda_check(
      cudaMemcpy2DAsync(static_cast<char*>(block) + dev_off, dev_pitch, host, host_pitch, width,
                        rows, cudaMemcpyHostToDevice, cq.native()),
      "cudaMemcpy2DAsync",
      "writing " + std::to_string(rows) + " rows of " + std::to_string(width) + " bytes");
}

void read_rect(CudaTag, Device&, Queue& q, const void* block, std::size_t dev_off,
               std::size_t dev_pitch, void* host, std::size_t host_pitch, std::size_t width,
               std::size_t rows) {
  if (!rows || !width) return;
  auto& cq = cuda::queue_of(q);
  cuda::DeviceGuard guard(cq.ordinal());
  cuda::cuda_check(
      cudaMemcpy2DAsync(host, host_pitch, static_cast<const char*>(block) + dev_off, dev_pitch,
                        width, rows, cudaMemcpyDeviceToHost, cq.native()),
      "cudaMemcpy2DAsync",
      "reading " + std::to_string(rows) + " rows of " + std::to_string(width) + " bytes");
}

void flush(CudaTag, Queue&) {}  // CUDA submits every call at once

#define TS_INSTANTIATE(T)                                                                   \
  template void jacobi<T>(CudaTag, Device&, Queue&, const Region&, const TileArray&,        \
                          const TileArray&, const TileArray&);                              \
  template void jacobi_cache<T>(CudaTag, Device&, Queue&, const Region&, const TileArray&,  \
                                const TileArray&, const TileArray&);                        \
  template void residual<T>(CudaTag, Device&, Queue&, const Region&, const TileArray&,      \
                            const TileArray&, const TileArray&);                            \
  template void restrict_tile<T>(CudaTag, Device&, Queue&, const Region&, const TileArray&, \
                                 const TileArray&);                                         \
  template void prolong<T>(CudaTag, Device&, Queue&, const Region&, const TileArray&,       \
                           const TileArray&, bool);                                         \
  template void zero_ring<T>(CudaTag, Device&, Queue&, const TileArray&, long, long);
TS_INSTANTIATE(float)
TS_INSTANTIATE(double)
#undef TS_INSTANTIATE

}  // namespace tessera::mg::stream::kernels
