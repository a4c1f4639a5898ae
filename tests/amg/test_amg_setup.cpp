// AMG's setup on the host: the sparse products, strength, aggregation,
// tentative prolongator, Galerkin operators and spectral radius against
// dense references and known values; deterministic hierarchies; the errors.
#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <queue>
#include <cstring>
#include <set>

#include "amg/aggregation.hpp"
#include "amg/coloring.hpp"
#include "amg/hierarchy.hpp"
#include "amg_test_util.hpp"
#include "core/error.hpp"
#include "sparse/product.hpp"

namespace tessera::amg {
namespace {

using namespace test_util;
using cd = std::complex<double>;

// A random sparse rows x cols matrix (about `per_row` entries a row).
template <class V>
Csr<V> random_sparse(int rows, int cols, int per_row, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> col(0, cols - 1);
  std::vector<std::vector<std::pair<index_t, V>>> r(static_cast<std::size_t>(rows));
  const auto vals = random_values<V>(static_cast<std::size_t>(rows * per_row), seed + 1);
  for (int i = 0; i < rows; ++i) {
    std::set<int> cs;
    for (int k = 0; k < per_row; ++k) cs.insert(col(rng));
    int k = 0;
    for (int c : cs)
      r[static_cast<std::size_t>(i)].push_back(
          {c, vals[static_cast<std::size_t>(i * per_row + k++)]});
  }
  return from_rows<V>(static_cast<std::size_t>(cols), r);
}

template <class V>
double max_abs_diff(const std::vector<cd>& a, const std::vector<cd>& b) {
  double m = 0;
  for (std::size_t i = 0; i < a.size(); ++i) m = std::max(m, std::abs(a[i] - b[i]));
  return m;
}

TEST(AmgProducts, MultiplyAndConjugateTransposeEqualDenseProducts) {
  using V = std::complex<double>;
  const auto a = random_sparse<V>(37, 23, 4, 1), b = random_sparse<V>(23, 41, 3, 2);
  const auto c = sparse::multiply(a, b);
  ASSERT_EQ(c.rows, 37);
  ASSERT_EQ(c.cols, 41);
  const auto da = dense(a), db = dense(b), dc = dense(c);
  for (int i = 0; i < 37; ++i)
    for (int j = 0; j < 41; ++j) {
      cd s = 0;
      for (int k = 0; k < 23; ++k)
        s += da[static_cast<std::size_t>(i * 23 + k)] * db[static_cast<std::size_t>(k * 41 + j)];
      EXPECT_NEAR(std::abs(dc[static_cast<std::size_t>(i * 41 + j)] - s), 0, 1e-14)
          << i << "," << j;
    }
  for (sparse::size64 i = 0; i < c.rows; ++i)  // columns ascending, unique
    for (index_t p = c.row_ptr[i] + 1; p < c.row_ptr[i + 1]; ++p) EXPECT_LT(c.col[p - 1], c.col[p]);
  const auto t = sparse::conj_transpose(a);
  ASSERT_EQ(t.rows, 23);
  const auto dt = dense(t);
  for (int i = 0; i < 37; ++i)
    for (int j = 0; j < 23; ++j)
      EXPECT_EQ(dt[static_cast<std::size_t>(j * 37 + i)],
                std::conj(da[static_cast<std::size_t>(i * 23 + j)]));
  EXPECT_THROW(sparse::multiply(a, a), Error);  // 37 x 23 times 37 x 23
}

// The product's documented order, written plainly: row i's products in the
// order of A's entries, stably sorted by column, each column's run summed
// in that order from its first product.
template <class V>
Csr<V> sorted_products_reference(const Csr<V>& a, const Csr<V>& b) {
  Csr<V> c;
  c.rows = a.rows;
  c.cols = b.cols;
  c.row_ptr.assign(1, 0);
  for (sparse::size64 i = 0; i < a.rows; ++i) {
    std::vector<std::pair<index_t, V>> prod;
    for (index_t p = a.row_ptr[i]; p < a.row_ptr[i + 1]; ++p)
      for (index_t q = b.row_ptr[a.col[p]]; q < b.row_ptr[a.col[p] + 1]; ++q)
        prod.emplace_back(b.col[q], a.val[p] * b.val[q]);
    std::stable_sort(prod.begin(), prod.end(),
                     [](const auto& x, const auto& y) { return x.first < y.first; });
    for (std::size_t q = 0; q < prod.size(); ++q) {
      if (q > 0 && prod[q].first == prod[q - 1].first) {
        c.val.back() += prod[q].second;
      } else {
        c.col.push_back(prod[q].first);
        c.val.push_back(prod[q].second);
      }
    }
    c.row_ptr.push_back(static_cast<index_t>(c.col.size()));
  }
  return c;
}

// Bit for bit the documented order, on rows long enough to exercise the
// hash table's collisions, with negative zeros, exact cancellations and
// empty rows (the first product of a column is assigned, not added to +0).
TEST(AmgProducts, MultiplyKeepsTheSortedOrderBitForBit) {
  auto check = [](const auto& a, const auto& b) {
    const auto c = sparse::multiply(a, b), r = sorted_products_reference(a, b);
    ASSERT_EQ(c.row_ptr, r.row_ptr);
    ASSERT_EQ(c.col, r.col);
    ASSERT_EQ(c.val.size(), r.val.size());
    for (std::size_t k = 0; k < c.val.size(); ++k)
      ASSERT_EQ(std::memcmp(&c.val[k], &r.val[k], sizeof(c.val[k])), 0) << k;
  };
  check(random_sparse<double>(301, 257, 40, 5), random_sparse<double>(257, 311, 30, 6));
  check(random_sparse<cd>(97, 61, 20, 7), random_sparse<cd>(61, 4001, 50, 8));
  // -0: row 0's one product -0 * 1 stays -0 (+0 + -0 would be +0); row 2's
  // 1 * 1 + (-1) * 1 cancels to +0 in column 2
  const Csr<double> a = from_rows<double>(2, {{{0, -0.0}}, {}, {{0, 1.0}, {1, -1.0}}});
  const Csr<double> b = from_rows<double>(3, {{{2, 1.0}}, {{0, 1.0}, {2, 1.0}}});
  check(a, b);
  const auto c = sparse::multiply(a, b);
  ASSERT_EQ(c.row_ptr, (std::vector<index_t>{0, 1, 1, 3}));
  EXPECT_TRUE(std::signbit(c.val[0]) && c.val[0] == 0.0);
  EXPECT_EQ(c.val[2], 0.0);
  EXPECT_FALSE(std::signbit(c.val[2]));
}

TEST(AmgStrength, SymmetricMeasureDropsWeakCouplings) {
  // 1D chain 0-1-2 strongly, 2-3 weakly (0.01 against diagonals 2):
  // theta 0.25 keeps 0-1 and 1-2 only, symmetrically; theta 0 keeps all
  std::vector<std::vector<std::pair<index_t, double>>> r{{{0, 2.0}, {1, -1.0}},
                                                         {{0, -1.0}, {1, 2.0}, {2, -1.0}},
                                                         {{1, -1.0}, {2, 2.0}, {3, -0.01}},
                                                         {{2, -0.01}, {3, 2.0}}};
  const auto a = from_rows<double>(4, r);
  const auto g = node_graph(a, 1);
  const auto s = strength_graph(g, Strength::symmetric, 0.25);
  EXPECT_EQ(s.col, (std::vector<index_t>{1, 0, 2, 1}));
  EXPECT_EQ(s.row_ptr, (std::vector<index_t>{0, 1, 3, 4, 4}));
  EXPECT_EQ(strength_graph(g, Strength::symmetric, 0.0).col.size(), 6u);
  // classical: |a_23| = 0.01 < 0.25 * max(|a_21|) = 0.25, and in row 3 the
  // only off-diagonal is the largest: 3 -> 2 strong, so 2 - 3 is an edge
  const auto c = strength_graph(g, Strength::classical, 0.25);
  EXPECT_EQ(c.col, (std::vector<index_t>{1, 0, 2, 1, 3, 2}));
}

TEST(AmgStrength, BlockNodesUseFrobeniusNorms) {
  const auto a = block_laplacian<double>(3, 2, {2, 1, 1, 3}, 2);  // 6 nodes of 2 rows
  const auto g = node_graph(a, 2);
  ASSERT_EQ(g.nodes, 6);
  // node 0's diagonal block is 4 * M: Frobenius 4 sqrt(4 + 1 + 1 + 9), of
  // the matrix over 16 (the power of two above its largest entry, 12)
  EXPECT_NEAR(g.weight[0], 4 * std::sqrt(15.0) / 16, 1e-12);
  EXPECT_EQ(g.col[1], 1);
  EXPECT_NEAR(g.weight[1], std::sqrt(15.0) / 16, 1e-12);
}

// Strength compares ratios of entries, so it cannot depend on the matrix's
// scale: the same weights (bit for bit), strong edges and aggregates for the
// matrix times 2^520 (entries near 1e157: their squares overflow) and 2^-520
// (squares underflow), and the hierarchy builds (it did not: no strong
// connection survived the overflow).
TEST(AmgStrength, TheMatrixScaleDoesNotMatter) {
  const auto a = laplacian2d<double>(23, 19, 0.05);
  const auto g = node_graph(a, 1);
  for (const int e : {520, -520}) {
    auto b = a;
    for (auto& v : b.val) v = std::ldexp(v, e);
    const auto h = node_graph(b, 1);
    EXPECT_EQ(h.col, g.col) << "2^" << e;
    EXPECT_EQ(h.weight, g.weight) << "2^" << e;
    for (const Strength m : {Strength::symmetric, Strength::classical}) {
      const auto s = strength_graph(h, m, 0.2);
      EXPECT_EQ(s.col, strength_graph(g, m, 0.2).col) << "2^" << e;
      EXPECT_GT(s.col.size(), 0u);
    }
    Options o;
    o.block = 1;
    o.coarse_size = 20;
    EXPECT_GE(build_hierarchy(b, o).levels.size(), 3u) << "2^" << e;
  }
}

// The aggregates cover every node with a strong neighbour, each aggregate
// is connected in the strength graph, and the numbering is dense.
void expect_valid_aggregates(const NodeGraph& s, const std::vector<index_t>& agg, index_t count) {
  const auto n = static_cast<std::size_t>(s.nodes);
  std::vector<std::vector<index_t>> members(static_cast<std::size_t>(count));
  for (std::size_t i = 0; i < n; ++i) {
    const bool isolated = s.row_ptr[i + 1] == s.row_ptr[i];
    if (isolated) {
      EXPECT_EQ(agg[i], -1) << "isolated node " << i;
      continue;
    }
    ASSERT_GE(agg[i], 0) << "node " << i << " has no aggregate";
    ASSERT_LT(agg[i], count);
    members[static_cast<std::size_t>(agg[i])].push_back(static_cast<index_t>(i));
  }
  for (index_t a = 0; a < count; ++a) {
    const auto& m = members[static_cast<std::size_t>(a)];
    ASSERT_FALSE(m.empty()) << "aggregate " << a << " is empty";
    std::set<index_t> seen{m[0]};
    std::queue<index_t> q;
    q.push(m[0]);
    while (!q.empty()) {
      const index_t i = q.front();
      q.pop();
      for (index_t p = s.row_ptr[i]; p < s.row_ptr[i + 1]; ++p)
        if (agg[s.col[p]] == a && seen.insert(s.col[p]).second) q.push(s.col[p]);
    }
    EXPECT_EQ(seen.size(), m.size()) << "aggregate " << a << " is not connected";
  }
}

TEST(AmgAggregation, Poisson2dAggregatesAreConnectedAndCoverTheGrid) {
  const auto a = laplacian2d<double>(40, 33);
  const auto s = strength_graph(node_graph(a, 1), Strength::symmetric, 0.0);
  index_t count = 0;
  const auto agg = aggregate_mis2(s, count);
  expect_valid_aggregates(s, agg, count);
  // a root's 5-point neighbourhood is 5 nodes; the later rounds' aggregates
  // at least 4: between n/9 and n/3 aggregates
  EXPECT_GT(count, 40 * 33 / 9);
  EXPECT_LT(count, 40 * 33 / 3);
  index_t again = 0;
  EXPECT_EQ(aggregate_mis2(s, again), agg);  // deterministic
  EXPECT_EQ(again, count);
}

TEST(AmgAggregation, IsolatedNodesGetNoAggregate) {
  // a diagonal row in the middle of a chain (a Dirichlet row)
  std::vector<std::vector<std::pair<index_t, double>>> r{{{0, 2.0}, {1, -1.0}},
                                                         {{0, -1.0}, {1, 2.0}},
                                                         {{2, 1.0}},
                                                         {{3, 2.0}, {4, -1.0}},
                                                         {{3, -1.0}, {4, 2.0}}};
  const auto s = strength_graph(node_graph(from_rows<double>(5, r), 1), Strength::symmetric, 0.0);
  index_t count = 0;
  const auto agg = aggregate_mis2(s, count);
  expect_valid_aggregates(s, agg, count);
  EXPECT_EQ(agg[2], -1);
  EXPECT_EQ(count, 2);
}

TEST(AmgColoring, NeighboursNeverShareAColour) {
  const auto a = block_laplacian<double>(9, 7, {2, 1, 1, 3}, 2);
  const auto g = node_graph(a, 1);
  int colors = 0;
  const auto c = color_graph(g, colors);
  EXPECT_GE(colors, 2);
  EXPECT_LE(colors, 10);  // rows couple with at most 9 others here
  for (index_t i = 0; i < g.nodes; ++i) {
    ASSERT_GE(c[i], 0);
    ASSERT_LT(c[i], colors);
    for (index_t p = g.row_ptr[i]; p < g.row_ptr[i + 1]; ++p) {
      if (g.col[p] != i) {
        EXPECT_NE(c[i], c[g.col[p]]) << i << " - " << g.col[p];
      }
    }
  }
}

TEST(AmgTentative, OrthonormalColumnsThatReproduceTheNullspace) {
  using V = std::complex<double>;
  // 7 nodes of 2 rows, 3 aggregates (node 5 in none), a random 2-column
  // near-nullspace; aggregate 2 is a single node: rank 2 of 2 rows
  const std::vector<index_t> agg{0, 1, 0, 1, 2, -1, 0};
  Nullspace<V> b;
  b.cols = 2;
  b.values = random_values<V>(14 * 2, 5);
  Nullspace<V> bc;
  const auto t = tentative_prolongator(agg, 3, 2, b, bc);
  ASSERT_EQ(t.rows, 14);
  ASSERT_EQ(t.cols, 6);
  const auto dt = dense(t);
  // T^H T = I
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 6; ++j) {
      cd s = 0;
      for (int r = 0; r < 14; ++r)
        s += std::conj(dt[static_cast<std::size_t>(r * 6 + i)]) *
             dt[static_cast<std::size_t>(r * 6 + j)];
      EXPECT_NEAR(std::abs(s - (i == j ? 1.0 : 0.0)), 0, 1e-13) << i << "," << j;
    }
  // T B_c = B on the aggregated rows, 0 on node 5's
  for (int r = 0; r < 14; ++r)
    for (int k = 0; k < 2; ++k) {
      cd s = 0;
      for (int c = 0; c < 6; ++c)
        s += dt[static_cast<std::size_t>(r * 6 + c)] *
             cd(bc.values[static_cast<std::size_t>(c * 2 + k)]);
      const cd want = r / 2 == 5 ? cd(0) : cd(b.values[static_cast<std::size_t>(r * 2 + k)]);
      EXPECT_NEAR(std::abs(s - want), 0, 1e-13) << r << "," << k;
    }
}

TEST(AmgTentative, DependentNullspaceColumnsGiveZeroColumnsNotNaN) {
  // one node of one row, two near-nullspace vectors: the second depends on
  // the first there
  Nullspace<double> b;
  b.cols = 2;
  b.values = {1.0, 2.0, 3.0, 6.0};  // rows (1, 2), (3, 6): column 2 = 2 column 1
  Nullspace<double> bc;
  const auto t = tentative_prolongator<double>({0, 0}, 1, 1, b, bc);
  for (double v : t.val) EXPECT_TRUE(std::isfinite(v));
  const auto dt = dense(t);
  EXPECT_NEAR(std::abs(dt[1]), 0, 0);  // second column zero
  EXPECT_NEAR(std::abs(dt[3]), 0, 0);
  EXPECT_NEAR(std::abs(dt[0]) * std::sqrt(10.0), 1, 1e-14);
}

// Level::colors (printed and in --json): the colour classes Gauss-Seidel
// launches, between 2 and the largest row's off-diagonal count + 1 (any
// greedy or Jones-Plassmann colouring), on every level but the coarsest;
// none with Jacobi.
TEST(AmgColoring, LevelsCountTheirColours) {
  const auto a = laplacian2d<double>(40, 33);
  Options o;
  o.block = 1;
  o.coarse_size = 40;
  const auto h = build_hierarchy(a, o);
  ASSERT_GE(h.levels.size(), 3u);
  for (std::size_t l = 0; l + 1 < h.levels.size(); ++l) {
    const auto& lv = h.levels[l];
    index_t widest = 0;
    for (index_t i = 0; i < lv.a.rows; ++i)
      widest = std::max(widest, lv.a.row_ptr[i + 1] - lv.a.row_ptr[i]);
    EXPECT_GE(lv.colors(), 2) << "level " << l;
    EXPECT_LE(lv.colors(), widest) << "level " << l;  // widest counts the diagonal
    for (int c = 0; c < lv.colors(); ++c)
      EXPECT_LT(lv.color_start[c], lv.color_start[c + 1]) << "level " << l << ": colour " << c;
  }
  o.smoother = Smoother::jacobi;
  for (const auto& lv : build_hierarchy(a, o).levels) EXPECT_EQ(lv.colors(), 0);
}

TEST(AmgHierarchy, GalerkinOperatorsAreRAPWithRTheConjugateTranspose) {
  using V = std::complex<double>;
  const auto a = laplacian2d<V>(17, 13, 0.1, 0.3);
  Options o;
  o.block = 1;
  o.coarse_size = 20;
  const auto h = build_hierarchy(a, o);
  ASSERT_GE(h.levels.size(), 3u);
  for (std::size_t l = 0; l + 1 < h.levels.size(); ++l) {
    const auto& lv = h.levels[l];
    const auto dp = dense(lv.p), dr = dense(lv.r), da = dense(lv.a), dc = dense(h.levels[l + 1].a);
    const auto n = static_cast<int>(lv.a.rows), m = static_cast<int>(lv.p.cols);
    ASSERT_EQ(h.levels[l + 1].a.rows, m);
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j)
        ASSERT_EQ(dr[static_cast<std::size_t>(i * n + j)],
                  std::conj(dp[static_cast<std::size_t>(j * m + i)]));
    double scale = 0;
    for (const cd& v : da) scale = std::max(scale, std::abs(v));
    std::vector<cd> ap(static_cast<std::size_t>(n * m), 0.0);
    for (int i = 0; i < n; ++i)
      for (int k = 0; k < n; ++k)
        if (da[static_cast<std::size_t>(i * n + k)] != cd(0))
          for (int j = 0; j < m; ++j)
            ap[static_cast<std::size_t>(i * m + j)] +=
                da[static_cast<std::size_t>(i * n + k)] * dp[static_cast<std::size_t>(k * m + j)];
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < m; ++j) {
        cd s = 0;
        for (int k = 0; k < n; ++k)
          s += dr[static_cast<std::size_t>(i * n + k)] * ap[static_cast<std::size_t>(k * m + j)];
        EXPECT_NEAR(std::abs(dc[static_cast<std::size_t>(i * m + j)] - s), 0, 1e-13 * scale)
            << "level " << l + 1;
      }
  }
  // the coarsest inverse: A_c A_c^-1 = I
  const auto& last = h.levels.back().a;
  const auto n = static_cast<std::size_t>(last.rows);
  const auto dl = dense(last);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      cd s = 0;
      for (std::size_t k = 0; k < n; ++k) s += dl[i * n + k] * h.coarse_inverse[k * n + j];
      EXPECT_NEAR(std::abs(s - (i == j ? 1.0 : 0.0)), 0, 1e-11);
    }
}

