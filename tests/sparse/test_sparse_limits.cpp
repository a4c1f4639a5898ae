// Size limits and option checks: 32-bit indices never overflow silently, bad
// options are refused, HYB's automatic width.
#include <gtest/gtest.h>

#include "core/error.hpp"
#include "sparse/convert.hpp"
#include "sparse/storage.hpp"
#include "tests/sparse/sparse_test_util.hpp"

namespace tessera::sparse {
namespace {

TEST(SparseLimits, IndexConversionIsChecked) {
  EXPECT_EQ(to_index(kMaxIndex, "n"), kMaxIndex);
  EXPECT_THROW(to_index(kMaxIndex + 1, "n"), Error);
  EXPECT_THROW(to_index(-1, "n"), Error);
  EXPECT_THROW(checked_mul(size64{1} << 40, size64{1} << 40, "n"), Error);
  EXPECT_EQ(checked_mul(3, 4, "n"), 12);
  try {
    to_index(size64{1} << 33, "ELL slots");
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("ELL slots (8589934592) exceeds the 32-bit index range"),
              std::string::npos)
        << e.what();
  }
}

TEST(SparseLimits, PaddedFormatsRefuseMoreThan32BitPositions) {
  // 2^20 rows, one of them with 4096 entries: ELL would need 2^32 slots.
  Csr<float> a;
  a.rows = size64{1} << 20;
  a.cols = 4096;
  a.row_ptr.assign(static_cast<std::size_t>(a.rows) + 1, 4096);
  a.row_ptr[0] = 0;
  for (index_t j = 0; j < 4096; ++j) {
    a.col.push_back(j);
    a.val.push_back(1.0f);
  }
  EXPECT_THROW(to_ell(a), Error);
  EXPECT_THROW(to_bell(to_bcsr(a, {1, 1})), Error);
  EXPECT_THROW(to_dia(a), Error);        // 4096 diagonals x 2^20 rows
  EXPECT_NO_THROW(to_sell(a, {32, 1}));  // SELL pads only the first slice
  EXPECT_NO_THROW(to_hyb(a));            // HYB puts the long row into COO
}

TEST(SparseLimits, DiaSlotLimit) {
  const Csr<double> a = to_csr(test::random_coo<double>(50, 50, 0.3, 1));
  EXPECT_THROW(to_dia(a, {100}), Error);
  EXPECT_NO_THROW(to_dia(a, {50 * 99}));
}

TEST(SparseLimits, BadOptionsAreRefused) {
  const Csr<double> a = to_csr(test::random_coo<double>(10, 10, 0.3, 2));
  EXPECT_THROW(to_ell(a, {0}), Error);
  EXPECT_THROW(to_sell(a, {0, 1}), Error);
  EXPECT_THROW(to_sell(a, {4, 0}), Error);
  EXPECT_THROW(to_bcsr(a, {0, 5}), Error);
  EXPECT_THROW(to_bell(to_bcsr(a, {2, 2}), {BellIndex::scalar_row, 0}), Error);
}

TEST(SparseLimits, HybChoosesTheWidthWithFewestBytes) {
  Coo<double> c;
  c.rows = 100;
  c.cols = 200;
  for (size64 i = 0; i < 100; ++i)
    for (size64 j = 0; j < 3; ++j) test::add(c, i, (i + j * 7) % 200, 1.0);
  for (size64 j = 100; j < 200; ++j) test::add(c, 5, j, 2.0);  // one long row
  const Csr<double> a = to_csr(c);
  const Hyb<double> h = to_hyb(a);
  EXPECT_EQ(h.ell.width, 3);
  EXPECT_EQ(h.coo.nnz(), 100);
  const Storage s = storage(h);
  EXPECT_EQ(s.slots, 400);
  EXPECT_EQ(s.zero_slots, 0);
  EXPECT_LT(s.total_bytes(), storage(to_ell(a)).total_bytes());
}

}  // namespace
}  // namespace tessera::sparse
