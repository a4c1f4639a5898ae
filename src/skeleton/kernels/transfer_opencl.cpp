// OpenCL rectangular copies: clEnqueue{Copy,Read,Write}BufferRect.
#include <array>

#include <fmt/format.h>

#include "backends/opencl/cl_device.hpp"
#include "skeleton/kernels/transfer_kernels.hpp"

namespace tessera::skeleton::kernels {

namespace {
// (bytes, rows, slices) of the offset, as the Rect calls want an origin.
std::array<std::size_t, 3> origin(const Rect& r) {
  const std::size_t sp = r.slice_pitch ? r.slice_pitch : r.width * r.rows;
  const std::size_t rp = r.row_pitch ? r.row_pitch : r.width;
  const std::size_t z = r.offset / sp, rem = r.offset % sp;
  return {rem % rp, rem / rp, z};
}
std::array<std::size_t, 3> region(const Rect& r) { return {r.width, r.rows, r.slices}; }
cl_command_queue native(Queue& q) { return opencl::queue_of(q).native()(); }
}  // namespace

void copy_rect(OpenCLTag, Queue& q, const void* src, const Rect& s, void* dst, const Rect& d) {
  if (!s.bytes()) return;
  const auto so = origin(s), dO = origin(d), reg = region(s);
  opencl::cl_check(
      clEnqueueCopyBufferRect(native(q), opencl::mem(const_cast<void*>(src)), opencl::mem(dst),
                              so.data(), dO.data(), reg.data(), s.row_pitch, s.slice_pitch,
                              d.row_pitch, d.slice_pitch, 0, nullptr, nullptr),
      "clEnqueueCopyBufferRect", fmt::format("copying a {}-byte halo face", s.bytes()));
}

void read_rect(OpenCLTag, Queue& q, const void* src, const Rect& s, void* host, bool blocking) {
  if (!s.bytes()) return;
  const auto so = origin(s), ho = std::array<std::size_t, 3>{0, 0, 0}, reg = region(s);
  opencl::cl_check(clEnqueueReadBufferRect(native(q), opencl::mem(const_cast<void*>(src)),
                                           blocking ? CL_TRUE : CL_FALSE, so.data(), ho.data(),
                                           reg.data(), s.row_pitch, s.slice_pitch, s.width,
                                           s.width * s.rows, host, 0, nullptr, nullptr),
                   "clEnqueueReadBufferRect", fmt::format("reading a {}-byte region", s.bytes()));
}

void write_rect(OpenCLTag, Queue& q, void* dst, const Rect& d, const void* host, bool blocking) {
  if (!d.bytes()) return;
  const auto dO = origin(d), ho = std::array<std::size_t, 3>{0, 0, 0}, reg = region(d);
  opencl::cl_check(
      clEnqueueWriteBufferRect(native(q), opencl::mem(dst), blocking ? CL_TRUE : CL_FALSE,
                               dO.data(), ho.data(), reg.data(), d.row_pitch, d.slice_pitch,
                               d.width, d.width * d.rows, host, 0, nullptr, nullptr),
      "clEnqueueWriteBufferRect", fmt::format("writing a {}-byte region", d.bytes()));
}

}  // namespace tessera::skeleton::kernels
