#include "lbm/cases.hpp"

#include <cmath>

#include <fmt/format.h>

#include "core/error.hpp"
#include "lbm/distributed.hpp"
#include "lbm/kernels/lbm_flags.h"

namespace tessera::lbm {

namespace {

constexpr double kPi = 3.14159265358979323846;

Case make(std::string name, Lattice l, Grid g) {
  Case c;
  c.name = std::move(name);
  c.config.lattice = l;
  c.config.grid = g;
  c.flags.assign(static_cast<std::size_t>(g.cells()), TS_LBM_FLUID);
  return c;
}
std::uint8_t& at(Case& c, long x, long y, long z) {
  const Grid& g = c.config.grid;
  return c.flags[static_cast<std::size_t>(x + g.nx * (y + g.ny * z))];
}
void check_side(long n, long min, const char* what) {
  if (n < min) throw UsageError(fmt::format("{} must be at least {} cells (got {})", what, min, n));
}
// viscosity of Reynolds number re at speed u over length L -> tau
double tau_for(double re, double u, double L) {
  if (!(re > 0)) throw UsageError("Reynolds number must be > 0");
  return 3.0 * u * L / re + 0.5;
}

template <class S>
void apply_case(const Case& c, S& s) {
  s.set_flags(c.flags);
  s.set_links(c.links);
  if (c.uniform)
    s.initialize(1.0, c.u0);
  else
    s.initialize(c.initial);
}

}  // namespace

void Case::apply(Solver& s) const { apply_case(*this, s); }
void Case::apply(DistributedSolver& s) const { apply_case(*this, s); }

Case cavity(Lattice l, long n, double re, double u_lid, long nz) {
  check_side(n, 4, "cavity side");
  const long depth = l == Lattice::d2q9 ? 1 : nz;
  Case c = make("cavity", l, Grid{n + 2, n + 2, depth});
  for (long z = 0; z < depth; ++z)
    for (long y = 0; y < n + 2; ++y)
      for (long x = 0; x < n + 2; ++x) {
        if (y == n + 1)
          at(c, x, y, z) = TS_LBM_MOVING;
        else if (x == 0 || y == 0 || x == n + 1)
          at(c, x, y, z) = TS_LBM_WALL;
      }
  c.config.u_wall = {u_lid, 0, 0};
  c.config.tau = tau_for(re, u_lid, double(n));
  c.length = double(n);
  c.speed = u_lid;
  return c;
}

Case poiseuille(Lattice l, long width, double tau, double u_max, long nx, long nz) {
  check_side(width, 2, "channel width");
  Case c = make("poiseuille", l, Grid{nx, width + 2, l == Lattice::d2q9 ? 1 : nz});
  for (long z = 0; z < c.config.grid.nz; ++z)
    for (long x = 0; x < nx; ++x) at(c, x, 0, z) = at(c, x, width + 1, z) = TS_LBM_WALL;
  c.config.tau = tau;
  // u(y) = F/(2 nu) (y - y0)(y1 - y), maximum F H^2 / (8 nu)
  const double H = double(width);
  c.config.force = {8.0 * c.config.viscosity() * u_max / (H * H), 0, 0};
  c.length = H;
  c.speed = u_max;
  return c;
}

double poiseuille_exact(const Case& c, long y) {
  // halfway bounce-back: the walls lie half-way between the wall cell and the first fluid cell
  const double y0 = 0.5, y1 = double(c.config.grid.ny) - 1.5, yy = double(y);
  return c.config.force[0] / (2.0 * c.config.viscosity()) * (yy - y0) * (y1 - yy);
}

Case taylor_green(Lattice l, long n, double tau, double u0, long nz) {
  check_side(n, 4, "Taylor-Green side");
  Case c = make("tgv", l, Grid{n, n, l == Lattice::d2q9 ? 1 : nz});
  c.config.tau = tau;
  c.uniform = false;
  const Grid g = c.config.grid;
  const std::size_t N = static_cast<std::size_t>(g.cells());
  c.initial = Fields{g, std::vector<double>(N), std::vector<double>(N), std::vector<double>(N),
                     std::vector<double>(N, 0.0)};
  const double k = 2 * kPi / double(n);
  for (long z = 0; z < g.nz; ++z)
    for (long y = 0; y < n; ++y)
      for (long x = 0; x < n; ++x) {
        const std::size_t i = static_cast<std::size_t>(x + n * (y + n * z));
        const double X = k * (x + 0.5), Y = k * (y + 0.5);
        c.initial.ux[i] = u0 * std::sin(X) * std::cos(Y);
        c.initial.uy[i] = -u0 * std::cos(X) * std::sin(Y);
        // p = p0 - rho u0^2 / 4 (cos 2X + cos 2Y), rho = p / c_s^2
        c.initial.rho[i] = 1.0 - 3.0 * u0 * u0 / 4.0 * (std::cos(2 * X) + std::cos(2 * Y));
      }
  c.length = double(n);
  c.speed = u0;
  return c;
}

namespace {
// A flow past a body of size d: inflow speed u_in, tau from Re.
Case with_inflow(Case c, double u_in, double re, double d) {
  c.config.u_in = {u_in, 0, 0};
  c.config.tau = tau_for(re, u_in, d);
  c.config.trt_magic = trt_magic_open(c.config.tau, u_in);  // equilibrium inlet and outlet
  c.u0 = {u_in, 0, 0};
  c.length = d;
  c.speed = u_in;
  return c;
}
}  // namespace

Case cylinder(Lattice l, Grid g, double d, double re, double u_in) {
  if (l == Lattice::d2q9) g.nz = 1;
  check_side(g.nx, 8, "channel length");
  check_side(g.ny, 8, "channel height");
  if (!(d >= 2 && d < double(g.ny) - 4))
    throw UsageError(fmt::format("cylinder diameter {} does not fit height {}", d, g.ny));
  Case c = make("cylinder", l, g);
  const double cx = double(g.nx) / 4.0, cy = double(g.ny) / 2.0 - 0.5, r = d / 2.0;
  for (long z = 0; z < g.nz; ++z)
    for (long y = 0; y < g.ny; ++y)
      for (long x = 0; x < g.nx; ++x) {
        auto& f = at(c, x, y, z);
        const double dx = double(x) - cx, dy = double(y) - cy;
        if (y == 0 || y == g.ny - 1)
          f = TS_LBM_WALL;
        else if (x == 0)
          f = TS_LBM_INLET;
        else if (x == g.nx - 1)
          f = TS_LBM_OUTLET;
        else if (dx * dx + dy * dy <= r * r)
          f = TS_LBM_WALL | TS_LBM_BODY;
      }
  return with_inflow(std::move(c), u_in, re, d);
}

Case sphere(Grid g, double d, double re, double u_in) {
  check_side(g.nx, 8, "box length");
  check_side(g.ny, 8, "box height");
  check_side(g.nz, 8, "box depth");
  if (!(d >= 2 && d < double(std::min(g.ny, g.nz)) - 4))
    throw UsageError(fmt::format("sphere diameter {} does not fit the box", d));
  Case c = make("sphere", Lattice::d3q19, g);
  const double cx = double(g.nx) / 4.0, cy = double(g.ny) / 2.0 - 0.5,
               cz = double(g.nz) / 2.0 - 0.5, r = d / 2.0;
  for (long z = 0; z < g.nz; ++z)
    for (long y = 0; y < g.ny; ++y)
      for (long x = 0; x < g.nx; ++x) {
        auto& f = at(c, x, y, z);
        const double dx = double(x) - cx, dy = double(y) - cy, dz = double(z) - cz;
        if (x == 0)
          f = TS_LBM_INLET;
        else if (x == g.nx - 1)
          f = TS_LBM_OUTLET;
        else if (y == 0 || y == g.ny - 1 || z == 0 || z == g.nz - 1)
          f = TS_LBM_INLET;  // free-stream faces
        else if (dx * dx + dy * dy + dz * dz <= r * r)
          f = TS_LBM_WALL | TS_LBM_BODY;
      }
  return with_inflow(std::move(c), u_in, re, d);
}

}  // namespace tessera::lbm