TEST(AmgHierarchy, SameHierarchyEveryTime) {
  const auto a = block_laplacian<float>(12, 11, {2, 1, 0.5, 1, 3, 0, 0.5, 0, 2}, 3);
  Options o;
  o.block = 3;
  o.coarse_size = 30;
  const auto h1 = build_hierarchy(a, o), h2 = build_hierarchy(a, o);
  ASSERT_EQ(h1.levels.size(), h2.levels.size());
  ASSERT_GE(h1.levels.size(), 2u);
  for (std::size_t l = 0; l < h1.levels.size(); ++l) {
    EXPECT_EQ(h1.levels[l].aggregate, h2.levels[l].aggregate);
    EXPECT_EQ(h1.levels[l].a.col, h2.levels[l].a.col);
    EXPECT_EQ(h1.levels[l].a.val, h2.levels[l].a.val);  // bitwise
    EXPECT_EQ(h1.levels[l].block, 3);  // the identity near-nullspace keeps 3 x 3 blocks
  }
  EXPECT_EQ(h1.coarse_inverse, h2.coarse_inverse);
}

TEST(AmgHierarchy, SameHierarchyForAnyNumberOfThreads) {
  using V = std::complex<double>;
  // 5734 rows: more than one chunk of the power iteration's ordered sums
  const auto a = block_laplacian<V>(61, 47, {2, 1, 1, 3}, 2);
  Options o;
  o.block = 2;
  o.coarse_size = 20;
  const int before = omp_get_max_threads();
  omp_set_num_threads(1);
  const auto h1 = build_hierarchy(a, o);
  omp_set_num_threads(3);
  const auto h3 = build_hierarchy(a, o);
  omp_set_num_threads(before);
  ASSERT_EQ(h1.levels.size(), h3.levels.size());
  for (std::size_t l = 0; l < h1.levels.size(); ++l) {
    EXPECT_EQ(h1.levels[l].aggregate, h3.levels[l].aggregate);
    EXPECT_EQ(h1.levels[l].a.val, h3.levels[l].a.val);  // bitwise
    EXPECT_EQ(h1.levels[l].p.val, h3.levels[l].p.val);
    EXPECT_EQ(h1.levels[l].color_nodes, h3.levels[l].color_nodes);
    EXPECT_EQ(h1.levels[l].rho, h3.levels[l].rho);
  }
  EXPECT_EQ(h1.coarse_inverse, h3.coarse_inverse);
}

