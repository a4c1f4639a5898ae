// sparse::hermitian_defect against a dense evaluation of its definition, on
// random matrices of every value type: Hermitian ones give exactly 0, one
// perturbed entry gives its difference, an entry without its mirror counts
// in full, and a complex symmetric (not Hermitian) matrix is not Hermitian.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <random>
#include <vector>

#include "core/error.hpp"
#include "sparse/analysis.hpp"
#include "tests/sparse/sparse_test_util.hpp"

namespace tessera::sparse {
namespace {

/// CSR of a dense n x n array (row-major), zeros left out.
template <class T>
Csr<T> csr_of(const std::vector<T>& d, std::size_t n) {
  Csr<T> a;
  a.rows = a.cols = n;
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j)
      if (d[i * n + j] != T(0)) {
        a.col.push_back(static_cast<index_t>(j));
        a.val.push_back(d[i * n + j]);
      }
    a.row_ptr.push_back(static_cast<index_t>(a.col.size()));
  }
  return a;
}

/// The definition, on the dense array.
template <class T>
double dense_defect(const std::vector<T>& d, std::size_t n) {
  double worst = 0, largest = 0;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      largest = std::max(largest, static_cast<double>(std::abs(d[i * n + j])));
      worst =
          std::max(worst, static_cast<double>(std::abs(d[i * n + j] - conj_value(d[j * n + i]))));
    }
  return largest > 0 ? worst / largest : 0.0;
}

template <class T>
class HermitianDefect : public ::testing::Test {};
using Types = ::testing::Types<float, double, std::complex<float>, std::complex<double>>;
TYPED_TEST_SUITE(HermitianDefect, Types);

TYPED_TEST(HermitianDefect, MatchesTheDefinition) {
  using T = TypeParam;
  std::mt19937_64 g(41);
  std::bernoulli_distribution keep(0.3);
  for (const std::size_t n : {1u, 2u, 7u, 33u}) {
    SCOPED_TRACE(n);
    // Hermitian: the lower triangle mirrored, a real diagonal
    std::vector<T> d(n * n, T(0));
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j <= i; ++j)
        if (i == j || keep(g)) {
          T v = test::uniform<T>(g);
          if (i == j) v = T(std::real(v));
          d[i * n + j] = v;
          d[j * n + i] = conj_value(v);
        }
    EXPECT_EQ(hermitian_defect(csr_of(d, n)), 0.0);
    if (n < 2) continue;
    // one entry changed: its difference from the mirror
    d[1 * n + 0] += T(0.25);
    EXPECT_NEAR(hermitian_defect(csr_of(d, n)), dense_defect(d, n), 1e-6);
    EXPECT_GT(hermitian_defect(csr_of(d, n)), 0.0);
    // an entry without its mirror: counts in full
    d[(n - 1) * n + 0] = T(3);
    d[0 * n + (n - 1)] = T(0);
    EXPECT_NEAR(hermitian_defect(csr_of(d, n)), dense_defect(d, n), 1e-6);
    EXPECT_GE(hermitian_defect(csr_of(d, n)), 3.0 / 3.25 - 1e-6);
  }
}

TYPED_TEST(HermitianDefect, ZeroMatrixAndNonSquare) {
  using T = TypeParam;
  Csr<T> z;
  z.rows = z.cols = 4;
  z.row_ptr.assign(5, 0);
  EXPECT_EQ(hermitian_defect(z), 0.0);
  Csr<T> r;
  r.rows = 2;
  r.cols = 3;
  r.row_ptr.assign(3, 0);
  EXPECT_THROW(hermitian_defect(r), Error);
}

TEST(HermitianDefectComplex, SymmetricIsNotHermitian) {
  // [[2, i], [i, 2]] is symmetric, and a_01 - conj(a_10) = 2i
  const std::vector<std::complex<double>> d = {2.0, {0.0, 1.0}, {0.0, 1.0}, 2.0};
  EXPECT_DOUBLE_EQ(hermitian_defect(csr_of(d, 2)), 1.0);
  const std::vector<std::complex<double>> h = {2.0, {0.0, 1.0}, {0.0, -1.0}, 2.0};
  EXPECT_EQ(hermitian_defect(csr_of(h, 2)), 0.0);
}

}  // namespace
}  // namespace tessera::sparse
