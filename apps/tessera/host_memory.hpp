// Host allocations of the command line: the size of the last one that failed,
// so that an out-of-memory error says how much was needed.
#pragma once
#include <cstddef>

namespace tessera::app {

/// Bytes of the last host allocation that failed on this thread (0: none).
std::size_t failed_host_allocation() noexcept;

}  // namespace tessera::app
