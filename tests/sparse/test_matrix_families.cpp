// The generated matrix families (sparse/matrix_families.hpp): exact sizes of
// the structured ones (counted by hand from the stencils), the statistics the
// random ones promise, CSR invariants, determinism, and the refusals.
#include <gtest/gtest.h>

#include <algorithm>

#include "core/error.hpp"
#include "sparse/matrix_families.hpp"

namespace tessera::sparse {
namespace {

/// Row pointers ascending from 0, columns strictly ascending in each row and
/// inside the matrix.
template <Scalar T>
void expect_valid(const Csr<T>& a) {
  ASSERT_EQ(a.row_ptr.size(), static_cast<std::size_t>(a.rows + 1));
  ASSERT_EQ(a.row_ptr.front(), 0);
  ASSERT_EQ(static_cast<std::size_t>(a.row_ptr.back()), a.col.size());
  ASSERT_EQ(a.col.size(), a.val.size());
  for (size64 i = 0; i < a.rows; ++i) {
    ASSERT_LE(a.row_ptr[i], a.row_ptr[i + 1]) << "row " << i;
    for (index_t p = a.row_ptr[i]; p < a.row_ptr[i + 1]; ++p) {
      ASSERT_GE(a.col[p], 0);
      ASSERT_LT(a.col[p], a.cols);
      if (p > a.row_ptr[i]) ASSERT_LT(a.col[p - 1], a.col[p]) << "row " << i;
    }
  }
}

size64 max_row(const Csr<double>& a) {
  size64 m = 0;
  for (size64 i = 0; i < a.rows; ++i) m = std::max<size64>(m, a.row_ptr[i + 1] - a.row_ptr[i]);
  return m;
}

TEST(MatrixFamilies, StencilsHaveTheirExactCounts) {
  // a star of 2d+1 points on n^d loses one entry per boundary face cell;
  // a box of 3^d points has (3n-2)^d entries
  struct Want {
    const char* spec;
    size64 rows, nnz;
  } cases[] = {{"stencil2d5:7", 49, 5 * 49 - 4 * 7},
               {"stencil2d9:7", 49, 19 * 19},
               {"stencil3d27:5", 125, 13 * 13 * 13},
               {"fem3:4", 3 * 64, 9 * 10 * 10 * 10},
               {"banded:10,width=5", 10, 5 * 10 - 2 * (1 + 2)}};
  for (const auto& w : cases) {
    SCOPED_TRACE(w.spec);
    const Csr<double> a = generate_family<double>(w.spec);
    expect_valid(a);
    EXPECT_EQ(a.rows, w.rows);
    EXPECT_EQ(a.cols, w.rows);
    EXPECT_EQ(a.nnz(), w.nnz);
  }
  // the 5-point stencil's weights: 4 on the diagonal, -1 around; rows sum
  // to 0 inside the grid
  const Csr<double> s = generate_family<double>("stencil2d5:7");
  const size64 inner = 3 * 7 + 3;
  double sum = 0;
  for (index_t p = s.row_ptr[inner]; p < s.row_ptr[inner + 1]; ++p) sum += s.val[p];
  EXPECT_EQ(sum, 0.0);
}

TEST(MatrixFamilies, PowerLawRowsHaveTheMeanAndAHeavyTail) {
  const Csr<double> heavy = generate_family<double>("powerlaw:20000,alpha=1.8,mean=8");
  const Csr<double> light = generate_family<double>("powerlaw:20000,alpha=3,mean=8");
  for (const Csr<double>* a : {&heavy, &light}) {
    expect_valid(*a);
    // duplicates drawn into a row are merged: a little under the mean
    EXPECT_GT(a->nnz(), 7.2 * 20000);
    EXPECT_LE(a->nnz(), 8.1 * 20000);
  }
  EXPECT_GT(max_row(heavy), 100 * 8);  // max/mean > 100: the tail the matrix has
  EXPECT_LT(max_row(light), max_row(heavy));
  const Csr<double> capped = generate_family<double>("powerlaw:20000,alpha=1.8,mean=8,max=50");
  EXPECT_LE(max_row(capped), 50);
}

TEST(MatrixFamilies, RandomFamiliesKeepTheirPromises) {
  const Csr<float> u = generate_family<float>("uniform:5000,mean=6");
  expect_valid(u);
  EXPECT_NEAR(double(u.nnz()) / 5000, 6.0, 0.3);
  const Csr<float> e = generate_family<float>("emptyrows:20000,filled=0.05,mean=40");
  expect_valid(e);
  size64 filled = 0;
  for (size64 i = 0; i < e.rows; ++i) filled += e.row_ptr[i + 1] > e.row_ptr[i];
  EXPECT_NEAR(double(filled) / 20000, 0.05, 0.01);
  const Csr<double> r = generate_family<double>("arrow:3000,dense=2,mean=4");
  expect_valid(r);
  EXPECT_EQ(r.row_ptr[1] - r.row_ptr[0], 3000);  // a full row
  size64 hub = 0;                                // a full column: every row has column 1
  for (size64 i = 0; i < r.rows; ++i)
    hub += std::binary_search(r.col.begin() + r.row_ptr[i], r.col.begin() + r.row_ptr[i + 1], 1);
  EXPECT_EQ(hub, 3000);
}

TEST(MatrixFamilies, ASpecGivesOneMatrixAndTheSeedAnother) {
  const Csr<double> a = generate_family<double>("powerlaw:3000,alpha=2.2,seed=5");
  const Csr<double> b = generate_family<double>("powerlaw:3000,alpha=2.2,seed=5");
  const Csr<double> c = generate_family<double>("powerlaw:3000,alpha=2.2,seed=6");
  EXPECT_EQ(a.col, b.col);
  EXPECT_EQ(a.val, b.val);
  EXPECT_NE(a.col, c.col);
  // every value in [-1, 1), not all one
  EXPECT_TRUE(std::all_of(a.val.begin(), a.val.end(), [](double v) { return v >= -1 && v < 1; }));
  EXPECT_NE(*std::min_element(a.val.begin(), a.val.end()),
            *std::max_element(a.val.begin(), a.val.end()));
}

TEST(MatrixFamilies, BadSpecsAreRefusedWithTheirReason) {
  auto why = [](const char* spec) {
    try {
      (void)generate_family<double>(spec);
    } catch (const UsageError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(why("nosuch:10").find("unknown family 'nosuch'"), std::string::npos);
  EXPECT_NE(why("powerlaw:10,beta=2").find("'beta=2': expected key=value with a key of alpha"),
            std::string::npos);
  EXPECT_NE(why("powerlaw:-3").find("size -3"), std::string::npos);
  EXPECT_NE(why("powerlaw:10x").find("size=10x: expected a number"), std::string::npos);
  EXPECT_NE(why("powerlaw:100,alpha=1").find("alpha=1: expected 1.1 to 10"), std::string::npos);
  EXPECT_NE(why("stencil2d5:5,width=3").find("takes only a size"), std::string::npos);
  // a mean the cap cannot reach is refused, not silently lowered
  EXPECT_NE(why("powerlaw:1000,mean=20,max=10").find("mean=20: more than max=10"),
            std::string::npos);
  EXPECT_EQ(why("powerlaw:1000,alpha=1.2,mean=30,max=31"), "accepted");  // every row at 30-31
  EXPECT_NE(why("uniform:2000000000,mean=400").find("beyond 32-bit indices"), std::string::npos);
  EXPECT_NE(why("stencil3d27:2000").find("beyond 32-bit indices"), std::string::npos);
  EXPECT_TRUE(is_family_spec("fem3:3"));
  EXPECT_FALSE(is_family_spec("laplace7:3"));
  EXPECT_FALSE(is_family_spec("powerlaw"));
}

TEST(MatrixFamilies, TheBenchmarkSetReachesItsSize) {
  const auto set = family_benchmark_set(200000);
  EXPECT_EQ(set.size(), 12u);
  for (const std::string& spec : set) {
    if (!is_family_spec(spec)) continue;  // laplace7 is laplacian.hpp's
    SCOPED_TRACE(spec);
    const Csr<double> a = generate_family<double>(spec);
    expect_valid(a);
    EXPECT_GT(a.nnz(), 150000);  // duplicates and boundaries take a little
  }
}

}  // namespace
}  // namespace tessera::sparse
