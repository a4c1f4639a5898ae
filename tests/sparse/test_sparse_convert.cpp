// Every format against CSR on awkward random matrices: the round trip back to
// CSR must give the original exactly, the invariants must hold, and the
// reference SpMV must give exactly the CSR result (values are small integers,
// so any summation order is exact), for every value type and for a real matrix
// with a complex vector.
#include <gtest/gtest.h>

#include <algorithm>

#include <random>

#include <numeric>

#include <fmt/format.h>

#include "core/error.hpp"
#include "sparse/spmv.hpp"
#include "sparse/validate.hpp"
#include "tests/sparse/sparse_test_util.hpp"

namespace tessera::sparse {
namespace {

using test::random_vector;
using test::same_csr;

template <class T>
class SparseConvert : public ::testing::Test {
 protected:
  /// Checks format `f` built from `a`: invariants, `back(f) == a`, SpMV == CSR SpMV.
  template <class F, class Back>
  void check(const std::string& label, const Csr<T>& a, const F& f, Back&& back) {
    SCOPED_TRACE(label);
    ASSERT_NO_THROW(validate(f));
    EXPECT_TRUE(same_csr(back(f), a));
    const auto x = random_vector<T>(a.cols, 11);
    EXPECT_EQ(multiply(f, x), multiply(a, x));
    if constexpr (!is_complex_v<T>) {
      const auto xc = random_vector<std::complex<T>>(a.cols, 12);
      EXPECT_EQ(multiply(f, xc), multiply(a, xc));
    }
  }

