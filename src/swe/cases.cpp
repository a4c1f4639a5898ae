#include "swe/cases.hpp"

#include <cmath>
#include <numbers>

#include <fmt/format.h>

#include "core/error.hpp"

namespace tessera::swe {

const std::vector<std::string>& case_names() {
  static const std::vector<std::string> n = {"thesis-dam", "stoker",       "ritter",
                                             "thacker",    "lake-at-rest", "radial-dam"};
  return n;
}

namespace {

PhysCase blank(const std::string& name, long nx, long ny, double lx, double ly) {
  PhysCase c;
  c.name = name;
  c.nx = nx;
  c.ny = ny;
  c.dx = lx / double(nx);
  c.dy = ly / double(ny);
  const std::size_t n = static_cast<std::size_t>(nx * ny);
  c.z.assign(n, 0.0);
  c.h.assign(n, 0.0);
  c.hu.assign(n, 0.0);
  c.hv.assign(n, 0.0);
  return c;
}

// Fills h (and z) from f(x, y, z&, h&) at cell centres.
template <class F>
void fill(PhysCase& c, F f) {
  for (long i = 0; i < c.nx; ++i)
    for (long j = 0; j < c.ny; ++j) {
      const double x = c.x0 + (double(i) + 0.5) * c.dx, y = c.y0 + (double(j) + 0.5) * c.dy;
      f(x, y, c.z[i * c.ny + j], c.h[i * c.ny + j]);
    }
}

PhysCase dam_1d(const std::string& name, long nx, long ny, double hr) {
  // SWASHES `1 3 1 1|2`: L = 10 m, dam at 5 m, hL = 0.005 m, t = 6 s; a strip
  // of ny cells with walls on the y sides and open x ends
  PhysCase c = blank(name, nx ? nx : 400, ny ? ny : 4, 10.0,
                     10.0 / double(nx ? nx : 400) * double(ny ? ny : 4));
  c.bc[x_lo] = c.bc[x_hi] = Bc::transmissive;
  c.t_end = 6;
  fill(c, [&](double x, double, double&, double& h) { h = x < 5.0 ? 0.005 : hr; });
  return c;
}

}  // namespace

PhysCase make_case(const std::string& name, long nx, long ny) {
  if (nx < 0 || ny < 0) throw UsageError("grid sizes must be positive");
  if (name == "thesis-dam") {  // the thesis benchmark with the physical equations (g = 9.8)
    PhysCase c = blank(name, nx ? nx : 200, ny ? ny : (nx ? nx : 200), 500, 500);
    c.g = 9.8;
    c.t_end = 20;
    fill(c, [](double x, double, double&, double& h) { h = x < 100 ? 20 : 10; });
    return c;
  }
  if (name == "stoker") return dam_1d(name, nx, ny, 0.001);
  if (name == "ritter") return dam_1d(name, nx, ny, 0.0);
  if (name == "thacker") {
    const Thacker2D t;
    PhysCase c = blank(name, nx ? nx : 128, ny ? ny : (nx ? nx : 128), t.L, t.L);
    c.t_end = t.period();
    fill(c, [&](double x, double y, double& z, double& h) {
      double u, v;
      z = t.bed(x, y);
      t.at(x, y, 0, h, u, v);
    });
    return c;
  }
  if (name == "lake-at-rest") {  // still water at 0.15 m over a bump that emerges (top 0.2 m)
    PhysCase c = blank(name, nx ? nx : 100, ny ? ny : (nx ? nx : 100), 25, 25);
    c.t_end = 10;
    fill(c, [](double x, double y, double& z, double& h) {
      const double r2 = (x - 12.5) * (x - 12.5) + (y - 12.5) * (y - 12.5);
      z = std::max(0.0, 0.2 - 0.05 * r2) -
          0.1 * std::exp(-((x - 5) * (x - 5) + (y - 18) * (y - 18)) / 4);
      h = std::max(0.0, 0.15 - z);
    });
    return c;
  }
  if (name == "radial-dam") {  // 50 m basin, 10 m inside r < 11 m, 1 m outside (pinned here)
    PhysCase c = blank(name, nx ? nx : 200, ny ? ny : (nx ? nx : 200), 50, 50);
    c.t_end = 2.5;
    fill(c, [](double x, double y, double&, double& h) {
      h = (x - 25) * (x - 25) + (y - 25) * (y - 25) < 121 ? 10 : 1;
    });
    return c;
  }
  std::string names;
  for (const auto& n : case_names()) names += (names.empty() ? "" : ", ") + n;
  throw UsageError(fmt::format("--case '{}': unknown case (built in: {})", name, names));
}

void DamBreak1D::at(double x, double t, double& h, double& u) const {
  const double cl = std::sqrt(g * hl), xi = (x - x0) / t;
  double hm = 0, um = 2 * cl, s = 2 * cl;  // Ritter: the front moves at 2 cl
  if (hr > 0) {  // Stoker: bisection for the middle depth between hr and hl
    auto f = [&](double m) {
      return 2 * (cl - std::sqrt(g * m)) - (m - hr) * std::sqrt(0.5 * g * (m + hr) / (m * hr));
    };
    double lo = hr, hi = hl;
    for (int k = 0; k < 200; ++k) {
      const double mid = 0.5 * (lo + hi);
      (f(mid) > 0 ? lo : hi) = mid;
    }
    hm = 0.5 * (lo + hi);
    um = 2 * (cl - std::sqrt(g * hm));
    s = hm * um / (hm - hr);
  }
  const double cm = std::sqrt(g * hm);
  if (xi <= -cl) {
    h = hl;
    u = 0;
  } else if (xi < um - cm) {
    h = (2 * cl - xi) * (2 * cl - xi) / (9 * g);
    u = 2.0 / 3.0 * (xi + cl);
  } else if (xi < s) {
    h = hm;
    u = um;
  } else {
    h = hr;
    u = 0;
  }
}

double Thacker2D::omega() const { return std::sqrt(8 * g * h0) / a; }
double Thacker2D::period() const { return 2 * std::numbers::pi / omega(); }
double Thacker2D::bed(double x, double y) const {
  const double r2 = (x - L / 2) * (x - L / 2) + (y - L / 2) * (y - L / 2);
  return -h0 * (1 - r2 / (a * a));
}
void Thacker2D::at(double x, double y, double t, double& h, double& u, double& v) const {
  const double A = (a * a - r0 * r0) / (a * a + r0 * r0), w = omega();
  const double dx = x - L / 2, dy = y - L / 2, r2 = dx * dx + dy * dy;
  const double d = 1 - A * std::cos(w * t);
  const double eta =
      h0 * (std::sqrt(1 - A * A) / d - 1 - r2 / (a * a) * ((1 - A * A) / (d * d) - 1));
  h = std::max(0.0, eta - bed(x, y));
  const double k = h > 0 ? w * A * std::sin(w * t) / (2 * d) : 0.0;
  u = k * dx;
  v = k * dy;
}

}  // namespace tessera::swe
