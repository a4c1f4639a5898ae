// OpenCL host side of the streaming-mode kernels (device code:
// mg_stream.cl) and its rectangular copies (clEnqueue{Write,Read}BufferRect).
#include <type_traits>

#include <fmt/format.h>

#include "backends/opencl/cl_device.hpp"
#include "mg/kernels/mg_stream_kernels.hpp"
#include "mg/kernels/mg_grid.h"

namespace tessera::mg::stream::kernels {

namespace {

template <class T>
const char* options() {
  return std::is_same_v<T, float> ? "-Dts_real=float" : "-Dts_real=double -DTS_DOUBLE=1";
}

cl_mem m(const void* handle) { return opencl::mem(const_cast<void*>(handle)); }

// Launches `name` over region r (one work-item per point), region arguments first.
template <class T, class... Args>
void launch(Device& dev, Queue& q, const char* name, const Region& r, const Args&... args) {
  if (r.empty()) return;
  cl::Kernel k = opencl::device_of(dev).kernel("mg/kernels/mg_stream.cl", name, options<T>());
  opencl::set_args(k, cl_long(r.i0), cl_long(r.j0), cl_long(r.w()), cl_long(r.h()), args...);
  auto up = [](long n, long b) { return static_cast<std::size_t>((n + b - 1) / b * b); };
  opencl::queue_of(q).launch(k, cl::NDRange(up(r.w(), 32), up(r.h(), 8)), cl::NDRange(32, 8), name);
}

cl_long L(long v) { return cl_long(v); }
cl_long L(std::size_t v) { return cl_long(v); }

}  // namespace

template <class T>
void jacobi(OpenCLTag, Device& dev, Queue& q, const Region& r, const TileArray& b,
            const TileArray& xs, const TileArray& xd) {
  launch<T>(dev, q, "mgs_jacobi", r, m(b.block), L(b.off), m(xs.block), L(xs.off), m(xd.block),
            L(xd.off), L(xs.pitch), L(xs.i0), L(xs.j0));
}

template <class T>
void jacobi_cache(OpenCLTag, Device& dev, Queue& q, const Region& r, const TileArray& b,
                  const TileArray& xs, const TileArray& xd) {
  if (r.empty()) return;
  const char* name = "mgs_jacobi_cache";
  cl::Kernel k = opencl::device_of(dev).kernel("mg/kernels/mg_stream.cl", name, options<T>());
  opencl::set_args(k, cl_long(r.i0), cl_long(r.j0), cl_long(r.w()), cl_long(r.h()), m(b.block),
                   L(b.off), m(xs.block), L(xs.off), m(xd.block), L(xd.off), L(xs.pitch), L(xs.i0),
                   L(xs.j0));
  const auto groups = [](long n, long g) { return static_cast<std::size_t>((n + g - 1) / g); };
  opencl::queue_of(q).launch(k,
                             cl::NDRange(groups(r.w(), TS_MGS_CACHE_WG) * TS_MGS_CACHE_WG,
                                         groups(r.h(), TS_MGS_CACHE_ROWS)),
                             cl::NDRange(TS_MGS_CACHE_WG, 1), name);
}

template <class T>
void residual(OpenCLTag, Device& dev, Queue& q, const Region& r, const TileArray& b,
              const TileArray& x, const TileArray& out) {
  launch<T>(dev, q, "mgs_residual", r, m(b.block), L(b.off), m(x.block), L(x.off), m(out.block),
            L(out.off), L(x.pitch), L(x.i0), L(x.j0));
}

template <class T>
void restrict_tile(OpenCLTag, Device& dev, Queue& q, const Region& coarse, const TileArray& src,
                   const TileArray& dst) {
  launch<T>(dev, q, "mgs_restrict", coarse, m(src.block), L(src.off), L(src.pitch), L(src.i0),
            L(src.j0), m(dst.block), L(dst.off), L(dst.pitch), L(dst.i0), L(dst.j0));
}

template <class T>
void prolong(OpenCLTag, Device& dev, Queue& q, const Region& fine, const TileArray& xf,
             const TileArray& xc, bool accumulate) {
  launch<T>(dev, q, "mgs_prolong", fine, m(xf.block), L(xf.off), L(xf.pitch), L(xf.i0), L(xf.j0),
            m(xc.block), L(xc.off), L(xc.pitch), L(xc.i0), L(xc.j0), cl_int(accumulate));
}

template <class T>
void zero_ring(OpenCLTag, Device& dev, Queue& q, const TileArray& a, long w, long h) {
  cl::Kernel k =
      opencl::device_of(dev).kernel("mg/kernels/mg_stream.cl", "mgs_zero_ring", options<T>());
  opencl::set_args(k, m(a.block), L(a.off), L(a.pitch), L(w), L(h));
  const std::size_t n = static_cast<std::size_t>(2 * (w + 2) + 2 * h);
  opencl::queue_of(q).launch(k, cl::NDRange((n + 63) / 64 * 64), cl::NDRange(64), "mgs_zero_ring");
}

void write_rect(OpenCLTag, Device&, Queue& q, void* block, std::size_t dev_off,
                std::size_t dev_pitch, const void* host, std::size_t host_pitch, std::size_t width,
                std::size_t rows) {
  if (!rows || !width) return;
  const std::size_t buf_origin[3] = {dev_off, 0, 0}, host_origin[3] = {0, 0, 0},
                    region[3] = {width, rows, 1};
  opencl::cl_check(clEnqueueWriteBufferRect(opencl::queue_of(q).native()(), m(block), CL_FALSE,
                                            buf_origin, host_origin, region, dev_pitch, 0,
                                            host_pitch, 0, host, 0, nullptr, nullptr),
                   "clEnqueueWriteBufferRect",
                   fmt::format("writing {} rows of {} bytes", rows, width));
}

void read_rect(OpenCLTag, Device&, Queue& q, const void* block, std::size_t dev_off,
               std::size_t dev_pitch, void* host, std::size_t host_pitch, std::size_t width,
               std::size_t rows) {
  if (!rows || !width) return;
  const std::size_t buf_origin[3] = {dev_off, 0, 0}, host_origin[3] = {0, 0, 0},
                    region[3] = {width, rows, 1};
  opencl::cl_check(clEnqueueReadBufferRect(opencl::queue_of(q).native()(), m(block), CL_FALSE,
                                           buf_origin, host_origin, region, dev_pitch, 0,
                                           host_pitch, 0, host, 0, nullptr, nullptr),
                   "clEnqueueReadBufferRect",
                   fmt::format("reading {} rows of {} bytes", rows, width));
}

void flush(OpenCLTag, Queue& q) {
  opencl::cl_check(clFlush(opencl::queue_of(q).native()()), "clFlush",
                   "submitting a tile's commands");
}

#define TS_INSTANTIATE(T)                                                                     \
  template void jacobi<T>(OpenCLTag, Device&, Queue&, const Region&, const TileArray&,        \
                          const TileArray&, const TileArray&);                                \
  template void jacobi_cache<T>(OpenCLTag, Device&, Queue&, const Region&, const TileArray&,  \
                                const TileArray&, const TileArray&);                          \
  template void residual<T>(OpenCLTag, Device&, Queue&, const Region&, const TileArray&,      \
                            const TileArray&, const TileArray&);                              \
  template void restrict_tile<T>(OpenCLTag, Device&, Queue&, const Region&, const TileArray&, \
                                 const TileArray&);                                           \
  template void prolong<T>(OpenCLTag, Device&, Queue&, const Region&, const TileArray&,       \
                           const TileArray&, bool);                                           \
  template void zero_ring<T>(OpenCLTag, Device&, Queue&, const TileArray&, long, long);
TS_INSTANTIATE(float)
TS_INSTANTIATE(double)
#undef TS_INSTANTIATE

}  // namespace tessera::mg::stream::kernels
