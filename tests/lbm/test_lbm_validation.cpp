// Validation against analytic and benchmark flows (small sizes for CI; the
// 129^2 Ghia comparison at Re 100 and 1000 is in `tessera bench lbm` and in
// the DISABLED_ test below, run with --gtest_also_run_disabled_tests).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "core/registry.hpp"
#include "lbm/cases.hpp"
#include "lbm/solver.hpp"

namespace tessera::lbm {
namespace {

// Relative L2 error of the steady Poiseuille profile (body force, halfway bounce-back).
double poiseuille_error(Collision col, Precision p, long width, double tau) {
  Case c = poiseuille(Lattice::d2q9, width, tau, 0.02);
  c.config.collision = col;
  c.config.precision = p;
  Solver s(open_device("cpu"), c.config);
  c.apply(s);
  // 3 diffusive times H^2/nu: the slowest mode has decayed by e^(-3 pi^2)
  s.step(long(3.0 * double(width * width) / c.config.viscosity()));
  const Fields f = s.fields();
  double num = 0, den = 0;
  for (long y = 1; y <= width; ++y) {
    const double e = f.ux[static_cast<std::size_t>(y)] - poiseuille_exact(c, y);
    num += e * e;
    den += poiseuille_exact(c, y) * poiseuille_exact(c, y);
  }
  return std::sqrt(num / den);
}

TEST(LbmPoiseuille, BgkConvergesAtSecondOrder) {
  // BGK with halfway bounce-back places the wall with an error O(tau^2 / H^2)
  const double e1 = poiseuille_error(Collision::bgk, Precision::fp64, 8, 0.9);
  const double e2 = poiseuille_error(Collision::bgk, Precision::fp64, 16, 0.9);
  const double e3 = poiseuille_error(Collision::bgk, Precision::fp64, 32, 0.9);
  EXPECT_LT(e1, 0.05);
  EXPECT_GT(e1, 1e-4);  // the error is real (a test that cannot fail would pass 0)
  EXPECT_NEAR(std::log2(e1 / e2), 2.0, 0.15) << e1 << " " << e2;
  EXPECT_NEAR(std::log2(e2 / e3), 2.0, 0.15) << e2 << " " << e3;
}

TEST(LbmPoiseuille, TrtWithMagicThreeSixteenthsIsExact) {
  // Lambda = 3/16 puts the bounce-back wall exactly half-way: exact parabola
  EXPECT_LT(poiseuille_error(Collision::trt, Precision::fp64, 12, 0.9), 1e-10);
  EXPECT_LT(poiseuille_error(Collision::trt, Precision::fp32, 12, 0.9), 1e-4);
}

// TRT next to equilibrium inlets and outlets (issue 43): with Lambda = 3/16
// the D2Q9 cylinder at Re 100 (tau 0.53, grid Reynolds number 10) diverged
// next to the inlet within 1000 steps while BGK ran; at Re 150 Lambda = 1/12
// diverged too. With the case's Lambda (trt_magic_open) both stay finite and
// close to the BGK flow.
double max_speed_after(Collision col, double re, long steps, Fields* out = nullptr) {
  Case c = cylinder(Lattice::d2q9, Grid{200, 50, 1}, 10, re, 0.1);
  c.config.collision = col;
  Solver s(open_device("cpu"), c.config);
  c.apply(s);
  s.step(steps);
  Fields f = s.fields();
  double m = 0;
  for (std::size_t n = 0; n < f.ux.size(); ++n) {
    const double v = std::hypot(f.ux[n], f.uy[n]);
    if (!std::isfinite(v) || !std::isfinite(f.rho[n])) return INFINITY;
    m = std::max(m, v);
  }
  if (out) *out = std::move(f);
  return m;
}

TEST(LbmTrt, OpenBoundariesRunWhereBgkRuns) {
  for (double re : {100.0, 150.0}) {
    Fields bgk, trt;
    const double ub = max_speed_after(Collision::bgk, re, 1500, &bgk);
    const double ut = max_speed_after(Collision::trt, re, 1500, &trt);
    ASSERT_LT(ub, 0.3) << "BGK, Re " << re;  // the premise: BGK runs
    ASSERT_LT(ut, 0.3) << "TRT, Re " << re;
    // the same flow: the relative L2 distance of the velocity fields (the
    // collision models differ in their O(Ma^2, dx^2) errors, a few percent)
    double num = 0, den = 0;
    for (std::size_t n = 0; n < bgk.ux.size(); ++n) {
      num += std::pow(trt.ux[n] - bgk.ux[n], 2) + std::pow(trt.uy[n] - bgk.uy[n], 2);
      den += bgk.ux[n] * bgk.ux[n] + bgk.uy[n] * bgk.uy[n];
    }
    EXPECT_LT(std::sqrt(num / den), 0.05) << "Re " << re;
  }
}

TEST(LbmTrt, OpenBoundaryLambdaFollowsTheGridReynoldsNumber) {
  // g = u / nu = 3 u / (tau - 1/2); values written out from the rule in config.hpp
  EXPECT_DOUBLE_EQ(trt_magic_open(0.53, 0.05), 1.0 / 12);  // g = 5
  EXPECT_DOUBLE_EQ(trt_magic_open(0.53, 0.1), 1.0 / 12);   // g = 10 (tau a few ulps off)
  EXPECT_DOUBLE_EQ(trt_magic_open(0.525, 0.1), 1.0 / 48);  // g = 12
  EXPECT_DOUBLE_EQ(trt_magic_open(0.52, 0.1), 1.0 / 384);  // g = 15
  EXPECT_NEAR(trt_magic_open(0.515, 0.1), 2.25e-4, 1e-12);
  // tau at 1/2 (an infinite grid Reynolds number): BGK's (tau - 1/2)^2 = 0 is
  // below the halved value, so the rule gives 1/12 * 2^-60, no undefined cast
  EXPECT_DOUBLE_EQ(trt_magic_open(0.5, 0.1), std::ldexp(1.0 / 12, -60));
  // the cylinder case uses it; walls-only cases keep 3/16
  EXPECT_DOUBLE_EQ(cylinder(Lattice::d2q9, Grid{200, 50, 1}, 10, 120, 0.1).config.trt_magic,
                   1.0 / 48);
  EXPECT_DOUBLE_EQ(cavity(Lattice::d2q9, 32, 100, 0.1).config.trt_magic, 3.0 / 16);
}

// Decay of the Taylor-Green vortex: u ~ exp(-nu (kx^2 + ky^2) t), so the
// kinetic energy decays with rate 2 nu * 2 k^2.
double measured_viscosity(Lattice l, Precision p, double tau) {
  const long n = 32;
  Case c = taylor_green(l, n, tau, 0.02, 1);
  c.config.precision = p;
  Solver s(open_device("cpu"), c.config);
  c.apply(s);
  auto energy = [&] {
    const Fields f = s.fields();
    double e = 0;
    for (std::size_t i = 0; i < f.ux.size(); ++i) e += f.ux[i] * f.ux[i] + f.uy[i] * f.uy[i];
    return e;
  };
  s.step(50);  // let the initial acoustic transient pass
  const double e0 = energy();
  const long dt = 400;
  s.step(dt);
  const double e1 = energy();
  const double k = 2 * 3.14159265358979323846 / double(n);
  return std::log(e0 / e1) / (2.0 * 2.0 * k * k * double(dt));
}

TEST(LbmTaylorGreen, DecayGivesTheViscosityWithinOnePercent) {
  for (double tau : {0.6, 0.8}) {
    const double nu = (tau - 0.5) / 3.0;
    EXPECT_NEAR(measured_viscosity(Lattice::d2q9, Precision::fp64, tau) / nu, 1.0, 0.01)
        << "D2Q9 tau " << tau;
    EXPECT_NEAR(measured_viscosity(Lattice::d3q19, Precision::fp32, tau) / nu, 1.0, 0.01)
        << "D3Q19 tau " << tau;
  }
  EXPECT_NEAR(measured_viscosity(Lattice::d3q27, Precision::fp16s, 0.8) / 0.1, 1.0, 0.01)
      << "D3Q27 FP16S";
}

// Lid-driven cavity, Re = 100, at the coarse CI resolution 49^2: the stated
// tolerance is 0.04 of the lid speed (0.02 holds from 129^2 on, see below).
double cavity_deviation(long n, int re, double u_lid, long steps) {
  Case c = cavity(Lattice::d2q9, n, re, u_lid);
  c.config.collision = Collision::trt;
  Solver s(open_device(steps > 10000 ? "best" : "cpu"), c.config);
  c.apply(s);
  s.step(steps);
  return ghia_deviation(c, s.fields(), re);
}

TEST(LbmCavity, Re100CoarseAgreesWithGhia) {
  const double dev = cavity_deviation(49, 100, 0.1, 8000);
  EXPECT_LT(dev, 0.04);
  EXPECT_GT(dev, 1e-4);
}

TEST(LbmCavity, DISABLED_Re100And1000At129AgreeWithGhiaWithin2Percent) {
  EXPECT_LT(cavity_deviation(129, 100, 0.1, 40000), 0.02);
  EXPECT_LT(cavity_deviation(129, 1000, 0.1, 150000), 0.02);
}

// The CUDA register cap: FP16S 48 below 4 TB/s of peak bandwidth (H100), 40
// from there up (H200); none for FP32/FP64.
TEST(LbmConfig, RegisterCapFollowsThePeakBandwidth) {
  const KernelVariant half{19, 16}, single{19, 32}, dbl{19, 64};
  EXPECT_EQ(half.max_registers(3352), 48u);
  EXPECT_EQ(half.max_registers(4800), 40u);
  EXPECT_EQ(half.max_registers(0), 48u);
  EXPECT_EQ(single.max_registers(4800), 0u);
  EXPECT_EQ(dbl.max_registers(3352), 0u);
}

// The GPU group sizes along x, by storage (docs/lbm-history.md).
TEST(LbmConfig, GroupSizeFollowsTheStorage) {
  EXPECT_EQ((KernelVariant{19, 16}.group_x()), 128u);
  EXPECT_EQ((KernelVariant{19, 32}.group_x()), 512u);
  EXPECT_EQ((KernelVariant{19, 64}.group_x()), 256u);
}

TEST(LbmConfig, BadInputIsRejected) {
  Config c;
  c.tau = 0.5;
  EXPECT_THROW(c.validate(), UsageError);
  c.tau = 0.6;
  c.u_wall = {0.2, 0, 0};  // Mach 0.35
  EXPECT_THROW(c.validate(), UsageError);
  c.u_wall = {0.1, 0, 0};
  EXPECT_NO_THROW(c.validate());
  c.lattice = Lattice::d2q9;
  EXPECT_THROW(c.validate(), UsageError);  // nz = 64
  Config big;
  big.grid = {100000, 100000, 1000};
  EXPECT_THROW(Solver(open_device("cpu"), big), OutOfMemory);
}

}  // namespace
}  // namespace tessera::lbm
