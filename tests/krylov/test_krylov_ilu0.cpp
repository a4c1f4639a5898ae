// ILU(0): the factors against the defining property (L U = A on A's pattern),
// the level schedule, the device solves against the host reference (bitwise,
// every device and value type, poisoned outputs, odd sizes), bad matrices,
// and GMRES/BiCGStab with ILU(0) on every device.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <random>

#include "core/registry.hpp"
#include "krylov/ilu0.hpp"
#include "krylov/precond.hpp"
#include "krylov/solver.hpp"
#include "krylov_test_util.hpp"
#include "sparse/device_matrix.hpp"
#include "test_support.hpp"

namespace tessera::krylov {
namespace {

using namespace test_util;
using W = std::complex<double>;

/// A 2D convection-diffusion operator on nx x ny points (5-point, natural
/// ordering), random coefficients: ILU(0) drops fill here, unlike on a band
/// of width one.
template <class V>
sparse::Csr<V> convection_diffusion(std::size_t nx, std::size_t ny, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<std::vector<std::pair<std::size_t, V>>> rows(nx * ny);
  for (std::size_t j = 0; j < ny; ++j)
    for (std::size_t i = 0; i < nx; ++i) {
      const std::size_t r = j * nx + i;
      auto add = [&](std::size_t c, double re, double im) {
        rows[r].push_back({c, val<V>(re, im)});
      };
      if (j > 0) add(r - nx, -1 + 0.4 * u(rng), 0.2 * u(rng));
      if (i > 0) add(r - 1, -1 + 0.4 * u(rng), 0.2 * u(rng));
      add(r, 4.2 + 0.3 * u(rng), 0.5 * u(rng));
      if (i + 1 < nx) add(r + 1, -1 + 0.4 * u(rng), 0.2 * u(rng));
      if (j + 1 < ny) add(r + nx, -1 + 0.4 * u(rng), 0.2 * u(rng));
    }
  return from_rows(nx * ny, rows);
}

template <class V>
constexpr bool is_single() {
  return std::is_same_v<sparse::real_t<V>, float>;
}

// (L U)_ij in double for every (i, j) of A's pattern equals a_ij: the
// definition of ILU(0). Computed from the factors by a plain dense-row
// product, independent of the elimination's code.
template <class V>
void expect_lu_reproduces_a(const sparse::Csr<V>& a, const Ilu0Factors<V>& f,
                            const std::string& what) {
  const std::size_t n = f.n;
  auto row_of = [&](const sparse::Csr<V>& m, std::size_t i) {
    std::map<std::size_t, W> r;
    for (auto p = m.row_ptr[i]; p < m.row_ptr[i + 1]; ++p)
      r[std::size_t(m.col[std::size_t(p)])] = W(m.val[std::size_t(p)]);
    return r;
  };
  double scale = 0;
  for (const V& v : a.val) scale = std::max(scale, std::abs(W(v)));
  const double tol = (is_single<V>() ? 2e-6 : 1e-14) * scale * 8;
  for (std::size_t i = 0; i < n; ++i) {
    // row i of L U: u_i. + sum_k l_ik u_k. (unit diagonal of L)
    std::map<std::size_t, W> lu = row_of(f.upper, i);
    ASSERT_NE(W(f.inv_diag[i]), W(0)) << what << " row " << i;
    lu[i] += W(1) / W(f.inv_diag[i]);
    for (const auto& [k, l] : row_of(f.lower, i)) {
      lu[k] += l * (W(1) / W(f.inv_diag[k]));
      for (const auto& [j, u] : row_of(f.upper, k)) lu[j] += l * u;
    }
    for (auto p = a.row_ptr[i]; p < a.row_ptr[i + 1]; ++p) {
      const auto j = std::size_t(a.col[std::size_t(p)]);
      EXPECT_LE(std::abs(lu[j] - W(a.val[std::size_t(p)])), tol)
          << what << " (" << i << ", " << j << ")";
    }
  }
}

template <class V>
void factors_for() {
  const auto cd = convection_diffusion<V>(13, 11, 5);
  expect_lu_reproduces_a(cd, ilu0_factor(cd), "convection-diffusion");
  const auto ns = nonsymmetric<V>(257, 6);
  expect_lu_reproduces_a(ns, ilu0_factor(ns), "nonsymmetric");
}

TEST(Ilu0, FactorsReproduceTheMatrixOnItsPattern) {
  factors_for<float>();
  factors_for<double>();
  factors_for<std::complex<float>>();
  factors_for<std::complex<double>>();
}

// Without fill (a tridiagonal matrix) ILU(0) is the exact LU: M^{-1} A x = x.
TEST(Ilu0, IsTheExactLuWhereThereIsNoFill) {
  using V = double;
  const auto a = hermitian_pd<V>(101);
  const auto x = random_values<V>(101, 7);
  const auto z = ilu0_solve_host(ilu0_factor(a), multiply(a, x));
  EXPECT_LE(rel_error(z, x), 1e-13);
}

// Every group once, each reading outside itself only groups of earlier
// levels; on the 5-point grid in natural order the forward row levels
// (group 1) are the nx + ny - 1 anti-diagonals, with groups of nx rows (the
// grid's lines) the ny lines; groups of 3 and 7 rows divide neither n nor a
// line (whether grouping saves levels depends on the ordering: TRACE's
// 5-row blocks save four fifths).
void expect_valid_schedule(const Ilu0Factors<double>& f, const std::string& what) {
  const auto gs = std::size_t(f.group), ng = (f.n + gs - 1) / gs;
  for (const auto* s : {&f.lower, &f.upper}) {
    const auto& groups = s == &f.lower ? f.lower_groups : f.upper_groups;
    const auto& levels = s == &f.lower ? f.lower_levels : f.upper_levels;
    std::vector<int> level_of(ng, -1);
    for (std::size_t l = 0; l + 1 < levels.size(); ++l)
      for (auto t = levels[l]; t < levels[l + 1]; ++t) {
        const auto g = std::size_t(groups[std::size_t(t)]);
        ASSERT_EQ(level_of[g], -1) << what << ": group " << g << " twice";
        level_of[g] = int(l);
      }
    for (std::size_t i = 0; i < f.n; ++i) {
      ASSERT_GE(level_of[i / gs], 0) << what << ": group " << i / gs << " missing";
      for (auto p = s->row_ptr[i]; p < s->row_ptr[i + 1]; ++p) {
        const auto h = std::size_t(s->col[std::size_t(p)]) / gs;
        if (h != i / gs) {
          EXPECT_LT(level_of[h], level_of[i / gs]) << what << ": row " << i;
        }
      }
    }
  }
}

TEST(Ilu0, LevelScheduleIsValid) {
  const std::size_t nx = 13, ny = 11;
  const auto a = convection_diffusion<double>(nx, ny, 3);
  const auto f = ilu0_factor(a);
  EXPECT_EQ(f.lower_levels.size() - 1, nx + ny - 1);
  EXPECT_EQ(f.upper_levels.size() - 1, nx + ny - 1);
  expect_valid_schedule(f, "rows");
  for (int group : {3, 7, int(nx)}) {
    const auto g = ilu0_factor(a, group);
    expect_valid_schedule(g, "groups of " + std::to_string(group));
    EXPECT_EQ(g.lower.val, f.lower.val);  // the grouping changes only the schedule
  }
  // groups that are the grid's lines: line j reads line j - 1 only
  EXPECT_EQ(ilu0_factor(a, int(nx)).lower_levels.size() - 1, ny);
  EXPECT_THROW(ilu0_factor(a, 0), UsageError);
}

TEST(Ilu0, BadMatricesNameTheRow) {
  auto expect_error = [](const sparse::Csr<double>& a, const std::string& want) {
    try {
      ilu0_factor(a);
      ADD_FAILURE() << "no error, wanted " << want;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(want), std::string::npos) << e.what();
    }
  };
  using R = std::vector<std::vector<std::pair<std::size_t, double>>>;
  expect_error(from_rows<double>(3, R{{{1, 1.0}, {0, 0.0}}, {{0, 1.0}, {1, 2.0}}, {{2, 1.0}}}),
               "zero pivot in row 0");
  expect_error(from_rows<double>(3, R{{{0, 1.0}}, {{0, 1.0}, {2, 1.0}}, {{2, 1.0}}}),
               "row 1 has no diagonal entry");
  // a pivot that elimination cancels: [[1, 1], [1, 1]]
  expect_error(from_rows<double>(2, R{{{0, 1.0}, {1, 1.0}}, {{0, 1.0}, {1, 1.0}}}),
               "zero pivot in row 1");
  expect_error(from_rows<double>(2, R{{{0, std::nan("")}}, {{1, 1.0}}}),
               "non-finite value in row 0 (column 0)");
  expect_error(from_rows<double>(2, R{{{0, 1.0}, {1, HUGE_VAL}}, {{1, 1.0}}}),
               "non-finite value in row 0 (column 1)");
  {  // 1/u_ii beyond float: a pivot of 1e-39 in a row whose largest entry is 1e-39 too
    using Rf = std::vector<std::vector<std::pair<std::size_t, float>>>;
    try {
      ilu0_factor(from_rows<float>(2, Rf{{{0, 1e-39f}}, {{1, 1.0f}}}));
      ADD_FAILURE() << "an inverse pivot beyond float was accepted";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("overflows the working precision"), std::string::npos)
          << e.what();
    }
  }
  sparse::Csr<double> rect = from_rows<double>(2, R{{{0, 1.0}}, {{1, 1.0}}});
  rect.cols = 3;
  expect_error(rect, "square");
}

