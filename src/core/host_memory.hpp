// The host memory a command may plan to use, checked before large host
// allocations (sparse readers, benchmark arrays on CPU-side devices).
#pragma once
#include <cstdint>

namespace tessera {

/// The environment variable TESSERA_HOST_MEMORY if set (bytes, suffix K, M,
/// G or T for powers of 1024; an override for tests and shared machines),
/// else MemAvailable of /proc/meminfo, else the physical memory.
std::uint64_t host_memory_limit();

}  // namespace tessera
