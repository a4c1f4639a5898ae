// Sources of the physical model (swe/forcing.hpp, swe_source_point.h): rain
// fills a flat basin to the hyetograph's depth, losses take their share,
// Green-Ampt follows the exact ponded solution, inflow hydrographs bring their
// integral; every backend gives the CPU's bits; parts give one device's bits;
// the options are parsed or refused with the value named.
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/registry.hpp"
#include "skeleton/team.hpp"
#include "swe/cases.hpp"
#include "swe/distributed.hpp"
#include "swe/forcing.hpp"
#include "swe/physical.hpp"
#include "test_support.hpp"

#if TS_TEST_NETCDF /* set by tests/swe/tests.cmake when the module reads NetCDF */
#include <netcdf.h>
#endif

namespace tessera::swe {
namespace {

constexpr double mm_h = 1e-3 / 3600.0;

io::TimeSeries series(std::vector<double> t, std::vector<double> v, io::Between b) {
  io::TimeSeries s;
  s.path = "test";
  s.t = std::move(t);
  s.v = std::move(v);
  s.line.assign(s.t.size(), 1);
  s.between = b;
  return s;
}

// A closed flat basin of nx x ny cells of 2 m x 3 m, dry unless `depth`.
PhysCase basin(long nx, long ny, double depth = 0) {
  PhysCase c;
  c.name = "basin";
  c.nx = nx, c.ny = ny, c.dx = 2, c.dy = 3, c.x0 = 100, c.y0 = 50;
  const std::size_t n = std::size_t(nx * ny);
  c.z.assign(n, 0.0);
  c.h.assign(n, depth);
  c.hu.assign(n, 0.0);
  c.hv.assign(n, 0.0);
  c.t_end = 1;
  return c;
}

double area_of(const PhysCase& c) {
  long n = 0;
  for (double z : c.z) n += z < c.z_nodata;
  return double(n) * c.dx * c.dy;
}

class SweForcing : public ::testing::TestWithParam<std::string> {
 protected:
  std::shared_ptr<Device> dev() { return open_device(GetParam()); }
  bool fp64() { return dev()->info().fp64; }
};

// Rain 36 mm/h for 100 s, 72 mm/h for 100 s, none after: 3 mm on every cell
// but the NODATA block, which stays dry; the water does not move.
template <class T>
void rain_fills(const std::string& id, Order order) {
  PhysCase c = basin(12, 9);
  c.z_nodata = 50;
  for (long i = 4; i < 6; ++i)
    for (long j = 3; j < 5; ++j) c.z[std::size_t(i * c.ny + j)] = 50;
  c.forcing.rain = series({0, 100, 200, 400}, {36, 72, 0, 0}, io::Between::step);
  c.forcing.rain_area = area_of(c);
  PhysOptions o;
  o.order = order;
  PhysSolver<T> s(open_device(id), c, o);
  const Health h = s.advance_to(300);
  ASSERT_FALSE(h.bad);
  const HostFields f = s.state();
  const double expect = (36 * 100 + 72 * 100) * mm_h, tol = sizeof(T) == 8 ? 1e-13 : 1e-5;
  for (long i = 0; i < c.nx; ++i)
    for (long j = 0; j < c.ny; ++j) {
      const std::size_t k = std::size_t(i * c.ny + j);
      if (c.z[k] >= c.z_nodata) {
        ASSERT_EQ(f.h[k], 0.0) << "NODATA cell " << i << "," << j;
      } else {
        ASSERT_NEAR(f.h[k], expect, expect * tol) << i << "," << j;
        ASSERT_EQ(f.hu[k], 0.0);
        ASSERT_EQ(f.hv[k], 0.0);
      }
    }
  EXPECT_NEAR(s.mass(), c.forcing.rain_volume(300), 1e-300 + c.forcing.rain_volume(300) * tol);
  EXPECT_NEAR(c.forcing.rain_volume(300), expect * (12 * 9 - 4) * 6, 1e-12);
}

TEST_P(SweForcing, RainFillsAFlatBasinToTheHyetographsDepth) {
  for (Order order : {Order::first, Order::second}) {
    if (fp64()) rain_fills<double>(GetParam(), order);
    rain_fills<float>(GetParam(), order);
  }
}

// Rain 36 mm/h against a constant loss of 18 mm/h: half stays, half soaks in.
TEST_P(SweForcing, AConstantLossTakesItsShare) {
  PhysCase c = basin(10, 7);
  c.forcing.rain = series({0, 500}, {36, 36}, io::Between::step);
  c.forcing.rain_area = area_of(c);
  c.forcing.losses = parse_losses("constant:18");
  PhysSolver<float> s(dev(), c, PhysOptions{});
  ASSERT_FALSE(s.advance_to(400).bad);
  const double rain = 36 * mm_h * 400 * c.forcing.rain_area;
  EXPECT_NEAR(s.infiltrated(), 0.5 * rain, 0.5 * rain * 1e-5);
  EXPECT_NEAR(s.mass(), 0.5 * rain, 0.5 * rain * 1e-5);
  for (double h : s.state().h) ASSERT_NEAR(h, 18 * mm_h * 400, 18 * mm_h * 400 * 1e-5);
}

// The exact infiltrated depth of ponded Green-Ampt: ks t = F - S ln(1 + F/S)
// (bisection, independent of the solver's backward-Euler step).
double green_ampt_exact(double ks, double S, double t) {
  double lo = 0, hi = 10;
  for (int k = 0; k < 200; ++k) {
    const double m = 0.5 * (lo + hi);
    (m - S * std::log1p(m / S) < ks * t ? lo : hi) = m;
  }
  return lo;
}

// A 1 m pond on soil of ks 10 mm/h, suction 100 mm, deficit 0.4, dt 1 s:
// after an hour F is within 0.1% of the exact ponded solution (backward
// Euler's error there is 0.04%), and what left the pond is what soaked in.
TEST_P(SweForcing, GreenAmptFollowsThePondedSolution) {
  if (!fp64()) GTEST_SKIP() << GetParam() << " has no double precision";
  PhysCase c = basin(6, 5, 1.0);
  c.forcing.losses = parse_losses("green-ampt:10,100,0.4");
  PhysOptions o;
  o.fixed_dt = 1;
  PhysSolver<double> s(dev(), c, o);
  ASSERT_FALSE(s.advance_to(3600).bad);
  const double area = 30 * 6.0, F = s.infiltrated() / area;
  const double exact = green_ampt_exact(10 * mm_h, 0.1 * 0.4, 3600);
  EXPECT_NEAR(F, exact, 1e-3 * exact) << "exact " << exact;
  EXPECT_GT(F, 0.03) << "an hour soaks in centimetres";
  for (double h : s.state().h) ASSERT_NEAR(h, 1.0 - F, 1e-12);
  EXPECT_NEAR(s.mass() + s.infiltrated(), area, area * 1e-14);
}

// Q(t) linear 0 -> 4 m3/s over [0, 60], down to 1 at 100 s, into a segment
// of x-lo, and a point source of 0.5 m3/s: the basin holds its start plus
// the trapezoids (computed here by hand) to round-off.
TEST_P(SweForcing, InflowHydrographsBringTheirIntegral) {
  if (!fp64()) GTEST_SKIP() << GetParam() << " has no double precision";
  for (Order order : {Order::first, Order::second}) {
    PhysCase c = basin(14, 10, 0.2);
    Inflow side{"--inflow",
                "x-lo:56:70:q",
                0,
                1,
                2,
                7,
                series({0, 60, 100}, {0, 4, 1}, io::Between::linear)};
    Inflow point{"--source", "p", 9, 10, 3, 4, series({0, 100}, {0.5, 0.5}, io::Between::linear)};
    c.forcing.inflows = {side, point};
    PhysOptions o;
    o.order = order;
    PhysSolver<double> s(dev(), c, o);
    const double start = s.mass();
    ASSERT_FALSE(s.advance_to(80).bad);
    // [0, 60]: 60 * 4 / 2; [60, 80]: 20 * (4 + 2.5) / 2; the point 80 * 0.5
    const double in = 120 + 65 + 40;
    EXPECT_NEAR(c.forcing.inflow_volume(80), in, 1e-12);
    EXPECT_NEAR(s.mass() - start, in, (start + in) * 1e-13);
  }
}

// A bumpy bed with NODATA, rain, Green-Ampt, a side inflow: every backend
// gives the CPU's bits, first and second order.
template <class T>
void sources_match_cpu(const std::string& id, Order order) {
  PhysCase c = basin(23, 37, 0.0);
  const auto bump = test::random_vector<double>(c.z.size(), 5, 0.0, 0.3);
  for (std::size_t k = 0; k < c.z.size(); ++k) {
    c.z[k] = bump[k];
    c.h[k] = std::max(0.0, 0.2 - bump[k]);
  }
  c.z_nodata = 9;
  c.z[40] = c.z[41] = 9;
  c.h[40] = c.h[41] = 0;
  c.forcing.rain = series({0, 3, 6}, {900, 2000, 0}, io::Between::step);
  c.forcing.rain_area = area_of(c);
  c.forcing.losses = parse_losses("green-ampt:30,80,0.3");
  c.forcing.inflows = {
      Inflow{"--inflow", "x-hi", 22, 23, 0, 37, series({0, 2, 6}, {0, 3, 1}, io::Between::linear)}};
  PhysOptions o;
  o.order = order;
  auto run = [&](const std::string& dev_id) {
    PhysSolver<T> s(open_device(dev_id), c, o);
    EXPECT_FALSE(s.advance_to(5).bad);
    return std::pair{s.state(), s.infiltrated()};
  };
  const auto [cpu, cpu_lost] = run("cpu");
  const auto [mine, lost] = run(id);
  EXPECT_GT(cpu_lost, 0.0);
  EXPECT_EQ(lost, cpu_lost);
  for (std::size_t k = 0; k < cpu.h.size(); ++k) {
    ASSERT_EQ(mine.h[k], cpu.h[k]) << id << " cell " << k;
    ASSERT_EQ(mine.hu[k], cpu.hu[k]) << id << " cell " << k;
    ASSERT_EQ(mine.hv[k], cpu.hv[k]) << id << " cell " << k;
  }
}

TEST_P(SweForcing, EveryBackendMatchesTheCpu) {
  for (Order order : {Order::first, Order::second}) {
    if (fp64()) sources_match_cpu<double>(GetParam(), order);
    sources_match_cpu<float>(GetParam(), order);
  }
}

// Open sides: a discharge inflow on x-lo, a transmissive x-hi, a level on
// y-lo, rain: the stored water changes by exactly what the tallies say came
// through each side (round-off), and every backend tallies the CPU's bits.
template <class T>
void boundaries_tallied(const std::string& id, Order order) {
  PhysCase c = basin(31, 17, 0.0);
  const auto bump = test::random_vector<double>(c.z.size(), 9, 0.0, 0.2);
  for (std::size_t k = 0; k < c.z.size(); ++k) {
    c.z[k] = bump[k];
    c.h[k] = std::max(0.0, 0.5 - bump[k]);
  }
  c.bc[x_lo] = Bc::discharge, c.bc_value[x_lo] = 0.4;
  c.bc[x_hi] = Bc::transmissive;
  c.bc[y_lo] = Bc::level, c.bc_value[y_lo] = 0.3;
  c.forcing.rain = series({0, 50}, {3600, 3600}, io::Between::step);
  c.forcing.rain_area = area_of(c);
  PhysOptions o;
  o.order = order;
  auto run = [&](const std::string& dev_id) {
    PhysSolver<T> s(open_device(dev_id), c, o);
    const double start = s.mass();
    EXPECT_FALSE(s.advance_to(20).bad);
    const auto in = s.boundary_inflow();
    const double residual =
        s.mass() - start - c.forcing.rain_volume(20) - (in[0] + in[1] + in[2] + in[3]);
    EXPECT_NEAR(residual, 0.0, (sizeof(T) == 8 ? 1e-13 : 1e-5) * start) << dev_id;
    EXPECT_EQ(in[3], 0.0) << "a wall";
    return in;
  };
  const auto cpu = run("cpu");
  EXPECT_GT(cpu[0], 0.0) << "the discharge side brings water";
  EXPECT_LT(cpu[2], 0.0) << "the low level drains the basin";
  EXPECT_EQ(run(id), cpu);
}

TEST_P(SweForcing, OpenBoundariesAreTalliedToRoundOff) {
  for (Order order : {Order::first, Order::second}) {
    if (fp64()) boundaries_tallied<double>(GetParam(), order);
    boundaries_tallied<float>(GetParam(), order);
  }
}

// The maximum maps: rain at 36 mm/h (1e-5 m/s) on a flat dry basin: the
// maximum depth is the last, reached at the end; the arrival at 0.5 mm falls
// in the step that crosses 50 s; a radial dam break's inner cells keep their
// initial depth as maximum, at t = 0. Every backend: the CPU's bits.
TEST_P(SweForcing, MaximumMapsFollowTheWater) {
  PhysCase c = basin(9, 7);
  c.forcing.rain = series({0, 500}, {36, 36}, io::Between::step);
  c.forcing.rain_area = area_of(c);
  PhysOptions o;
  o.track_max = true;
  o.arrival_depth = 5e-4;
  o.fixed_dt = 3;
  PhysSolver<double> s(dev(), c, o);
  if (!fp64()) GTEST_SKIP() << GetParam() << " has no double precision";
  ASSERT_FALSE(s.advance_to(90).bad);
  const MaxMaps m = s.max_maps();
  const HostFields f = s.state();
  ASSERT_EQ(m.depth.size(), f.h.size());
  for (std::size_t k = 0; k < f.h.size(); ++k) {
    EXPECT_EQ(m.depth[k], f.h[k]);
    EXPECT_EQ(m.time_of_max[k], 90.0);
    EXPECT_EQ(m.speed[k], 0.0);
    EXPECT_EQ(m.arrival[k], 51.0) << "steps of 3 s: 48 s hold 0.48 mm, 51 s 0.51 mm";
  }
  PhysCase d = make_case("radial-dam", 24, 24);
  PhysOptions od;
  od.track_max = true;
  PhysSolver<double> cpu(open_device("cpu"), d, od), mine(dev(), d, od);
  ASSERT_FALSE(cpu.advance_to(0.5).bad);
  ASSERT_FALSE(mine.advance_to(0.5).bad);
  const MaxMaps a = cpu.max_maps(), b = mine.max_maps();
  EXPECT_EQ(a.depth, b.depth);
  EXPECT_EQ(a.time_of_max, b.time_of_max);
  EXPECT_EQ(a.speed, b.speed);
  EXPECT_EQ(a.arrival, b.arrival);
  const std::size_t centre = 12 * 24 + 12;
  EXPECT_EQ(a.depth[centre], d.h[centre]) << "the inner cells only fall";
  EXPECT_EQ(a.time_of_max[centre], 0.0);
  EXPECT_EQ(a.arrival[centre], 0.0) << "wet from the start";
  double top_speed = 0;
  for (double v : a.speed) top_speed = std::max(top_speed, v);
  EXPECT_GT(top_speed, 1.0) << "the bore moves metres a second";
}

// A MacDonald-type steady solution with rain (the SWASHES construction,
// Delestre et al. 2013): choose the depth h(x) of SWASHES's subcritical
// long channel, let rain R feed the discharge q(x) = q0 + R x, and solve the
// steady momentum balance for the bed: z' = -(d(q^2/h + g h^2/2)/dx + g n^2
// q^2 / h^(7/3)) / (g h) (rain brings no momentum). Started from the exact
// depth over that bed (at rest) with q0 in at x = 0 and the exact level at x
// = L, the run must settle onto h(x); the L1 error falls with the cells.
double macdonald_error(Order order, long nx) {
  const double L = 1000, q0 = 2, R = 2e-4, n = 0.033, g = 9.81;
  auto h = [&](double x) {
    return std::cbrt(4 / g) * (1 + 0.5 * std::exp(-16 * std::pow(x / L - 0.5, 2)));
  };
  auto dz = [&](double x) {  // z'(x), the momentum flux differentiated by central differences
    const double e = 1e-3, q = q0 + R * x;
    auto flux = [&](double y) {
      const double qy = q0 + R * y, hy = h(y);
      return qy * qy / hy + 0.5 * g * hy * hy;
    };
    const double hx = h(x);
    return -((flux(x + e) - flux(x - e)) / (2 * e) + g * n * n * q * q / std::pow(hx, 7.0 / 3.0)) /
           (g * hx);
  };
  PhysCase c;
  c.name = "macdonald-rain";
  c.nx = nx, c.ny = 2, c.dx = L / double(nx), c.dy = c.dx;
  const std::size_t N = std::size_t(nx * 2);
  c.z.assign(N, 0), c.h.assign(N, 0), c.hu.assign(N, 0), c.hv.assign(N, 0);
  double z = 0, x = 0;  // z(x) by Simpson on sub-steps from x = 0
  std::vector<double> zc(static_cast<std::size_t>(nx));
  for (long i = 0; i < nx; ++i) {
    const double xc = (double(i) + 0.5) * c.dx;
    const int m = 200;
    const double hstep = (xc - x) / m;
    for (int k = 0; k < m; ++k) {
      const double a = x + k * hstep;
      z += hstep / 6 * (dz(a) + 4 * dz(a + hstep / 2) + dz(a + hstep));
    }
    x = xc;
    zc[std::size_t(i)] = z;
  }
  for (long i = 0; i < nx; ++i)
    for (long j = 0; j < 2; ++j) {
      const std::size_t k = std::size_t(i * 2 + j);
      c.z[k] = zc[std::size_t(i)];
      c.h[k] = h((double(i) + 0.5) * c.dx);
      c.hu[k] = q0 + R * (double(i) + 0.5) * c.dx;
    }
  c.manning = n;
  c.bc[x_lo] = Bc::discharge, c.bc_value[x_lo] = q0;
  // the exact level one half cell beyond the last centre: the ghost's bed is the mirror
  c.bc[x_hi] = Bc::level, c.bc_value[x_hi] = h(L) + zc.back() + dz(L) * 0.5 * c.dx;
  c.forcing.rain = series({0, 1e6}, {R * 3.6e6, R * 3.6e6}, io::Between::step);
  c.forcing.rain_area = double(nx) * 2 * c.dx * c.dy;
  PhysOptions o;
  o.order = order;
  PhysSolver<double> s(open_device("cpu"), c, o);
  EXPECT_FALSE(s.advance_to(3000).bad);  // steady: the error is the same at 30000 s
  const HostFields f = s.state();
  double err = 0;
  for (long i = 0; i < nx; ++i)
    err += std::fabs(f.h[std::size_t(i * 2)] - h((double(i) + 0.5) * c.dx));
  return err / double(nx);
}

// Measured (L1 of h at 50, 100, 200 cells): first order 2.18e-2, 1.03e-2,
// 5.03e-3 (observed order 1.08, 1.04); second order 2.36e-3, 1.00e-3,
// 3.85e-4 (1.23, 1.38). With the discharge inlet's ghost bed mirrored (before
// it was extended along the slope) second order was 5.79e-2, 3.26e-2,
// 1.75e-2: worse than first order (docs/swe.md).
TEST(SweForcingValidation, RainOnAMacDonaldChannelConverges) {
  for (Order order : {Order::first, Order::second}) {
    const double e1 = macdonald_error(order, 50), e2 = macdonald_error(order, 100),
                 e3 = macdonald_error(order, 200);
    std::printf("order %d: L1 %.3e %.3e %.3e, observed orders %.2f %.2f\n",
                order == Order::first ? 1 : 2, e1, e2, e3, std::log2(e1 / e2), std::log2(e2 / e3));
    const double want = order == Order::first ? 0.9 : 1.1;
    EXPECT_GT(std::log2(e1 / e2), want);
    EXPECT_GT(std::log2(e2 / e3), want);
    EXPECT_LT(e3, order == Order::first ? 6e-3 : 6e-4);
  }
}

// Dry skipping (the GPU shared-face update): a dam break in one corner of a
// dry basin of 3 x 4 tiles; the wet region grows across tile edges; the GPU
// backends skip the dry tiles and still give the CPU's bits (which computes
// every cell), fields, rates and step counts; a transmissive side pins
// nothing, a level side pins its tiles.
TEST_P(SweForcing, DryTilesAreSkippedWithTheSameBits) {
  PhysCase c = basin(90, 700);
  const auto bump = test::random_vector<double>(c.z.size(), 21, 0.0, 0.05);
  for (std::size_t k = 0; k < c.z.size(); ++k) c.z[k] = bump[k];
  for (long i = 0; i < 20; ++i)
    for (long j = 0; j < 40; ++j) c.h[std::size_t(i * c.ny + j)] = 1.0;
  c.bc[x_hi] = Bc::transmissive;
  PhysOptions o;
  auto run = [&](const std::string& id, bool skip, long* dry) {
    PhysOptions oo = o;
    oo.skip_dry = skip;
    PhysSolver<float> s(open_device(id), c, oo);
    EXPECT_FALSE(s.advance_to(4.0).bad);
    *dry = s.dry_tiles();
    return std::pair{s.state(), s.health()};
  };
  long dry_cpu = 0, dry = 0, dry_off = 0;
  const auto [cpu, hc] = run("cpu", true, &dry_cpu);
  const auto [mine, hm] = run(GetParam(), true, &dry);
  const auto [off, ho] = run(GetParam(), false, &dry_off);
  EXPECT_EQ(hm.steps, hc.steps);
  EXPECT_EQ(hm.time, hc.time);
  EXPECT_EQ(mine.h, cpu.h);
  EXPECT_EQ(mine.hu, cpu.hu);
  EXPECT_EQ(mine.hv, cpu.hv);
  EXPECT_EQ(off.h, cpu.h);
  EXPECT_EQ(dry_off, 0) << "skipping off: no flags";
  double wet = 0;
  for (double h : cpu.h) wet += h > 1e-6;
  EXPECT_GT(wet, 20 * 40) << "the water spread";
  if (GetParam() != "cpu") {
    EXPECT_GT(dry, 0) << "a GPU backend skipped tiles";
  }
}

// Gridded rain: frames of one value everywhere give uniform rain's bits;
// a frame raining on half the basin brings exactly its cells' volume.
TEST_P(SweForcing, GriddedRainMatchesUniformRain) {
  PhysCase c = basin(11, 9);
  c.z_nodata = 50;
  c.z[3 * 9 + 4] = 50;
  const double r = 36 * mm_h;
  PhysCase u = c;
  u.forcing.rain = series({0, 100, 200}, {36, 0, 0}, io::Between::step);
  u.forcing.rain_area = area_of(u);
  PhysCase g = c;
  std::vector<double> full(c.z.size(), r), none(c.z.size(), 0.0), half(c.z.size(), 0.0);
  full[3 * 9 + 4] = 0;  // NODATA: no rain
  for (long i = 0; i < 5; ++i)
    for (long j = 0; j < 9; ++j) half[std::size_t(i * 9 + j)] = r;
  half[3 * 9 + 4] = 0;  // NODATA, as read_rain_grid leaves it
  g.forcing.rain_times = {0, 100, 200};
  g.forcing.rain_frames = {full, none, none};
  g.forcing.rain_frame_rate = {r * 98 * 6, 0, 0};
  g.forcing.rain_frame_max = {r, 0, 0};
  auto run = [&](const PhysCase& k) {
    PhysSolver<float> s(dev(), k, PhysOptions{});
    EXPECT_FALSE(s.advance_to(150).bad);
    return std::pair{s.state(), s.mass()};
  };
  const auto [a, ma] = run(u);
  const auto [b, mb] = run(g);
  EXPECT_EQ(a.h, b.h);
  EXPECT_EQ(ma, mb);
  EXPECT_DOUBLE_EQ(g.forcing.rain_volume(150), u.forcing.rain_volume(150));
  g.forcing.rain_frames = {half, none, none};
  g.forcing.rain_frame_rate = {r * 44 * 6, 0, 0};
  const auto [h2, m2] = run(g);
  EXPECT_NEAR(m2, r * 100 * 44 * 6, 1e-5 * m2) << "5 of 11 rows but NODATA rained for 100 s";
  EXPECT_NEAR(g.forcing.rain_volume(150), m2, 1e-5 * m2);
}

INSTANTIATE_TEST_SUITE_P(Devices, SweForcing, ::testing::ValuesIn(test::device_ids()),
                         test::id_name);

// Three x-slabs: the inflow segment and the NODATA cells straddle the parts'
// edges; the bits are one device's.
TEST(SweForcingParts, ThreePartsGiveOneDevicesBits) {
  PhysCase c = basin(30, 11, 0.05);
  c.z_nodata = 9;
  c.z[9 * 11 + 4] = c.z[10 * 11 + 4] = 9;
  c.h[9 * 11 + 4] = c.h[10 * 11 + 4] = 0;
  c.forcing.rain = series({0, 4, 8}, {500, 100, 0}, io::Between::step);
  c.forcing.rain_area = area_of(c);
  c.forcing.losses = parse_losses("constant:200");
  c.forcing.inflows = {
      Inflow{"--inflow", "y-lo", 5, 25, 0, 1, series({0, 8}, {1, 2}, io::Between::linear)}};
  c.bc[x_hi] = Bc::transmissive;
  c.bc[y_hi] = Bc::level, c.bc_value[y_hi] = 0.01;
  PhysOptions o;
  o.order = Order::second;
  o.track_max = true;
  PhysSolver<double> one(open_device("cpu"), c, o);
  DistributedPhysSolver<double> three(skeleton::Team::open("cpu", 3), c, o);
  ASSERT_FALSE(one.advance_to(6).bad);
  ASSERT_FALSE(three.advance_to(6).bad);
  const HostFields a = one.state(), b = three.state();
  EXPECT_EQ(a.h, b.h);
  EXPECT_EQ(a.hu, b.hu);
  EXPECT_EQ(a.hv, b.hv);
  // the parts sum their own cells first: the totals agree to round-off
  EXPECT_NEAR(one.infiltrated(), three.infiltrated(), 1e-14 * one.infiltrated());
  // and the open sides' tallies: y-lo runs along every part, x-hi on the last
  const auto a_in = one.boundary_inflow(), b_in = three.boundary_inflow();
  for (int s = 0; s < 4; ++s) EXPECT_NEAR(a_in[s], b_in[s], 1e-13 * (1 + std::fabs(a_in[s]))) << s;
  EXPECT_NE(a_in[1], 0.0);
  const MaxMaps ma = one.max_maps(), mb = three.max_maps();
  EXPECT_EQ(ma.depth, mb.depth);
  EXPECT_EQ(ma.time_of_max, mb.time_of_max);
  EXPECT_EQ(ma.speed, mb.speed);
  EXPECT_EQ(ma.arrival, mb.arrival);
  EXPECT_GT(one.infiltrated(), 0.0);
}

// ---- the options ----

class SweForcingOptions : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / fmt::format("tessera-forcing-{}", ::getpid());
    std::filesystem::create_directories(dir_);
    q_ = (dir_ / "q.csv").string();
    std::ofstream(q_) << "time,q\n0,1\n100,2\n";
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  template <class F>
  static std::string refused(F&& f) {
    try {
      f();
    } catch (const UsageError& e) {
      return e.what();
    }
    ADD_FAILURE() << "accepted";
    return {};
  }
  std::filesystem::path dir_;
  std::string q_;
};

TEST_F(SweForcingOptions, LossesAreParsedInSiUnitsOrRefused) {
  EXPECT_EQ(parse_losses("none").model, LossModel::none);
  const Losses c = parse_losses("constant:7.2");
  EXPECT_EQ(c.model, LossModel::constant);
  EXPECT_DOUBLE_EQ(c.rate, 2e-6);
  const Losses g = parse_losses("green-ampt:3.6,110,0.25");
  EXPECT_EQ(g.model, LossModel::green_ampt);
  EXPECT_DOUBLE_EQ(g.ks, 1e-6);
  EXPECT_DOUBLE_EQ(g.psi, 0.11);
  EXPECT_DOUBLE_EQ(g.dtheta, 0.25);
  for (const char* bad : {"constant", "constant:-1", "constant:0", "constant:x", "green-ampt:1,2",
                          "green-ampt:1,2,1.5", "green-ampt:0,2,0.3", "green-ampt:1,-2,0.3",
                          "sponge:3", "none:1", "constant:nan"})
    EXPECT_NE(refused([&] { parse_losses(bad); }).find(std::string("--losses ") + bad),
              std::string::npos)
        << bad;
}

TEST_F(SweForcingOptions, InflowSegmentsAndPointsFindTheirCells) {
  const PhysCase c = basin(10, 8);  // x from 100 by 2 m, y from 50 by 3 m
  // y centres 51.5, 54.5, 57.5, 60.5, 63.5, ...: [55, 62] holds j = 2, 3
  Inflow a = parse_inflow("x-lo:55:62:" + q_, c);
  EXPECT_EQ(std::tie(a.i0, a.i1, a.j0, a.j1), std::make_tuple(0L, 1L, 2L, 4L));
  EXPECT_EQ(a.q.v, (std::vector<double>{1, 2}));
  Inflow b = parse_inflow("y-hi:" + q_, c);
  EXPECT_EQ(std::tie(b.i0, b.i1, b.j0, b.j1), std::make_tuple(0L, 10L, 7L, 8L));
  Inflow d = parse_inflow("x-hi:55:62:" + q_, c);
  EXPECT_EQ(std::tie(d.i0, d.i1, d.j0, d.j1), std::make_tuple(9L, 10L, 2L, 4L)) << "along y";
  // x centres 101, 103, 105, 107, ...: [104, 108] holds i = 2, 3
  Inflow e = parse_inflow("y-lo:104:108:" + q_, c);
  EXPECT_EQ(std::tie(e.i0, e.i1, e.j0, e.j1), std::make_tuple(2L, 4L, 0L, 1L));
  Inflow p = parse_point_source("103.9:59.1:" + q_, c);
  EXPECT_EQ(std::tie(p.i0, p.j0), std::make_tuple(1L, 3L));
  EXPECT_EQ(p.cells(), 1);
}

// --rain-grid: coarser frames sampled at the cell centres, NODATA as no
// rain; refusals with file:line.
TEST_F(SweForcingOptions, RainGridsAreSampledAtTheCellCentres) {
  PhysCase c = basin(10, 8);  // x 100..120 by 2 m, y 50..74 by 3 m
  auto frame = [&](const std::string& name, const std::string& body) {
    std::ofstream(dir_ / name) << "ncols 3\nnrows 2\nxllcorner 99\nyllcorner 48\ncellsize 13\n"
                                  "NODATA_value -1\n"
                               << body;
  };
  frame("a.asc", "1 2 -1\n4 5 6\n");  // top row first: y 61..74
  frame("neg.asc", "1 2 3\n4 -5 6\n");
  const std::string csv = (dir_ / "rain.csv").string();
  std::ofstream(csv) << "time,frame\n0,a.asc\n60,a.asc\n";
  read_rain_grid(csv, c);
  ASSERT_EQ(c.forcing.rain_times, (std::vector<double>{0, 60}));
  const auto& f = c.forcing.rain_frames[0];
  // cell (i, j) centre x = 101 + 2i, y = 51.5 + 3j: raster column (x - 99)/13, row by y
  EXPECT_DOUBLE_EQ(f[0 * 8 + 0], 4 * mm_h);  // (101, 51.5): bottom row, column 0
  EXPECT_DOUBLE_EQ(f[9 * 8 + 7], 2 * mm_h);  // (119, 72.5): top row, column 1
  EXPECT_DOUBLE_EQ(f[6 * 8 + 4], 2 * mm_h);  // (113, 63.5): the top row holds y >= 61
  EXPECT_DOUBLE_EQ(f[6 * 8 + 0], 5 * mm_h);  // (113, 51.5): bottom row, column 1
  PhysCase d = basin(10, 8);
  std::ofstream(dir_ / "bad.csv") << "0,neg.asc\n60,neg.asc\n";
  try {
    read_rain_grid((dir_ / "bad.csv").string(), d);
    ADD_FAILURE() << "a negative intensity was read";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("bad.csv:1:"), std::string::npos) << e.what();
  }
  PhysCase e = basin(30, 8);  // reaches x = 160: beyond the frames (99..138)
  try {
    read_rain_grid(csv, e);
    ADD_FAILURE() << "a frame not covering the grid was read";
  } catch (const Error& x) {
    EXPECT_NE(std::string(x.what()).find("does not cover the cell centre"), std::string::npos);
  }
  std::ofstream(dir_ / "order.csv") << "0,a.asc\n60,a.asc\n30,a.asc\n";
  EXPECT_THROW(read_rain_grid((dir_ / "order.csv").string(), d), Error);
}