// Rows without entries (TRACE's ghost cells) map to zero; their columns in
// other rows drop out.
TEST(Ilu0, EmptyRowsMapToZero) {
  using R = std::vector<std::vector<std::pair<std::size_t, double>>>;
  const auto a = from_rows<double>(3, R{{{0, 2.0}, {1, 1.0}}, {}, {{1, 5.0}, {2, 4.0}}});
  const auto z = ilu0_solve_host(ilu0_factor(a), std::vector<double>{2.0, 7.0, 8.0});
  EXPECT_EQ(z[0], 1.0);
  EXPECT_EQ(z[1], 0.0);
  EXPECT_EQ(z[2], 2.0);
}

class Ilu0Device : public ::testing::TestWithParam<std::string> {};

template <class V>
void device_equals_host(const std::string& id, const sparse::Csr<V>& a, const std::string& what,
                        int group = 1) {
  using Rl = sparse::real_t<V>;
  auto dev = open_device(id);
  Ilu0<V> m(dev, a, group);
  const std::size_t n = m.size();
  const auto r = random_values<V>(n, 17);
  Buffer<V> x(dev, n), y(dev, n);
  x.copy_from_host(r);
  y.copy_from_host(
      std::vector<V>(n, val<V>(std::numeric_limits<double>::quiet_NaN(), 1e30)));  // poison
  m.apply(x, y);
  const auto got = y.to_vector();
  const auto want = ilu0_solve_host(m.factors(), r);
  ASSERT_EQ(got.size(), want.size());
  EXPECT_EQ(std::memcmp(got.data(), want.data(), n * sizeof(V)), 0)
      << what << " on " << id << " (" << sizeof(Rl) << "-byte reals, groups of " << group << ")";
  for (std::size_t i = 0; i < n; ++i)
    ASSERT_TRUE(std::isfinite(std::abs(W(got[i])))) << what << " row " << i;
}

