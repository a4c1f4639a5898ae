// Interpolated bounce-back (Bouzidi, Firdaouss and Lallemand 2001; issue
// 43): the pass after each step against its formula evaluated from a
// halfway bounce-back step of the same state, every backend bitwise against
// the CPU, the distributed solver bitwise against the single device, the
// surface crossings against geometry, and a channel whose walls lie off the
// lattice against the analytic Poiseuille profile.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "core/error.hpp"
#include "core/registry.hpp"
#include "lbm/cases.hpp"
#include "lbm/distributed.hpp"
#include "lbm/geometry/crossings.hpp"
#include "lbm/kernels/lbm_flags.h"
#include "lbm/kernels/lbm_point.hpp"
#include "lbm/solver.hpp"
#include "lbm_test_util.hpp"
#include "skeleton/team.hpp"
#include "test_support.hpp"
#include "voxel_meshes.hpp"

namespace tessera::lbm {
namespace {

int q_of_lattice(Lattice l) { return l == Lattice::d2q9 ? 9 : l == Lattice::d3q19 ? 19 : 27; }

// Walls on y = 0 and y = ny - 1, an inlet column at x = 0, an outlet column
// at x = nx - 1, and a blob of body cells (a ball of radius 2.2 about the
// middle) whose links end at random q; rows between blob and walls are
// two cells or more, one column of fluid next to the blob is only one cell
// wide (a gap: its links keep halfway bounce-back).
std::vector<std::uint8_t> blob_flags(const Grid& g) {
  std::vector<std::uint8_t> fl(static_cast<std::size_t>(g.cells()), TS_LBM_FLUID);
  const double cx = double(g.nx / 2), cy = double(g.ny / 2), cz = double(g.nz / 2);
  for (long z = 0; z < g.nz; ++z)
    for (long y = 0; y < g.ny; ++y)
      for (long x = 0; x < g.nx; ++x) {
        auto& f = fl[static_cast<std::size_t>(x + g.nx * (y + g.ny * z))];
        const double r2 =
            (x - cx) * (x - cx) + (y - cy) * (y - cy) + (g.nz > 1 ? (z - cz) * (z - cz) : 0.0);
        if (y == 0 || y == g.ny - 1)
          f = TS_LBM_WALL;
        else if (x == 0)
          f = TS_LBM_INLET;
        else if (x == g.nx - 1)
          f = TS_LBM_OUTLET;
        else if (r2 <= 2.2 * 2.2 || (x == long(cx) + 4 && y >= long(cy) - 1 && y <= long(cy) + 1))
          f = TS_LBM_WALL | TS_LBM_BODY;  // the blob, and a post one fluid column beside it
      }
  return fl;
}

// Every link from a non-wall cell into a body cell, q random in (0, 1]
// (some exactly 1/2 and 1).
std::vector<WallLink> random_links(const Grid& g, Lattice l, const std::vector<std::uint8_t>& fl,
                                   std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0.02, 1.0);
  std::vector<WallLink> links;
  point::with_variant(q_of_lattice(l), 32, [&](auto var) {
    using V = decltype(var);
    for (long z = 0; z < g.nz; ++z)
      for (long y = 0; y < g.ny; ++y)
        for (long x = 0; x < g.nx; ++x) {
          const long n = x + g.nx * (y + g.ny * z);
          if (TS_LBM_IS_WALL(fl[std::size_t(n)])) continue;
          for (int i = 1; i < V::q; ++i) {
            const long m =
                (x + V::cx(i) + g.nx) % g.nx +
                g.nx * ((y + V::cy(i) + g.ny) % g.ny + g.ny * ((z + V::cz(i) + g.nz) % g.nz));
            if (!(fl[std::size_t(m)] & TS_LBM_BODY)) continue;
            const double r = u(rng);
            links.push_back({n, i, r > 0.95 ? 0.5 : r > 0.9 ? 1.0 : r});
          }
        }
    return 0;
  });
  return links;
}

Config blob_config(Lattice l, Precision p, Collision c) {
  Config cfg;
  cfg.lattice = l;
  cfg.precision = p;
  cfg.collision = c;
  cfg.grid = l == Lattice::d2q9 ? Grid{29, 15, 1} : Grid{17, 13, 9};
  cfg.tau = 0.58;
  cfg.force = {1e-5, 0, 0};
  cfg.u_in = {0.06, 0, 0};
  cfg.rho_out = 1.0;
  return cfg;
}

class LbmInterpolated : public ::testing::TestWithParam<std::string> {};

// One step with the links against a halfway step from the same state: the
// populations the links bounce back follow the formula (evaluated here in
// double from the halfway step's incoming populations), all others are
// bitwise the same.
TEST_P(LbmInterpolated, StepFollowsBouzidisFormula) {
  for (Lattice l : {Lattice::d2q9, Lattice::d3q19})
    for (Precision p : {Precision::fp64, Precision::fp32}) {
      SCOPED_TRACE(to_string(l) + " " + to_string(p));
      const Config cfg = blob_config(l, p, Collision::trt);
      const Grid g = cfg.grid;
      const auto fl = blob_flags(g);
      const auto links = random_links(g, l, fl, 5);
      Solver a(open_device(GetParam()), cfg), b(open_device(GetParam()), cfg);
      a.set_flags(fl);
      a.set_links(links);
      a.initialize(test::random_fields(g, 0.03, 7, l != Lattice::d2q9));
      a.step(3);  // corrected steps, so that the state carries earlier corrections
      b.set_flags(fl);
      b.restore(a.raw_populations(), a.flags(), a.time());
      a.step(1);
      b.step(1);
      const auto got = a.incoming(), half = b.incoming();
      const std::size_t N = std::size_t(g.cells());
      std::vector<char> linked(got.size(), 0);
      long near = 0, far = 0;
      const double tol = p == Precision::fp64 ? 1e-15 : 2e-7;
      point::with_variant(q_of_lattice(l), 32, [&](auto var) {
        using V = decltype(var);
        for (const WallLink& k : a.links()) {
          const long x = k.cell % g.nx, y = (k.cell / g.nx) % g.ny, z = k.cell / (g.nx * g.ny);
          const long behind =
              (x - V::cx(k.dir) + g.nx) % g.nx +
              g.nx * ((y - V::cy(k.dir) + g.ny) % g.ny + g.ny * ((z - V::cz(k.dir) + g.nz) % g.nz));
          const int back = (k.dir & 1) ? k.dir + 1 : k.dir - 1;
          const std::size_t at = std::size_t(back) * N + std::size_t(k.cell);
          const double own = half[at];  // f*_d(n): halfway bounce-back returns it
          double want;
          if (k.q < 0.5) {  // f*_d(n - c_d), which arrived at n along c_d
            want =
                2 * k.q * own + (1 - 2 * k.q) * half[std::size_t(k.dir) * N + std::size_t(k.cell)];
            ++near;
          } else {  // f*_dbar(n), which arrived at n - c_d
            want = own / (2 * k.q) +
                   (1 - 1 / (2 * k.q)) * half[std::size_t(back) * N + std::size_t(behind)];
            ++far;
          }
          EXPECT_NEAR(got[at], want, tol * (1 + std::fabs(want)) + 1e-18)
              << "link of cell " << k.cell << " direction " << k.dir << " q " << k.q;
          linked[at] = 1;
        }
        return 0;
      });
      EXPECT_GT(near, 10);
      EXPECT_GT(far, 10);
      EXPECT_LT(a.links().size(), links.size()) << "q = 1/2 and the gap's links are dropped";
      std::size_t changed = 0, other_diff = 0;
      for (std::size_t k = 0; k < got.size(); ++k) {
        if (linked[k])
          changed += got[k] != half[k];
        else
          other_diff += got[k] != half[k];
      }
      EXPECT_EQ(other_diff, 0u);
      EXPECT_GT(changed, a.links().size() / 2);
    }
}

// Every backend computes the CPU's bits, every lattice and storage, and
// the force on the body (its links' sent populations) too.
TEST_P(LbmInterpolated, BitwiseEqualToCpu) {
  if (GetParam() == "cpu") GTEST_SKIP() << "the CPU is the reference";
  for (Lattice l : {Lattice::d2q9, Lattice::d3q19, Lattice::d3q27})
    for (Precision p : {Precision::fp32, Precision::fp16s, Precision::fp64}) {
      SCOPED_TRACE(to_string(l) + " " + to_string(p));
      const Config cfg = blob_config(l, p, Collision::bgk);
      auto run = [&](const std::string& dev) {
        Solver s(open_device(dev), cfg);
        s.set_flags(blob_flags(cfg.grid));
        s.set_links(random_links(cfg.grid, l, s.flags(), 9));
        s.initialize(test::random_fields(cfg.grid, 0.03, 4, l != Lattice::d2q9));
        s.step(7);
        return std::make_pair(s.raw_populations(), s.body_force());
      };
      const auto want = run("cpu"), got = run(GetParam());
      EXPECT_EQ(got.first, want.first);
      EXPECT_EQ(got.second, want.second);
      EXPECT_NE(want.second[0], 0.0);
    }
}

// The distributed solver corrects each part's links after the exchange:
// bitwise the single device's populations and forces, 1 to 3 parts (z-slabs
// cutting the blob, so that links of a part's first and last layers read
// the halos).
TEST_P(LbmInterpolated, DistributedEqualsTheSingleDevice) {
  const int max_parts = GetParam().rfind("cuda", 0) == 0 ? 1 : 3;
  for (Precision p : {Precision::fp32, Precision::fp16s, Precision::fp64}) {
    const Config cfg = blob_config(Lattice::d3q19, p, Collision::trt);
    const auto fl = blob_flags(cfg.grid);
    const auto links = random_links(cfg.grid, Lattice::d3q19, fl, 11);
    Solver s(open_device("cpu"), cfg);
    s.set_flags(fl);
    s.set_links(links);
    s.initialize(test::random_fields(cfg.grid, 0.03, 8));
    s.step(5);
    const auto want = s.incoming();
    const auto force = s.body_force();
    for (int parts = 1; parts <= max_parts; ++parts) {
      SCOPED_TRACE(to_string(p) + " parts " + std::to_string(parts));
      DistributedSolver d(skeleton::Team::open(GetParam(), parts), cfg);
      d.set_flags(fl);
      d.set_links(links);
      d.initialize(test::random_fields(cfg.grid, 0.03, 8));
      d.step(2);
      EXPECT_NE(d.incoming(), want);  // (a read mid-run: the pending correction is flushed)
      d.step(3);
      EXPECT_EQ(d.incoming(), want);
      EXPECT_EQ(d.body_force(), force);
      // links set again mid-run: the last step's correction is applied first
      DistributedSolver e(skeleton::Team::open(GetParam(), parts), cfg);
      e.set_flags(fl);
      e.set_links(links);
      e.initialize(test::random_fields(cfg.grid, 0.03, 8));
      e.step(2);
      e.set_links(links);
      e.step(3);
      EXPECT_EQ(e.incoming(), want);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Devices, LbmInterpolated, ::testing::ValuesIn(tessera::test::device_ids()),
                         tessera::test::id_name);

TEST(LbmInterpolatedInput, BadLinksAreRefusedByName) {
  const Config cfg = blob_config(Lattice::d2q9, Precision::fp32, Collision::bgk);
  Solver s(open_device("cpu"), cfg);
  s.set_flags(blob_flags(cfg.grid));
  const long fluid = 5 + cfg.grid.nx * 1;  // (5, 1): the wall y = 0 is below
  const int down = 4;                      // D2Q9 direction (0, -1)
  EXPECT_NO_THROW(s.set_links(std::vector<WallLink>{{fluid, down, 0.3}}));
  EXPECT_EQ(s.links().size(), 1u);
  auto refused = [&](WallLink l, const char* what) {
    try {
      s.set_links(std::vector<WallLink>{l});
      ADD_FAILURE() << "accepted: " << what;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
    }
  };
  refused({fluid, down, 0.0}, "q = 0");
  refused({fluid, down, 1.5}, "q = 1.5");
  refused({fluid, down, std::nan("")}, "q = nan");
  refused({fluid, 3, 0.3}, "does not end in a resting wall");  // (0, +1): fluid above
  refused({5, 3, 0.3}, "starts in a wall");
  refused({fluid, 9, 0.3}, "outside");
  try {
    s.set_links(std::vector<WallLink>{{fluid, down, 0.3}, {fluid, down, 0.7}});
    ADD_FAILURE() << "a link given twice was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("is given twice"), std::string::npos) << e.what();
  }
  // a link from the inlet column keeps halfway bounce-back (its n - c_d
  // may wrap to the outlet), as does one from a plain cell beside it
  const long inlet = 0 + cfg.grid.nx * 1, beside = 1 + cfg.grid.nx * 1;
  s.set_links(std::vector<WallLink>{{inlet, down, 0.3}, {beside, 7, 0.3}});  // 7: (1, -1)
  EXPECT_EQ(s.links().size(), 0u);
  refused({-1, down, 0.3}, "outside");
  // a moving wall takes halfway bounce-back only
  std::vector<std::uint8_t> fl = blob_flags(cfg.grid);
  fl[5] = TS_LBM_MOVING;
  s.set_flags(fl);
  refused({fluid, down, 0.3}, "cell (5, 1, 0) along (0, -1, 0) does not end in a resting wall");
}

// Geometry: crossings of planes, a sphere and a huge tilted triangle.
TEST(LbmCrossings, BisectionFindsTheSurfaceOfAPrimitive) {
  const double r = 4.3;
  auto inside = [&](double x, double y, double z) { return x * x + y * y + z * z <= r * r; };
  // from (5, 1, 0) towards -x: |p|^2 = (5 - t)^2 + 1 = r^2
  const geometry::LinkSegment s{{5, 1, 0}, {-1, 0, 0}};
  const double t = 5 - std::sqrt(r * r - 1);
  EXPECT_NEAR(geometry::crossing_by_bisection(inside, s), t, 2e-12);
  const geometry::LinkSegment d{{3, 3, 1}, {-1, -1, 0}};  // diagonal
  // (3 - t)^2 * 2 + 1 = r^2
  EXPECT_NEAR(geometry::crossing_by_bisection(inside, d), 3 - std::sqrt((r * r - 1) / 2), 2e-12);
}

TEST(LbmCrossings, FirstCrossingOfATriangulatedSphere) {
  const double r = 9.4;
  const auto mesh = test::icosphere({0.2, -0.3, 0.1}, r, 5);
  // links leaving cells outside towards cells inside, in every direction
  std::vector<geometry::LinkSegment> segs;
  std::vector<double> exact;
  for (int x = -12; x <= 12; ++x)
    for (int y = -12; y <= 12; ++y)
      for (int cx = -1; cx <= 1; ++cx)
        for (int cy = -1; cy <= 1; ++cy) {
          const double p[3] = {x - 0.2, y + 0.3, 2 - 0.1};
          const double e[3] = {p[0] + cx, p[1] + cy, p[2] - 1};
          const double a2 = p[0] * p[0] + p[1] * p[1] + p[2] * p[2];
          if (a2 <= r * r || e[0] * e[0] + e[1] * e[1] + e[2] * e[2] > r * r) continue;
          // |p + t c|^2 = r^2, the smaller root
          const double c[3] = {double(cx), double(cy), -1};
          const double A = c[0] * c[0] + c[1] * c[1] + c[2] * c[2];
          const double B = 2 * (p[0] * c[0] + p[1] * c[1] + p[2] * c[2]);
          const double C = a2 - r * r;
          const double t = (-B - std::sqrt(B * B - 4 * A * C)) / (2 * A);
          if (t < 0.05 || t > 0.95) continue;  // the facets' chords may fall short of the ends
          exact.push_back(t);
          segs.push_back({{double(x), double(y), 2.0}, {cx, cy, -1}});
        }
  ASSERT_GT(segs.size(), 100u);
  const auto t = geometry::first_crossings(mesh, segs);
  // facets lie within r (1 - cos 0.05) of the sphere (level 5, as in
  // test_lbm_case_file.cpp): along a link no steeper than 1/sqrt(3) to the
  // normal... a generous 0.03 cells
  for (std::size_t k = 0; k < t.size(); ++k) EXPECT_NEAR(t[k], exact[k], 0.03) << k;
  // a segment far away meets nothing
  const std::vector<geometry::LinkSegment> away{{{40, 0, 0}, {1, 0, 0}}};
  EXPECT_TRUE(std::isnan(geometry::first_crossings(mesh, away)[0]));
}

TEST(LbmCrossings, AHugeTiltedTriangleIsFoundInEveryBin) {
  // one triangle across 400 cells, tilted against every axis
  geometry::Triangles tri;
  tri.xyz = {-200, -200, -150, 200, -180, 90, -190, 210, 170};
  const double n[3] = {(-180 + 200) * (170 + 150) - (90 + 150) * (210 + 200),
                       (90 + 150) * (-190 + 200) - (200 + 200) * (170 + 150),
                       (200 + 200) * (210 + 200) - (-180 + 200) * (-190 + 200)};
  const double d = n[0] * -200 + n[1] * -200 + n[2] * -150;
  std::vector<geometry::LinkSegment> segs;
  std::vector<double> exact;
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> u(-60, 60);
  while (segs.size() < 200) {
    const double x = std::round(u(rng)), y = std::round(u(rng));
    if (x + y > 0) continue;  // inside the triangle's (x, y) shadow
    // the plane's z at (x, y), and a link from below that crosses it
    const double zp = (d - n[0] * x - n[1] * y) / n[2];
    const double z0 = std::floor(zp);
    const geometry::LinkSegment s{{x, y, z0}, {1, 0, 1}};
    const double f0 = n[0] * x + n[1] * y + n[2] * z0 - d, f1 = f0 + n[0] + n[2];
    if (f0 * f1 >= 0) continue;
    exact.push_back(f0 / (f0 - f1));
    segs.push_back(s);
  }
  const auto t = geometry::first_crossings(tri, segs);
  for (std::size_t k = 0; k < t.size(); ++k) EXPECT_NEAR(t[k], exact[k], 1e-9) << k;
}

// A channel whose walls lie off the lattice (the first fluid row 0.3 cells
// from the lower wall, the last 0.8 from the upper), driven by a body
// force: interpolated bounce-back puts the walls there, and the steady
// profile converges to the Poiseuille parabola between them at second
// order; halfway bounce-back puts them where q = 1/2 says and misses it.
// The largest error over the fluid rows, relative to the centre speed.
double poiseuille_error(long width, Collision c, bool interpolated) {
  const double q_lo = 0.3, q_hi = 0.8;
  const double y_lo = 1 - q_lo, y_hi = double(width) + q_hi;
  Case cs = poiseuille(Lattice::d2q9, width, 0.8, 0.01, 1, 1);
  cs.config.collision = c;
  const Grid g = cs.config.grid;
  const double nu = cs.config.viscosity(), F = cs.config.force[0];
  auto exact = [&](long y) { return F / (2 * nu) * (double(y) - y_lo) * (y_hi - double(y)); };
  if (interpolated)
    point::with_variant(9, 32, [&](auto var) {
      using V = decltype(var);
      for (int i = 1; i < 9; ++i) {
        if (V::cy(i) < 0) cs.links.push_back({1 * g.nx, i, q_lo});
        if (V::cy(i) > 0) cs.links.push_back({width * g.nx, i, q_hi});
      }
      return 0;
    });
  Solver s(open_device("cpu"), cs.config);
  cs.apply(s);
  const double H = y_hi - y_lo;
  s.step(long(8 * H * H / nu));  // steady: the slowest mode decays as exp(-pi^2 nu t / H^2)
  const Fields f = s.fields();
  double err = 0;
  for (long y = 1; y <= width; ++y) err = std::max(err, std::fabs(f.ux[std::size_t(y)] - exact(y)));
  return err / exact(width / 2);
}

TEST(LbmInterpolatedValidation, PoiseuilleBetweenWallsOffTheLattice) {
  for (Collision c : {Collision::bgk, Collision::trt}) {
    SCOPED_TRACE(to_string(c));
    const double coarse = poiseuille_error(12, c, true), fine = poiseuille_error(24, c, true);
    const double halfway = poiseuille_error(12, c, false);
    std::printf("%s: interpolated %.3g%% (12 rows), %.3g%% (24 rows); halfway %.3g%%\n",
                to_string(c).c_str(), 100 * coarse, 100 * fine, 100 * halfway);
    // measured: BGK 0.85% and 0.22%, TRT 0.74% and 0.19%; halfway 9.5% and 9.1%
    EXPECT_LT(coarse, 0.01);
    EXPECT_GT(coarse / fine, 3.0);  // second order: 4x per halving of the cell
    EXPECT_GT(halfway, 5 * coarse);
  }
}

}  // namespace
}  // namespace tessera::lbm
