#include "core/error.hpp"

#include <fmt/format.h>

namespace tessera {

BackendError::BackendError(std::string backend, std::string call, std::int64_t code,
                           std::string code_name, std::string context)
    : Error(fmt::format("{} error in {} (code {}: {}) while {}", backend, call, code, code_name,
                        context)),
      backend_(std::move(backend)),
      call_(std::move(call)),
      code_(code) {}

OutOfMemory::OutOfMemory(std::string where, std::uint64_t requested, std::uint64_t available)
    : Error(fmt::format("out of memory on {}: needed {} ({} bytes), {} available", where,
                        format_bytes(requested), requested, format_bytes(available))),
      requested_(requested) {}

std::string format_bytes(std::uint64_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double v = static_cast<double>(bytes);
  int u = 0;
  while (v >= 1024.0 && u < 4) {
    v /= 1024.0;
    ++u;
  }
  return u == 0 ? fmt::format("{} B", bytes) : fmt::format("{:.2f} {}", v, units[u]);
}

}  // namespace tessera
