#include "mg/streaming_plan.hpp"

#include <algorithm>

namespace tessera::mg::stream {

Span smoothing_region(long m, Span out, int nu, int s) {
  const long grow = nu - s;
  return {std::max(0L, out.b - grow), std::min(m, out.e + grow)};
}

Span prolonged_region(long m, Span out, int nu) {
  const Span r1 = smoothing_region(m, out, nu, 1);
  return {std::max(0L, r1.b - 1), std::min(m, r1.e + 1)};
}

Span coarse_span(long mc, Span fine) {
  // fine i reads coarse i/2 and, for even i, i/2 - 1 (eqs. 2.5-2.8); the
  // ring covers c0 - 1, and coarse index mc is the zero halo.
  const long c0 = std::min(mc, fine.b / 2);
  const long c1 = std::min(mc, (fine.e - 1) / 2 + 1);
  return {c0, std::max(c0, c1)};
}

Span restriction_computed(Span coarsest, int s) {
  return {coarsest.b << s, ((coarsest.e + 1) << s) - 1};
}

Span restriction_owned(Span coarsest, int s, long m_level, bool last) {
  return {coarsest.b << s, last ? m_level : coarsest.e << s};
}

}  // namespace tessera::mg::stream
