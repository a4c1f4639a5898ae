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

InnerOuter PartLayout::shell() const {
  InnerOuter s;  // s.inner: the owned box
  Box rest;      // what is not yet assigned, shrinking axis by axis (z, y, x)
  for (int a = 0; a < 3; ++a) {
    rest.lo[a] = -halo[a];
    rest.hi[a] = extent(a) + halo[a];
  }
  for (int a = 2; a >= 0; --a) {
    if (halo[a] > 0) {
      Box lo = rest, hi = rest;
      lo.hi[a] = 0;
      hi.lo[a] = extent(a);
      if (!lo.empty()) s.outer[s.outer_count++] = lo;
      if (!hi.empty()) s.outer[s.outer_count++] = hi;
    }
    rest.lo[a] = 0;
    rest.hi[a] = extent(a);
  }
  s.inner = rest;
  return s;
}

}  // namespace tessera::skeleton
