#include "lbm/links.hpp"

#include <cstring>
#include <unordered_set>

#include <fmt/format.h>

#include "core/error.hpp"
#include "lbm/kernels/lbm_kernels.hpp"
#include "lbm/kernels/lbm_point.hpp"

namespace tessera::lbm {

std::vector<WallLink> usable_links(const Grid& g, int q, const std::vector<std::uint8_t>& flags,
                                   std::span<const WallLink> links) {
  std::vector<WallLink> kept;
  std::unordered_set<long> seen;  // 32 n + d
  point::with_variant(q, 32, [&](auto var) {
    using V = decltype(var);
    for (const WallLink& k : links) {
      if (k.cell < 0 || k.cell >= g.cells() || k.dir < 1 || k.dir >= V::q)
        throw Error(
            fmt::format("lbm: link (cell {}, direction {}) is outside the {}-cell lattice "
                        "of {} directions",
                        k.cell, k.dir, g.cells(), V::q));
      const long x = k.cell % g.nx, y = (k.cell / g.nx) % g.ny, z = k.cell / (g.nx * g.ny);
      auto at = [&](int s) {
        return std::size_t((x + s * V::cx(k.dir) + g.nx) % g.nx +
                           g.nx * ((y + s * V::cy(k.dir) + g.ny) % g.ny +
                                   g.ny * ((z + s * V::cz(k.dir) + g.nz) % g.nz)));
      };
      const auto where = [&] {
        return fmt::format("lbm: the link of cell ({}, {}, {}) along ({}, {}, {})", x, y, z,
                           V::cx(k.dir), V::cy(k.dir), V::cz(k.dir));
      };
      if (!(k.q > 0 && k.q <= 1))
        throw Error(fmt::format("{} has q = {} (0 < q <= 1)", where(), k.q));
      if (TS_LBM_IS_WALL(flags[std::size_t(k.cell)]))
        throw Error(where() + " starts in a wall (it must leave a fluid cell)");
      if ((flags[at(1)] & TS_LBM_TYPE_MASK) != TS_LBM_WALL)
        throw Error(where() + " does not end in a resting wall");
      if (!seen.insert(32 * k.cell + k.dir).second) throw Error(where() + " is given twice");
      // halfway bounce-back already; or no second value of this step at
      // n - c_d (a wall), or one from across a boundary face (an inlet or
      // outlet cell at either end: n - c_d may wrap to the opposite face)
      if (k.q == 0.5 || (flags[std::size_t(k.cell)] & TS_LBM_TYPE_MASK) != TS_LBM_FLUID ||
          (flags[at(-1)] & TS_LBM_TYPE_MASK) != TS_LBM_FLUID)
        continue;
      kept.push_back(k);
    }
    return 0;
  });
  return kept;
}

long link_code(long local, const WallLink& l) { return local * 64 + 2 * l.dir + (l.q < 0.5); }

void link_coefficients(const WallLink& l, double c[2]) {
  if (l.q < 0.5) {
    c[0] = 2 * l.q;
    c[1] = 1 - 2 * l.q;
  } else {
    c[0] = 1 / (2 * l.q);
    c[1] = 1 - 1 / (2 * l.q);
  }
}

std::vector<std::uint8_t> link_coefficient_bytes(std::span<const WallLink> links, bool fp64) {
  std::vector<std::uint8_t> b(2 * links.size() * (fp64 ? 8 : 4));
  for (std::size_t k = 0; k < links.size(); ++k) {
    double c[2];
    link_coefficients(links[k], c);
    for (int j = 0; j < 2; ++j) {
      if (fp64) {
        std::memcpy(b.data() + 8 * (2 * k + std::size_t(j)), &c[j], 8);
      } else {
        const float f = float(c[j]);
        std::memcpy(b.data() + 4 * (2 * k + std::size_t(j)), &f, 4);
      }
    }
  }
  return b;
}

std::vector<double> link_sent_values(const std::vector<std::uint8_t>& raw, bool fp64,
                                     double storage_unit) {
  const std::size_t size = fp64 ? 8 : 4;
  std::vector<double> v(raw.size() / size);
  for (std::size_t k = 0; k < v.size(); ++k) {
    if (fp64) {
      std::memcpy(&v[k], raw.data() + 8 * k, 8);
    } else {
      float f;
      std::memcpy(&f, raw.data() + 4 * k, 4);
      v[k] = f;
    }
    v[k] /= storage_unit;
  }
  return v;
}

}  // namespace tessera::lbm
