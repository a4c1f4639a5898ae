// Closed meshes for the voxelizer's and placement's tests (boxes,
// tetrahedra, icospheres, built here independently of the code under test)
// and the cells a body holds, computed from its analytic shape.
#pragma once
#include <array>
#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <utility>
#include <vector>

#include "lbm/geometry/placement.hpp"
#include "lbm/kernels/lbm_kernels.hpp"

namespace tessera::lbm::test {

using P3 = std::array<double, 3>;
using geometry::Triangles;

inline void add_triangle(Triangles& m, const P3& a, const P3& b, const P3& c) {
  for (const P3* p : {&a, &b, &c}) m.xyz.insert(m.xyz.end(), p->begin(), p->end());
}

/// The box [lo, hi], two triangles a face, outward.
inline Triangles box(const P3& lo, const P3& hi) {
  Triangles m;
  const auto corner = [&](int i) {
    return P3{i & 1 ? hi[0] : lo[0], i & 2 ? hi[1] : lo[1], i & 4 ? hi[2] : lo[2]};
  };
  // faces as corner quads (counterclockwise seen from outside): -x +x -y +y -z +z
  const int faces[6][4] = {{0, 4, 6, 2}, {1, 3, 7, 5}, {0, 1, 5, 4},
                           {2, 6, 7, 3}, {0, 2, 3, 1}, {4, 5, 7, 6}};
  for (const auto& f : faces) {
    add_triangle(m, corner(f[0]), corner(f[1]), corner(f[2]));
    add_triangle(m, corner(f[0]), corner(f[2]), corner(f[3]));
  }
  return m;
}

inline Triangles tetrahedron(const P3& a, const P3& b, const P3& c, const P3& d) {
  Triangles m;
  add_triangle(m, a, c, b);
  add_triangle(m, a, b, d);
  add_triangle(m, b, c, d);
  add_triangle(m, c, a, d);
  return m;
}

/// An icosahedron subdivided `levels` times, its vertices pushed onto the
/// sphere; each vertex computed once, so neighbours share its bits.
/// `jitter(i)` scales vertex i's radius (1 for a true icosphere).
inline Triangles icosphere(const P3& centre, double r, int levels,
                           const std::function<double(std::size_t)>& jitter = nullptr) {
  const double t = (1 + std::sqrt(5.0)) / 2;
  std::vector<P3> v = {{-1, t, 0},  {1, t, 0},  {-1, -t, 0}, {1, -t, 0}, {0, -1, t},  {0, 1, t},
                       {0, -1, -t}, {0, 1, -t}, {t, 0, -1},  {t, 0, 1},  {-t, 0, -1}, {-t, 0, 1}};
  std::vector<std::array<std::size_t, 3>> f = {
      {0, 11, 5},  {0, 5, 1},  {0, 1, 7},  {0, 7, 10}, {0, 10, 11}, {1, 5, 9}, {5, 11, 4},
      {11, 10, 2}, {10, 7, 6}, {7, 1, 8},  {3, 9, 4},  {3, 4, 2},   {3, 2, 6}, {3, 6, 8},
      {3, 8, 9},   {4, 9, 5},  {2, 4, 11}, {6, 2, 10}, {8, 6, 7},   {9, 8, 1}};
  const auto unit = [](P3 p) {
    const double n = std::sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
    return P3{p[0] / n, p[1] / n, p[2] / n};
  };
  for (auto& p : v) p = unit(p);
  for (int l = 0; l < levels; ++l) {
    std::map<std::pair<std::size_t, std::size_t>, std::size_t> mid;
    const auto middle = [&](std::size_t a, std::size_t b) {
      const auto key = std::minmax(a, b);
      const auto it = mid.find(key);
      if (it != mid.end()) return it->second;
      v.push_back(unit({v[a][0] + v[b][0], v[a][1] + v[b][1], v[a][2] + v[b][2]}));
      return mid[key] = v.size() - 1;
    };
    std::vector<std::array<std::size_t, 3>> g;
    for (const auto& [a, b, c] : f) {
      const std::size_t ab = middle(a, b), bc = middle(b, c), ca = middle(c, a);
      g.insert(g.end(), {{a, ab, ca}, {b, bc, ab}, {c, ca, bc}, {ab, bc, ca}});
    }
    f = std::move(g);
  }
  for (std::size_t i = 0; i < v.size(); ++i) {
    const double ri = r * (jitter ? jitter(i) : 1.0);
    for (int a = 0; a < 3; ++a) v[i][a] = centre[a] + ri * v[i][a];
  }
  Triangles m;
  for (const auto& [a, b, c] : f) add_triangle(m, v[a], v[b], v[c]);
  return m;
}

/// The mask of cells whose centre satisfies `inside`, x fastest.
inline std::vector<std::uint8_t> cells_where(
    const Grid& g, const std::function<bool(double, double, double)>& inside) {
  std::vector<std::uint8_t> m(static_cast<std::size_t>(g.cells()));
  for (long z = 0; z < g.nz; ++z)
    for (long y = 0; y < g.ny; ++y)
      for (long x = 0; x < g.nx; ++x)
        m[std::size_t(x + g.nx * (y + g.ny * z))] = inside(double(x), double(y), double(z));
  return m;
}

/// Signed volume (times 6) of (a, b, c, p): positive where p is on the
/// side of the plane abc that b - a, c - a and their normal make
/// right-handed.
inline double orient(const P3& a, const P3& b, const P3& c, const P3& p) {
  const double ux = b[0] - a[0], uy = b[1] - a[1], uz = b[2] - a[2];
  const double vx = c[0] - a[0], vy = c[1] - a[1], vz = c[2] - a[2];
  const double wx = p[0] - a[0], wy = p[1] - a[1], wz = p[2] - a[2];
  return ux * (vy * wz - vz * wy) - uy * (vx * wz - vz * wx) + uz * (vx * wy - vy * wx);
}

/// Whether p is inside tetrahedron abcd by more than `margin` (distance to
/// every face plane), outside by more than it (beyond one face), or
/// neither (0: too near a face to be decided robustly by the test).
inline int tetrahedron_side(const std::array<P3, 4>& t, const P3& p, double margin) {
  const int faces[4][4] = {{0, 1, 2, 3}, {0, 1, 3, 2}, {0, 2, 3, 1}, {1, 2, 3, 0}};
  bool all_inside = true;
  for (const auto& f : faces) {
    const P3 &a = t[f[0]], &b = t[f[1]], &c = t[f[2]], &d = t[f[3]];
    const double ux = b[0] - a[0], uy = b[1] - a[1], uz = b[2] - a[2];
    const double vx = c[0] - a[0], vy = c[1] - a[1], vz = c[2] - a[2];
    const double nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
    const double norm = std::sqrt(nx * nx + ny * ny + nz * nz);
    const double side = orient(a, b, c, d) > 0 ? 1 : -1;
    const double dist = side * orient(a, b, c, p) / norm;  // > 0 on d's side
    if (dist < -margin) return -1;
    if (dist <= margin) all_inside = false;
  }
  return all_inside ? 1 : 0;
}

}  // namespace tessera::lbm::test
