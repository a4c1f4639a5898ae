#include "lbm/geometry/placement.hpp"

#include <cmath>

#include <fmt/format.h>

#include "core/error.hpp"

namespace tessera::lbm::geometry {

namespace {

constexpr double kPi = 3.14159265358979323846;

void require_finite(double v, const std::string& option) {
  if (!std::isfinite(v))
    throw UsageError(fmt::format("placement: {} = {}: must be a finite number", option, v));
}

void require_finite_vertices(const Triangles& mesh, const char* what) {
  for (std::size_t i = 0; i < mesh.xyz.size(); ++i)
    if (!std::isfinite(mesh.xyz[i]))
      throw Error(fmt::format("{}: coordinate {} of vertex {} of triangle {} is {}", what, i % 3,
                              i / 3 % 3, i / 9, mesh.xyz[i]));
}

// cos and sin of `degrees`, exact where it is a multiple of 90
std::array<double, 2> cos_sin(double degrees) {
  double d = std::fmod(degrees, 360.0);  // exact
  if (d < 0) d += 360.0;
  if (d == 0) return {1, 0};
  if (d == 90) return {0, 1};
  if (d == 180) return {-1, 0};
  if (d == 270) return {0, -1};
  const double r = d * (kPi / 180.0);
  return {std::cos(r), std::sin(r)};
}

// right-handed rotation about axis a: the two other axes in cyclic order
// (x: y -> z, y: z -> x, z: x -> y) turn by the angle
void rotate(Triangles& m, const Rotation& r) {
  const auto [c, s] = cos_sin(r.degrees);
  const int a = (int(r.axis) + 1) % 3, b = (int(r.axis) + 2) % 3;
  for (std::size_t v = 0; v < m.xyz.size(); v += 3) {
    const double p = m.xyz[v + a], q = m.xyz[v + b];
    m.xyz[v + a] = p * c - q * s;
    m.xyz[v + b] = p * s + q * c;
  }
}

// The options' numbers, before any work.
void check_options(const Placement& p) {
  for (const Rotation& r : p.rotate)
    require_finite(r.degrees, fmt::format("rotate {}", to_string(r.axis)));
  if (p.scale && p.length)
    throw UsageError(
        fmt::format("placement: scale = {} and length = {} cells along {}: give one of them",
                    *p.scale, p.length->cells, to_string(p.length->axis)));
  if (p.scale) {
    require_finite(*p.scale, "scale");
    if (!(*p.scale > 0))
      throw UsageError(fmt::format("placement: scale = {}: must be > 0", *p.scale));
  }
  if (p.length) {
    require_finite(p.length->cells, "length");
    if (!(p.length->cells > 0))
      throw UsageError(fmt::format("placement: length = {}: must be > 0", p.length->cells));
  }
  if (p.centre)
    for (int a = 0; a < 3; ++a) require_finite((*p.centre)[a], fmt::format("centre[{}]", a));
  for (int a = 0; a < 3; ++a) require_finite(p.translate[a], fmt::format("translate[{}]", a));
}

// The factor of step 2, from the rotated mesh where it is a length.
double scale_factor(const Triangles& rotated, const Placement& p) {
  if (p.scale) return *p.scale;
  if (!p.length) return 1;
  const LengthAlong& l = *p.length;
  const double extent = bounds(rotated).extent(l.axis);
  if (!(extent > 0))
    throw UsageError(
        fmt::format("placement: length = {} cells along {}: the mesh is flat along {} (extent {})",
                    l.cells, to_string(l.axis), to_string(l.axis), extent));
  return l.cells / extent;
}

}  // namespace

void Triangles::append(const Triangles& other) {
  xyz.insert(xyz.end(), other.xyz.begin(), other.xyz.end());
}

Triangles triangles_from(std::span<const float> xyz) {
  if (xyz.size() % 9 != 0)
    throw Error(fmt::format("triangles: {} coordinates are not 9 per triangle", xyz.size()));
  Triangles t;
  t.xyz.assign(xyz.begin(), xyz.end());
  require_finite_vertices(t, "triangles");
  return t;
}

const char* to_string(Axis a) { return a == Axis::x ? "x" : a == Axis::y ? "y" : "z"; }

std::array<double, 3> Box::centre() const {
  return {0.5 * (lo[0] + hi[0]), 0.5 * (lo[1] + hi[1]), 0.5 * (lo[2] + hi[2])};
}

Box bounds(const Triangles& mesh) {
  if (mesh.empty()) throw Error("bounds: the mesh has no triangles");
  Box b;
  for (int a = 0; a < 3; ++a) b.lo[a] = b.hi[a] = mesh.xyz[a];
  for (std::size_t v = 0; v < mesh.xyz.size(); v += 3)
    for (int a = 0; a < 3; ++a) {
      b.lo[a] = std::min(b.lo[a], mesh.xyz[v + a]);
      b.hi[a] = std::max(b.hi[a], mesh.xyz[v + a]);
    }
  return b;
}

Triangles place(const Triangles& mesh, const Placement& p) {
  if (mesh.empty()) throw UsageError("placement: the mesh has no triangles");
  if (mesh.xyz.size() % 9 != 0)
    throw Error(fmt::format("placement: {} coordinates are not 9 per triangle", mesh.xyz.size()));
  check_options(p);
  require_finite_vertices(mesh, "placement");

  Triangles m = mesh;
  for (const Rotation& r : p.rotate) rotate(m, r);
  const double s = scale_factor(m, p);
  if (s != 1)
    for (double& c : m.xyz) c *= s;
  std::array<double, 3> shift = p.translate;
  if (p.centre) {
    const auto now = bounds(m).centre();
    for (int a = 0; a < 3; ++a) shift[a] = ((*p.centre)[a] - now[a]) + p.translate[a];
  }
  for (std::size_t v = 0; v < m.xyz.size(); v += 3)
    for (int a = 0; a < 3; ++a) m.xyz[v + a] += shift[a];
  require_finite_vertices(m, "placement (the placed mesh overflows)");
  return m;
}

}  // namespace tessera::lbm::geometry