#if TS_TEST_NETCDF
// --rain-grid FILE.nc: the CF variable over (time, y, x) gives the frames
// the same rasters give through a CSV (here: y north-down, time in
// minutes, mm h-1, a fill value), and what it cannot use is refused with
// the file and the reason.
struct RainFile {
  std::string time_units = "minutes since 2026-06-01 00:00", rain_units = "mm h-1";
  std::vector<double> t{0, 1, 2.5};
  bool second_variable = false;
  double scale_factor = 1, add_offset = 0;  // CF packing where not 1 and 0
};
void write_rain_nc(const std::string& path, const RainFile& r, const std::vector<double>& values) {
  int id, dt, dy, dx, vt, vy, vx, vr;
  ASSERT_EQ(nc_create(path.c_str(), NC_CLOBBER | NC_NETCDF4, &id), NC_NOERR);
  nc_def_dim(id, "time", r.t.size(), &dt);
  nc_def_dim(id, "y", 2, &dy);
  nc_def_dim(id, "x", 3, &dx);
  nc_def_var(id, "time", NC_DOUBLE, 1, &dt, &vt);
  nc_def_var(id, "y", NC_DOUBLE, 1, &dy, &vy);
  nc_def_var(id, "x", NC_DOUBLE, 1, &dx, &vx);
  const int dims[3] = {dt, dy, dx};
  nc_def_var(id, "rainfall_rate", NC_FLOAT, 3, dims, &vr);
  if (r.second_variable) {
    int v2;
    nc_def_var(id, "other", NC_FLOAT, 3, dims, &v2);
  }
  nc_put_att_text(id, vt, "units", r.time_units.size(), r.time_units.c_str());
  nc_put_att_text(id, vr, "units", r.rain_units.size(), r.rain_units.c_str());
  const float fill = -1;
  nc_put_att_float(id, vr, "_FillValue", NC_FLOAT, 1, &fill);
  if (r.scale_factor != 1 || r.add_offset != 0) {
    nc_put_att_double(id, vr, "scale_factor", NC_DOUBLE, 1, &r.scale_factor);
    nc_put_att_double(id, vr, "add_offset", NC_DOUBLE, 1, &r.add_offset);
  }
  nc_enddef(id);
  // the raster of RainGridsAreSampledAtTheCellCentres: cells of 13 m from
  // (99, 48), centres x 105.5, 118.5, 131.5 and y 67.5 (top row) then 54.5
  const double ys[2] = {67.5, 54.5}, xs[3] = {105.5, 118.5, 131.5};
  nc_put_var_double(id, vt, r.t.data());
  nc_put_var_double(id, vy, ys);
  nc_put_var_double(id, vx, xs);
  nc_put_var_double(id, vr, values.data());
  ASSERT_EQ(nc_close(id), NC_NOERR);
}

