#include "sparse/types.hpp"

#include "sparse/host_memory.hpp"

#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <limits>

#include <fmt/format.h>

#include "core/env.hpp"
#include "core/error.hpp"

namespace tessera::sparse {

index_t to_index(size64 v, std::string_view what) {
  if (v < 0 || v > kMaxIndex)
    throw Error(
        fmt::format("{} ({}) exceeds the 32-bit index range of the sparse formats "
                    "(at most {}); the matrix is too large for this format",
                    what, v, kMaxIndex));
  return static_cast<index_t>(v);
}

size64 checked_mul(size64 a, size64 b, std::string_view what) {
  size64 r = 0;
  if (a < 0 || b < 0 || __builtin_mul_overflow(a, b, &r))
    throw Error(fmt::format("{} ({} x {}) overflows 64-bit sizes", what, a, b));
  return r;
}

void require_host_memory(std::uint64_t bytes, std::string_view what, std::string_view source,
                         std::string_view advice) {
  const std::uint64_t limit = host_memory_limit();
  if (bytes <= limit) return;
  throw Error(
      fmt::format("{}: {} need {} ({} bytes), but only {} of host memory is available{}; {}",
                  source, what, format_bytes(bytes), bytes, format_bytes(limit),
                  env_string("TESSERA_HOST_MEMORY") ? " (TESSERA_HOST_MEMORY)" : "", advice));
}

std::uint64_t csr_build_bytes(size64 rows, size64 nnz, std::size_t value_bytes) {
  const auto r = static_cast<std::uint64_t>(std::max<size64>(rows, 0)) + 1;
  const auto n = static_cast<std::uint64_t>(std::max<size64>(nnz, 0));
  // row starts, distinct counts, the next-slot copy and the result's row
  // pointers (rows + 1 each); order, columns and values (nnz each)
  return 4 * r * sizeof(index_t) + n * (2 * sizeof(index_t) + value_bytes);
}

}  // namespace tessera::sparse