// nonsymmetric's stencil with every 7th row and column empty, as TRACE's
// ghost cells: those rows map to zero.
template <class V>
sparse::Csr<V> with_ghost_rows(std::size_t n) {
  auto ghost = [](long i) { return i % 7 == 3; };
  std::vector<std::vector<std::pair<std::size_t, V>>> rows(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (ghost(static_cast<long>(i))) continue;
    for (long off : {-2L, -1L, 0L, 1L, 3L}) {
      const long c = static_cast<long>(i) + off;
      if (c < 0 || c >= static_cast<long>(n) || ghost(c)) continue;
      rows[i].push_back({static_cast<std::size_t>(c),
                         off == 0 ? val<V>(6, 2) : val<V>(0.5 - 0.1 * double(off), 0.25)});
    }
  }
  return from_rows(n, rows);
}

// Groups of 1, 5, 7 and 64 rows (the most kept in group memory; 1073 and 1001
// rows: the last group partial) and of 300 rows (more rows than a work-group
// stages: its first work-item solves alone) give the host reference's bits.
// Bands with half-bandwidth 8 and 9 in groups of 64 rows stage exactly
// TS_KRY_TRI_CAP = 512 entries per triangle (the most kept in group memory)
// and 576 (more: the lone-work-item path, taken for the entries alone);
// empty (ghost) rows inside groups of 5 and 64.
template <class V>
void device_types(const std::string& id) {
  for (int group : {1, 5, 7, 64, 300}) {
    device_equals_host<V>(id, convection_diffusion<V>(37, 29, 9), "convection-diffusion 37x29",
                          group);
    device_equals_host<V>(id, nonsymmetric<V>(1001, 10), "nonsymmetric 1001", group);
  }
  device_equals_host<V>(id, band<V>(300, 8, 11), "band 8 (512 entries per group)", 64);
  device_equals_host<V>(id, band<V>(300, 9, 12), "band 9 (576 entries per group)", 64);
  for (int group : {5, 64}) device_equals_host<V>(id, with_ghost_rows<V>(500), "ghost rows", group);
}

