// The voxelizer (src/lbm/geometry/voxelize.hpp) against cell sets computed
// here from the bodies' analytic shapes, on every device; every device's
// bytes equal the CPU's.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>

#include "core/error.hpp"
#include "core/registry.hpp"
#include "lbm/geometry/voxelize.hpp"
#include "test_support.hpp"
#include "voxel_meshes.hpp"

namespace tessera::lbm {
namespace {

using geometry::Triangles;
using geometry::voxelize;
using geometry::VoxelReport;
using test::P3;

std::size_t differing(const std::vector<std::uint8_t>& a, const std::vector<std::uint8_t>& b) {
  EXPECT_EQ(a.size(), b.size());
  std::size_t n = 0;
  for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i) n += a[i] != b[i];
  return n;
}

std::size_t count(const std::vector<std::uint8_t>& m) {
  std::size_t n = 0;
  for (auto v : m) n += v;
  return n;
}

// A box's cells: lo <= c < hi on every axis (a centre on a face belongs to
// the side of larger coordinate, voxelize.hpp)
std::vector<std::uint8_t> box_cells(const Grid& g, const P3& lo, const P3& hi) {
  return test::cells_where(g, [&](double x, double y, double z) {
    return lo[0] <= x && x < hi[0] && lo[1] <= y && y < hi[1] && lo[2] <= z && z < hi[2];
  });
}

// A box without the triangles at `drop` (indices into box(): face f holds
// triangles 2f and 2f + 1, faces -x +x -y +y -z +z).
Triangles box_without(const P3& lo, const P3& hi, std::initializer_list<int> drop) {
  const Triangles full = test::box(lo, hi);
  Triangles m;
  for (std::size_t t = 0; t < full.size(); ++t)
    if (std::find(drop.begin(), drop.end(), int(t)) == drop.end())
      m.xyz.insert(m.xyz.end(), full.xyz.begin() + 9 * t, full.xyz.begin() + 9 * t + 9);
  return m;
}

class Voxelize : public ::testing::TestWithParam<std::string> {
 protected:
  std::shared_ptr<Device> device() { return open_device(GetParam()); }
};

// Faces between cell centres, an odd lattice not a multiple of the tile.
TEST_P(Voxelize, BoxExactSet) {
  const Grid g{13, 11, 9};
  const P3 lo{2.3, 1.6, 2.7}, hi{10.4, 8.2, 6.5};
  VoxelReport r;
  const auto got = voxelize(test::box(lo, hi), g, device(), &r);
  EXPECT_EQ(differing(got, box_cells(g, lo, hi)), 0u);
  EXPECT_EQ(count(got), 8u * 7u * 4u);
  EXPECT_EQ(r.odd_rays, 0);
}

// Faces, edges and vertices on cell centres and on the rays: the exact
// half-open set; a box reaching beyond the lattice is cut by it.
TEST_P(Voxelize, BoxOnCellCentresIsHalfOpen) {
  const Grid g{12, 11, 10};
  for (const auto& [lo, hi] :
       {std::pair<P3, P3>{{2, 3, 1}, {9, 8, 7}}, std::pair<P3, P3>{{-3, 0, 0}, {5, 11, 10}},
        std::pair<P3, P3>{{0, 0, 0}, {12, 11, 10}}, std::pair<P3, P3>{{4, 4, 4}, {5, 5, 5}}}) {
    SCOPED_TRACE(testing::PrintToString(lo) + " " + testing::PrintToString(hi));
    VoxelReport r;
    const auto got = voxelize(test::box(lo, hi), g, device(), &r);
    EXPECT_EQ(differing(got, box_cells(g, lo, hi)), 0u);
    EXPECT_EQ(r.odd_rays, 0);
  }
}

TEST_P(Voxelize, TetrahedronExactSet) {
  const Grid g{21, 19, 17};
  const std::array<P3, 4> t{P3{2.15, 1.84, 3.21}, P3{18.5, 4.2, 2.88}, P3{6.16, 16.52, 5.14},
                            P3{7.01, 6.93, 15.87}};
  long robust = 0;
  const auto want = test::cells_where(g, [&](double x, double y, double z) {
    const int side = test::tetrahedron_side(t, {x, y, z}, 2e-3);
    robust += side != 0;
    return side > 0;
  });
  ASSERT_EQ(robust, g.cells()) << "a centre within 2e-3 cells of a face: move the vertices";
  const auto got = voxelize(test::tetrahedron(t[0], t[1], t[2], t[3]), g, device());
  EXPECT_EQ(differing(got, want), 0u);
  EXPECT_GT(count(want), 300u);
}

// The facets of an inscribed icosphere lie between the sphere and the
// sphere shrunk by the largest sagitta: every centre outside that band (and
// 1e-3 cells from it, the cross-section's rounding to 2^-10 cells) agrees
// with the analytic ball; the band's cells are reported.
TEST_P(Voxelize, IcosphereAgreesWithBallOutsideSagitta) {
  const Grid g{33, 31, 29};
  const P3 c{16.2, 15.1, 13.9};
  const double r = 11;
  const Triangles m = test::icosphere(c, r, 3);
  double sagitta = 0;
  for (std::size_t t = 0; t < m.size(); ++t) {
    const double* p = &m.xyz[9 * t];
    // circumradius of the facet: |a-b| |b-c| |c-a| / (4 area)
    const auto d = [&](int i, int j) {
      return std::hypot(p[3 * i] - p[3 * j], p[3 * i + 1] - p[3 * j + 1],
                        p[3 * i + 2] - p[3 * j + 2]);
    };
    const double a = d(0, 1), b = d(1, 2), e = d(2, 0), s = (a + b + e) / 2;
    const double area = std::sqrt(s * (s - a) * (s - b) * (s - e));
    const double rho = a * b * e / (4 * area);
    sagitta = std::max(sagitta, r - std::sqrt(r * r - rho * rho));
  }
  VoxelReport rep;
  const auto got = voxelize(m, g, device(), &rep);
  EXPECT_EQ(rep.odd_rays, 0);
  long band = 0, band_inside = 0, wrong = 0;
  for (long z = 0; z < g.nz; ++z)
    for (long y = 0; y < g.ny; ++y)
      for (long x = 0; x < g.nx; ++x) {
        const double dist = std::hypot(x - c[0], y - c[1], z - c[2]);
        const bool in = got[std::size_t(x + g.nx * (y + g.ny * z))];
        if (dist < r - sagitta - 1e-3)
          wrong += !in;
        else if (dist > r + 1e-3)
          wrong += in;
        else
          ++band, band_inside += in;
      }
  EXPECT_EQ(wrong, 0);
  std::printf(
      "icosphere r %g, %zu facets, sagitta %.4f: %ld cells in the band, %ld of them solid\n", r,
      m.size(), sagitta, band, band_inside);
  RecordProperty("band_cells", int(band));
  EXPECT_LT(band, 800);
}

// Bodies are unions; one mesh holding both is decided by parity over both.
TEST_P(Voxelize, TwoOverlappingBodies) {
  const Grid g{25, 19, 17};
  const P3 lo{2.5, 2.5, 2.5}, hi{14.5, 12.5, 11.5};
  const P3 c{15.3, 10.2, 9.1};
  const double r = 6.7;
  const Triangles a = test::box(lo, hi), b = test::icosphere(c, r, 4);
  const auto in_box = box_cells(g, lo, hi);
  const auto ball = voxelize(b, g, device());
  const std::vector<Triangles> bodies{a, b};
  const auto both = voxelize(bodies, g, device());
  Triangles one = a;
  one.append(b);
  const auto parity = voxelize(one, g, device());
  std::size_t overlap = 0, wrong_union = 0, wrong_parity = 0;
  for (std::size_t n = 0; n < both.size(); ++n) {
    overlap += in_box[n] && ball[n];
    wrong_union += both[n] != (in_box[n] | ball[n]);
    wrong_parity += parity[n] != (in_box[n] ^ ball[n]);
  }
  EXPECT_GT(overlap, 100u);
  EXPECT_EQ(wrong_union, 0u);
  EXPECT_EQ(wrong_parity, 0u);
}

// 30 slabs along x: 60 crossings a ray, no buffer to overflow.
TEST_P(Voxelize, ManyCrossingsPerRay) {
  const Grid g{125, 7, 5};
  Triangles m;
  for (int s = 0; s < 30; ++s)
    m.append(test::box({2.0 + 4 * s, 1.5, 0.5}, {4.5 + 4 * s, 5.5, 3.5}));
  const auto got = voxelize(m, g, device());
  const auto want = test::cells_where(g, [](double x, double y, double z) {
    const double u = x - 2;
    return u >= 0 && u < 120 && std::fmod(u, 4.0) < 2.5 && y > 1.5 && y < 5.5 && z > 0.5 && z < 3.5;
  });
  EXPECT_EQ(differing(got, want), 0u);
  Buffer<std::uint8_t> mask(device(), std::size_t(g.cells()));
  Buffer<int> counts(mask.device_ptr(), std::size_t(g.ny * g.nz));
  geometry::cast_rays_x(m, g, mask, counts);
  const auto c = counts.to_vector();
  for (long z = 0; z < g.nz; ++z)
    for (long y = 0; y < g.ny; ++y)
      EXPECT_EQ(c[std::size_t(y + g.ny * z)], y > 1.5 && y < 5.5 && z > 0.5 && z < 3.5 ? 60 : 0);
}

// Lattices one cell thin along an axis, and a single cell.
TEST_P(Voxelize, ThinLattices) {
  const P3 lo{0.5, 1.5, 2.5}, hi{9.5, 6.5, 5.5};
  for (const Grid g : {Grid{1, 9, 7}, Grid{17, 1, 5}, Grid{17, 9, 1}, Grid{1, 1, 1}}) {
    SCOPED_TRACE(std::to_string(g.nx) + "x" + std::to_string(g.ny) + "x" + std::to_string(g.nz));
    const P3 l{lo[0] - (g.nx == 1) * 3, lo[1] - (g.ny == 1) * 3, lo[2] - (g.nz == 1) * 3};
    EXPECT_EQ(differing(voxelize(test::box(l, hi), g, device()), box_cells(g, l, hi)), 0u);
  }
}

// One triangle gone from a face: the rays along x through it are odd, the
// rays along y and z through their cells are not, and decide them as the
// closed box would be.
TEST_P(Voxelize, OpenBoxIsResolvedByRaysAlongYAndZ) {
  const Grid g{14, 12, 11};
  const P3 lo{2.5, 2.5, 2.5}, hi{11.5, 9.5, 8.5};
  for (int dropped : {3, 0, 6, 11}) {
    SCOPED_TRACE("without triangle " + std::to_string(dropped));
    VoxelReport r;
    const auto got = voxelize(box_without(lo, hi, {dropped}), g, device(), &r);
    EXPECT_EQ(differing(got, box_cells(g, lo, hi)), 0u);
    if (dropped < 4) {  // x faces: rays along x meet the hole
      EXPECT_GT(r.odd_rays, 10);
      EXPECT_GT(r.resolved_cells, 10 * g.nx);
    } else {
      EXPECT_EQ(r.odd_rays, 0);
    }
  }
}

// An icosphere without one facet: its cells are decided as the closed
// one's, or, where rays along x, y and z through a cell all pass through
// the hole (cells near it), the mesh is refused as not closed. Both
// happen; nothing else does.
TEST_P(Voxelize, OpenIcosphereIsResolvedOrRefused) {
  const Grid g{27, 25, 23};
  const Triangles closed = test::icosphere({13.1, 12.2, 11.3}, 9.5, 2);
  const auto want = voxelize(closed, g, device());
  int resolved = 0, refused = 0, unseen = 0;
  for (std::size_t gone = 0; gone < closed.size(); gone += 5) {
    SCOPED_TRACE("without facet " + std::to_string(gone));
    Triangles open;
    for (std::size_t t = 0; t < closed.size(); ++t)
      if (t != gone)
        open.xyz.insert(open.xyz.end(), closed.xyz.begin() + 9 * t, closed.xyz.begin() + 9 * t + 9);
    try {
      VoxelReport r;
      const auto got = voxelize(open, g, device(), &r);
      EXPECT_EQ(differing(got, want), 0u);
      (r.odd_rays > 0 ? resolved : unseen)++;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("the mesh is not closed"), std::string::npos)
          << e.what();
      ++refused;
    }
  }
  std::printf(
      "icosphere without one facet, 64 facets in turn: %d resolved, %d refused, %d between "
      "the rays\n",
      resolved, refused, unseen);
  EXPECT_GT(resolved, 0);
  EXPECT_GT(refused, 0);
}