TEST(AmgHierarchy, CoarseLevelsMustShrink) {
  // a 1D Laplacian with a near-nullspace of 4 vectors per row: aggregates
  // of fewer than 5 nodes would make a "coarse" level larger than the fine
  // one; the hierarchy stops instead of growing
  const int n = 3000;
  Nullspace<double> b;
  b.cols = 4;
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < 4; ++k) b.values.push_back(std::pow(double(i) / n, k));
  Options o;
  o.block = 1;
  o.max_levels = 3;
  try {
    const auto h = build_hierarchy(laplacian1d<double>(n), o, b);
    for (std::size_t l = 1; l < h.levels.size(); ++l)
      EXPECT_LE(h.levels[l].a.rows * 5, h.levels[l - 1].a.rows * 4) << "level " << l;
  } catch (const Error& e) {  // stopped at a level too large for the dense inverse: said so
    EXPECT_NE(std::string(e.what()).find("coarsest level"), std::string::npos) << e.what();
  }
}

TEST(AmgHierarchy, RigidBodyModesGiveSixColumnsPerAggregate) {
  // 3 x 3 x 3 nodes, 3 rows each: the modes at node (1, 2, 0)
  std::vector<double> xyz;
  for (int z = 0; z < 3; ++z)
    for (int y = 0; y < 3; ++y)
      for (int x = 0; x < 3; ++x) xyz.insert(xyz.end(), {double(x), double(y), double(z)});
  const auto b = rigid_body_modes<double>(xyz, 3);
  ASSERT_EQ(b.cols, 6);
  ASSERT_EQ(b.values.size(), 27u * 3 * 6);
  const std::size_t node = 1 + 2 * 3;
  auto at = [&](int comp, int mode) { return b.values[(node * 3 + comp) * 6 + mode]; };
  for (int c = 0; c < 3; ++c)
    for (int m = 0; m < 3; ++m) EXPECT_EQ(at(c, m), c == m ? 1.0 : 0.0);
  // rotation about z: (-y, x, 0) = (-2, 1, 0)
  EXPECT_EQ(at(0, 5), -2.0);
  EXPECT_EQ(at(1, 5), 1.0);
  EXPECT_EQ(at(2, 5), 0.0);
  EXPECT_THROW(rigid_body_modes<double>(xyz, 4), UsageError);
  EXPECT_THROW(rigid_body_modes<double>(std::vector<double>(7), 3), Error);
}

