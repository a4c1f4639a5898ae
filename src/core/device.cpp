#include "core/device.hpp"

#include "core/error.hpp"

namespace tessera {

std::string_view to_string(Backend b) noexcept {
  switch (b) {
    case Backend::cpu:
      return "cpu";
    case Backend::opencl:
      return "opencl";
    case Backend::cuda:
      return "cuda";
  }
  return "unknown";
}

void Device::check_fits(std::size_t bytes) const {
  if (info_.max_alloc_bytes != 0 && bytes > info_.max_alloc_bytes)
    throw OutOfMemory(info_.id + " (largest single allocation)", bytes, info_.max_alloc_bytes);
  if (info_.global_mem_bytes != 0 && bytes > info_.global_mem_bytes)
    throw OutOfMemory(info_.id, bytes, info_.global_mem_bytes);
}

}  // namespace tessera