// The corner (+x, +y, +z faces) gone: no ray through the box is even, so
// its cells cannot be decided.
TEST_P(Voxelize, OpenCornerIsAnError) {
  const Grid g{12, 11, 10};
  const Triangles m = box_without({2.5, 2.5, 2.5}, {8.5, 7.5, 6.5}, {2, 3, 6, 7, 10, 11});
  try {
    voxelize(m, g, device());
    FAIL() << "an open corner was voxelized";
  } catch (const UsageError&) {
    FAIL() << "an open mesh is an Error, not a UsageError";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("not closed"), std::string::npos) << what;
    EXPECT_NE(what.find("20 rays along x"), std::string::npos) << what;
    EXPECT_NE(what.find("the ray at y = 3, z = 3"), std::string::npos) << what;
  }
}

// Random closed meshes (jittered icospheres) and a random triangle soup
// (odd rays): every device's mask and counts equal the CPU's bytes.
TEST_P(Voxelize, BitwiseEqualToCpu) {
  if (GetParam() == "cpu") GTEST_SKIP() << "the CPU is the reference";
  const auto cpu = open_device("cpu");
  std::mt19937_64 rng(43);
  std::uniform_real_distribution<double> u(0.8, 1.2);
  std::vector<double> jitter(20000);
  for (double& j : jitter) j = u(rng);
  const Grid g{45, 39, 37};
  const Triangles sphere =
      test::icosphere({22.3, 19.1, 18.4}, 14.2, 4, [&](std::size_t i) { return jitter[i]; });
  EXPECT_EQ(differing(voxelize(sphere, g, device()), voxelize(sphere, g, cpu)), 0u);
  // vertices rounded to half cells: many on the rays and on cell centres,
  // so every tie rule is taken
  Triangles halves = test::icosphere({22, 19, 18}, 13, 3);
  for (double& v : halves.xyz) v = std::round(v * 2) / 2;
  EXPECT_EQ(differing(voxelize(halves, g, device()), voxelize(halves, g, cpu)), 0u);
  Triangles soup;
  std::uniform_real_distribution<double> p(-5, 50);
  for (int t = 0; t < 3000; ++t)
    test::add_triangle(soup, {p(rng), p(rng), p(rng)}, {p(rng), p(rng), p(rng)},
                       {p(rng), p(rng), p(rng)});
  const auto raw = [&](const std::shared_ptr<Device>& d) {
    Buffer<std::uint8_t> mask(d, std::size_t(g.cells()));
    Buffer<int> counts(d, std::size_t(g.ny * g.nz));
    geometry::cast_rays_x(soup, g, mask, counts);
    return std::pair{mask.to_vector(), counts.to_vector()};
  };
  const auto [mask, counts] = raw(device());
  const auto [mask_cpu, counts_cpu] = raw(cpu);
  EXPECT_EQ(differing(mask, mask_cpu), 0u);
  EXPECT_EQ(counts, counts_cpu);
}