TEST(AmgHierarchy, SpectralRadiusOfJacobiOn1dLaplacian) {
  // D^-1 A of the 1D Laplacian (2, -1): eigenvalues 1 - cos(k pi / (n + 1))
  const int n = 60;
  const auto a = laplacian1d<double>(n);
  const std::vector<double> dinv(n, 0.5);
  const double rho = spectral_radius(a, dinv, 1), exact = 1 + std::cos(M_PI / (n + 1));
  EXPECT_LE(rho, exact * (1 + 1e-12));  // a Rayleigh quotient: from below
  EXPECT_GE(rho, 0.97 * exact);
  EXPECT_LE(rho, 2.0);  // the row-sum bound
}

TEST(AmgErrors, BadMatricesAreRefusedNamingTheRowOrBlock) {
  Options o;
  o.block = 1;
  auto message = [&](const auto& a, const Options& opt) {
    try {
      build_hierarchy(a, opt);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  // a zero diagonal entry in row 2, a missing one in row 1
  std::vector<std::vector<std::pair<index_t, double>>> z{
      {{0, 2.0}, {1, -1.0}}, {{0, -1.0}, {1, 2.0}, {2, -1.0}}, {{1, -1.0}, {2, 0.0}}};
  EXPECT_NE(message(from_rows<double>(3, z), o).find("level 0: row 2 has a zero diagonal entry"),
            std::string::npos)
      << message(from_rows<double>(3, z), o);
  std::vector<std::vector<std::pair<index_t, double>>> m{
      {{0, 2.0}, {1, -1.0}}, {{0, -1.0}, {2, -1.0}}, {{1, -1.0}, {2, 2.0}}};
  EXPECT_NE(message(from_rows<double>(3, m), o).find("row 1 has no diagonal entry"),
            std::string::npos);
  // a singular 2 x 2 diagonal block in node 1 (rows 2..3)
  std::vector<std::vector<std::pair<index_t, double>>> s{
      {{0, 2.0}, {2, -1.0}}, {{1, 2.0}}, {{0, -1.0}, {2, 1.0}, {3, 1.0}}, {{2, 1.0}, {3, 1.0}}};
  Options o2 = o;
  o2.block = 2;
  EXPECT_NE(
      message(from_rows<double>(4, s), o2).find("diagonal block of node 1 (rows 2..3) is singular"),
      std::string::npos)
      << message(from_rows<double>(4, s), o2);
  // not square; rows not a whole number of blocks; a nullspace of the wrong size
  auto rect = from_rows<double>(3, {{{0, 1.0}}, {{1, 1.0}}});
  EXPECT_NE(message(rect, o).find("2 x 3; AMG needs a square matrix"), std::string::npos);
  const auto lap = laplacian2d<double>(5, 5);
  Options o3 = o;
  o3.block = 2;
  EXPECT_NE(message(lap, o3).find("25 rows are not a whole number of 2 x 2 blocks"),
            std::string::npos);
  Nullspace<double> wrong;
  wrong.cols = 2;
  wrong.values.assign(49, 1.0);
  try {
    build_hierarchy(lap, o, wrong);
    ADD_FAILURE() << "a near-nullspace of 49 values for 2 x 25 was taken";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("49 values for 2 vectors; the matrix has 25 rows, so 50"),
              std::string::npos)
        << e.what();
  }
  // the coarsest level too large for a dense inverse after the levels allowed
  Options o4 = o;
  o4.max_levels = 1;
  EXPECT_NE(message(laplacian2d<double>(70, 70), o4).find("has 4900 rows, more than the 4096"),
            std::string::npos);
  // a NaN entry; a matrix without entries; a zero near-nullspace vector
  auto nan_matrix = laplacian2d<double>(4, 4);
  nan_matrix.val[7] = std::nan("");
  EXPECT_NE(message(nan_matrix, o).find("entry in row 2, column 1 is nan"), std::string::npos)
      << message(nan_matrix, o);
  Csr<double> empty;
  empty.rows = empty.cols = 3;
  empty.row_ptr.assign(4, 0);
  EXPECT_NE(message(empty, o).find("no entries"), std::string::npos);
  Nullspace<double> zero;
  zero.cols = 1;
  zero.values.assign(25, 0.0);
  try {
    build_hierarchy(lap, o, zero);
    ADD_FAILURE() << "a zero near-nullspace was taken";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("near-nullspace vector 0 is zero"), std::string::npos);
  }
  // a singular coarsest matrix (the pure Neumann Laplacian: row sums 0)
  std::vector<std::vector<std::pair<index_t, double>>> neu{{{0, 1.0}, {1, -1.0}},
                                                           {{0, -1.0}, {1, 1.0}}};
  EXPECT_NE(
      message(from_rows<double>(2, neu), o).find("coarsest matrix (level 0, 2 rows) is singular"),
      std::string::npos);
  // the same problem on 2000 rows: its coarse levels keep a pivot through
  // rounding, and the inverse (about 1e14 times too large) made every cycle
  // diverge; the condition number tells it singular to working precision
  const int n = 2000;
  std::vector<std::vector<std::pair<index_t, double>>> big(n);
  for (int i = 0; i < n; ++i) {
    auto& r = big[static_cast<std::size_t>(i)];
    if (i > 0) r.emplace_back(i - 1, -1.0);
    r.emplace_back(i, i == 0 || i + 1 == n ? 1.0 : 2.0);
    if (i + 1 < n) r.emplace_back(i + 1, -1.0);
  }
  const std::string why = message(from_rows<double>(n, big), o);
  EXPECT_NE(why.find("is singular to working precision (condition number"), std::string::npos)
      << why;
}

