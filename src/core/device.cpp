#include "core/device.hpp"

#include "core/enum_names.hpp"
#include "core/error.hpp"

namespace tessera {

namespace {
constexpr std::array<std::string_view, 3> kBackendNames{"cpu", "opencl", "cuda"};
static_assert(kBackendNames.size() == std::size_t(Backend::cuda) + 1);
}  // namespace

std::string_view to_string(Backend b) noexcept { return enum_name(b, kBackendNames, "unknown"); }

void Device::check_fits(std::size_t bytes) const {
  if (info_.max_alloc_bytes != 0 && bytes > info_.max_alloc_bytes)
    throw OutOfMemory(info_.id + " (largest single allocation)", bytes, info_.max_alloc_bytes);
  if (info_.global_mem_bytes != 0 && bytes > info_.global_mem_bytes)
    throw OutOfMemory(info_.id, bytes, info_.global_mem_bytes);
}

}  // namespace tessera
