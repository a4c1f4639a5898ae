// Device-resident multigrid: backends equal the CPU bitwise; convergence
// factors inside the bands of anchors-multigrid.md §4.2 and independent of n;
// O(h^2) discretisation error; FMG reaches discretisation error in one cycle.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/registry.hpp"
#include "dense/dense.hpp"
#include "mg/layout.hpp"
#include "core/dispatch.hpp"
#include "mg/kernels/mg_grid.h"
#include "mg/kernels/mg_kernels.hpp"
#include "mg/solver.hpp"
#include "test_support.hpp"

namespace tessera::mg {
namespace {

Dims cube(int dim, long n) { return Dims{n, n, dim == 3 ? n : 1, dim}; }

// Asymptotic residual reduction per cycle from a random initial error, b = 0.
double factor(int dim, long n, Smoother s, CycleType c = CycleType::V, int cycles = 12) {
  Options o;
  o.smoother = s;
  o.cycle = c;
  o.tol = 0;
  o.max_cycles = cycles;
  Solver<double> mg(open_device("cpu"), cube(dim, n), o);
  mg.set_rhs(std::vector<double>(static_cast<std::size_t>(cube(dim, n).points()), 0.0));
  mg.set_solution(test::random_vector<double>(static_cast<std::size_t>(cube(dim, n).points()), 3));
  auto rep = mg.solve();
  return rep.asymptotic_factor();
}

TEST(MgConvergence, FactorsInsideTheBandsAndIndependentOfN) {
  struct Case { int dim; long n1, n2; Smoother s; double band; };
  for (auto c : {Case{2, 63, 127, Smoother::rbgs, 0.12}, Case{3, 15, 31, Smoother::rbgs, 0.25},
                 Case{2, 63, 127, Smoother::jacobi, 0.38}, Case{3, 15, 31, Smoother::jacobi, 0.52}}) {
    SCOPED_TRACE(std::to_string(c.dim) + "D " + (c.s == Smoother::rbgs ? "RB-GS" : "Jacobi"));
    const double f1 = factor(c.dim, c.n1, c.s), f2 = factor(c.dim, c.n2, c.s);
    EXPECT_LE(f1, c.band);
    EXPECT_LE(f2, c.band);
    EXPECT_GT(f1, 0.01);  // a solver that "converges" in one step is broken too
    EXPECT_NEAR(f1, f2, 0.05);
  }
}

TEST(MgConvergence, WAndFCyclesAtLeastAsGoodAsV) {
  const double v = factor(2, 63, Smoother::jacobi);
  EXPECT_LE(factor(2, 63, Smoother::jacobi, CycleType::W), v + 0.02);
  EXPECT_LE(factor(2, 63, Smoother::jacobi, CycleType::F), v + 0.02);
}

// sin(pi x) sin(pi y) [sin(pi z)]: b = h^2 * dim * pi^2 * u at interior vertices.
struct Manufactured {
  std::vector<double> b, u;
};
Manufactured manufactured(int dim, long n) {
  const double h = 1.0 / double(n + 1), pi = std::acos(-1.0);
  Manufactured m;
  const long nz = dim == 3 ? n : 1;
  for (long k = 0; k < nz; ++k)
    for (long j = 0; j < n; ++j)
      for (long i = 0; i < n; ++i) {
        double u = std::sin(pi * (i + 1) * h) * std::sin(pi * (j + 1) * h) *
                   (dim == 3 ? std::sin(pi * (k + 1) * h) : 1.0);
        m.u.push_back(u);
        m.b.push_back(h * h * dim * pi * pi * u);
      }
  return m;
}

double max_error(const std::vector<double>& a, const std::vector<double>& b) {
  double e = 0;
  for (std::size_t i = 0; i < a.size(); ++i) e = std::max(e, std::fabs(a[i] - b[i]));
  return e;
}

TEST(MgAccuracy, SecondOrderDiscretisationError) {
  std::vector<double> errors;
  for (long n : {15L, 31L, 63L}) {
    auto m = manufactured(2, n);
    Options o;
    o.tol = 1e-12;
    Solver<double> mg(open_device("cpu"), cube(2, n), o);
    mg.set_rhs(m.b);
    ASSERT_EQ(mg.solve().status, Status::converged);
    errors.push_back(max_error(mg.solution(), m.u));
  }
  for (std::size_t i = 1; i < errors.size(); ++i) {
    const double order = std::log2(errors[i - 1] / errors[i]);
    EXPECT_GT(order, 1.9) << "errors " << errors[i - 1] << " -> " << errors[i];
    EXPECT_LT(order, 2.1);
  }
}

// With red-black Gauss-Seidel V(2,2) and linear FMG interpolation the
// algebraic error after one FMG pass is 0.74x the discretisation error at
// n = 63..255 (measured; with V(1,1) it is 2.0x, see docs/mg.md).
TEST(MgAccuracy, FullMultigridReachesDiscretisationErrorInOneCycle) {
  const long n = 127;
  auto m = manufactured(2, n);
  Options o;
  o.pre = o.post = 2;
  o.tol = 1e-12;
  Solver<double> exact(open_device("cpu"), cube(2, n), o);
  exact.set_rhs(m.b);
  ASSERT_EQ(exact.solve().status, Status::converged);
  const auto uh = exact.solution();
  Solver<double> fmg(open_device("cpu"), cube(2, n), o);
  fmg.set_rhs(m.b);
  fmg.fmg();
  const double algebraic = max_error(fmg.solution(), uh), discretisation = max_error(uh, m.u);
  EXPECT_LT(algebraic, discretisation) << algebraic << " vs " << discretisation;
}

TEST(MgSolver, SolvesToTolerance) {
  for (int dim : {2, 3}) {
    const long n = dim == 2 ? 95 : 23;  // c * 2^k - 1 sides: 95 = 3*32-1, 23 = 3*8-1
    Options o;
    o.tol = 1e-10;
    Solver<double> mg(open_device("cpu"), cube(dim, n), o);
    EXPECT_EQ(mg.dims(mg.levels() - 1).nx, 2);
    mg.set_rhs(test::random_vector<double>(static_cast<std::size_t>(cube(dim, n).points()), 5));
    auto rep = mg.solve();
    EXPECT_EQ(rep.status, Status::converged) << dim << "D";
    EXPECT_LE(rep.relative_residual(), 1e-10);
    EXPECT_LE(rep.cycles, 16);
  }
}

TEST(MgSolver, BadInput) {
  auto cpu = open_device("cpu");
  EXPECT_THROW(Solver<double>(cpu, cube(2, 1000), Options{}), UsageError);  // even: no coarsening
  Options none;
  none.pre = none.post = 0;
  EXPECT_THROW(Solver<double>(cpu, cube(2, 63), none), UsageError);
  Options host;
  host.host_coarse_points = -1;
  EXPECT_THROW(Solver<double>(cpu, cube(2, 63), host), UsageError);
  Solver<double> mg(cpu, cube(2, 7), Options{});
  auto b = std::vector<double>(49, 1.0);
  b[3] = std::nan("");
  EXPECT_THROW(mg.set_rhs(b), Error);
  EXPECT_THROW(mg.set_rhs(std::vector<double>(48, 1.0)), Error);
}

TEST(MgSolver, DivergenceIsReported) {
  Options o;
  o.smoother = Smoother::jacobi;
  o.omega = 1.9;  // unstable damping
  o.tol = 1e-12;
  Solver<double> mg(open_device("cpu"), cube(2, 31), o);
  mg.set_rhs(test::random_vector<double>(31 * 31, 9));
  auto rep = mg.solve();
  EXPECT_EQ(rep.status, Status::diverged);
}

TEST(MgSolver, StagnationIsReported) {
  Options o;
  o.smoother = Smoother::jacobi;
  o.omega = 0.02;  // barely smooths: the cycle makes almost no progress
  o.tol = 1e-12;
  o.max_cycles = 200;
  Solver<double> mg(open_device("cpu"), cube(2, 31), o);
  mg.set_rhs(test::random_vector<double>(31 * 31, 9));
  auto rep = mg.solve();
  EXPECT_EQ(rep.status, Status::stagnated);
  EXPECT_LT(rep.cycles, 200);
}

TEST(MgSolver, PreconditionerIsOneCycleFromZero) {
  auto cpu = open_device("cpu");
  const Dims d = cube(2, 31);
  auto r = test::random_vector<double>(static_cast<std::size_t>(d.points()), 13);
  Solver<double> a(cpu, d, Options{}), b(cpu, d, Options{});
  Buffer<double> rb(cpu, d.storage()), z(cpu, d.storage());
  rb.copy_from_host(to_halo_layout(d, r));
  a.apply(rb, z);
  b.set_rhs(r);
  b.cycle();
  EXPECT_EQ(from_halo_layout(d, z.to_vector()), b.solution());
}

class MgDeviceTest : public ::testing::TestWithParam<std::string> {};

template <class T>
void expect_same_as_cpu(const std::string& id, int dim, long n, Smoother s, bool fmg) {
  Options o;
  o.smoother = s;
  o.pre = 2;
  o.post = 1;
  const Dims d = cube(dim, n);
  auto b = test::random_vector<T>(static_cast<std::size_t>(d.points()), 21);
  auto run = [&](const std::string& dev) {
    Solver<T> mg(open_device(dev), d, o);
    mg.set_rhs(b);
    if (fmg) mg.fmg();
    mg.cycle();
    mg.cycle();
    return mg.solution();
  };
  auto ref = run("cpu"), got = run(id);
  for (std::size_t i = 0; i < ref.size(); ++i) ASSERT_EQ(got[i], ref[i]) << "element " << i;
}

TEST_P(MgDeviceTest, BitwiseEqualToCpu2D) {
  expect_same_as_cpu<float>(GetParam(), 2, 47, Smoother::rbgs, false);
  expect_same_as_cpu<double>(GetParam(), 2, 31, Smoother::jacobi, true);
}

TEST_P(MgDeviceTest, BitwiseEqualToCpu3D) {
  expect_same_as_cpu<double>(GetParam(), 3, 15, Smoother::rbgs, true);
  expect_same_as_cpu<float>(GetParam(), 3, 11, Smoother::jacobi, false);
}

TEST_P(MgDeviceTest, ResidualNormsAgree) {
  const Dims d = cube(3, 15);
  auto b = test::random_vector<double>(static_cast<std::size_t>(d.points()), 4);
  double ref = 0;
  for (const std::string& id : {std::string("cpu"), GetParam()}) {
    Solver<double> mg(open_device(id), d, Options{});
    mg.set_rhs(b);
    mg.cycle();
    double r = mg.residual_norm();
    if (id == "cpu") ref = r;
    else EXPECT_EQ(r, ref);
  }
}

// The fused red-black sweep (both colours and the prolongation in one pass,
// tiles of 28 x 12 x 64, on every level: fused_min_points = 0) equals the
// two-pass sweep bitwise, on sizes that cut tiles at every edge: one partial
// tile, and 3 x 3 x 2 tiles with remainders.
// The march's step counts (planes + 2) are 17, 15 (13 planes) and 66, 65
// (127): every remainder modulo 4 that an odd-sized level can give (a
// march unrolled by four was tried; see docs/mg.md).
TEST_P(MgDeviceTest, FusedRedBlackEqualsTwoPass) {
  for (const Dims d : {cube(3, 15), Dims{29, 13, 13, 3}, Dims{63, 31, 127, 3}}) {
    const long n = d.nx;
    auto b = test::random_vector<double>(static_cast<std::size_t>(d.points()), 31);
    auto run = [&](bool fused, bool fuse_prolongation, long min_points = 0) {
      Options o;
      o.fused = fused;
      o.fused_min_points = min_points;
      o.fuse_prolongation = fuse_prolongation;
      o.pre = 1;
      o.post = 2;
      Solver<double> mg(open_device(GetParam()), d, o);
      mg.set_rhs(b);
      mg.cycle();
      mg.cycle();
      return mg.solution();
    };
    const auto two_pass = run(false, false), fused = run(true, false), with_prolongation = run(true, true);
    // fused on the finest level only, the coarser ones two-pass (the
    // default threshold mixes the two the same way on large grids)
    const auto mixed = run(true, true, d.points());
    for (std::size_t i = 0; i < two_pass.size(); ++i) {
      ASSERT_EQ(fused[i], two_pass[i]) << "n = " << n << ", element " << i;
      ASSERT_EQ(with_prolongation[i], two_pass[i]) << "n = " << n << ", element " << i;
      ASSERT_EQ(mixed[i], two_pass[i]) << "n = " << n << ", element " << i;
    }
  }
}

// Options::host_coarse_points: the coarse levels run on the host's CPU
// backend (their right-hand side, and the solution unless it was just
// cleared, read back; the solution written back) give the same bits as on the
// device, for V, W (the second visit starts from the first's solution) and F
// cycles and FMG, from the first coarse level, a middle one and only the
// coarsest. On the CPU device the option does nothing (host_level() == -1).
template <class T>
void host_coarse_same_bits(const std::string& id, int dim, long n) {
  const Dims d = cube(dim, n);
  const auto b = test::random_vector<T>(static_cast<std::size_t>(d.points()), 41);
  for (CycleType type : {CycleType::V, CycleType::W, CycleType::F})
    for (bool fmg : {false, true}) {
      auto run = [&](long host_points, std::vector<T>& x) {
        Options o;
        o.cycle = type;
        o.host_coarse_points = host_points;
        Solver<T> mg(open_device(id), d, o);
        mg.set_rhs(b);
        if (fmg) mg.fmg();
        mg.cycle();
        mg.cycle();
        x = mg.solution();
        return std::make_pair(mg.host_level(), mg.residual_norm());
      };
      std::vector<T> ref, got;
      const auto [none, ref_norm] = run(0, ref);
      EXPECT_EQ(none, -1);
      const long coarse1 = cube(dim, (n - 1) / 2).points();
      const int levels = static_cast<int>(coarsening_schedule(d, Options{}.max_coarsest_points).size());
      for (long host_points : {coarse1, cube(dim, 3).points(), 1L}) {
        const auto [level, norm] = run(host_points, got);
        const std::string what = std::to_string(dim) + "D n " + std::to_string(n) + " cycle " +
                                 std::to_string(int(type)) + (fmg ? " fmg" : "") + " host from " +
                                 std::to_string(host_points) + " points on " + id;
        if (id == "cpu") EXPECT_EQ(level, -1) << what;
        else EXPECT_EQ(level, host_points == coarse1 ? 1 : host_points == 1 ? levels - 1 : levels - 2)
            << what;
        EXPECT_EQ(norm, ref_norm) << what;
        for (std::size_t i = 0; i < ref.size(); ++i) ASSERT_EQ(got[i], ref[i]) << what << " element " << i;
      }
    }
}

TEST_P(MgDeviceTest, HostCoarseLevelsGiveTheSameBits) {
  host_coarse_same_bits<double>(GetParam(), 3, 31);
  host_coarse_same_bits<float>(GetParam(), 2, 63);
}

// The 3D residual + restriction (on GPUs tiles of 32 x 8 coarse points
// marching 16 planes, for coarse levels of 2^18 points or more) equals the
// CPU's point kernel bitwise, on a grid that leaves a partial tile on every
// axis; every coarse point is written over a poisoned buffer.
TEST_P(MgDeviceTest, RestrictionEqualsTheCpuOnPartialTiles) {
  const Dims f{195, 103, 135, 3}, c{97, 51, 67, 3};  // 331,329 coarse points
  static_assert(97L * 51 * 67 >= TS_MG_TILED_MIN_POINTS);
  auto restrict_on = [&](const std::string& id) {
    const auto dev = open_device(id);
    Buffer<double> b(dev, f.storage()), x(dev, f.storage()), bc(dev, c.storage());
    b.copy_from_host(to_halo_layout(f, test::random_vector<double>(std::size_t(f.points()), 41)));
    x.copy_from_host(to_halo_layout(f, test::random_vector<double>(std::size_t(f.points()), 42)));
    bc.copy_from_host(std::vector<double>(c.storage(), std::numeric_limits<double>::quiet_NaN()));
    dispatch(*dev, [&](auto tag) { kernels::restrict_residual(tag, dev->queue(), f, b, x, c, bc); });
    return from_halo_layout(c, bc.to_vector());
  };
  const auto ref = restrict_on("cpu"), got = restrict_on(GetParam());
  ASSERT_EQ(got.size(), ref.size());
  for (std::size_t i = 0; i < ref.size(); ++i) {
    ASSERT_FALSE(std::isnan(got[i])) << "coarse point " << i << " not written";
    ASSERT_EQ(got[i], ref[i]) << "coarse point " << i;
  }
}

INSTANTIATE_TEST_SUITE_P(AllDevices, MgDeviceTest, ::testing::ValuesIn(test::device_ids()),
                         test::id_name);

}  // namespace
}  // namespace tessera::mg
