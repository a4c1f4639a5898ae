#include "sparse/types.hpp"

#include <fmt/format.h>

#include "core/error.hpp"

namespace tessera::sparse {

index_t to_index(size64 v, std::string_view what) {
  if (v < 0 || v > kMaxIndex)
    throw Error(fmt::format("{} ({}) exceeds the 32-bit index range of the sparse formats "
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

}  // namespace tessera::sparse
