// Kernels and transfers of the streaming (out-of-core) thesis mode. The
// kernels (mg_stream_kernel_list.h, on the one launcher) are declared here
// from their argument lists and their steps written once for every backend;
// the rectangular transfers are declared once per backend tag. Definitions:
// mg_stream_cpu.cpp, mg_stream_opencl.cpp (+ mg_stream.cl),
// mg_stream_cuda.cu. The per-point mathematics is mg_point.h's, addressed
// through mg_stream_point.h, so a tile computes bitwise what the whole grid
// computes.
#pragma once
#include <cstddef>
#include <type_traits>

#include "core/device.hpp"
#include "core/dispatch.hpp"
#include "core/launch/launch.hpp"
#include "mg/kernels/mg_grid.h"
#include "mg/kernels/mg_stream_point.hpp"

namespace tessera::mg::stream {

/// One tile array in a device block: level points [i0, i0 + w) x [j0, j0 + h)
/// plus a one-cell ring, row pitch `pitch` (elements), first ring element at
/// element `off` of `block` (see TS_MGS_AT in mg_stream_point.h).
struct TileArray {
  void* block = nullptr;
  std::size_t off = 0;
  long pitch = 0, i0 = 0, j0 = 0;
};

/// Points [i0, i1) x [j0, j1) of a level (column i, row j).
struct Region {
  long i0 = 0, i1 = 0, j0 = 0, j1 = 0;
  long w() const { return i1 - i0; }
  long h() const { return j1 - j0; }
  bool empty() const { return i1 <= i0 || j1 <= j0; }
};

namespace kernels {

TS_MGS_KERNELS(TS_DECLARE_KERNEL)

/// A tile array as a kernel argument (its block from its offset on), its
/// pitch and origin, a region and its points in groups of 32 x 8.
template <class T>
launch::In<T> in(Device& d, const TileArray& a) {
  return {d, a.block, a.off};
}
template <class T>
launch::Out<T> out(Device& d, const TileArray& a) {
  return {d, a.block, a.off};
}
inline ts_mgs_tile tile(const TileArray& a) { return {a.pitch, a.i0, a.j0}; }
inline ts_mgs_region region_of(const Region& r) { return {r.i0, r.j0, r.w(), r.h()}; }
inline launch::Cells points(const Region& r) { return {r.w(), r.h(), 1, 32, 8}; }

// jacobi/residual: b, xs/x and xd/r share pitch and origin (offsets differ);
// r may be b (the residual overwrites b in place, as kernel_calculate_error).
template <class T, class Tag>
void jacobi(Tag tag, Device& dev, Queue& q, const Region& r, const TileArray& b,
            const TileArray& xs, const TileArray& xd) {
  mgs_jacobi<T>(tag, q, points(r), region_of(r), tile(xs), in<T>(dev, b), in<T>(dev, xs),
                out<T>(dev, xd));
}
/* jacobi with the thesis's local-memory row cache (mg_stream_cache.h); the
 * CPU, which has no local memory to cache in, runs jacobi, the reference */
template <class T, class Tag>
void jacobi_cache(Tag tag, Device& dev, Queue& q, const Region& r, const TileArray& b,
                  const TileArray& xs, const TileArray& xd) {
  if constexpr (std::is_same_v<Tag, CpuTag>) {
    jacobi<T>(tag, dev, q, r, b, xs, xd);
  } else {
    const auto groups =
        launch::Groups::grid((r.w() + TS_MGS_CACHE_WG - 1) / TS_MGS_CACHE_WG,
                             (r.h() + TS_MGS_CACHE_ROWS - 1) / TS_MGS_CACHE_ROWS, 1);
    if (r.empty()) return;
    mgs_jacobi_cache<T>(tag, q, groups, region_of(r), tile(xs), in<T>(dev, b), in<T>(dev, xs),
                        out<T>(dev, xd));
  }
}
template <class T, class Tag>
void residual(Tag tag, Device& dev, Queue& q, const Region& r, const TileArray& b,
              const TileArray& x, const TileArray& result) {
  mgs_residual<T>(tag, q, points(r), region_of(r), tile(x), in<T>(dev, b), in<T>(dev, x),
                  out<T>(dev, result));
}
/* coarse points `coarse` from the fine tile `src` into the coarse tile `dst` (eq. 2.4) */
template <class T, class Tag>
void restrict_tile(Tag tag, Device& dev, Queue& q, const Region& coarse, const TileArray& src,
                   const TileArray& dst) {
  mgs_restrict<T>(tag, q, points(coarse), region_of(coarse), tile(src), tile(dst), in<T>(dev, src),
                  out<T>(dev, dst));
}
/* fine points `fine` of xf from the coarse tile xc: = (coarse levels) or += (finest) */
template <class T, class Tag>
void prolong(Tag tag, Device& dev, Queue& q, const Region& fine, const TileArray& xf,
             const TileArray& xc, bool accumulate) {
  mgs_prolong<T>(tag, q, points(fine), region_of(fine), tile(xf), tile(xc), int(accumulate),
                 out<T>(dev, xf), in<T>(dev, xc));
}
/* zeroes the ring of a tile array with w x h interior points */
template <class T, class Tag>
void zero_ring(Tag tag, Device& dev, Queue& q, const TileArray& a, long w, long h) {
  mgs_zero_ring<T>(tag, q, ts_size(2 * (w + 2) + 2 * h), a.pitch, w, h, out<T>(dev, a));
}

#define TS_MGS_DECLARE(Tag)                                                                    \
  /* rectangular copies (rows of width_bytes), asynchronous where the backend allows */        \
  void write_rect(Tag, Device& dev, Queue& q, void* block, std::size_t dev_off,                \
                  std::size_t dev_pitch, const void* host, std::size_t host_pitch,             \
                  std::size_t width, std::size_t rows);                                        \
  void read_rect(Tag, Device& dev, Queue& q, const void* block, std::size_t dev_off,           \
                 std::size_t dev_pitch, void* host, std::size_t host_pitch, std::size_t width, \
                 std::size_t rows);                                                            \
  /* submits what was enqueued (clFlush), so queues run concurrently before anyone waits */    \
  void flush(Tag, Queue& q);

TS_MGS_DECLARE(CpuTag)
TS_MGS_DECLARE(OpenCLTag)
TS_MGS_DECLARE(CudaTag)
#undef TS_MGS_DECLARE

}  // namespace kernels
}  // namespace tessera::mg::stream