  /// The test matrices, as CSR without explicit zeros (duplicates may cancel).
  std::vector<std::pair<std::string, Csr<T>>> matrices() {
    std::vector<std::pair<std::string, Csr<T>>> out;
    for (auto& c : test::shapes<T>()) {
      Csr<T> a = drop_zeros(to_csr(c.coo));
      validate(a);
      out.emplace_back(c.name, std::move(a));
    }
    return out;
  }
};
TYPED_TEST_SUITE(SparseConvert, test::ValueTypes);

TYPED_TEST(SparseConvert, ScalarFormats) {
  using T = TypeParam;
  const EllOptions ell[] = {
      {1, false, false}, {3, false, false}, {20, true, false}, {1, false, true}, {4, true, true}};
  for (const auto& [name, a] : this->matrices()) {
    SCOPED_TRACE(name);
    this->check("COO", a, to_coo(a), [](const auto& f) { return to_csr(f); });
    this->check("DIA", a, to_dia(a), [](const auto& f) { return to_csr(f); });
    EXPECT_EQ(count_diagonals(a), to_dia(a).diagonals());
    for (const auto& o : ell) {
      const Ell<T> e = to_ell(a, o);
      EXPECT_EQ(e.width % o.subsection, 0);
      this->check(
          fmt::format("ELL L={} sort={} drop={}", o.subsection, o.sort_rows, o.drop_empty_rows), a,
          e, [](const auto& f) { return to_csr(f); });
    }
    for (int C : {1, 4, 32})
      for (int sigma : {1, 8, 64})
        this->check(fmt::format("SELL-{}-{}", C, sigma), a, to_sell(a, {C, sigma}),
                    [](const auto& f) { return to_csr(f); });
    for (size64 w : {-1, 0, 2, 1000})
      this->check(fmt::format("HYB width {}", w), a, to_hyb(a, {w}),
                  [](const auto& f) { return to_csr(f); });
  }
}

TYPED_TEST(SparseConvert, BlockFormats) {
  using T = TypeParam;
  const int shapes[][2] = {{1, 1}, {2, 3}, {4, 1}, {5, 5}, {3, 7}};
  for (const auto& [name, a] : this->matrices()) {
    SCOPED_TRACE(name);
    for (const auto& s : shapes)
      for (BlockLayout l : {BlockLayout::row_major, BlockLayout::col_major})
        for (bool compress : {false, true}) {
          const Bcsr<T> b = to_bcsr(a, {s[0], s[1], l, compress});
          const std::string label = fmt::format("BCSR {}x{} {} {}", s[0], s[1],
                                                l == BlockLayout::row_major ? "row" : "col",
                                                compress ? "compressed" : "");
          this->check(label, a, b, [](const auto& f) { return to_csr(f, Zeros::drop); });
          // Keeping the in-block zeros gives the blocks' full pattern, same product.
          const Csr<T> kept = to_csr(b, Zeros::keep);
          EXPECT_EQ(
              kept.nnz(),
              b.nblocks() * b.block.size() - [&] {  // minus positions cut off at the edges
                size64 outside = 0;
                for (size64 sb = 0; sb < b.stored_block_rows(); ++sb)
                  for (index_t k = b.row_ptr[sb]; k < b.row_ptr[sb + 1]; ++k)
                    for (int i = 0; i < s[0]; ++i)
                      for (int j = 0; j < s[1]; ++j)
                        outside += mapped_row(b.block_row_map, sb) * s[0] + i >= a.rows ||
                                   static_cast<size64>(b.col[k]) * s[1] + j >= a.cols;
                return outside;
              }());
          EXPECT_TRUE(same_csr(drop_zeros(kept), a));
          // The other layout holds the same blocks.
          const Bcsr<T> other = with_layout(
              b, l == BlockLayout::row_major ? BlockLayout::col_major : BlockLayout::row_major);
          this->check(label + " relaid", a, other,
                      [](const auto& f) { return to_csr(f, Zeros::drop); });
          EXPECT_EQ(with_layout(other, l).val, b.val);
          // TRACE's gapped form and back.
          const GappedBcsr<T> g = to_gapped(compress_rows(b));
          this->check(label + " gapped", a, g,
                      [](const auto& f) { return to_csr(f, Zeros::drop); });
          const Bcsr<T> c = to_bcsr(g);
          EXPECT_EQ(c.row_ptr, compress_rows(b).row_ptr);
          EXPECT_EQ(c.block_row_map, compress_rows(b).block_row_map);
        }
  }
  for (const auto& [name, a] : this->matrices()) {
    SCOPED_TRACE(name);
    for (int bs : {2, 5})
      for (bool compress : {false, true}) {
        const Bcsr<T> b = to_bcsr(a, {bs, bs, BlockLayout::row_major, compress});
        for (BellIndex index : {BellIndex::scalar_row, BellIndex::block_row})
          for (size64 sub : {1, 4}) {
            const Bell<T> e = to_bell(b, {index, sub});
            this->check(
                fmt::format("BELL {0}x{0} {1} L={2}", bs,
                            index == BellIndex::block_row ? "block-index" : "row-index", sub),
                a, e, [](const auto& f) { return to_csr(f, Zeros::drop); });
            const Bcsr<T> back = to_bcsr(e);
            EXPECT_EQ(back.row_ptr, b.row_ptr);
            EXPECT_EQ(back.col, b.col);
            EXPECT_EQ(back.val, b.val);
            EXPECT_EQ(back.block_row_map, b.block_row_map);
          }
      }
  }
}

TYPED_TEST(SparseConvert, SummationOrder) {
  using T = TypeParam;
  {  // OpenMP CSR == sequential CSR, bit for bit
    const Csr<T> a = to_csr(test::random_coo<T>(2000, 1000, 0.02, 21, 0, false));
    const auto x = random_vector<T>(a.cols, 22, false);
    std::vector<T> y1(static_cast<std::size_t>(a.rows)), y2(y1.size());
    spmv<T, T>(a, x, y1);
    spmv_omp<T, T>(a, x, y2);
    EXPECT_EQ(y1, y2);
  }
  {  // OpenMP DIA, ELL, HYB and (unsorted, with duplicates) COO == their sequential SpMV, bit for bit
    const Csr<T> a = to_csr(test::random_coo<T>(900, 700, 0.03, 23, 7, false));
    const auto x = random_vector<T>(a.cols, 24, false);
    auto same = [&](const auto& m, const char* what) {
      std::vector<T> y1(static_cast<std::size_t>(a.rows), T(7)),
          y2(y1.size(), T(-3));  // both overwritten
      spmv<T, T>(m, x, y1);
      spmv_omp<T, T>(m, x, y2);
      EXPECT_EQ(y1, y2) << what;
    };
    Coo<T> coo = to_coo(a);
    std::mt19937_64 rng(25);
    for (size64 k = 0; k < coo.nnz(); k += 5)  // duplicates: a second entry for every fifth one
      coo.row.push_back(coo.row[k]), coo.col.push_back(coo.col[k]),
          coo.val.push_back(coo.val[k] * T(0.37));
    std::vector<std::size_t> perm(static_cast<std::size_t>(coo.nnz()));
    std::iota(perm.begin(), perm.end(), std::size_t(0));
    std::shuffle(perm.begin(), perm.end(), rng);
    Coo<T> shuffled = coo;
    for (std::size_t k = 0; k < perm.size(); ++k)
      shuffled.row[k] = coo.row[perm[k]], shuffled.col[k] = coo.col[perm[k]],
      shuffled.val[k] = coo.val[perm[k]];
    same(shuffled, "COO");
    same(to_hyb(a, {3}), "HYB");
    same(to_ell(a), "ELL");
    Coo<T> band;
    band.rows = band.cols = 300;
    for (size64 i = 0; i < 300; ++i)
      for (size64 d : {-7, -1, 0, 2, 11})
        if (i + d >= 0 && i + d < 300)
          test::add(band, i, i + d, T(0.5) + T(0.001) * T(static_cast<double>(i + d)));
    const Csr<T> bcsr = to_csr(band);
    const auto xb = random_vector<T>(300, 27, false);
    std::vector<T> y1(300), y2(300);
    spmv<T, T>(to_dia(bcsr), xb, y1);
    spmv_omp<T, T>(to_dia(bcsr), xb, y2);
    EXPECT_EQ(y1, y2) << "DIA";
    EXPECT_EQ(y1, multiply(bcsr, xb)) << "DIA sums a row in ascending column order, like CSR";
  }
  // Every reference SpMV sums a row's entries in ascending column order (padding
  // adds exact zeros), so even non-integer values agree bit for bit.
  const Csr<T> a = to_csr(test::random_coo<T>(61, 47, 0.2, 31, 5, false));
  const auto x = random_vector<T>(a.cols, 32, false);
  const auto y = multiply(a, x);
  EXPECT_EQ(multiply(to_ell(a, {20, true, true}), x), y);
  EXPECT_EQ(multiply(to_sell(a, {8, 32}), x), y);
  EXPECT_EQ(multiply(to_bell(to_bcsr(a, {5, 5, BlockLayout::row_major, true})), x), y);
  EXPECT_EQ(multiply(to_bcsr(a, {3, 2, BlockLayout::col_major}), x), y);
  EXPECT_EQ(multiply(to_hyb(a), x), y);
  EXPECT_EQ(multiply(to_dia(a), x), y);
}

TEST(SparseConvert, RealMatrixTimesComplexVectorMatchesComplexMatrix) {
  const Csr<double> a = to_csr(test::random_coo<double>(30, 25, 0.3, 41));
  Csr<std::complex<double>> ac;
  ac.rows = a.rows;
  ac.cols = a.cols;
  ac.row_ptr = a.row_ptr;
  ac.col = a.col;
  ac.val.assign(a.val.begin(), a.val.end());
  const auto x = random_vector<std::complex<double>>(a.cols, 42);
  EXPECT_EQ(multiply(a, x), multiply(ac, x));
}

TEST(SparseConvert, DuplicatesAreSummedInFileOrder) {
  Coo<double> c;
  c.rows = 2;
  c.cols = 3;
  test::add(c, 1, 2, 1.0);
  test::add(c, 0, 1, 5.0);
  test::add(c, 1, 2, 2.5);
  test::add(c, 1, 0, -1.0);
  test::add(c, 1, 2, 0.5);
  const Csr<double> a = to_csr(c);
  EXPECT_EQ(a.row_ptr, (std::vector<index_t>{0, 1, 3}));
  EXPECT_EQ(a.col, (std::vector<index_t>{1, 0, 2}));
  EXPECT_EQ(a.val, (std::vector<double>{5.0, -1.0, 4.0}));
}

TEST(SparseConvert, CooEntryOutsideTheMatrixIsAnError) {
  Coo<float> c;
  c.rows = c.cols = 3;
  test::add(c, 1, 3, 1.0f);
  EXPECT_THROW(to_csr(c), Error);
}

TEST(SparseConvert, SpmvChecksVectorSizes) {
  const Csr<double> a = to_csr(test::random_coo<double>(4, 5, 0.5, 51));
  std::vector<double> x(4), y(4);
  EXPECT_THROW((spmv<double, double>(a, x, y)), Error);
  x.resize(5);
  y.resize(5);
  EXPECT_THROW((spmv<double, double>(to_ell(a), x, y)), Error);
}

}  // namespace
}  // namespace tessera::sparse
