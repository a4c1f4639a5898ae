// CPU (OpenMP) launchers of the streaming-mode kernels; the mathematics is in
// mg_point.h, the tile addressing in mg_stream_point.h. The CPU queue is
// synchronous, so the "asynchronous" rect copies are plain row copies.
#include <cstring>

#include "backends/cpu/cpu_device.hpp"
#include "mg/kernels/mg_stream_kernels.hpp"
#include "mg/kernels/mg_stream_point.hpp"

namespace tessera::mg::stream::kernels {

namespace {

using namespace point;

template <class T>
T* p(const TileArray& a) {
  return cpu::ptr<T>(a.block);
}

// Calls f(i, j) for every point of r (rows in parallel).
template <class F>
void for_each(const Region& r, F f) {
#pragma omp parallel for schedule(static)
  for (long j = r.j0; j < r.j1; ++j)
    for (long i = r.i0; i < r.i1; ++i) f(i, j);
}

}  // namespace

template <class T>
void jacobi(CpuTag, Device&, Queue&, const Region& r, const TileArray& b, const TileArray& xs,
            const TileArray& xd) {
  const T *bp = p<T>(b), *x = p<T>(xs);
  T* y = p<T>(xd);
  for_each(r, [&](long i, long j) {
    const long c = TS_MGS_AT(0, xs.pitch, xs.i0, xs.j0, i, j);
    y[long(xd.off) + c] = ts_mgs_jacobi_at(bp, x, long(b.off) + c, long(xs.off) + c, xs.pitch);
  });
}

// The CPU has no local memory to cache in: its jacobi is the reference the
// cached device kernels equal bitwise.
template <class T>
void jacobi_cache(CpuTag tag, Device& dev, Queue& q, const Region& r, const TileArray& b,
                  const TileArray& xs, const TileArray& xd) {
  jacobi<T>(tag, dev, q, r, b, xs, xd);
}

template <class T>
void residual(CpuTag, Device&, Queue&, const Region& r, const TileArray& b, const TileArray& x,
              const TileArray& out) {
  const T *bp = p<T>(b), *xp = p<T>(x);
  T* o = p<T>(out);
  for_each(r, [&](long i, long j) {
    const long c = TS_MGS_AT(0, x.pitch, x.i0, x.j0, i, j);
    o[long(out.off) + c] = ts_mgs_residual_at(bp, xp, long(b.off) + c, long(x.off) + c, x.pitch);
  });
}

template <class T>
void restrict_tile(CpuTag, Device&, Queue&, const Region& coarse, const TileArray& src,
                   const TileArray& dst) {
  const T* s = p<T>(src);
  T* d = p<T>(dst);
  for_each(coarse, [&](long I, long J) {
    d[TS_MGS_AT(dst.off, dst.pitch, dst.i0, dst.j0, I, J)] =
        ts_mgs_restrict_at(s, long(src.off), src.pitch, src.i0, src.j0, I, J);
  });
}

template <class T>
void prolong(CpuTag, Device&, Queue&, const Region& fine, const TileArray& xf, const TileArray& xc,
             bool accumulate) {
  const T* c = p<T>(xc);
  T* f = p<T>(xf);
  for_each(fine, [&](long i, long j) {
    const T v = ts_mgs_prolong_at(c, long(xc.off), xc.pitch, xc.i0, xc.j0, i, j);
    T& y = f[TS_MGS_AT(xf.off, xf.pitch, xf.i0, xf.j0, i, j)];
    y = accumulate ? y + v : v;
  });
}

template <class T>
void zero_ring(CpuTag, Device&, Queue&, const TileArray& a, long w, long h) {
  T* x = p<T>(a) + a.off;
  for (long i = 0; i < w + 2; ++i) x[i] = x[(h + 1) * a.pitch + i] = T(0);
  for (long j = 1; j <= h; ++j) x[j * a.pitch] = x[j * a.pitch + w + 1] = T(0);
}

void write_rect(CpuTag, Device&, Queue&, void* block, std::size_t dev_off, std::size_t dev_pitch,
                const void* host, std::size_t host_pitch, std::size_t width, std::size_t rows) {
  auto* d = static_cast<unsigned char*>(block) + dev_off;
  auto* s = static_cast<const unsigned char*>(host);
  for (std::size_t r = 0; r < rows; ++r) std::memcpy(d + r * dev_pitch, s + r * host_pitch, width);
}

void read_rect(CpuTag, Device&, Queue&, const void* block, std::size_t dev_off,
               std::size_t dev_pitch, void* host, std::size_t host_pitch, std::size_t width,
               std::size_t rows) {
  auto* s = static_cast<const unsigned char*>(block) + dev_off;
  auto* d = static_cast<unsigned char*>(host);
  for (std::size_t r = 0; r < rows; ++r) std::memcpy(d + r * host_pitch, s + r * dev_pitch, width);
}

void flush(CpuTag, Queue&) {}  // the CPU queue is synchronous

#define TS_INSTANTIATE(T)                                                                  \
  template void jacobi<T>(CpuTag, Device&, Queue&, const Region&, const TileArray&,        \
                          const TileArray&, const TileArray&);                             \
  template void jacobi_cache<T>(CpuTag, Device&, Queue&, const Region&, const TileArray&,  \
                                const TileArray&, const TileArray&);                       \
  template void residual<T>(CpuTag, Device&, Queue&, const Region&, const TileArray&,      \
                            const TileArray&, const TileArray&);                           \
  template void restrict_tile<T>(CpuTag, Device&, Queue&, const Region&, const TileArray&, \
                                 const TileArray&);                                        \
  template void prolong<T>(CpuTag, Device&, Queue&, const Region&, const TileArray&,       \
                           const TileArray&, bool);                                        \
  template void zero_ring<T>(CpuTag, Device&, Queue&, const TileArray&, long, long);
TS_INSTANTIATE(float)
TS_INSTANTIATE(double)
#undef TS_INSTANTIATE

}  // namespace tessera::mg::stream::kernels