// Every byte of the mask and every count is written.
TEST_P(Voxelize, PoisonedOutput) {
  const Grid g{19, 17, 13};
  const Triangles m = test::icosphere({9.2, 8.1, 6.3}, 5.6, 2);
  Buffer<std::uint8_t> mask(device(), std::size_t(g.cells()));
  Buffer<int> counts(mask.device_ptr(), std::size_t(g.ny * g.nz));
  mask.copy_from_host(std::vector<std::uint8_t>(mask.size(), 0xA5));
  counts.copy_from_host(std::vector<int>(counts.size(), -7));
  geometry::cast_rays_x(m, g, mask, counts);
  const auto got = mask.to_vector();
  for (auto v : got) ASSERT_LE(v, 1);
  for (int c : counts.to_vector()) ASSERT_TRUE(c >= 0 && c % 2 == 0) << c;
  EXPECT_EQ(differing(got, voxelize(m, g, open_device("cpu"))), 0u);
}

INSTANTIATE_TEST_SUITE_P(Devices, Voxelize, ::testing::ValuesIn(tessera::test::device_ids()),
                         tessera::test::id_name);

TEST(VoxelizeInput, Refused) {
  const auto cpu = open_device("cpu");
  const Grid g{8, 8, 8};
  EXPECT_THROW(voxelize(Triangles{}, g, cpu), UsageError);
  EXPECT_THROW(voxelize(test::box({1, 1, 1}, {3, 3, 3}), Grid{8, 0, 8}, cpu), UsageError);
  EXPECT_THROW(voxelize(std::span<const Triangles>{}, g, cpu), UsageError);
  Triangles nan = test::box({1, 1, 1}, {3, 3, 3});
  nan.xyz[9 + 4] = std::nan("");
  try {
    voxelize(nan, g, cpu);
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("vertex 1 of triangle 1 is nan"), std::string::npos)
        << e.what();
  }
  Triangles far = test::box({1, 1, 1}, {3, 3, 3});
  far.xyz[0] = 1e6;
  EXPECT_THROW(voxelize(far, g, cpu), Error);
  Triangles ragged = test::box({1, 1, 1}, {3, 3, 3});
  ragged.xyz.pop_back();
  EXPECT_THROW(voxelize(ragged, g, cpu), Error);
  Buffer<std::uint8_t> mask(cpu, 10);
  Buffer<int> counts(cpu, 64);
  EXPECT_THROW(geometry::cast_rays_x(test::box({1, 1, 1}, {3, 3, 3}), g, mask, counts), Error);
}

// A mesh entirely outside the lattice's cross-section, or parallel to the
// rays, leaves it empty.
TEST(VoxelizeInput, NothingToCross) {
  const auto cpu = open_device("cpu");
  const Grid g{8, 8, 8};
  EXPECT_EQ(count(voxelize(test::box({1, 20, 1}, {3, 23, 3}), g, cpu)), 0u);
  Triangles flat;
  test::add_triangle(flat, {1, 1, 1}, {5, 1, 1}, {5, 5, 1});
  test::add_triangle(flat, {1, 1, 1}, {5, 5, 1}, {1, 5, 1});
  EXPECT_EQ(count(voxelize(flat, g, cpu)), 0u);
}

}  // namespace
}  // namespace tessera::lbm
