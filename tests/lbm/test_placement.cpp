// Placement of a mesh on the lattice (src/lbm/geometry/placement.hpp):
// rotations by multiples of 90 degrees are exact permutations, scale to a
// length, centring, translation, and every bad value refused by name.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>

#include "core/error.hpp"
#include "core/registry.hpp"
#include "lbm/geometry/placement.hpp"
#include "lbm/geometry/voxelize.hpp"
#include "voxel_meshes.hpp"

namespace tessera::lbm {
namespace {

using geometry::Axis;
using geometry::Placement;
using geometry::Triangles;
using test::P3;

Triangles random_mesh(std::size_t triangles, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-3, 7);
  Triangles m;
  m.xyz.resize(9 * triangles);
  for (double& c : m.xyz) c = u(rng);
  return m;
}

Triangles rotated(const Triangles& m, std::vector<geometry::Rotation> r) {
  Placement p;
  p.rotate = std::move(r);
  return geometry::place(m, p);
}

// Each vertex (x, y, z) of `m` becomes f(x, y, z) in `got`, exactly.
template <class F>
void expect_each_vertex(const Triangles& m, const Triangles& got, F f) {
  ASSERT_EQ(got.xyz.size(), m.xyz.size());
  for (std::size_t v = 0; v < m.xyz.size(); v += 3) {
    const P3 want = f(m.xyz[v], m.xyz[v + 1], m.xyz[v + 2]);
    for (int a = 0; a < 3; ++a) ASSERT_EQ(got.xyz[v + a], want[a]) << "vertex " << v / 3;
  }
}

TEST(Placement, RightAnglesArePermutations) {
  const Triangles m = random_mesh(50, 1);
  using R = geometry::Rotation;
  expect_each_vertex(m, rotated(m, {R{Axis::z, 90}}), [](double x, double y, double z) {
    return P3{-y, x, z};
  });
  expect_each_vertex(m, rotated(m, {R{Axis::x, 90}}), [](double x, double y, double z) {
    return P3{x, -z, y};
  });
  expect_each_vertex(m, rotated(m, {R{Axis::y, 90}}), [](double x, double y, double z) {
    return P3{z, y, -x};
  });
  expect_each_vertex(m, rotated(m, {R{Axis::z, 180}}), [](double x, double y, double z) {
    return P3{-x, -y, z};
  });
  for (double d : {270.0, -90.0, 630.0})
    expect_each_vertex(m, rotated(m, {R{Axis::z, d}}), [](double x, double y, double z) {
      return P3{y, -x, z};
    });
  expect_each_vertex(m, rotated(m, {R{Axis::x, 360}}), [](double x, double y, double z) {
    return P3{x, y, z};
  });
}

// x first, then z: (x, y, z) -> (x, -z, y) -> (z, x, y).
TEST(Placement, RotationsApplyInTheirOrder) {
  const Triangles m = random_mesh(20, 2);
  using R = geometry::Rotation;
  expect_each_vertex(m, rotated(m, {R{Axis::x, 90}, R{Axis::z, 90}}),
                     [](double x, double y, double z) {
                       return P3{z, x, y};
                     });
  expect_each_vertex(m, rotated(m, {R{Axis::z, 90}, R{Axis::x, 90}}),
                     [](double x, double y, double z) {
                       return P3{-y, -z, x};
                     });
}

TEST(Placement, GeneralAngle) {
  Triangles m;
  test::add_triangle(m, {1, 0, 0}, {0, 2, 0}, {0, 0, 3});
  const Triangles r = rotated(m, {{Axis::z, 30}});
  const double c = std::sqrt(3.0) / 2;
  const double want[9] = {c, 0.5, 0, -1, 2 * c, 0, 0, 0, 3};
  for (int i = 0; i < 9; ++i) EXPECT_NEAR(r.xyz[std::size_t(i)], want[i], 1e-15);
}

TEST(Placement, ScaleToLengthAndCentre) {
  const Triangles m = random_mesh(40, 3);
  const auto b0 = geometry::bounds(m);
  Placement p;
  p.length = geometry::LengthAlong{Axis::y, 40};
  p.centre = P3{50, 20.5, 31.25};
  const Triangles got = geometry::place(m, p);
  const auto b = geometry::bounds(got);
  EXPECT_NEAR(b.extent(Axis::y), 40, 1e-12);
  const double s = 40 / b0.extent(Axis::y);
  EXPECT_NEAR(b.extent(Axis::x), s * b0.extent(Axis::x), 1e-12);
  EXPECT_NEAR(b.extent(Axis::z), s * b0.extent(Axis::z), 1e-12);
  for (int a = 0; a < 3; ++a) EXPECT_NEAR(b.centre()[a], (*p.centre)[a], 1e-12);
  // shape kept: every vertex is s times the original one, shifted
  for (std::size_t v = 0; v < m.xyz.size(); ++v)
    EXPECT_NEAR(got.xyz[v] - got.xyz[v % 3], s * (m.xyz[v] - m.xyz[v % 3]), 1e-12);
}

// A mesh of binary fractions: scale, centre and translate are exact.
TEST(Placement, ScaleCentreTranslateExactly) {
  const Triangles m = test::box({-1, 0.5, 2}, {3, 1.5, 4});
  Placement p;
  p.scale = 2;
  p.centre = P3{10, 11, 12};
  p.translate = {0.5, -1, 0.25};
  const auto b = geometry::bounds(geometry::place(m, p));
  EXPECT_EQ(b.lo, (P3{6.5, 9, 10.25}));
  EXPECT_EQ(b.hi, (P3{14.5, 11, 14.25}));
  p.centre.reset();
  const auto t = geometry::bounds(geometry::place(m, p));
  EXPECT_EQ(t.lo, (P3{-1.5, 0, 4.25}));
}

// Turned by 90 degrees about z around the lattice's centre, the body's mask
// is the mask turned: cell (x, y, z) -> (n-1-y, x, z).
TEST(Placement, MaskOfTurnedBodyIsTurnedMask) {
  const long n = 23;
  const Grid g{n, n, n};
  const std::array<P3, 4> t{P3{3.16, 2.71, 3.97}, P3{19.51, 5.28, 3.88}, P3{7.03, 18.39, 6.11},
                            P3{8.15, 7.77, 19.78}};
  const Triangles body = test::tetrahedron(t[0], t[1], t[2], t[3]);
  Placement straight, turned;
  straight.centre = turned.centre = P3{11, 11, 11};
  turned.rotate = {{Axis::z, 90}};
  const Triangles a = geometry::place(body, straight), b = geometry::place(body, turned);
  // the placed corners: triangles (t0, t2, t1) and (t0, t1, t3) come first
  std::array<P3, 4> ta;
  for (int i = 0; i < 4; ++i) {
    const std::size_t v = std::size_t(3 * (i == 3 ? 5 : i == 1 ? 2 : i == 2 ? 1 : 0));
    ta[std::size_t(i)] = {a.xyz[v], a.xyz[v + 1], a.xyz[v + 2]};
  }
  long robust = 0;
  test::cells_where(g, [&](double x, double y, double z) {
    robust += test::tetrahedron_side(ta, {x, y, z}, 2e-3) != 0;
    return false;
  });
  ASSERT_EQ(robust, g.cells()) << "a centre on a face: the tie rules are not turned";
  const auto cpu = open_device("cpu");
  const auto ma = geometry::voxelize(a, g, cpu), mb = geometry::voxelize(b, g, cpu);
  std::size_t wrong = 0, solid = 0;
  for (long z = 0; z < n; ++z)
    for (long y = 0; y < n; ++y)
      for (long x = 0; x < n; ++x) {
        const auto sa = ma[std::size_t(x + n * (y + n * z))];
        wrong += sa != mb[std::size_t((n - 1 - y) + n * (x + n * z))];
        solid += sa;
      }
  EXPECT_EQ(wrong, 0u);
  EXPECT_GT(solid, 300u);
}

void expect_usage(const Triangles& m, const Placement& p, const std::string& text) {
  try {
    geometry::place(m, p);
    ADD_FAILURE() << "accepted; expected a UsageError naming " << text;
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << e.what();
  }
}

TEST(Placement, BadValuesAreRefusedByName) {
  const Triangles m = test::box({0, 0, 0}, {1, 2, 3});
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  Placement p;
  p.rotate = {{Axis::y, nan}};
  expect_usage(m, p, "rotate y = nan");
  p = {};
  p.scale = 0;
  expect_usage(m, p, "scale = 0");
  p.scale = -2;
  expect_usage(m, p, "scale = -2");
  p.scale = inf;
  expect_usage(m, p, "scale = inf");
  p = {};
  p.length = geometry::LengthAlong{Axis::x, 0};
  expect_usage(m, p, "length = 0");
  p.length = geometry::LengthAlong{Axis::x, nan};
  expect_usage(m, p, "length = nan");
  p.scale = 2;
  p.length = geometry::LengthAlong{Axis::x, 5};
  expect_usage(m, p, "give one of them");
  p = {};
  p.centre = P3{1, nan, 2};
  expect_usage(m, p, "centre[1] = nan");
  p = {};
  p.translate = {0, 0, -inf};
  expect_usage(m, p, "translate[2] = -inf");
  expect_usage(Triangles{}, Placement{}, "no triangles");
  Triangles flat;
  test::add_triangle(flat, {0, 0, 1}, {1, 0, 1}, {0, 1, 1});
  p = {};
  p.length = geometry::LengthAlong{Axis::z, 10};
  expect_usage(flat, p, "flat along z");
  // bad data, not a bad option: Error
  Triangles bad = m;
  bad.xyz[9 * 3 + 2] = inf;
  try {
    geometry::place(bad, Placement{});
    ADD_FAILURE() << "a non-finite vertex was placed";
  } catch (const UsageError&) {
    ADD_FAILURE() << "a non-finite vertex is bad data: Error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("triangle 3"), std::string::npos) << e.what();
  }
  p = {};
  p.scale = 1e308;
  EXPECT_THROW(geometry::place(test::box({0, 0, 0}, {1e10, 1, 1}), p), Error);
  EXPECT_THROW(geometry::triangles_from(std::vector<float>(10, 1.0f)), Error);
  EXPECT_EQ(geometry::triangles_from(std::vector<float>(18, 0.5f)).size(), 2u);
}

}  // namespace
}  // namespace tessera::lbm