TEST(AmgErrors, OptionsOutOfRangeAreUsageErrors) {
  auto bad = [](auto set) {
    Options o;
    set(o);
    EXPECT_THROW(o.check(), UsageError);
  };
  bad([](Options& o) { o.theta = 1.0; });
  bad([](Options& o) { o.theta = -0.1; });
  bad([](Options& o) { o.degree = 0; });
  bad([](Options& o) { o.omega = 2.5; });
  bad([](Options& o) { o.presweeps = 0, o.postsweeps = 0; });
  bad([](Options& o) { o.presweeps = -2; });
  bad([](Options& o) { o.max_levels = 0; });
  bad([](Options& o) { o.coarse_size = kMaxDenseCoarse + 1; });
  EXPECT_THROW(parse_smoother("sor"), UsageError);
  EXPECT_THROW(parse_cycle("F"), UsageError);
  EXPECT_EQ(parse_smoother("gauss-seidel"), Smoother::gauss_seidel);
  EXPECT_EQ(parse_smoother("auto"), Smoother::automatic);
  EXPECT_EQ(Options{}.smoother, Smoother::automatic);
  EXPECT_EQ(resolve_smoother(Smoother::automatic, false), Smoother::gauss_seidel);
  EXPECT_EQ(resolve_smoother(Smoother::automatic, true), Smoother::jacobi);
  for (const Smoother s : {Smoother::jacobi, Smoother::chebyshev, Smoother::gauss_seidel}) {
    EXPECT_EQ(resolve_smoother(s, true), s);  // a smoother given is used
    EXPECT_EQ(resolve_smoother(s, false), s);
  }
}

}  // namespace
}  // namespace tessera::amg
