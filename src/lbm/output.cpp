#include "lbm/output.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include <fmt/format.h>

#include "core/error.hpp"
#include "io/png.hpp"
#include "io/figure.hpp"
#include "io/vti.hpp"
#include "lbm/kernels/lbm_flags.h"

namespace tessera::lbm {

void write_vti(const std::filesystem::path& path, const Fields& f,
               const std::vector<std::uint8_t>& flags, double dx) {
  const Grid& g = f.grid;
  const std::size_t N = f.rho.size();
  io::VtiArray rho{"density", 1, {}, std::vector<float>(N)},
      u{"velocity", 3, {}, std::vector<float>(3 * N)}, solid{"solid", 1, {}, std::vector<float>(N)};
  for (std::size_t n = 0; n < N; ++n) {
    solid.f32[n] = TS_LBM_IS_WALL(flags[n]) ? 1.0f : 0.0f;
    rho.f32[n] = float(f.rho[n]);
    u.f32[3 * n] = float(f.ux[n]);
    u.f32[3 * n + 1] = float(f.uy[n]);
    u.f32[3 * n + 2] = float(f.uz[n]);
  }
  io::VtiImage im;
  im.extent = {g.nx - 1, g.ny - 1, g.nz - 1};  // one point per cell centre
  im.spacing = {dx, dx, dx};
  im.origin = {dx == 1 ? 0.0 : dx / 2, dx == 1 ? 0.0 : dx / 2, dx == 1 ? 0.0 : dx / 2};
  im.active_scalars = "density";
  im.active_vectors = "velocity";
  im.arrays.push_back(std::move(rho));
  im.arrays.push_back(std::move(u));
  im.arrays.push_back(std::move(solid));
  io::write_vti(path, im);
}

void write_pvd(const std::filesystem::path& path,
               const std::vector<std::pair<double, std::string>>& entries) {
  io::write_pvd(path, entries);
}

SliceQuantity parse_slice_quantity(const std::string& s) {
  if (s == "speed") return SliceQuantity::speed;
  if (s == "density" || s == "rho") return SliceQuantity::density;
  if (s == "ux") return SliceQuantity::ux;
  if (s == "uy") return SliceQuantity::uy;
  if (s == "uz") return SliceQuantity::uz;
  throw UsageError("unknown slice quantity '" + s + "' (speed, density, ux, uy, uz)");
}

bool png_available() { return io::png_available(); }

std::pair<double, double> write_png_slice(const std::filesystem::path& path, const Fields& f,
                                          const std::vector<std::uint8_t>& flags, long z,
                                          SliceQuantity q, const SliceFrame& frame) {
  const Grid& g = f.grid;
  z = std::clamp(z, 0L, g.nz - 1);
  auto value = [&](std::size_t n) {
    switch (q) {
      case SliceQuantity::density:
        return f.rho[n];
      case SliceQuantity::ux:
        return f.ux[n];
      case SliceQuantity::uy:
        return f.uy[n];
      case SliceQuantity::uz:
        return f.uz[n];
      default:
        return std::sqrt(f.ux[n] * f.ux[n] + f.uy[n] * f.uy[n] + f.uz[n] * f.uz[n]);
    }
  };
  auto wall = [&](std::size_t n) { return TS_LBM_IS_WALL(flags[n]); };
  double lo = frame.lo, hi = frame.hi;
  if (!(hi > lo)) {  // no scale given: this slice's range
    lo = INFINITY, hi = -INFINITY;
    for (long y = 0; y < g.ny; ++y)
      for (long x = 0; x < g.nx; ++x) {
        const std::size_t n = std::size_t(x + g.nx * (y + g.ny * z));
        if (wall(n) || !std::isfinite(value(n))) continue;
        lo = std::min(lo, value(n));
        hi = std::max(hi, value(n));
      }
    if (!(lo <= hi)) lo = hi = 0;
  }
  static const char* names[] = {"speed", "density", "x velocity", "y velocity", "z velocity"};
  const char* name = names[int(q)];
  const bool physical = frame.metres_per_cell != 1 || frame.seconds_per_step != 1;
  io::FieldPlot p;
  p.nx = g.nx, p.ny = g.ny;
  p.x1 = double(g.nx) * frame.metres_per_cell, p.y1 = double(g.ny) * frame.metres_per_cell;
  p.x_label = physical ? "x (m)" : "x (cells)";
  p.y_label = physical ? "y (m)" : "y (cells)";
  p.title = physical ? fmt::format("{}, z = {}, t = {:.6g} s", name, z,
                                   double(frame.step) * frame.seconds_per_step)
                     : fmt::format("{}, z = {}, step {}", name, z, frame.step);
  p.value_label =
      q == SliceQuantity::density ? "density (lattice)" : fmt::format("{} (lattice)", name);
  p.lo = lo, p.hi = hi;
  p.value = [&](long x, long y) {
    const std::size_t n = std::size_t(x + g.nx * (y + g.ny * z));
    return wall(n) ? double(NAN) : double(value(n));
  };
  p.masked = {128, 128, 128};
  io::draw_field(p).image.write_png(path);
  return {lo, hi};
}

}  // namespace tessera::lbm
