// The toy examples of the thesis's chapter 2 (Figs 2.1, 2.4, 2.5, 2.6; the
// lost Figs 2.2/2.3 rebuilt on the Fig 2.1 matrix) as exact unit tests, a
// hand-made TRACE-style gapped BCSR, and the storage accounting of each.
// The thesis's indices are 1-based; ours are 0-based.
#include <gtest/gtest.h>

#include "core/error.hpp"
#include "sparse/convert.hpp"
#include "sparse/spmv.hpp"
#include "sparse/storage.hpp"
#include "sparse/validate.hpp"
#include "tests/sparse/sparse_test_util.hpp"

namespace tessera::sparse {
namespace {

using V = std::vector<double>;
using I = std::vector<index_t>;

Csr<double> from_dense(size64 rows, size64 cols, const V& d) {
  Coo<double> c;
  c.rows = rows;
  c.cols = cols;
  for (size64 i = 0; i < rows; ++i)
    for (size64 j = 0; j < cols; ++j)
      if (d[i * cols + j] != 0) test::add(c, i, j, d[i * cols + j]);
  return to_csr(c);
}

// Fig 2.1 (COO), also used by Fig 2.6 (BELL 2x2).
const V kFig21 = {1, 0, 0, 2, 0, 0,  //
                  0, 3, 4, 5, 0, 0,  //
                  0, 0, 0, 0, 6, 7,  //
                  0, 0, 0, 0, 8, 9};

TEST(SparseThesisExamples, Fig21Coo) {
  const Coo<double> c = to_coo(from_dense(4, 6, kFig21));
  EXPECT_EQ(c.val, (V{1, 2, 3, 4, 5, 6, 7, 8, 9}));
  EXPECT_EQ(c.col, (I{0, 3, 1, 2, 3, 4, 5, 4, 5}));  // thesis: 1 4 2 3 4 5 6 5 6
  EXPECT_EQ(c.row, (I{0, 0, 1, 1, 1, 2, 2, 3, 3}));  // thesis: 1 1 2 2 2 3 3 4 4
  const Storage s = storage(c);
  EXPECT_EQ(s.slots, 9);
  EXPECT_EQ(s.index_bytes, 18 * 4);
}

TEST(SparseThesisExamples, Fig22Csr) {
  const Csr<double> a = from_dense(4, 6, kFig21);
  EXPECT_EQ(a.row_ptr, (I{0, 2, 5, 7, 9}));
  EXPECT_EQ(a.col, (I{0, 3, 1, 2, 3, 4, 5, 4, 5}));
  const Storage s = storage(a);
  EXPECT_EQ(s.value_bytes, 9 * 8);
  EXPECT_EQ(s.index_bytes, (5 + 9) * 4);
  EXPECT_EQ(s.slots_per_nonzero(), 1.0);
}

TEST(SparseThesisExamples, Fig23Bcsr2x2BothLayouts) {
  const Csr<double> a = from_dense(4, 6, kFig21);
  const Bcsr<double> b = to_bcsr(a, {2, 2, BlockLayout::row_major});
  EXPECT_EQ(b.row_ptr, (I{0, 2, 3}));
  EXPECT_EQ(b.col, (I{0, 1, 2}));
  EXPECT_EQ(b.val, (V{1, 0, 0, 3, /**/ 0, 2, 4, 5, /**/ 6, 7, 8, 9}));
  const Bcsr<double> p =
      to_bcsr(a, {2, 2, BlockLayout::col_major});  // the "permuted" BCSR of kernel V3
  EXPECT_EQ(p.val, (V{1, 0, 0, 3, /**/ 0, 4, 2, 5, /**/ 6, 8, 7, 9}));
  const Storage s = storage(b);
  EXPECT_EQ(s.slots, 12);
  EXPECT_EQ(s.zero_slots, 3);  // the explicit zeros inside blocks
  EXPECT_EQ(s.index_bytes, (3 + 3) * 4);
  EXPECT_DOUBLE_EQ(s.zero_fraction(), 0.25);
}

TEST(SparseThesisExamples, Fig24Dia) {
  const Dia<double> d = to_dia(from_dense(4, 4, {1, 2, 0, 0, 3, 4, 5, 0, 0, 6, 7, 8, 0, 0, 9, 10}));
  EXPECT_EQ(d.offsets, (I{-1, 0, 1}));
  // Columns of the thesis's data matrix ("x" placeholders are 0): x 3 6 9 | 1 4 7 10 | 2 5 8 x.
  EXPECT_EQ(d.data, (V{0, 3, 6, 9, /**/ 1, 4, 7, 10, /**/ 2, 5, 8, 0}));
  const Storage s = storage(d);
  EXPECT_EQ(s.slots, 12);
  EXPECT_EQ(s.zero_slots, 2);
}

TEST(SparseThesisExamples, Fig25EllSortedShortRowsFirst) {
  const Csr<double> a = from_dense(4, 4, {1, 0, 0, 2, 3, 4, 5, 0, 0, 6, 7, 0, 8, 0, 9, 10});
  const Ell<double> e = to_ell(a, {1, true, false});
  ASSERT_EQ(e.width, 3);
  EXPECT_EQ(e.row_map, (I{0, 2, 1, 3}));
  const double values[4][3] = {{1, 2, 0}, {6, 7, 0}, {3, 4, 5}, {8, 9, 10}};
  const index_t cols[4][3] = {
      {0, 3, 0}, {1, 2, 2}, {0, 1, 2}, {0, 2, 3}};  // thesis: 1 4 1 / 2 3 3 / 1 2 3 / 1 3 4
  for (int i = 0; i < 4; ++i)
    for (int k = 0; k < 3; ++k) {
      EXPECT_EQ(e.val[e.at(i, k)], values[i][k]) << i << "," << k;
      EXPECT_EQ(e.col[e.at(i, k)], cols[i][k]) << i << "," << k;  // padding: the row's own index
    }
  EXPECT_EQ(e.val, (V{1, 6, 3, 8, 2, 7, 4, 9, 0, 0, 5, 10}));  // column-major
  const Storage s = storage(e);
  EXPECT_EQ(s.slots, 12);
  EXPECT_EQ(s.zero_slots, 2);
  EXPECT_EQ(s.index_bytes, (12 + 4) * 4);
  EXPECT_EQ(multiply(e, V{1, 2, 3, 4}), multiply(a, V{1, 2, 3, 4}));
}

TEST(SparseThesisExamples, Fig26Bell2x2) {
  const Bcsr<double> b = to_bcsr(from_dense(4, 6, kFig21), {2, 2, BlockLayout::row_major});
  for (BellIndex index : {BellIndex::scalar_row, BellIndex::block_row}) {
    const Bell<double> e = to_bell(b, {index, 1});
    validate(e);
    ASSERT_EQ(e.width, 2);
    ASSERT_EQ(e.stored_block_rows, 2);
    // Blocks (row-major as in the figure): 1 0 0 3 | 0 2 4 5 // 6 7 8 9 | 0 0 0 0.
    const double blocks[2][2][4] = {{{1, 0, 0, 3}, {0, 2, 4, 5}}, {{6, 7, 8, 9}, {0, 0, 0, 0}}};
    for (int br = 0; br < 2; ++br)
      for (int k = 0; k < 2; ++k)
        for (int i = 0; i < 2; ++i)
          for (int j = 0; j < 2; ++j) EXPECT_EQ(e.val[e.at(br, k, i, j)], blocks[br][k][i * 2 + j]);
    // Block column index (thesis, 1-based: 1 2 / 3 0). The padding block's
    // index is 0 in the thesis (invalid); ours is valid: the block row's own
    // index (1).
    EXPECT_EQ(e.block_col(0, 0), 0);
    EXPECT_EQ(e.block_col(0, 1), 1);
    EXPECT_EQ(e.block_col(1, 0), 2);
    EXPECT_EQ(e.block_col(1, 1), 1);
    if (index == BellIndex::scalar_row)
      EXPECT_EQ(e.col, (I{0, 0, 4, 4, 2, 2, 2, 2}));  // first scalar column per row
    else
      EXPECT_EQ(e.col, (I{0, 2, 1, 1}));
    const Storage s = storage(e);
    EXPECT_EQ(s.slots, 16);
    EXPECT_EQ(s.zero_slots, 7);
    // Column-major over the whole matrix: in-block column 0 of slot 0 first.
    EXPECT_EQ((V(e.val.begin(), e.val.begin() + 4)), (V{1, 0, 6, 8}));
  }
}

/// TRACE's modified BCSR by hand: 6 block rows of 2x2 blocks, rows 0, 2, 3
/// and 5 are ghosts (placeholders), rows 1 and 4 are real.
GappedBcsr<double> hand_gapped() {
  GappedBcsr<double> g;
  g.rows = g.cols = 12;
  g.block = {2, 2, BlockLayout::row_major};
  g.row_ptr = {kGhostRow, 0, kGhostRow, kGhostRow, 2, kGhostRow, 3};
  g.col = {1, 4, 4};
  g.val = {1, 2, 0, 3, /**/ 4, 0, 5, 6, /**/ 7, 8, 9, 0};
  return g;
}

TEST(SparseThesisExamples, GappedBcsrWhileLoopAndCompressedForm) {
  const GappedBcsr<double> g = hand_gapped();
  validate(g);
  const V x = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  std::vector<double> y(12, -99);  // ghost rows must be overwritten with 0
  spmv<double, double>(g, x, y);
  // Row 2: 1*3 + 2*4 + 4*9 + 0*10 = 47; row 3: 0*3 + 3*4 + 5*9 + 6*10 = 117;
  // row 8: 7*9 + 8*10 = 143; row 9: 9*9 = 81.
  EXPECT_EQ(y, (V{0, 0, 47, 117, 0, 0, 0, 0, 143, 81, 0, 0}));
  const Bcsr<double> c = to_bcsr(g);
  validate(c);
  EXPECT_EQ(c.row_ptr, (I{0, 2, 3}));     // compressed row pointer
  EXPECT_EQ(c.block_row_map, (I{1, 4}));  // block row index
  EXPECT_EQ(multiply(c, x), y);
  const GappedBcsr<double> back = to_gapped(c);
  EXPECT_EQ(back.row_ptr, g.row_ptr);
  // The thesis's BCSR -> ELL: blocks dissolved, in-block zeros dropped, only
  // stored rows kept, a row index for the result scatter, width a multiple of L.
  const Ell<double> e = to_ell(to_csr(c, Zeros::drop), {4, false, true});
  EXPECT_EQ(e.row_map, (I{2, 3, 8, 9}));
  EXPECT_EQ(e.width, 4);
  EXPECT_EQ(storage(e).nonzeros(), 9);
  EXPECT_EQ(multiply(e, x), y);
  const Bell<double> b = to_bell(c);
  EXPECT_EQ(b.block_row_map, (I{1, 4}));
  EXPECT_EQ(multiply(b, x), y);
  // Storage: 3 blocks of 4, 3 of them zeros; row_ptr holds one entry per block row.
  const Storage s = storage(g);
  EXPECT_EQ(s.slots, 12);
  EXPECT_EQ(s.zero_slots, 3);
  EXPECT_EQ(s.index_bytes, (7 + 3) * 4);
  EXPECT_EQ(storage(c).index_bytes, (3 + 2 + 3) * 4);
}

TEST(SparseThesisExamples, InvalidGappedMatrixIsRejected) {
  GappedBcsr<double> g = hand_gapped();
  g.row_ptr.back() = 2;  // must be the block count
  EXPECT_THROW(validate(g), Error);
  g = hand_gapped();
  g.col[1] = 0;  // not ascending within block row 1
  EXPECT_THROW(validate(g), Error);
}

}  // namespace
}  // namespace tessera::sparse
