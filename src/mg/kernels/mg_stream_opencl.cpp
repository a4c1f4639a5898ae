// OpenCL launchers of the streaming-mode kernels (device code:
// mg_stream.cl) and its rectangular copies.
#include <fmt/format.h>

#include "backends/opencl/cl_device.hpp"
#include "core/launch/launch_opencl.hpp"
#include "mg/kernels/mg_stream_kernels.hpp"

namespace tessera::mg::stream::kernels {

#define TS_OPENCL_PROGRAM "mg/kernels/mg_stream.cl"
TS_MGS_KERNELS(TS_OPENCL_KERNEL)

void write_rect(OpenCLTag, Device&, Queue& q, void* block, std::size_t dev_off,
                std::size_t dev_pitch, const void* host, std::size_t host_pitch, std::size_t width,
                std::size_t rows) {
  if (!rows || !width) return;
  const std::size_t buf_origin[3] = {dev_off, 0, 0}, host_origin[3] = {0, 0, 0},
                    region[3] = {width, rows, 1};
  opencl::cl_check(
      clEnqueueWriteBufferRect(
          opencl::queue_of(q).native()(), opencl::mem(const_cast<void*>(block)), CL_FALSE,
          buf_origin, host_origin, region, dev_pitch, 0, host_pitch, 0, host, 0, nullptr, nullptr),
      "clEnqueueWriteBufferRect", fmt::format("writing {} rows of {} bytes", rows, width));
}

void read_rect(OpenCLTag, Device&, Queue& q, const void* block, std::size_t dev_off,
               std::size_t dev_pitch, void* host, std::size_t host_pitch, std::size_t width,
               std::size_t rows) {
  if (!rows || !width) return;
  const std::size_t buf_origin[3] = {dev_off, 0, 0}, host_origin[3] = {0, 0, 0},
                    region[3] = {width, rows, 1};
  opencl::cl_check(
      clEnqueueReadBufferRect(opencl::queue_of(q).native()(), opencl::mem(const_cast<void*>(block)),
                              CL_FALSE, buf_origin, host_origin, region, dev_pitch, 0, host_pitch,
                              0, host, 0, nullptr, nullptr),
      "clEnqueueReadBufferRect", fmt::format("reading {} rows of {} bytes", rows, width));
}

void flush(OpenCLTag, Queue& q) {
  opencl::cl_check(clFlush(opencl::queue_of(q).native()()), "clFlush",
                   "submitting a tile's commands");
}

}  // namespace tessera::mg::stream::kernels
