// CPU launchers of the streaming-mode kernels (mg_stream_kernel_list.h, in
// OpenMP loops) and its rectangular copies: the CPU queue is synchronous,
// so the "asynchronous" copies are plain row copies.
#include <cstring>

#include "core/launch/launch_cpu.hpp"
#include "mg/kernels/mg_stream_kernels.hpp"

namespace tessera::mg::stream::kernels {

using namespace point;
TS_MGS_KERNELS(TS_CPU_KERNEL)

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

}  // namespace tessera::mg::stream::kernels
