#include "core/host_memory.hpp"

#include <unistd.h>

#include <fstream>
#include <limits>
#include <string>

#include "core/env.hpp"

namespace tessera {

std::uint64_t host_memory_limit() {
  if (const auto limit = env_bytes("TESSERA_HOST_MEMORY")) return *limit;
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  std::uint64_t kib = 0;
  while (meminfo >> key >> kib) {
    if (key == "MemAvailable:") return kib << 10;
    meminfo.ignore(std::numeric_limits<std::streamsize>::max(), '\n');
  }
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0
             ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page)
             : std::numeric_limits<std::uint64_t>::max();
}

}  // namespace tessera