TEST_F(SweForcingOptions, RainGridFromNetcdfEqualsTheRasterFrames) {
  const std::vector<double> a{1, 2, -1, 4, 5, 6};  // top row first, -1 the fill (NODATA)
  std::vector<double> three;
  for (int k = 0; k < 3; ++k)
    for (double v : a) three.push_back(v < 0 ? v : v * (k + 1));
  const std::string nc = (dir_ / "rain.nc").string();
  write_rain_nc(nc, {}, three);
  PhysCase c = basin(10, 8);
  read_rain_grid(nc, c);
  ASSERT_EQ(c.forcing.rain_times, (std::vector<double>{0, 60, 150}));  // minutes -> s
  // the same frames from rasters listed in a CSV (the reader above)
  for (int k = 0; k < 3; ++k) {
    std::ofstream(dir_ / fmt::format("f{}.asc", k))
        << "ncols 3\nnrows 2\nxllcorner 99\nyllcorner 48\ncellsize 13\nNODATA_value -1\n"
        << three[6 * k] << " " << three[6 * k + 1] << " " << three[6 * k + 2] << "\n"
        << three[6 * k + 3] << " " << three[6 * k + 4] << " " << three[6 * k + 5] << "\n";
  }
  std::ofstream(dir_ / "frames.csv") << "time,frame\n0,f0.asc\n60,f1.asc\n150,f2.asc\n";
  PhysCase d = basin(10, 8);
  read_rain_grid((dir_ / "frames.csv").string(), d);
  EXPECT_EQ(c.forcing.rain_frames, d.forcing.rain_frames);
  EXPECT_EQ(c.forcing.rain_frame_rate, d.forcing.rain_frame_rate);
  EXPECT_DOUBLE_EQ(c.forcing.rain_frames[2][0 * 8 + 0], 3 * 4 * mm_h);  // (101, 51.5)
  EXPECT_DOUBLE_EQ(c.forcing.rain_frames[1][9 * 8 + 7], 2 * 2 * mm_h);  // (119, 72.5)
  // CF packing: stored = (value - add_offset) / scale_factor, the fill
  // stored as is; read back as the unpacked file's frames, bit for bit
  RainFile packed;
  packed.scale_factor = 0.5;
  packed.add_offset = 0.25;
  std::vector<double> stored = three;
  for (double& v : stored)
    if (v >= 0) v = (v - packed.add_offset) / packed.scale_factor;
  write_rain_nc(nc, packed, stored);
  PhysCase p = basin(10, 8);
  read_rain_grid(nc, p);
  EXPECT_EQ(p.forcing.rain_frames, c.forcing.rain_frames);
  // units: mm s-1 is 3600 mm/h; the variable named after the file
  RainFile per_second;
  per_second.rain_units = "kg m-2 s-1";
  per_second.time_units = "hours since 2026-06-01";
  per_second.second_variable = true;
  write_rain_nc(nc, per_second, three);
  PhysCase e = basin(10, 8);
  read_rain_grid(nc + ":rainfall_rate", e);
  EXPECT_EQ(e.forcing.rain_times, (std::vector<double>{0, 3600, 9000}));
  EXPECT_DOUBLE_EQ(e.forcing.rain_frames[2][0], 3 * 4 * 3600 * mm_h);
  auto refusal = [&](const std::string& spec, const RainFile& r, const std::vector<double>& v,
                     PhysCase cs) {
    write_rain_nc(nc, r, v);
    try {
      read_rain_grid(spec, cs);
    } catch (const Error& x) {
      EXPECT_NE(std::string(x.what()).find("--rain-grid " + nc), std::string::npos) << x.what();
      return std::string(x.what());
    }
    ADD_FAILURE() << "accepted";
    return std::string();
  };
  EXPECT_NE(refusal(nc, per_second, three, basin(10, 8)).find("several variables"),
            std::string::npos);
  EXPECT_NE(refusal(nc + ":rain", {}, three, basin(10, 8)).find("no variable 'rain'"),
            std::string::npos);
  RainFile inches;
  inches.rain_units = "in/h";
  EXPECT_NE(refusal(nc, inches, three, basin(10, 8)).find("units 'in/h'"), std::string::npos);
  RainFile back;
  back.t = {0, 2, 1};
  EXPECT_NE(refusal(nc, back, three, basin(10, 8)).find("times must increase"), std::string::npos);
  RainFile fortnights;
  fortnights.time_units = "fortnights since 2026-06-01";
  EXPECT_NE(refusal(nc, fortnights, three, basin(10, 8)).find("time units 'fortnights"),
            std::string::npos);
  std::vector<double> negative = three;
  negative[7] = -5;
  EXPECT_NE(refusal(nc, {}, negative, basin(10, 8)).find("is -5 at time 60 s"), std::string::npos);
  EXPECT_NE(refusal(nc, {}, three, basin(30, 8)).find("does not cover the cell centre"),
            std::string::npos);
  PhysCase f = basin(10, 8);
  EXPECT_THROW(read_rain_grid((dir_ / "absent.nc").string(), f), Error);
}
#endif

