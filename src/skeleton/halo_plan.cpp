// Which faces move in an exchange, and the layouts of every part.
#include <fmt/format.h>

#include "core/error.hpp"
#include "skeleton/halo_exchange.hpp"

namespace tessera::skeleton::detail {

std::vector<PartLayout> make_layouts(const Decomposition& d, const Team& team, int components,
                                     const Index3& halo) {
  std::vector<PartLayout> out;
  for (int p = 0; p < d.parts(); ++p) {
    PartLayout L;
    L.global_part = p;
    L.local_part = p % team.local_parts();
    L.owned = d.owned(p);
    L.components = components;
    for (int a = 0; a < 3; ++a) {
      L.halo[a] = halo[a];
      L.padded[a] = L.owned.extent(a) + 2 * L.halo[a];
    }
    L.sy = L.padded[0];
    L.sz = L.padded[0] * L.padded[1];
    L.component_stride = L.sz * L.padded[2];
    out.push_back(L);
  }
  return out;
}

std::array<std::vector<Transfer>, 3> plan_exchange(const Decomposition& d,
                                                   const std::vector<PartLayout>& layouts,
                                                   const ExchangeRequest& r) {
  std::array<std::vector<Transfer>, 3> rounds;
  const int ncomp = layouts.empty() ? 0 : layouts[0].components;
  auto check_components = [&](const std::vector<int>& cs) {
    for (int c : cs)
      if (c < 0 || c >= ncomp)
        throw UsageError(fmt::format("exchange: component {} requested, the field has {} (0 .. {})",
                                     c, ncomp, ncomp - 1));
  };
  std::vector<int> all(static_cast<std::size_t>(ncomp));
  for (int c = 0; c < ncomp; ++c) all[static_cast<std::size_t>(c)] = c;
  Index3 used{0, 0, 0};  // widths exchanged in earlier rounds
  for (int a = 0; a < 3; ++a) {
    if (!d.decomposed(a) || layouts.empty()) continue;
    const index_t h = layouts[0].halo[a];
    if (r.width[a] < -1 || r.width[a] > h)
      throw UsageError(fmt::format("exchange: width {} along {} exceeds the field's halo of {}",
                                   r.width[a], "xyz"[a], h));
    const index_t w = r.width[a] < 0 ? h : r.width[a];
    if (w == 0) continue;
    for (const PartLayout& P : layouts) {
      if (P.owned.extent(a) < w)
        throw Error(
            fmt::format("halo width {} along {} is larger than part {}'s subdomain ({} cells of "
                        "{}): use fewer parts or a smaller radius",
                        w, "xyz"[a], P.global_part, P.owned.extent(a), d.global().to_string()));
      for (int dir : {-1, +1}) {
        const int q = d.neighbour(P.global_part, a, dir, r.periodic[a]);
        if (q < 0) continue;
        Transfer t;
        t.src_part = P.global_part;
        t.dst_part = q;
        t.tag = a * 2 + (dir > 0 ? 1 : 0);
        const PartLayout& Q = layouts[static_cast<std::size_t>(q)];
        for (int b = 0; b < 3; ++b) {
          if (b == a) continue;
          const index_t lo = b < a ? -used[b] : 0;
          t.src_box.lo[b] = t.dst_box.lo[b] = lo;
          t.src_box.hi[b] = t.dst_box.hi[b] = P.owned.extent(b) - lo;
        }
        if (dir > 0) {
          t.src_box.lo[a] = P.owned.extent(a) - w;
          t.src_box.hi[a] = P.owned.extent(a);
          t.dst_box.lo[a] = -w;
          t.dst_box.hi[a] = 0;
        } else {
          t.src_box.lo[a] = 0;
          t.src_box.hi[a] = w;
          t.dst_box.lo[a] = Q.owned.extent(a);
          t.dst_box.hi[a] = Q.owned.extent(a) + w;
        }
        const std::vector<int>& cs = r.per_face ? (dir > 0 ? r.to_upper[a] : r.to_lower[a])
                                     : r.components.empty() ? all
                                                            : r.components;
        check_components(cs);
        t.components = cs;
        if (!t.components.empty()) rounds[a].push_back(std::move(t));
      }
    }
    used[a] = w;
  }
  return rounds;
}

}  // namespace tessera::skeleton::detail
