// OpenCL launchers of the dense kernels (device code: dense.cl).
#include <fmt/format.h>

#include "backends/opencl/cl_device.hpp"
#include "dense/kernels/dense_kernels.hpp"

namespace tessera::dense::kernels {

namespace {

constexpr std::size_t kGroup = 256;

template <class T>
std::string options() {
  return std::is_same_v<T, float> ? "-Dts_real=float -DTS_PACK=4"
                                  : "-Dts_real=double -DTS_DOUBLE=1 -DTS_PACK=2";
}

template <class T>
cl::Kernel kernel(Buffer<T>& any, const std::string& name) {
  return opencl::device_of(any.device()).kernel("dense/kernels/dense.cl", name, options<T>());
}

const char* elementwise_name(Elementwise op) {
  switch (op) {
    case Elementwise::fill: return "ew_fill";
    case Elementwise::copy: return "ew_copy";
    case Elementwise::scale: return "ew_scale";
    case Elementwise::axpy: return "ew_axpy";
    case Elementwise::add: return "ew_add";
    case Elementwise::triad: break;
  }
  return "ew_triad";
}

std::string reduce_name(const char* prefix, Term t, Combine c) {
  const char* term = t == Term::dot ? "dot" : t == Term::sumsq ? "sumsq" : "value";
  const char* comb = c == Combine::sum ? "sum" : c == Combine::min ? "min" : "max";
  return fmt::format("{}_{}_{}", prefix, term, comb);
}

std::size_t round_up(std::size_t n, std::size_t m) { return (n + m - 1) / m * m; }

// Enough groups to fill the device several times over, no more than the work.
std::size_t grid_stride_items(Device& d, std::size_t packs) {
  const std::size_t cap = static_cast<std::size_t>(std::max(1, d.info().compute_units)) * 32 * kGroup;
  return std::max(kGroup, std::min(round_up(packs, kGroup), cap));
}

template <class T>
cl_mem mem_or(const Buffer<T>* b, const Buffer<T>& fallback) {
  return opencl::mem((b ? *b : fallback).handle());
}

}  // namespace

template <class T>
void elementwise(OpenCLTag, Queue& q, Elementwise op, T s, const Buffer<T>* x, const Buffer<T>* z,
                 Buffer<T>& y) {
  if (y.empty()) return;
  constexpr std::size_t pack = 16 / sizeof(T);
  cl::Kernel k = kernel(y, elementwise_name(op));
  opencl::set_args(k, static_cast<cl_ulong>(y.size()), s, mem_or(x, y), mem_or(z, y),
                   opencl::mem(y.handle()));
  // The scalar tail (fewer than `pack` elements) uses the first work-items.
  std::size_t items = grid_stride_items(y.device(), y.size() / pack);
  opencl::queue_of(q).launch(k, cl::NDRange(items), cl::NDRange(kGroup), elementwise_name(op));
}

template <class T>
void reduce_chunks(OpenCLTag, Queue& q, Term t, Combine c, std::size_t n, const Buffer<T>& x,
                   const Buffer<T>* y, Buffer<T>& partials) {
  auto name = reduce_name("reduce", t, c);
  cl::Kernel k = kernel(partials, name);
  opencl::set_args(k, static_cast<cl_ulong>(n), opencl::mem(x.handle()), mem_or(y, x),
                   opencl::mem(partials.handle()));
  std::size_t chunks = (n + TS_REDUCE_CHUNK - 1) / TS_REDUCE_CHUNK;
  opencl::queue_of(q).launch(k, cl::NDRange(chunks * kGroup), cl::NDRange(kGroup), name.c_str());
}

template <class T>
void combine_chunks(OpenCLTag tag, Queue& q, Combine c, std::size_t n, const Buffer<T>& in,
                    Buffer<T>& out) {
  reduce_chunks<T>(tag, q, Term::value, c, n, in, nullptr, out);
}

template <class T>
std::size_t reduce_device_order(OpenCLTag, Queue& q, Term t, Combine c, std::size_t n,
                                const Buffer<T>& x, const Buffer<T>* y, Buffer<T>& partials) {
  auto name = reduce_name("reduce_device", t, c);
  cl::Kernel k = kernel(partials, name);
  opencl::set_args(k, static_cast<cl_ulong>(n), opencl::mem(x.handle()), mem_or(y, x),
                   opencl::mem(partials.handle()));
  constexpr std::size_t pack = 16 / sizeof(T);
  std::size_t items = std::min(grid_stride_items(x.device(), n / pack),
                               kMaxDeviceOrderPartials * kGroup);
  opencl::queue_of(q).launch(k, cl::NDRange(items), cl::NDRange(kGroup), name.c_str());
  return items / kGroup;
}

#define TS_INSTANTIATE(T)                                                                        \
  template void elementwise<T>(OpenCLTag, Queue&, Elementwise, T, const Buffer<T>*,             \
                               const Buffer<T>*, Buffer<T>&);                                    \
  template void reduce_chunks<T>(OpenCLTag, Queue&, Term, Combine, std::size_t, const Buffer<T>&, \
                                 const Buffer<T>*, Buffer<T>&);                                  \
  template void combine_chunks<T>(OpenCLTag, Queue&, Combine, std::size_t, const Buffer<T>&,    \
                                  Buffer<T>&);                                                   \
  template std::size_t reduce_device_order<T>(OpenCLTag, Queue&, Term, Combine, std::size_t,    \
                                              const Buffer<T>&, const Buffer<T>*, Buffer<T>&);
TS_INSTANTIATE(float)
TS_INSTANTIATE(double)
#undef TS_INSTANTIATE

}  // namespace tessera::dense::kernels
