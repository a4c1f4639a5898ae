// Every backend gives the CPU's bits (same configuration, every variant), and
// a closed box conserves mass to round-off.
#include <gtest/gtest.h>

#include <cmath>

#include "core/registry.hpp"
#include "lbm/solver.hpp"
#include "lbm_test_util.hpp"
#include "test_support.hpp"

namespace tessera::lbm {
namespace {

Config mixed_config(Lattice l, Precision p, Collision c) {
  Config cfg;
  cfg.lattice = l;
  cfg.precision = p;
  cfg.collision = c;
  cfg.grid =
      l == Lattice::d2q9 ? Grid{67, 13, 1} : Grid{37, 11, 7};  // odd, x not a multiple of the group
  cfg.tau = 0.61;
  cfg.force = {2e-5, 1e-5, l == Lattice::d2q9 ? 0 : -1e-5};
  cfg.u_wall = {0.08, 0, 0};
  cfg.u_in = {0.05, 0, 0};
  cfg.rho_out = 1.001;
  return cfg;
}

std::vector<std::uint8_t> run(const std::string& device, const Config& cfg, int steps) {
  Solver s(open_device(device), cfg);
  s.set_flags(test::mixed_flags(cfg.grid));
  s.initialize(test::random_fields(cfg.grid, 0.04, 3, cfg.lattice != Lattice::d2q9));
  s.step(steps);
  return s.raw_populations();
}

class LbmBackends : public ::testing::TestWithParam<std::string> {};

TEST_P(LbmBackends, BitwiseEqualToCpuForEveryVariant) {
  if (GetParam() == "cpu") GTEST_SKIP() << "the CPU is the reference";
  for (Lattice l : {Lattice::d2q9, Lattice::d3q19, Lattice::d3q27})
    for (Precision p : {Precision::fp32, Precision::fp16s, Precision::fp64})
      for (Collision c : {Collision::bgk, Collision::trt})
        for (bool forced : {true, false}) {  // unforced runs skip the Guo terms (another code path)
          SCOPED_TRACE(to_string(l) + " " + to_string(p) + " " + to_string(c) +
                       (forced ? " forced" : " unforced"));
          Config cfg = mixed_config(l, p, c);
          if (!forced) cfg.force = {0, 0, 0};
          const auto want = run("cpu", cfg, 9), got = run(GetParam(), cfg, 9);
          ASSERT_EQ(got.size(), want.size());
          std::size_t diff = 0;
          for (std::size_t k = 0; k < got.size(); ++k) diff += got[k] != want[k];
          EXPECT_EQ(diff, 0u) << "bytes differing from the CPU";
        }
}

TEST_P(LbmBackends, MomentsEqualToCpu) {
  const Config cfg = mixed_config(Lattice::d3q19, Precision::fp32, Collision::bgk);
  auto fields_on = [&](const std::string& dev) {
    Solver s(open_device(dev), cfg);
    s.set_flags(test::mixed_flags(cfg.grid));
    s.initialize(test::random_fields(cfg.grid, 0.04, 3));
    s.step(5);
    return s.fields();
  };
  const Fields a = fields_on("cpu"), b = fields_on(GetParam());
  EXPECT_EQ(a.rho, b.rho);
  EXPECT_EQ(a.ux, b.ux);
  EXPECT_EQ(a.uz, b.uz);
  double umax = 0;
  for (double u : a.ux) umax = std::max(umax, std::fabs(u));
  EXPECT_GT(umax, 0.01);  // the fields are not trivially zero
}

// Closed box (walls on every face), a moving flow inside: the total mass
// changes only by round-off of the collision (and by FP16 rounding of storage).
TEST_P(LbmBackends, ClosedBoxConservesMass) {
  for (Precision p : {Precision::fp64, Precision::fp32, Precision::fp16s}) {
    SCOPED_TRACE(to_string(p));
    Config cfg;
    cfg.precision = p;
    cfg.grid = {18, 15, 13};
    cfg.tau = 0.55;
    Solver s(open_device(GetParam()), cfg);
    std::vector<std::uint8_t> fl(static_cast<std::size_t>(cfg.grid.cells()), TS_LBM_FLUID);
    const Grid g = cfg.grid;
    for (long z = 0; z < g.nz; ++z)
      for (long y = 0; y < g.ny; ++y)
        for (long x = 0; x < g.nx; ++x)
          if (x == 0 || y == 0 || z == 0 || x == g.nx - 1 || y == g.ny - 1 || z == g.nz - 1)
            fl[static_cast<std::size_t>(x + g.nx * (y + g.ny * z))] = TS_LBM_WALL;
    s.set_flags(fl);
    s.initialize(test::random_fields(cfg.grid, 0.05, 5));
    const double m0 = s.mass();
    s.step(200);
    const double m1 = s.mass();
    const double fluid = double((g.nx - 2) * (g.ny - 2) * (g.nz - 2));
    const double tol = p == Precision::fp64 ? 1e-14 : p == Precision::fp32 ? 1e-7 : 1e-4;
    EXPECT_LT(std::fabs(m1 - m0) / fluid, tol) << m0 << " -> " << m1;
    EXPECT_NEAR(m0 / fluid, 1.0, 0.02);
    const Fields f = s.fields();
    double umax = 0;
    for (double u : f.ux) umax = std::max(umax, std::fabs(u));
    EXPECT_GT(umax, 1e-3);  // still flowing: the box is not trivially at rest
  }
}

INSTANTIATE_TEST_SUITE_P(Devices, LbmBackends, ::testing::ValuesIn(tessera::test::device_ids()),
                         tessera::test::id_name);

}  // namespace
}  // namespace tessera::lbm