TEST_P(Ilu0Device, SolvesEqualTheHostReferenceBitwise) {
  device_types<float>(GetParam());
  device_types<double>(GetParam());
  device_types<std::complex<float>>(GetParam());
  device_types<std::complex<double>>(GetParam());
}

// GMRES and BiCGStab with ILU(0) reach the tolerance in fewer iterations than
// without a preconditioner and than Jacobi, on every device, with the same
// iteration count as on the CPU (to one iteration).
TEST_P(Ilu0Device, PreconditionsGmresAndBicgstab) {
  using V = std::complex<double>;
  const auto a = convection_diffusion<V>(41, 37, 11);
  const auto xs = random_values<V>(std::size_t(a.rows), 12);
  const auto b = multiply(a, xs);
  auto run = [&](const std::string& id, Method method, const std::string& pre) {
    auto dev = open_device(id);
    MatrixOperator<V> op(std::make_shared<sparse::DeviceMatrix<V>>(dev, a));
    auto m = make_preconditioner<V>(pre, dev, a, 1);
    Buffer<V> bb(dev, b.size()), x(dev, b.size());
    bb.copy_from_host(b);
    x.copy_from_host(std::vector<V>(b.size(), V(0)));
    Options o;
    o.method = method;
    o.restart = 30;
    o.tol = 1e-10;
    o.max_iters = 3000;
    const Result r = solve<V>(op, m.get(), bb, x, o);
    EXPECT_EQ(r.status, Status::converged) << pre << " on " << id;
    EXPECT_LE(rel_error(x.to_vector(), xs), 1e-8) << pre << " on " << id;
    return r.iterations;
  };
  for (Method method : {Method::gmres, Method::bicgstab}) {
    const long none = run(GetParam(), method, "none"), jac = run(GetParam(), method, "jacobi");
    const long ilu = run(GetParam(), method, "ilu0"), ilu_cpu = run("cpu", method, "ilu0");
    EXPECT_LT(ilu, jac) << to_string(method);
    EXPECT_LT(2 * ilu, none) << to_string(method);
    EXPECT_LE(std::abs(ilu - ilu_cpu), 1) << to_string(method);
  }
}

INSTANTIATE_TEST_SUITE_P(Devices, Ilu0Device, ::testing::ValuesIn(test::device_ids()),
                         test::id_name);

}  // namespace
}  // namespace tessera::krylov
