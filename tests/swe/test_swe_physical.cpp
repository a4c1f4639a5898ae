// Physical shallow-water model: well-balancing, analytic dam breaks and their
// convergence order, Thacker's paraboloid, positivity, mass, boundaries,
// every backend against the CPU, NaN detection.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/error.hpp"
#include "core/registry.hpp"
#include "swe/cases.hpp"
#include "swe/kernels/swe_point.hpp"
#include "swe/physical.hpp"
#include "swe_distributed_cases.hpp"
#include "test_support.hpp"

namespace tessera::swe {
namespace {

class SwePhysical : public ::testing::TestWithParam<std::string> {
 protected:
  std::shared_ptr<Device> dev() { return open_device(GetParam()); }
  bool fp64() { return dev()->info().fp64; }
};

// The double wave rate (dt = cfl / max rate) is evaluated in float inside
// [2^-40, 2^40] and raised by 16 ulps: it must bound the exact rate from above
// and exceed it by at most 16 ulps of a float plus the float error
// (16 * 2^-23 + 7 * 2^-24 < 2.4e-6 relative); outside that range the double
// formula decides.
TEST(SweRate, DoubleRateBoundsTheExactRateFromAbove) {
  const double g = 9.81, hdry = 1e-12;
  for (double dx : {0.05, 1.0, 37.0}) {
    const double dy = dx * 1.3;
    const auto h = test::random_vector<double>(4000, 11, 1e-6, 50.0);
    const auto u = test::random_vector<double>(4000, 12, -30.0, 30.0);
    const auto v = test::random_vector<double>(4000, 13, -30.0, 30.0);
    for (std::size_t k = 0; k < h.size(); ++k) {
      const double hu = h[k] * u[k], hv = h[k] * v[k];
      const long double ih = 1.0L / h[k], c = std::sqrt((long double)g * h[k]);
      const long double exact =
          (std::fabs((long double)hu) * ih + c) / dx + (std::fabs((long double)hv) * ih + c) / dy;
      const double r = point::ts_swe_rate(g, hdry, dx, dy, h[k], hu, hv);
      ASSERT_GE((long double)r, exact) << k;
      ASSERT_LE((long double)r, exact * (1 + 2.4e-6L)) << k;
      ASSERT_EQ(float(r), r) << "a float value: ts_swe_rate_bits takes it unchanged";
    }
  }
  // outside [2^-40, 2^40]: the double formula (then rounded up to a float)
  const double tiny = 1e-13, r = point::ts_swe_rate(g, 0.0, 1.0, 1.0, tiny, 0.0, 0.0);
  EXPECT_EQ(r, 2 * std::sqrt(g * tiny));
  EXPECT_EQ(point::ts_swe_rate(g, hdry, 1.0, 1.0, 0.0, 0.0, 0.0), 0.0) << "dry";
}

template <class T>
HostFields run(std::shared_ptr<Device> d, const PhysCase& c, PhysOptions o, double t,
               Health* out = nullptr) {
  PhysSolver<T> s(std::move(d), c, o);
  const Health h = s.advance_to(t);
  if (out) *out = h;
  EXPECT_FALSE(h.bad) << c.name << " went bad at step " << h.bad_step;
  return s.state();
}

TEST_P(SwePhysical, LakeAtRestStaysAtRestToRoundOff) {
  PhysCase square = make_case("lake-at-rest", 60, 50);  // emerged bump and a depression
  PhysCase wide = square;  // the same bed on cells 3 times wider than high (GDAL dx, dy)
  wide.dx = 3 * square.dx;
  for (const PhysCase& c : {square, wide})
    for (Order order : {Order::first, Order::second}) {
      PhysOptions o;
      o.order = order;
      if (fp64()) {
        const auto s = run<double>(dev(), c, o, 3.0);
        double worst = 0, vel = 0;
        for (std::size_t k = 0; k < s.h.size(); ++k) {
          if (c.h[k] > 0)
            worst = std::max(worst, std::abs(s.h[k] + c.z[k] - 0.15) / 0.15);
          else
            worst = std::max(worst, std::abs(s.h[k]));
          vel = std::max({vel, std::abs(s.hu[k]), std::abs(s.hv[k])});
        }
        EXPECT_LE(worst, 1e-13) << "order " << int(order);
        EXPECT_LE(vel, 1e-13) << "order " << int(order);
      }
      const auto f = run<float>(dev(), c, o, 3.0);
      for (std::size_t k = 0; k < f.h.size(); ++k)
        if (c.h[k] > 0) {
          ASSERT_NEAR(f.h[k] + c.z[k], 0.15, 1e-6) << k;
        }
    }
}

// L1 error of h against a 1D dam-break solution on the strip's first row.
double dam_error(std::shared_ptr<Device> d, const std::string& name, long nx, Order order) {
  PhysCase c = make_case(name, nx, 2);
  PhysOptions o;
  o.order = order;
  const auto s = run<double>(std::move(d), c, o, c.t_end);
  const DamBreak1D exact{0.005, name == "stoker" ? 0.001 : 0.0, 5.0};
  double e = 0;
  for (long i = 0; i < nx; ++i) {
    double h, u;
    exact.at((double(i) + 0.5) * c.dx, c.t_end, h, u);
    e += std::abs(s.h[i * 2] - h) * c.dx;
    EXPECT_GE(s.h[i * 2], 0.0);
  }
  return e;
}

// First order on the dry (Ritter) case converges slowly at first (observed
// 0.60, 0.65, 0.69, 0.73 from 100 to 1600 cells), as the anchors report for
// first-order schemes; the order is taken on the finest pairs.
TEST_P(SwePhysical, DamBreaksConvergeToTheAnalyticSolutions) {
  if (!fp64()) GTEST_SKIP();
  for (const char* name : {"ritter", "stoker"})
    for (Order order : {Order::first, Order::second}) {
      const long n0 = order == Order::first ? 400 : 100;
      const double e1 = dam_error(dev(), name, n0, order),
                   e2 = dam_error(dev(), name, 2 * n0, order),
                   e3 = dam_error(dev(), name, 4 * n0, order);
      const double p1 = std::log2(e1 / e2), p2 = std::log2(e2 / e3);
      EXPECT_GE(p1, 0.65) << name << " order " << int(order) << ": " << e1 << " " << e2;
      EXPECT_GE(p2, 0.7) << name << " order " << int(order) << ": " << e2 << " " << e3;
      EXPECT_LT(e3, 2.5e-4) << name;  // L1 of h, m^2, for a 0.005 m dam over 10 m
    }
}

double thacker_error(std::shared_ptr<Device> d, long n) {
  const Thacker2D t;
  PhysCase c = make_case("thacker", n, n);
  const double time = t.period() / 4;
  const auto s = run<double>(std::move(d), c, PhysOptions{}, time);
  double e = 0;
  for (long i = 0; i < n; ++i)
    for (long j = 0; j < n; ++j) {
      double h, u, v;
      t.at((i + 0.5) * c.dx, (j + 0.5) * c.dy, time, h, u, v);
      e += std::abs(s.h[i * n + j] - h) * c.dx * c.dy;
      EXPECT_GE(s.h[i * n + j], 0.0);
    }
  return e;
}

TEST_P(SwePhysical, ThackerErrorDecreasesWithRefinement) {
  if (!fp64()) GTEST_SKIP();
  const double e1 = thacker_error(dev(), 32), e2 = thacker_error(dev(), 64),
               e3 = thacker_error(dev(), 128);
  EXPECT_LT(e2, 0.8 * e1);
  EXPECT_LT(e3, 0.8 * e2);
}

TEST_P(SwePhysical, MassIsConservedWithWallsAndDryCells) {
  for (const char* name : {"radial-dam", "thacker"}) {
    PhysCase c = make_case(name, 48, 40);
    PhysOptions o;
    if (fp64()) {
      PhysSolver<double> s(dev(), c, o);
      const double m0 = s.mass();
      EXPECT_FALSE(s.advance_to(0.5).bad);
      EXPECT_LT(std::abs(s.mass() - m0) / m0, 1e-13) << name;
    }
    PhysSolver<float> f(dev(), c, o);
    const double m0 = f.mass();
    f.advance_to(0.5);
    EXPECT_LT(std::abs(f.mass() - m0) / m0, 1e-5) << name;
  }
}

// A random wet state over random bathymetry, some cells dry.
PhysCase random_case(long nx, long ny, std::uint64_t seed) {
  PhysCase c = make_case("radial-dam", nx, ny);
  c.z = test::random_vector<double>(c.z.size(), seed, 0.0, 2.0);
  c.h = test::random_vector<double>(c.h.size(), seed + 1, -0.5, 3.0);
  for (double& h : c.h) h = std::max(h, 0.0);
  c.hu = test::random_vector<double>(c.h.size(), seed + 2, -1.0, 1.0);
  c.hv = test::random_vector<double>(c.h.size(), seed + 3, -1.0, 1.0);
  for (std::size_t k = 0; k < c.h.size(); ++k)
    if (c.h[k] == 0) c.hu[k] = c.hv[k] = 0;
  return c;
}

template <class T>
void compare_with_cpu(const std::string& id, Order order, double manning, Bc bx, Bc by,
                      int columns = 3, long nx = 37, long ny = 29, double h_dry = -1) {
  PhysCase c = random_case(nx, ny, 5);
  c.manning = manning;
  c.bc[x_lo] = c.bc[x_hi] = bx;
  c.bc[y_lo] = by;
  c.bc[y_hi] = by == Bc::periodic ? Bc::periodic : Bc::level;
  c.bc_value[y_hi] = 2.5;
  PhysOptions o;
  o.order = order;
  o.check_every = 5;
  o.columns = columns;
  o.h_dry = h_dry;
  PhysSolver<T> ref(open_device("cpu"), c, o), dut(open_device(id), c, o);
  const Health hr = ref.advance_to(0.05), hd = dut.advance_to(0.05);
  ASSERT_EQ(hr.steps, hd.steps);
  ASSERT_EQ(hr.time, hd.time);
  const auto a = ref.state(), b = dut.state();
  // bitwise without friction (sqrt and division are correctly rounded
  // everywhere); cbrt in the friction term may differ by an ulp per step
  const double tol = manning > 0 ? (sizeof(T) == 4 ? 1e-5 : 1e-12) : 0.0;
  for (std::size_t k = 0; k < a.h.size(); ++k) {
    ASSERT_LE(std::abs(a.h[k] - b.h[k]), tol * (1 + std::abs(a.h[k]))) << k;
    ASSERT_LE(std::abs(a.hu[k] - b.hu[k]), tol * (1 + std::abs(a.hu[k]))) << k;
    ASSERT_LE(std::abs(a.hv[k] - b.hv[k]), tol * (1 + std::abs(a.hv[k]))) << k;
  }
}

// The radial dam break on a square grid is symmetric under transposition
// (x <-> y): h(i, j) = h(j, i) and hu(i, j) = hv(j, i), both orders, to
// round-off (the x and y face terms are added in a fixed order, so the
// mirrored sums differ in the last bits: 1e-12 of the largest value, double).
TEST_P(SwePhysical, RadialDamBreakStaysSymmetricUnderTransposition) {
  if (!fp64()) GTEST_SKIP() << "double precision";
  const long n = 41;
  const PhysCase c = make_case("radial-dam", n, n);
  for (Order order : {Order::first, Order::second}) {
    PhysOptions o;
    o.order = order;
    const auto s = run<double>(dev(), c, o, 1.0);
    double big = 0, worst = 0;
    for (std::size_t k = 0; k < s.h.size(); ++k)
      big = std::max({big, std::abs(s.h[k]), std::abs(s.hu[k])});
    for (long i = 0; i < n; ++i)
      for (long j = 0; j < n; ++j) {
        const std::size_t a = std::size_t(i * n + j), b = std::size_t(j * n + i);
        worst = std::max({worst, std::abs(s.h[a] - s.h[b]), std::abs(s.hu[a] - s.hv[b])});
      }
    EXPECT_LE(worst, 1e-12 * big) << (order == Order::first ? "first" : "second") << " order";
    double moved = 0;  // and the flow is not trivially zero
    for (std::size_t k = 0; k < s.hu.size(); ++k) moved = std::max(moved, std::abs(s.hu[k]));
    EXPECT_GT(moved, 0.1);
  }
}

TEST_P(SwePhysical, EveryBackendMatchesTheCpu) {
  for (Order order : {Order::first, Order::second}) {
    if (fp64()) {
      compare_with_cpu<double>(GetParam(), order, 0.0, Bc::wall, Bc::transmissive);
      compare_with_cpu<double>(GetParam(), order, 0.03, Bc::periodic, Bc::discharge);
    }
    compare_with_cpu<float>(GetParam(), order, 0.0, Bc::transmissive, Bc::periodic);
    compare_with_cpu<float>(GetParam(), order, 0.03, Bc::wall, Bc::wall);
  }
  // one column per work-item, every face computed (the default shares faces)
  compare_with_cpu<float>(GetParam(), Order::first, 0.0, Bc::wall, Bc::transmissive, 1);
  if (fp64())
    compare_with_cpu<double>(GetParam(), Order::first, 0.0, Bc::transmissive, Bc::wall, 1);
  // faces shared through local memory (the default, above: one work-group)
  // with ny = 301: three overlapping groups (126 columns each) and a partial
  // last one; nx not a multiple of the four-row ring
  compare_with_cpu<float>(GetParam(), Order::first, 0.0, Bc::periodic, Bc::periodic, 3, 21, 301);
  compare_with_cpu<float>(GetParam(), Order::first, 0.03, Bc::wall, Bc::wall, 3, 19, 253);
  if (fp64())
    compare_with_cpu<double>(GetParam(), Order::first, 0.0, Bc::transmissive, Bc::wall, 3, 23, 300);
  // h_dry = 0: the guard of the fast roots and reciprocals (ieee_fast.h) fails
  // in every cell, so the GPU updates take their IEEE paths (faces and rates
  // recomputed per row)
  compare_with_cpu<float>(GetParam(), Order::first, 0.0, Bc::wall, Bc::periodic, 3, 21, 301, 0.0);
  if (fp64())
    compare_with_cpu<double>(GetParam(), Order::first, 0.0, Bc::wall, Bc::wall, 3, 23, 300, 0.0);
}

// Wet depths below 2^-40 (h_dry = 0): the double rate leaves its float form
// for the double formula there; every device must pick the same form per cell.
TEST_P(SwePhysical, TinyDepthsTakeTheDoubleRateOnEveryDevice) {
  if (!fp64()) GTEST_SKIP() << "no FP64 on this device";
  PhysCase c = random_case(23, 41, 9);
  for (std::size_t k = 0; k < c.h.size(); k += 7) {
    c.h[k] = 1e-14 * double(1 + k % 5);
    c.hu[k] = c.hv[k] = 0;
  }
  PhysOptions o;
  o.h_dry = 0;
  PhysSolver<double> ref(open_device("cpu"), c, o), dut(dev(), c, o);
  const Health hr = ref.advance_to(0.02), hd = dut.advance_to(0.02);
  ASSERT_GT(hr.steps, 2u);
  ASSERT_EQ(hr.steps, hd.steps);
  ASSERT_EQ(hr.time, hd.time);
  const auto a = ref.state(), b = dut.state();
  for (std::size_t k = 0; k < a.h.size(); ++k) {
    ASSERT_EQ(a.h[k], b.h[k]) << k;
    ASSERT_EQ(a.hu[k], b.hu[k]) << k;
    ASSERT_EQ(a.hv[k], b.hv[k]) << k;
  }
}

TEST_P(SwePhysical, UniformFlowStaysUniformOnAPeriodicDomain) {
  PhysCase c = make_case("radial-dam", 20, 16);
  for (std::size_t k = 0; k < c.h.size(); ++k) {
    c.h[k] = 1.5;
    c.hu[k] = 0.75;
    c.hv[k] = -0.25;
  }
  for (auto& b : c.bc) b = Bc::periodic;
  const auto s = run<double>(dev(), c, PhysOptions{}, 1.0);
  for (std::size_t k = 0; k < s.h.size(); ++k) {
    ASSERT_EQ(s.h[k], 1.5);
    ASSERT_EQ(s.hu[k], 0.75);
    ASSERT_EQ(s.hv[k], -0.25);
  }
}

TEST_P(SwePhysical, InflowDischargeAddsWater) {
  PhysCase c = make_case("radial-dam", 30, 10);
  for (double& h : c.h) h = 1.0;
  c.bc[x_lo] = Bc::discharge;
  c.bc_value[x_lo] = 0.2;  // m^2/s into the domain
  c.bc[x_hi] = Bc::level;
  c.bc_value[x_hi] = 1.0;
  PhysSolver<double> s(dev(), c, PhysOptions{});
  const double m0 = s.mass();
  s.advance_to(2.0);
  const double gained = s.mass() - m0, width = c.ny * c.dy;
  EXPECT_GT(gained, 0.0);
  EXPECT_LT(gained, 0.2 * width * 2.0 * 1.5);
}

// A discharge side next to dry cells: the ghost takes the inflow's critical
// depth (q^2/g)^(1/3), the copied depth being 0. Before, nothing entered
// (mass 0 -> 0). On a flat dry bed closed by walls the face's HLL flux is
// exactly q while the ghost is critical (left wave speed u - c = 0): the
// tally and the volume are q W t. The ghost's rate floors the step's: with
// the interior's alone (0 while dry) the first step took the whole 20 s and
// piled 6 m of water into the first column; now the bore runs down the
// channel in steps of at most cfl / rate(h_c).
TEST_P(SwePhysical, DischargeIntoDryCellsBringsItsWater) {
  const double q = 0.3, t = 2.0, g = 9.81;
  const PhysCase c = dtest::dry_channel(40, 6, q);
  const double width = c.ny * c.dy;
  PhysSolver<double> s(dev(), c, PhysOptions{});
  ASSERT_EQ(s.mass(), 0.0);
  const Health h = s.advance_to(t);
  ASSERT_FALSE(h.bad);
  const double hc = std::cbrt(q * q / g),
               rate = (2 * std::sqrt(g * hc)) / c.dx + std::sqrt(g * hc) / c.dy;
  EXPECT_GE(double(h.steps), t * rate / 0.45 * 0.999) << "steps of at most cfl / rate(h_c)";
  const double in = s.boundary_inflow()[x_lo];
  EXPECT_NEAR(s.mass(), in, 1e-12 * q * width * t) << "the tally is the volume";
  EXPECT_GT(s.mass(), 0.9 * q * width * t);
  EXPECT_LT(s.mass(), (1 + 1e-9) * q * width * t);
  const HostFields f = s.state();
  double deepest = 0;
  for (double d : f.h) deepest = std::max(deepest, d);
  EXPECT_LT(deepest, 3 * hc) << "a bore, not a pile at the inlet";
  EXPECT_GT(f.h[std::size_t(10 * c.ny + 3)], 0.0) << "the water has run 10 cells down";
}

TEST(SwePhysicalPoint, CriticalDepthIsTheCubeRootToTwoUlps) {
  for (double q : {1e-6, 0.003, 0.3, 1.0, 7.5, 120.0, 4e4}) {
    const double exact = std::cbrt(q * q / 9.81);
    EXPECT_NEAR(point::ts_swe_critical_depth(9.81, q), exact, 4e-16 * exact) << q;
    const float f = point::ts_swe_critical_depth(9.81f, float(q));
    EXPECT_NEAR(f, exact, 3e-7 * exact) << q;
  }
}

TEST_P(SwePhysical, AnUnstableFixedStepIsCaughtWithStepAndCell) {
  PhysCase c = make_case("radial-dam", 24, 24);
  PhysOptions o;
  o.fixed_dt = 2.0;  // far beyond the CFL limit (about 0.05 s here)
  o.check_every = 1;
  PhysSolver<double> s(dev(), c, o);
  const Health h = s.advance_to(100.0);
  ASSERT_TRUE(h.bad);
  EXPECT_GE(h.bad_step, 1);
  EXPECT_LE(h.bad_step, h.steps);
  EXPECT_GE(h.bad_i, 0);
  EXPECT_LT(h.bad_i, 24);
}

TEST(SwePhysicalInput, BadCasesAreRefused) {
  PhysCase c = make_case("radial-dam", 8, 8);
  PhysOptions o;
  o.cfl = 1.5;
  EXPECT_THROW(validate(c, o), UsageError);
  o.cfl = 0.45;
  c.h[3] = -1;
  EXPECT_THROW(validate(c, o), UsageError);
  c.h[3] = 1;
  c.bc[x_lo] = Bc::periodic;
  EXPECT_THROW(validate(c, o), UsageError);
  EXPECT_THROW(make_case("nope", 8, 8), UsageError);
}

TEST(SwePhysicalInput, AnalyticSolutionsHaveTheirKnownFeatures) {
  const DamBreak1D ritter{0.005, 0.0, 5.0};
  const double c0 = std::sqrt(9.81 * 0.005);
  double h, u;
  ritter.at(5.0 + 2 * c0 * 6.0 + 1e-9, 6.0, h, u);  // beyond the front: dry
  EXPECT_EQ(h, 0.0);
  ritter.at(5.0, 6.0, h, u);  // at the dam: 4/9 h0 (Ritter)
  EXPECT_NEAR(h, 4.0 / 9.0 * 0.005, 1e-15);
  const DamBreak1D stoker{0.005, 0.001, 5.0};
  stoker.at(9.0, 6.0, h, u);
  EXPECT_EQ(h, 0.001);
  const Thacker2D t;
  double v;
  t.at(2.0, 2.0, 0.0, h, u, v);  // centre at t = 0: h0 a / r0
  EXPECT_NEAR(h, 0.1 / 0.8, 1e-15);
}

INSTANTIATE_TEST_SUITE_P(Devices, SwePhysical, ::testing::ValuesIn(test::device_ids()),
                         test::id_name);

}  // namespace
}  // namespace tessera::swe
