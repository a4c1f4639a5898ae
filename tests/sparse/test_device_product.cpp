// The device's sparse product C = A B (sparse/device_product.hpp) on every
// device and value type: bit for bit the host's sparse::multiply (the same
// order of every sum), in one batch and in batches of a few rows, with
// empty rows, rows long enough for hash collisions, exact cancellations and
// negative zeros.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "core/error.hpp"
#include "sparse/device_product.hpp"
#include "sparse/product.hpp"
#include "sparse_test_util.hpp"
#include "test_support.hpp"

namespace tessera::sparse {
namespace {

class DeviceProduct : public ::testing::TestWithParam<std::string> {
 protected:
  /// The device's C = A B in batches of `batch` products (0: the default)
  /// against the host's, bit for bit.
  template <Scalar T>
  static void same_as_host(const std::shared_ptr<Device>& dev, const Csr<T>& a, const Csr<T>& b,
                           std::size_t batch) {
    const Csr<T> want = multiply(a, b);
    const Csr<T> got = multiply(dev, a, b, batch);
    ASSERT_EQ(got.rows, want.rows);
    ASSERT_EQ(got.cols, want.cols);
    ASSERT_EQ(got.row_ptr, want.row_ptr);
    ASSERT_EQ(got.col, want.col);
    ASSERT_EQ(got.val.size(), want.val.size());
    for (std::size_t k = 0; k < got.val.size(); ++k)
      ASSERT_EQ(std::memcmp(&got.val[k], &want.val[k], sizeof(T)), 0) << "entry " << k;
  }

  template <Scalar T>
  void random_products() {
    auto dev = open_device(GetParam());
    if (!dev->info().fp64 && std::is_same_v<real_t<T>, double>) GTEST_SKIP() << "no FP64";
    // non-integer values: the sums round, so only the same order gives the
    // same bits; every 7th row of A empty; B's rows up to ~60 entries, so a
    // row of C meets hundreds of products (collisions in its table)
    const Csr<T> a = to_csr(test::random_coo<T>(97, 61, 0.08, 11, 7, false));
    const Csr<T> b = to_csr(test::random_coo<T>(61, 523, 0.11, 12, 0, false));
    same_as_host(dev, a, b, 0);
    same_as_host(dev, a, b, 40);    // a row (~290 products) alone in each batch
    same_as_host(dev, a, b, 1000);  // about three rows a batch
    const Csr<T> g = to_csr(test::random_coo<T>(200, 200, 0.02, 13, 5, false));
    same_as_host(dev, g, g, 0);
    same_as_host(dev, g, g, 50);  // several rows a batch (about 16 products a row)
  }
};

TEST_P(DeviceProduct, RandomFloat) { random_products<float>(); }
TEST_P(DeviceProduct, RandomDouble) { random_products<double>(); }
TEST_P(DeviceProduct, RandomComplexFloat) { random_products<std::complex<float>>(); }
TEST_P(DeviceProduct, RandomComplexDouble) { random_products<std::complex<double>>(); }

// -0: row 0's one product -0 * 1 stays -0 (+0 + -0 would be +0); row 1 is
// empty; row 2's 1 * 1 + (-1) * 1 cancels to +0 in column 2 and is kept.
TEST_P(DeviceProduct, NegativeZeroAndCancellationAsTheHost) {
  auto dev = open_device(GetParam());
  if (!dev->info().fp64) GTEST_SKIP() << "no FP64";
  Coo<double> ca, cb;
  ca.rows = 3;
  ca.cols = 2;
  test::add(ca, 0, 0, -0.0);
  test::add(ca, 2, 0, 1.0);
  test::add(ca, 2, 1, -1.0);
  cb.rows = 2;
  cb.cols = 3;
  test::add(cb, 0, 2, 1.0);
  test::add(cb, 1, 0, 1.0);
  test::add(cb, 1, 2, 1.0);
  const Csr<double> a = to_csr(ca), b = to_csr(cb);
  same_as_host(dev, a, b, 0);
  const Csr<double> c = multiply(dev, a, b);
  ASSERT_EQ(c.row_ptr, (std::vector<index_t>{0, 1, 1, 3}));
  EXPECT_TRUE(std::signbit(c.val[0]) && c.val[0] == 0.0);
  EXPECT_EQ(c.col[2], 2);
  EXPECT_EQ(c.val[2], 0.0);
  EXPECT_FALSE(std::signbit(c.val[2]));
}

TEST_P(DeviceProduct, ShapesThatDoNotMatchAreRefused) {
  auto dev = open_device(GetParam());
  if (!dev->info().fp64) GTEST_SKIP() << "no FP64";
  const Csr<double> a = to_csr(test::random_coo<double>(5, 4, 0.5, 1));
  EXPECT_THROW(multiply(dev, a, a), Error);
  Csr<double> empty;
  empty.cols = 4;
  empty.row_ptr = {0};
  const Csr<double> c = multiply(dev, empty, to_csr(test::random_coo<double>(4, 6, 0.5, 2)));
  EXPECT_EQ(c.rows, 0);
  EXPECT_EQ(c.row_ptr, (std::vector<index_t>{0}));
}

INSTANTIATE_TEST_SUITE_P(Devices, DeviceProduct, ::testing::ValuesIn(::tessera::test::device_ids()),
                         ::tessera::test::id_name);

}  // namespace
}  // namespace tessera::sparse
