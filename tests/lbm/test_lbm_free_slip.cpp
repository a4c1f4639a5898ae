// Free-slip walls (issue 43): specular reflection gives half of Poiseuille's
// parabola next to a no-slip wall and a uniform plug flow between two of
// them, conserves mass to round-off where free-slip meets no-slip walls
// (each reflected population is read once), gives the CPU's bits on every
// device, and case files build them per face.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include "core/registry.hpp"
#include "io/case_file.hpp"
#include "lbm/case_file.hpp"
#include "lbm/kernels/lbm_flags.h"
#include "lbm/solver.hpp"
#include "lbm_test_util.hpp"
#include "test_support.hpp"

namespace tessera::lbm {
namespace {

// A channel periodic in x, driven by a force along x: `lo` and `hi` are the
// flag types of the y = 0 and y = ny-1 layers.
Config channel(long ny, Lattice l = Lattice::d2q9, long nz = 1) {
  Config c;
  c.lattice = l;
  c.precision = Precision::fp64;
  c.collision = Collision::trt;
  c.trt_magic = kTrtMagicWalls;
  c.grid = {4, ny, nz};
  c.tau = 0.8;
  c.force = {1e-6, 0, 0};
  return c;
}

std::vector<std::uint8_t> layers(const Grid& g, std::uint8_t lo, std::uint8_t hi) {
  std::vector<std::uint8_t> f(std::size_t(g.cells()), TS_LBM_FLUID);
  for (long z = 0; z < g.nz; ++z)
    for (long x = 0; x < g.nx; ++x) {
      f[std::size_t(x + g.nx * (0 + g.ny * z))] = lo;
      f[std::size_t(x + g.nx * (g.ny - 1 + g.ny * z))] = hi;
    }
  return f;
}

// No-slip wall at y = 0 (surface 0.5), free slip at y = ny-1 (its mirror
// plane 1/2 cell inside, at ny - 1.5): the lower half of the channel of
// width 2H, u(s) = F s (2H - s) / (2 nu). TRT with Lambda 3/16 puts the
// no-slip wall exactly halfway and the mirror plane is exact by symmetry,
// so the steady profile is the parabola to the convergence left after
// 20000 steps (e^-19).
TEST(LbmFreeSlip, HalfChannelIsHalfOfPoiseuille) {
  const long H = 16;
  const Config c = channel(H + 2);
  Solver s(open_device("cpu"), c);
  s.set_flags(layers(c.grid, TS_LBM_WALL, TS_LBM_SLIP_Y));
  s.initialize(1.0, {0, 0, 0});
  s.step(20000);
  const Fields f = s.fields();
  const double nu = c.viscosity(), F = c.force[0], peak = F * double(H * H) / (2 * nu);
  for (long y = 1; y <= H; ++y) {
    const double sy = double(y) - 0.5, exact = F * sy * (2.0 * double(H) - sy) / (2 * nu);
    EXPECT_NEAR(f.ux[std::size_t(1 + 4 * y)], exact, 1e-6 * peak) << "y " << y;
  }
}

// Free slip on both sides: nothing holds the fluid back, so a force
// accelerates it as one plug: every row has the same velocity, the force's
// F t (Guo: u = (j + F/2) / rho).
TEST(LbmFreeSlip, PlugFlowBetweenTwoFreeSlipWalls) {
  const Config c = channel(9);
  Solver s(open_device("cpu"), c);
  s.set_flags(layers(c.grid, TS_LBM_SLIP_Y, TS_LBM_SLIP_Y));
  s.initialize(1.0, {0, 0, 0});
  s.step(300);
  const Fields f = s.fields();
  for (long y = 1; y <= 7; ++y) {
    EXPECT_NEAR(f.ux[std::size_t(2 + 4 * y)], 300.5 * c.force[0], 1e-12) << "y " << y;
    EXPECT_NEAR(f.uy[std::size_t(2 + 4 * y)], 0.0, 1e-15) << "y " << y;
  }
}

// A D3Q27 duct whose y and z faces are free slip and no-slip in turn, with
// a random initial flow: the edges where they meet have every kind of
// diagonal pairing; a population read twice or never would change the mass.
TEST(LbmFreeSlip, MassIsConservedWhereFreeSlipMeetsNoSlip) {
  Config c = channel(9, Lattice::d3q27, 8);
  c.collision = Collision::bgk;
  c.force = {0, 0, 0};
  Solver s(open_device("cpu"), c);
  auto fl = layers(c.grid, TS_LBM_SLIP_Y, TS_LBM_WALL);
  for (long y = 0; y < c.grid.ny; ++y)
    for (long x = 0; x < c.grid.nx; ++x) {
      fl[std::size_t(x + c.grid.nx * y)] = TS_LBM_SLIP_Z;  // z = 0
      fl[std::size_t(x + c.grid.nx * (y + c.grid.ny * (c.grid.nz - 1)))] = TS_LBM_WALL;
    }
  for (long x = 0; x < c.grid.nx; ++x) fl[std::size_t(x)] = TS_LBM_SLIP_Y;  // edge y = 0, z = 0
  s.set_flags(fl);
  s.initialize(test::random_fields(c.grid, 0.05, 7));
  const double m0 = s.mass();
  s.step(200);
  EXPECT_NEAR(s.mass(), m0, 1e-12 * m0);
  const Fields f = s.fields();
  double umax = 0;
  for (double u : f.uz) umax = std::max(umax, std::fabs(u));
  EXPECT_GT(umax, 1e-4) << "still moving";
}

class LbmFreeSlipDevice : public ::testing::TestWithParam<std::string> {};

// The mixed flags with free-slip z faces (walls, lid, inlet, outlet, a body)
// and a random flow: every device gives the CPU's bits in FP32 and FP16S.
TEST_P(LbmFreeSlipDevice, FreeSlipGivesTheCpusBits) {
  for (Precision p : {Precision::fp32, Precision::fp16s}) {
    Config c;
    c.lattice = Lattice::d3q19;
    c.precision = p;
    c.grid = {11, 9, 7};
    c.tau = 0.6;
    c.u_wall = {0.05, 0, 0};
    c.u_in = {0.04, 0, 0};
    const auto fl = test::mixed_flags(c.grid, true);
    Solver ref(open_device("cpu"), c), s(open_device(GetParam()), c);
    for (Solver* x : {&ref, &s}) {
      x->set_flags(fl);
      x->initialize(test::random_fields(c.grid, 0.03, 5));
      x->step(40);
    }
    EXPECT_EQ(s.raw_populations(), ref.raw_populations()) << to_string(p);
  }
}

INSTANTIATE_TEST_SUITE_P(Devices, LbmFreeSlipDevice,
                         ::testing::ValuesIn(tessera::test::device_ids()), tessera::test::id_name);

// `free-slip` faces in a case file: the layer's type carries its normal;
// where a free-slip face meets a no-slip wall the wall wins, where it meets
// an inlet the free-slip wall does.
TEST(LbmFreeSlip, CaseFileFacesCarryTheirNormal) {
  const std::filesystem::path p = std::filesystem::temp_directory_path() /
                                  ("tessera_lbm_slip_" + std::to_string(::getpid()) + ".toml");
  std::ofstream(p) << "[domain]\ncells = [10, 8, 6]\n[flow]\nvelocity = 0.04\nviscosity = 0.1\n"
                      "[boundary]\nx-min = \"inlet\"\nx-max = \"outlet\"\ny-min = \"free-slip\"\n"
                      "y-max = \"free-slip\"\nz-min = \"wall\"\nz-max = \"free-slip\"\n";
  const CaseFromFile f =
      case_from_file(p.string(), io::read_case_file(p.string(), {true, true}), Lattice::d3q19);
  auto flag = [&](long x, long y, long z) { return f.c.flags[std::size_t(x + 10 * (y + 8 * z))]; };
  EXPECT_EQ(flag(4, 0, 3), TS_LBM_SLIP_Y);
  EXPECT_EQ(flag(4, 3, 5), TS_LBM_SLIP_Z);
  EXPECT_EQ(flag(4, 0, 0), TS_LBM_WALL) << "no-slip wins";
  EXPECT_EQ(flag(0, 0, 3), TS_LBM_SLIP_Y) << "free slip wins over the inlet";
  EXPECT_EQ(flag(0, 3, 3), TS_LBM_INLET);
  EXPECT_EQ(f.c.config.inlet.normal, 0) << "the uniform inflow meets the no-slip z-min wall";
  std::filesystem::remove(p);
}

}  // namespace
}  // namespace tessera::lbm
