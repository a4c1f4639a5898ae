#include "skeleton/layout.hpp"

#include <algorithm>

namespace tessera::skeleton {

InnerOuter PartLayout::split(const Index3& radius) const {
  InnerOuter s;
  Box rest;  // what is not yet assigned, shrinking axis by axis (z, y, x)
  for (int a = 0; a < 3; ++a) rest.hi[a] = extent(a);
  for (int a = 2; a >= 0; --a) {
    const index_t n = extent(a);
    const index_t lo = std::min(radius[a], n), hi = std::max(lo, n - radius[a]);
    if (lo > 0) {
      Box b = rest;
      b.lo[a] = 0;
      b.hi[a] = lo;
      if (!b.empty()) s.outer[s.outer_count++] = b;
    }
    if (hi < n) {
      Box b = rest;
      b.lo[a] = hi;
      b.hi[a] = n;
      if (!b.empty()) s.outer[s.outer_count++] = b;
    }
    rest.lo[a] = lo;
    rest.hi[a] = hi;
  }
  s.inner = rest;
  return s;
}

}  // namespace tessera::skeleton
