// Helpers of the lbm tests: random smooth fields and a mixed geometry with
// every boundary type, so that tests exercise all branches of the kernel.
#pragma once
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "lbm/kernels/lbm_flags.h"
#include "lbm/solver.hpp"

namespace tessera::lbm::test {

/// Smooth random velocity (|u| <= amp) and density (1 +- amp) fields.
inline Fields random_fields(const Grid& g, double amp, std::uint64_t seed, bool three_d = true) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> ph(0, 6.283185307179586);
  const double a = ph(rng), b = ph(rng), c = ph(rng), d = ph(rng);
  const std::size_t N = static_cast<std::size_t>(g.cells());
  Fields f{g, std::vector<double>(N), std::vector<double>(N), std::vector<double>(N),
           std::vector<double>(N)};
  const double kx = 6.283185307179586 / double(g.nx), ky = 6.283185307179586 / double(g.ny),
               kz = 6.283185307179586 / double(g.nz);
  std::uniform_real_distribution<double> noise(-0.1 * amp, 0.1 * amp);
  for (long z = 0; z < g.nz; ++z)
    for (long y = 0; y < g.ny; ++y)
      for (long x = 0; x < g.nx; ++x) {
        const std::size_t n = static_cast<std::size_t>(x + g.nx * (y + g.ny * z));
        f.rho[n] = 1 + amp * std::sin(kx * x + a) * std::cos(ky * y + b) + noise(rng);
        f.ux[n] = amp * std::cos(ky * y + c) + noise(rng);
        f.uy[n] = amp * std::sin(kx * x + d) + noise(rng);
        f.uz[n] = three_d ? amp * std::sin(kz * z + a) * std::cos(kx * x) + noise(rng) : 0.0;
      }
  return f;
}

/// Walls on y = 0, a moving lid on y = ny-1, (with `slip_z`) free-slip
/// walls on z = 0 and z = nz-1, an inlet column at x = 0, an outlet column
/// at x = nx-1 and a small body (walls with the body bit).
inline std::vector<std::uint8_t> mixed_flags(const Grid& g, bool slip_z = false) {
  std::vector<std::uint8_t> fl(static_cast<std::size_t>(g.cells()), TS_LBM_FLUID);
  for (long z = 0; z < g.nz; ++z)
    for (long y = 0; y < g.ny; ++y)
      for (long x = 0; x < g.nx; ++x) {
        auto& f = fl[static_cast<std::size_t>(x + g.nx * (y + g.ny * z))];
        if (y == 0)
          f = TS_LBM_WALL;
        else if (y == g.ny - 1)
          f = TS_LBM_MOVING;
        else if (slip_z && (z == 0 || z == g.nz - 1))
          f = TS_LBM_SLIP_Z;
        else if (x == 0)
          f = TS_LBM_INLET;
        else if (x == g.nx - 1)
          f = TS_LBM_OUTLET;
        else if (x == g.nx / 2 && y == g.ny / 2)
          f = TS_LBM_WALL | TS_LBM_BODY;
      }
  return fl;
}

}  // namespace tessera::lbm::test