TEST_F(SweForcingOptions, BadSegmentsAndPointsAreRefusedByValue) {
  PhysCase c = basin(10, 8);
  EXPECT_NE(refused([&] { parse_inflow("left:" + q_, c); }).find("--inflow left:"),
            std::string::npos);
  // the side x-lo runs along y from 50 to 74 (centres 51.5 .. 72.5): a range
  // beyond it, or partly beyond (the part outside dropped), is refused
  EXPECT_NE(refused([&] {
              parse_inflow("x-lo:1000:2000:" + q_, c);
            }).find("reaches beyond side x-lo, which runs from 50 to 74"),
            std::string::npos);
  EXPECT_NE(refused([&] { parse_inflow("x-lo:60:80:" + q_, c); }).find("reaches beyond"),
            std::string::npos);
  EXPECT_NE(refused([&] { parse_inflow("x-lo:-1e300:1e300:" + q_, c); }).find("reaches beyond"),
            std::string::npos);
  EXPECT_NE(refused([&] { parse_segment("y-hi:90:130:wall", c); }).find("reaches beyond"),
            std::string::npos);
  EXPECT_NE(refused([&] { parse_inflow("x-lo:50.1:51:" + q_, c); }).find("no cell centre"),
            std::string::npos);
  EXPECT_NE(refused([&] { parse_inflow("x-lo:62:55:" + q_, c); }).find("must be below"),
            std::string::npos);
  EXPECT_NE(refused([&] { parse_point_source("99:60:" + q_, c); }).find("outside the grid"),
            std::string::npos);
  EXPECT_NE(refused([&] { parse_point_source("1:2", c); }).find("expected X:Y:FILE"),
            std::string::npos);
  c.z_nodata = 5;
  c.z[0 * 8 + 3] = 5;
  EXPECT_NE(refused([&] { parse_inflow("x-lo:55:62:" + q_, c); }).find("(i=0, j=3) is NODATA"),
            std::string::npos);
  EXPECT_THROW(parse_inflow("x-lo:" + (dir_ / "missing.csv").string(), c), Error);
}

}  // namespace
}  // namespace tessera::swe
