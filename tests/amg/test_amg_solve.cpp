// AMG on every device: one cycle against a host cycle written from the
// definitions (every smoother, V and W), and convergence as a preconditioner
// for each matrix type (real and complex, single and double, point and
// block, symmetric and not).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>

#include "amg/device_aggregation.hpp"
#include "amg/preconditioner.hpp"
#include "amg_test_util.hpp"
#include "core/registry.hpp"
#include "krylov/solver.hpp"
#include "sparse/convert.hpp"
#include "sparse/device_inputs.hpp"
#include "test_support.hpp"

namespace tessera::amg {
namespace {

using namespace test_util;
using cd = std::complex<double>;
using Vec = std::vector<cd>;

// ---- the host cycle: plain loops over the hierarchy's CSR matrices, in
// complex<double> --------------------------------------------------------
template <class V>
Vec spmv(const Csr<V>& a, const Vec& x) {
  Vec y(static_cast<std::size_t>(a.rows), 0.0);
  for (sparse::size64 i = 0; i < a.rows; ++i)
    for (index_t p = a.row_ptr[i]; p < a.row_ptr[i + 1]; ++p)
      y[static_cast<std::size_t>(i)] += cd(a.val[p]) * x[static_cast<std::size_t>(a.col[p])];
  return y;
}

template <class V>
Vec block_apply(const std::vector<V>& d, int b, const Vec& x) {
  Vec y(x.size(), 0.0);
  const auto bs = static_cast<std::size_t>(b);
  for (std::size_t i = 0; i < x.size(); ++i)
    for (std::size_t c = 0; c < bs; ++c)
      y[i] += cd(d[(i / bs) * bs * bs + (i % bs) * bs + c]) * x[(i / bs) * bs + c];
  return y;
}

template <class V>
void ref_smooth(const Level<V>& l, const Options& o, const Vec& b, Vec& x, int sweeps,
                bool forward) {
  for (int s = 0; s < sweeps; ++s) {
    if (o.smoother == Smoother::gauss_seidel) {
      const std::size_t colors = l.color_start.size() - 1;
      for (std::size_t k = 0; k < colors; ++k) {
        const std::size_t c = forward ? k : colors - 1 - k;
        for (index_t q = l.color_start[c]; q < l.color_start[c + 1]; ++q) {
          const auto i = static_cast<std::size_t>(l.color_nodes[q]);
          cd sum = b[i], diag = 0;
          for (index_t p = l.a.row_ptr[i]; p < l.a.row_ptr[i + 1]; ++p) {
            if (static_cast<std::size_t>(l.a.col[p]) == i)
              diag = cd(l.a.val[p]);
            else
              sum -= cd(l.a.val[p]) * x[static_cast<std::size_t>(l.a.col[p])];
          }
          x[i] = sum / diag;
        }
      }
      continue;
    }
    auto resid = [&] {
      Vec r = spmv(l.a, x);
      for (std::size_t i = 0; i < r.size(); ++i) r[i] = b[i] - r[i];
      return block_apply(l.dinv, l.block, r);
    };
    if (o.smoother == Smoother::jacobi) {
      const Vec z = resid();
      for (std::size_t i = 0; i < x.size(); ++i) x[i] += o.omega / l.rho * z[i];
      continue;
    }
    // Chebyshev: d_0 = z / theta; d_k = rho_k rho_{k-1} d_{k-1} + 2 rho_k / delta z_k
    const double hi = 1.1 * l.rho, lo = l.rho / 30, theta = (hi + lo) / 2, delta = (hi - lo) / 2;
    const double sigma = theta / delta;
    double rk = 1 / sigma;
    Vec d(x.size(), 0.0);
    for (int k = 0; k < o.degree; ++k) {
      const Vec z = resid();
      if (k == 0) {
        for (std::size_t i = 0; i < x.size(); ++i) d[i] = z[i] / theta;
      } else {
        const double rn = 1 / (2 * sigma - rk);
        for (std::size_t i = 0; i < x.size(); ++i) d[i] = rn * rk * d[i] + 2 * rn / delta * z[i];
        rk = rn;
      }
      for (std::size_t i = 0; i < x.size(); ++i) x[i] += d[i];
    }
  }
}

template <class V>
void ref_cycle(const Hierarchy<V>& h, const Options& o, std::size_t l, const Vec& b, Vec& x) {
  const auto& lv = h.levels[l];
  if (l + 1 == h.levels.size()) {
    const std::size_t n = b.size();
    for (std::size_t i = 0; i < n; ++i) {
      x[i] = 0;
      for (std::size_t j = 0; j < n; ++j) x[i] += cd(h.coarse_inverse[i * n + j]) * b[j];
    }
    return;
  }
  ref_smooth(lv, o, b, x, o.pre(), true);
  Vec r = spmv(lv.a, x);
  for (std::size_t i = 0; i < r.size(); ++i) r[i] = b[i] - r[i];
  const Vec bc = spmv(lv.r, r);
  Vec xc(bc.size(), 0.0);
  ref_cycle(h, o, l + 1, bc, xc);
  if (o.cycle == Cycle::w && l + 2 < h.levels.size()) ref_cycle(h, o, l + 1, bc, xc);
  const Vec px = spmv(lv.p, xc);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] += px[i];
  ref_smooth(lv, o, b, x, o.post(), false);
}

template <class V>
std::vector<V> narrow_vec(const Vec& v) {
  std::vector<V> out(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) out[i] = value<V>(v[i].real(), v[i].imag());
  return out;
}

class AmgDevice : public ::testing::TestWithParam<std::string> {};

template <class V>
void expect_cycle_equals_reference(const std::string& device, const Csr<V>& a, Options o,
                                   double tol) {
  auto dev = open_device(device);
  for (const Smoother sm : {Smoother::gauss_seidel, Smoother::jacobi, Smoother::chebyshev})
    for (const Cycle cy : {Cycle::v, Cycle::w}) {
      o.smoother = sm;
      o.cycle = cy;
      Amg<V> m(dev, a, o);
      ASSERT_GE(m.hierarchy().levels.size(), 3u);
      const auto n = static_cast<std::size_t>(a.rows);
      const auto r = random_values<V>(n, 11);
      Buffer<V> rb(dev, n), zb(dev, n);
      rb.copy_from_host(r);
      zb.copy_from_host(
          std::vector<V>(n, value<V>(std::nan(""))));  // poisoned: apply overwrites it
      m.apply(rb, zb);
      const auto z = zb.to_vector();
      Vec rw(n), want(n, 0.0);
      for (std::size_t i = 0; i < n; ++i) rw[i] = cd(r[i]);
      ref_cycle(m.hierarchy(), m.options(), 0, rw, want);
      double err = 0, scale = 0;
      for (std::size_t i = 0; i < n; ++i) {
        err = std::max(err, std::abs(cd(z[i]) - want[i]));
        scale = std::max(scale, std::abs(want[i]));
      }
      EXPECT_LE(err, tol * scale) << to_string(sm) << " " << to_string(cy) << "-cycle: max error "
                                  << err << " of " << scale;
    }
}

// The hierarchy with its products formed on the device is the host's, bit
// for bit: every level's operator, prolongator and aggregates (complex
// 2 x 2 blocks, whose products are the longest; and float).
template <class V>
void expect_same_hierarchy(const std::string& id, const Csr<V>& a, const Options& o) {
  const auto dev = open_device(id);
  const Hierarchy<V> host = build_hierarchy(a, o), on = build_hierarchy(a, o, {}, dev);
  EXPECT_EQ(on.products_on, dev->info().id);
  ASSERT_EQ(on.levels.size(), host.levels.size());
  ASSERT_GE(on.levels.size(), 3u);
  auto same = [](const Csr<V>& x, const Csr<V>& y) {
    return x.row_ptr == y.row_ptr && x.col == y.col && x.val.size() == y.val.size() &&
           std::memcmp(x.val.data(), y.val.data(), x.val.size() * sizeof(V)) == 0;
  };
  for (std::size_t l = 0; l < on.levels.size(); ++l) {
    EXPECT_TRUE(same(on.levels[l].a, host.levels[l].a)) << "level " << l;
    EXPECT_TRUE(same(on.levels[l].p, host.levels[l].p)) << "level " << l;
    EXPECT_EQ(on.levels[l].aggregate, host.levels[l].aggregate) << "level " << l;
  }
  EXPECT_EQ(on.coarse_inverse, host.coarse_inverse);
}

TEST_P(AmgDevice, ProductsOnTheDeviceGiveTheHostsHierarchy) {
  Options o;
  o.block = 2;
  o.coarse_size = 20;
  auto b = block_laplacian<cd>(19, 17, {2, 0.5, 0.25, 3}, 2);
  for (auto& v : b.val) v *= cd(1, 0.2);
  expect_same_hierarchy(GetParam(), b, o);
  Options f;
  f.block = 1;
  f.coarse_size = 20;
  expect_same_hierarchy(GetParam(), laplacian2d<float>(29, 23, 0.05), f);
}

// Strength and MIS(2) aggregation with their passes on the device give the
// host's aggregates (every round, the joins, the count), on graphs where
// each rule decides something: 2D Poisson, convection-diffusion whose classical threshold keeps one-sided edges,
// complex blocks, a random graph of uneven degrees and weights with isolated
// nodes, a star (one round), a hub over a chain, and the trivial ones. (The aggregates' own
// rules: test_amg_setup.cpp.)
TEST_P(AmgDevice, AggregationOnTheDeviceGivesTheHostsAggregates) {
  const auto dev = open_device(GetParam());
  // the strength graph of g and its aggregates on the host; the same on the
  // device from the strength graph, and (FP64) from g itself
  auto expect_same = [&](const NodeGraph& g, Strength measure, double theta, const char* what) {
    const NodeGraph s = strength_graph(g, measure, theta);
    index_t want_count = -1, count = -1;
    const auto want = aggregate_mis2(s, want_count);
    const auto got = aggregate_mis2(dev, s, count);
    EXPECT_EQ(count, want_count) << what;
    EXPECT_EQ(got, want) << what;
    if (dev->info().fp64) {
      const NodeGraph on = strength_graph(dev, g, measure, theta);
      EXPECT_EQ(on.nodes, s.nodes) << what;
      EXPECT_EQ(on.row_ptr, s.row_ptr) << what << " (strength graph's rows)";
      EXPECT_EQ(on.col, s.col) << what << " (strength graph's columns)";
      index_t strong_count = -1;
      const auto strong = aggregate_strong(dev, g, measure, theta, strong_count);
      EXPECT_EQ(strong_count, want_count) << what << " (strength on the device)";
      EXPECT_EQ(strong, want) << what << " (strength on the device)";
    }
    return want_count;
  };
  EXPECT_GT(expect_same(node_graph(laplacian2d<double>(41, 37), 1), Strength::symmetric, 0.0,
                        "2D Poisson"),
            41 * 37 / 9);
  EXPECT_GT(
      expect_same(node_graph(convection_diffusion<double>(35, 100, 0.5), 1), Strength::classical,
                  0.5, "convection-diffusion, classical strength 0.5 (one-sided edges)"),
      0);
  // complex 2 x 2 blocks: Frobenius weights of the blocks
  auto blocks = block_laplacian<cd>(13, 11, {2, 0.5, 0.25, 3}, 2);
  for (auto& v : blocks.val) v *= cd(1, 0.2);
  EXPECT_GT(expect_same(node_graph(blocks, 2), Strength::symmetric, 0.1, "complex 2 x 2 blocks"),
            0);
  // a random graph: degrees 0 to ~12, weights of three sizes (so that a
  // threshold drops some edges one way only), one node in 17 isolated
  const index_t n = 3001;
  std::vector<std::vector<std::pair<index_t, double>>> rows(static_cast<std::size_t>(n));
  std::uint32_t h = 12345;
  auto next = [&] { return h = h * 1664525u + 1013904223u; };
  for (index_t i = 0; i < n; ++i) {
    rows[static_cast<std::size_t>(i)].emplace_back(i, 4.0 + (i % 5));
    if (i % 17 == 0) continue;
    const int degree = static_cast<int>(next() % 7);
    for (int k = 0; k < degree; ++k) {
      const auto j = static_cast<index_t>(next() % static_cast<std::uint32_t>(n));
      if (j == i || j % 17 == 0) continue;
      const double v = -0.1 * static_cast<double>(1 + next() % 3);
      rows[static_cast<std::size_t>(i)].emplace_back(j, v);
      rows[static_cast<std::size_t>(j)].emplace_back(i, 3 * v);
    }
  }
  for (auto& r : rows) {  // sorted, duplicates merged
    std::sort(r.begin(), r.end());
    r.erase(std::unique(r.begin(), r.end(),
                        [](const auto& x, const auto& y) { return x.first == y.first; }),
            r.end());
  }
  const auto random = node_graph(from_rows<double>(n, rows), 1);
  EXPECT_GT(expect_same(random, Strength::symmetric, 0.0, "random graph"), 0);
  EXPECT_GT(expect_same(random, Strength::classical, 0.5, "random graph, classical 0.5"), 0);
  EXPECT_GT(expect_same(random, Strength::symmetric, 0.05, "random graph, symmetric 0.05"), 0);
  std::vector<std::vector<std::pair<index_t, double>>> star(9);
  for (index_t i = 0; i < 9; ++i) star[static_cast<std::size_t>(i)].emplace_back(i, 8.0);
  for (index_t i = 1; i < 9; ++i) {
    star[0].emplace_back(i, -1.0);
    star[static_cast<std::size_t>(i)].insert(star[static_cast<std::size_t>(i)].begin(),
                                             std::pair<index_t, double>{0, -1.0});
  }
  EXPECT_EQ(
      expect_same(node_graph(from_rows<double>(9, star), 1), Strength::symmetric, 0.0, "star"), 1);
  // a hub: node 0 coupled to 4000 nodes of a chain (its transposed row is
  // long: the heapsort, and one flag raised by thousands of work-items)
  const index_t m = 4001;
  std::vector<std::vector<std::pair<index_t, double>>> hub(static_cast<std::size_t>(m));
  for (index_t i = 0; i < m; ++i) {
    auto& r = hub[static_cast<std::size_t>(i)];
    if (i > 0) r.emplace_back(0, -0.5);
    if (i > 1) r.emplace_back(i - 1, -1.0);
    r.emplace_back(i, 4.0);
    if (i > 0 && i + 1 < m) r.emplace_back(i + 1, -1.0);
  }
  for (index_t i = m - 1; i >= 1; --i)  // row 0 ascending after its diagonal
    hub[0].emplace_back(i, -0.5);
  std::sort(hub[0].begin(), hub[0].end());
  EXPECT_GT(expect_same(node_graph(from_rows<double>(m, hub), 1), Strength::classical, 0.25,
                        "hub over a chain"),
            0);
  NodeGraph empty;
  EXPECT_EQ(expect_same(empty, Strength::symmetric, 0.0, "no nodes"), 0);
  NodeGraph single;
  single.nodes = 1;
  single.row_ptr = {0, 1};
  single.col = {0};
  single.weight = {2.0};
  EXPECT_EQ(expect_same(single, Strength::symmetric, 0.0, "one node without neighbours"), 0);
}

TEST_P(AmgDevice, CycleEqualsTheHostCycleDouble) {
  Options o;
  o.block = 1;
  o.coarse_size = 40;
  o.presweeps = 2;  // both sweep counts and both Gauss-Seidel directions
  expect_cycle_equals_reference(GetParam(), laplacian2d<double>(23, 19, 0.05), o, 1e-12);
}

TEST_P(AmgDevice, CycleEqualsTheHostCycleComplexBlocks) {
  using V = std::complex<double>;
  Options o;
  o.block = 2;
  o.coarse_size = 40;
  // a complex matrix of 2 x 2 blocks: the block Laplacian with a complex
  // coupling block (not Hermitian: a cycle is linear either way)
  const auto a = block_laplacian<V>(17, 15, {2, 0.5, 0.25, 3}, 2);
  auto b = a;
  for (auto& v : b.val) v *= V(1, 0.2);
  expect_cycle_equals_reference(GetParam(), b, o, 1e-12);
}

TEST_P(AmgDevice, CycleEqualsTheHostCycleFloat) {
  Options o;
  o.block = 1;
  o.coarse_size = 40;
  expect_cycle_equals_reference(GetParam(), laplacian2d<float>(23, 19, 0.05), o, 2e-5);
}

struct Run {
  krylov::Result r;
  std::size_t levels;
};

template <class V>
Run solve_with_amg(const std::string& device, const Csr<V>& a, const Options& o,
                   krylov::Method method, double tol) {
  auto dev = open_device(device);
  Amg<V> m(dev, a, o);
  auto mat = std::make_shared<sparse::DeviceMatrix<V>>(dev, a);
  krylov::MatrixOperator<V> op(mat);
  const auto n = static_cast<std::size_t>(a.rows);
  Buffer<V> b(dev, n), x(dev, n);
  auto hb = random_values<V>(n, 3);
  for (std::size_t i = 0; i < n; ++i)  // rows without entries (TRACE's ghost cells): consistent
    if (a.row_ptr[i] == a.row_ptr[i + 1]) hb[i] = V(0);
  b.copy_from_host(hb);
  x.copy_from_host(std::vector<V>(n, V(0)));
  krylov::Options ko;
  ko.method = method;
  ko.tol = tol;
  ko.max_iters = 200;
  return {krylov::solve<V>(op, &m, b, x, ko), m.hierarchy().levels.size()};
}

// Iteration bounds: about 1.3x what the CPU device took when these tests
// were written (a regression in the setup or the cycle shows as more),
// with Gauss-Seidel on every device (auto would take Jacobi on a GPU).
TEST_P(AmgDevice, PoissonCgDoubleAndFloat) {
  Options o;
  o.smoother = Smoother::gauss_seidel;  // the bounds below are its iterations
  o.block = 1;
  const auto d =
      solve_with_amg(GetParam(), laplacian2d<double>(64, 64), o, krylov::Method::cg, 1e-10);
  EXPECT_TRUE(d.r.converged());
  EXPECT_GE(d.levels, 3u);
  EXPECT_LE(d.r.iterations, 20);
  EXPECT_LE(d.r.true_relres, 1e-9);
  const auto f =
      solve_with_amg(GetParam(), laplacian2d<float>(64, 64), o, krylov::Method::cg, 1e-5);
  EXPECT_TRUE(f.r.converged());
  EXPECT_LE(f.r.iterations, 12);
}

TEST_P(AmgDevice, ComplexHermitianCgAndComplexFloatGmres) {
  Options o;
  o.smoother = Smoother::gauss_seidel;  // the bounds below are its iterations
  o.block = 1;
  const auto z = solve_with_amg(GetParam(), laplacian2d<std::complex<double>>(48, 40, 0.0, 0.3), o,
                                krylov::Method::cg, 1e-10);
  EXPECT_TRUE(z.r.converged());
  EXPECT_LE(z.r.iterations, 34);  // 26 (constants are near, not in, the nullspace)
  const auto c = solve_with_amg(GetParam(), laplacian2d<std::complex<float>>(48, 40, 0.0, 0.3), o,
                                krylov::Method::gmres, 1e-5);
  EXPECT_TRUE(c.r.converged());
  EXPECT_LE(c.r.iterations, 21);  // 16
}

TEST_P(AmgDevice, ConvectionDiffusionGmresWithClassicalStrength) {
  Options o;
  o.smoother = Smoother::gauss_seidel;  // the bounds below are its iterations
  o.block = 1;
  o.strength = Strength::classical;
  o.theta = 0.25;
  const auto a = convection_diffusion<double>(64, 100, 0.5);
  const auto r = solve_with_amg(GetParam(), a, o, krylov::Method::gmres, 1e-10);
  EXPECT_TRUE(r.r.converged());
  EXPECT_LE(r.r.iterations, 30);
  EXPECT_LE(r.r.true_relres, 1e-9);
}

TEST_P(AmgDevice, BlockSystemsKeepTheirBlocks) {
  // 3 x 3 blocks, SPD (kron of SPD matrices): CG, blocks through the levels
  Options o;
  o.smoother = Smoother::gauss_seidel;  // the bounds below are its iterations
  o.block = 3;
  const auto a = block_laplacian<double>(30, 30, {2, 1, 0.5, 1, 3, 0, 0.5, 0, 2}, 3);
  const auto r = solve_with_amg(GetParam(), a, o, krylov::Method::cg, 1e-10);
  EXPECT_TRUE(r.r.converged());
  EXPECT_LE(r.r.iterations, 25);
  // a TRACE system: complex values, 5 x 5 blocks, ghost rows without entries
  using V = std::complex<double>;
  const auto hm = sparse::generate_matrix<V>("trace:3x5x4,blocks=2");
  ASSERT_TRUE(hm.is_block);
  Options t;
  t.smoother = Smoother::gauss_seidel;  // the bound below is its iterations (Jacobi's: 9)
  t.block = 5;
  const auto tr =
      solve_with_amg(GetParam(), sparse::to_csr(hm.block), t, krylov::Method::gmres, 1e-10);
  EXPECT_TRUE(tr.r.converged());
  EXPECT_LE(tr.r.iterations, 8);  // block Jacobi GMRES: 11
}

TEST_P(AmgDevice, AmgAloneAsASolver) {
  auto dev = open_device(GetParam());
  const auto a = laplacian2d<double>(40, 40);
  Options o;
  o.smoother = Smoother::gauss_seidel;  // the bounds below are its iterations
  o.block = 1;
  Amg<double> m(dev, a, o);
  auto mat = std::make_shared<sparse::DeviceMatrix<double>>(dev, a);
  const std::size_t n = 1600;
  const auto hb = random_values<double>(n, 9);
  Buffer<double> b(dev, n), x(dev, n), ax(dev, n);
  b.copy_from_host(hb);
  x.copy_from_host(std::vector<double>(n, 0.0));
  auto residual = [&] {
    sparse::spmv(*mat, x, ax);
    const auto y = ax.to_vector();
    double s = 0;
    for (std::size_t i = 0; i < n; ++i) s += (hb[i] - y[i]) * (hb[i] - y[i]);
    return std::sqrt(s);
  };
  double prev = residual();
  for (int k = 0; k < 6; ++k) {
    m.cycle(b, x);
    const double now = residual();
    EXPECT_LT(now, prev / 2) << "cycle " << k;  // each V-cycle gains 2.5x or more here
    prev = now;
  }
}

// The default smoother, auto: Gauss-Seidel (with its colours) on a CPU
// device, Jacobi on a GPU (no colouring in its setup); the options the
// preconditioner reports are the resolved ones, and the solve converges
// with either.
TEST_P(AmgDevice, AutoSmootherFollowsTheDevice) {
  auto dev = open_device(GetParam());
  Options o;
  o.block = 1;
  ASSERT_EQ(o.smoother, Smoother::automatic);
  const auto a = laplacian2d<double>(48, 48);
  Amg<double> m(dev, a, o);
  const Smoother want = dev->info().is_gpu ? Smoother::jacobi : Smoother::gauss_seidel;
  EXPECT_EQ(m.options().smoother, want) << GetParam();
  EXPECT_EQ(m.options().pre(), want == Smoother::jacobi ? 1 : 2);
  EXPECT_EQ(m.hierarchy().levels[0].colors() > 0, want == Smoother::gauss_seidel);
  const auto r = solve_with_amg(GetParam(), a, o, krylov::Method::cg, 1e-10);
  EXPECT_TRUE(r.r.converged());
  EXPECT_LE(r.r.true_relres, 1e-9);
}

INSTANTIATE_TEST_SUITE_P(Devices, AmgDevice, ::testing::ValuesIn(test::device_ids()),
                         test::id_name);

}  // namespace
}  // namespace tessera::amg
