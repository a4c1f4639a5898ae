// CPU rectangular copies: row by row (the queue is synchronous).
#include <cstring>

#include "backends/cpu/cpu_device.hpp"
#include "skeleton/kernels/transfer_kernels.hpp"

namespace tessera::skeleton::kernels {

namespace {
void copy(const std::byte* src, const Rect& s, std::byte* dst, const Rect& d) {
  if (s.contiguous() && d.contiguous()) {
    std::memcpy(dst + d.offset, src + s.offset, s.bytes());
    return;
  }
  for (std::size_t k = 0; k < s.slices; ++k)
    for (std::size_t j = 0; j < s.rows; ++j)
      std::memcpy(dst + d.offset + k * d.slice_pitch + j * d.row_pitch,
                  src + s.offset + k * s.slice_pitch + j * s.row_pitch, s.width);
}
Rect compact(const Rect& r) { return {0, r.width, r.width * r.rows, r.width, r.rows, r.slices}; }
}  // namespace

void copy_rect(CpuTag, Queue&, const void* src, const Rect& s, void* dst, const Rect& d) {
  copy(cpu::ptr<const std::byte>(const_cast<void*>(src)), s, cpu::ptr<std::byte>(dst), d);
}
void read_rect(CpuTag, Queue&, const void* src, const Rect& s, void* host, bool) {
  copy(cpu::ptr<const std::byte>(const_cast<void*>(src)), s, static_cast<std::byte*>(host),
       compact(s));
}
void write_rect(CpuTag, Queue&, void* dst, const Rect& d, const void* host, bool) {
  copy(static_cast<const std::byte*>(host), compact(d), cpu::ptr<std::byte>(dst), d);
}

}  // namespace tessera::skeleton::kernels
