// Kernels and transfers of the streaming (out-of-core) thesis mode, declared
// once per backend (CpuTag, OpenCLTag, CudaTag). Definitions:
// mg_stream_cpu.cpp, mg_stream_opencl.cpp (+ mg_stream.cl), mg_stream_cuda.cu.
// The per-point mathematics is mg_point.h's, addressed through
// mg_stream_point.h, so a tile computes bitwise what the whole grid computes.
#pragma once
#include <cstddef>

#include "core/device.hpp"
#include "core/dispatch.hpp"

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

// jacobi/residual: b, xs/x and xd/r share pitch and origin (offsets differ);
// r may be b (the residual overwrites b in place, as kernel_calculate_error).
#define TS_MGS_DECLARE(Tag)                                                                      \
  template <class T>                                                                             \
  void jacobi(Tag, Device& dev, Queue& q, const Region& r, const TileArray& b,                   \
              const TileArray& xs, const TileArray& xd);                                         \
  /* jacobi with the thesis's local-memory row cache (mg_stream_cache.h; the CPU runs jacobi) */ \
  template <class T>                                                                             \
  void jacobi_cache(Tag, Device& dev, Queue& q, const Region& r, const TileArray& b,             \
                    const TileArray& xs, const TileArray& xd);                                   \
  template <class T>                                                                             \
  void residual(Tag, Device& dev, Queue& q, const Region& r, const TileArray& b,                 \
                const TileArray& x, const TileArray& out);                                       \
  /* coarse points `coarse` from the fine tile `src` into the coarse tile `dst` (eq. 2.4) */     \
  template <class T>                                                                             \
  void restrict_tile(Tag, Device& dev, Queue& q, const Region& coarse, const TileArray& src,     \
                     const TileArray& dst);                                                      \
  /* fine points `fine` of xf from the coarse tile xc: = (coarse levels) or += (finest) */       \
  template <class T>                                                                             \
  void prolong(Tag, Device& dev, Queue& q, const Region& fine, const TileArray& xf,              \
               const TileArray& xc, bool accumulate);                                            \
  /* zeroes the ring of a tile array with w x h interior points */                               \
  template <class T>                                                                             \
  void zero_ring(Tag, Device& dev, Queue& q, const TileArray& a, long w, long h);                \
  /* rectangular copies (rows of width_bytes), asynchronous where the backend allows */          \
  void write_rect(Tag, Device& dev, Queue& q, void* block, std::size_t dev_off,                  \
                  std::size_t dev_pitch, const void* host, std::size_t host_pitch,               \
                  std::size_t width, std::size_t rows);                                          \
  void read_rect(Tag, Device& dev, Queue& q, const void* block, std::size_t dev_off,             \
                 std::size_t dev_pitch, void* host, std::size_t host_pitch, std::size_t width,   \
                 std::size_t rows);                                                              \
  /* submits what was enqueued (clFlush), so queues run concurrently before anyone waits */      \
  void flush(Tag, Queue& q);

TS_MGS_DECLARE(CpuTag)
TS_MGS_DECLARE(OpenCLTag)
TS_MGS_DECLARE(CudaTag)
#undef TS_MGS_DECLARE

}  // namespace kernels
}  // namespace tessera::mg::stream