#include "lbm/ghia.hpp"

namespace tessera::lbm {

double ghia_deviation(const Case& c, const Fields& f, int re) {
  if (re != 100 && re != 1000) throw UsageError("Ghia data exist here for Re = 100 and 1000 only");
  const Grid g = c.config.grid;
  const long n = g.nx - 2;
  const double U = c.config.u_wall[0];
  // u/U on the centre line at fluid row j (1..n), averaged over z and over the
  // two middle columns when n is even
  auto u_at = [&](long j) {
    double s = 0;
    int k = 0;
    const long xa = (n + 1) / 2, xb = n / 2 + 1;
    for (long z = 0; z < g.nz; ++z)
      for (long x : {xa, xb}) {
        s += f.ux[static_cast<std::size_t>(x + g.nx * (j + g.ny * z))];
        ++k;
      }
    return s / k / U;
  };
  const auto& ref = re == 100 ? kGhiaU100 : kGhiaU1000;
  double worst = 0;
  for (std::size_t p = 0; p < kGhiaY.size(); ++p) {
    const double yc = kGhiaY[p] * double(n) + 0.5;  // in cell coordinates: fluid row j sits at j
    double u;
    if (yc <= 1.0)
      u = (yc - 0.5) / 0.5 * u_at(1);  // between wall (0) and row 1
    else if (yc >= double(n))
      u = u_at(n) + (yc - double(n)) / 0.5 * (1.0 - u_at(n));  // row n and the lid (1)
    else {
      const long j = long(std::floor(yc));
      const double t = yc - double(j);
      u = (1 - t) * u_at(j) + t * u_at(j + 1);
    }
    worst = std::max(worst, std::fabs(u - ref[p]));
  }
  return worst;
}

}  // namespace tessera::lbm
