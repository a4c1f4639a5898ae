// Every dense operation on every device against the CPU sequential reference,
// float and double, odd sizes, random inputs, poisoned outputs.
//
// Tolerances: element-wise operations are exact (same IEEE operations, FP
// contraction off on every backend). Canonical-order reductions are bitwise
// identical to the sequential canonical reference. Device-order reductions
// must be within 64·eps·Σ|term_i| of a long-double sum (a forward error bound
// for any summation order with n ≤ 2^26 and tree depth ≤ 26, with margin).
#include <gtest/gtest.h>

#include <cmath>

#include "core/buffer.hpp"
#include "dense/dense.hpp"
#include "dense/kernels/dense_kernels.hpp"
#include "test_support.hpp"

namespace tessera {
namespace {

const std::size_t kSizes[] = {1, 2, 7, 33, 1000, 1023, 4096, 4097, 100003};

class DenseTest : public ::testing::TestWithParam<std::string> {
 protected:
  std::shared_ptr<Device> dev = open_device(GetParam());

  template <class T>
  Buffer<T> upload(const std::vector<T>& h) {
    Buffer<T> b(dev, h.size());
    b.copy_from_host(h);
    return b;
  }
  template <class T>
  Buffer<T> poisoned(std::size_t n) {
    return upload(std::vector<T>(n, test::poison<T>()));
  }
  template <class T>
  void run_elementwise();
  template <class T>
  void run_reductions();
};

// Reference folds in the canonical order (core/kernels/portable.h), written
// independently of the library's CPU backend.
template <class T, class Term, class Comb>
T canonical_reference(const std::vector<T>& x, const std::vector<T>& y, Term term, Comb comb,
                      T id) {
  std::vector<T> level;
  const std::size_t chunk = 256 * 16;
  auto fold = [&](std::size_t n, auto load) {
    std::vector<T> out;
    for (std::size_t b = 0; b < n; b += chunk) {
      T s[256];
      for (std::size_t t = 0; t < 256; ++t) {
        T acc = id;
        for (std::size_t k = 0; k < 16; ++k)
          if (b + k * 256 + t < n) acc = comb(acc, load(b + k * 256 + t));
        s[t] = acc;
      }
      for (std::size_t h = 128; h > 0; h /= 2)
        for (std::size_t t = 0; t < h; ++t) s[t] = comb(s[t], s[t + h]);
      out.push_back(s[0]);
    }
    return out;
  };
  level = fold(x.size(), [&](std::size_t i) { return term(x[i], y[i]); });
  while (level.size() > 1) {
    auto prev = level;
    level = fold(prev.size(), [&](std::size_t i) { return prev[i]; });
  }
  return level[0];
}

template <class T>
void DenseTest::run_elementwise() {
  for (std::size_t n : kSizes) {
    SCOPED_TRACE("n = " + std::to_string(n));
    auto hx = test::random_vector<T>(n, 1 + n), hz = test::random_vector<T>(n, 2 + n);
    const T s = T(0.7390851332151607);
    auto x = upload(hx), z = upload(hz);
    auto check = [&](const Buffer<T>& got, auto expect) {
      auto g = got.to_vector();
      for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(g[i], expect(i)) << "element " << i;
    };
    {
      auto y = poisoned<T>(n);
      dense::fill(y, s);
      check(y, [&](std::size_t) { return s; });
    }
    {
      auto y = poisoned<T>(n);
      dense::copy(x, y);
      check(y, [&](std::size_t i) { return hx[i]; });
    }
    {
      auto y = upload(hx);
      dense::scale(s, y);
      check(y, [&](std::size_t i) { return s * hx[i]; });
    }
    {
      auto y = upload(hz);
      dense::axpy(s, x, y);
      check(y, [&](std::size_t i) { return s * hx[i] + hz[i]; });
    }
    {
      auto y = poisoned<T>(n);
      dense::stream_scale(s, x, y);
      check(y, [&](std::size_t i) { return s * hx[i]; });
    }
    {
      auto y = poisoned<T>(n);
      dense::stream_add(x, z, y);
      check(y, [&](std::size_t i) { return hx[i] + hz[i]; });
    }
    {
      auto y = poisoned<T>(n);
      dense::stream_triad(s, x, z, y);
      check(y, [&](std::size_t i) { return hx[i] + s * hz[i]; });
    }
  }
}

template <class T>
void DenseTest::run_reductions() {
  const T eps = std::numeric_limits<T>::epsilon();
  for (std::size_t n : kSizes) {
    SCOPED_TRACE("n = " + std::to_string(n));
    auto hx = test::random_vector<T>(n, 10 + n), hy = test::random_vector<T>(n, 20 + n);
    auto x = upload(hx), y = upload(hy);
    auto mul = [](T a, T b) { return a * b; };
    auto sq = [](T a, T) { return a * a; };
    auto val = [](T a, T) { return a; };
    auto add = [](T a, T b) { return a + b; };
    auto mn = [](T a, T b) { return std::fmin(a, b); };
    auto mx = [](T a, T b) { return std::fmax(a, b); };
    const T inf = std::numeric_limits<T>::infinity();

    // canonical order: bitwise equal to the reference
    EXPECT_EQ(dense::dot(x, y), canonical_reference(hx, hy, mul, add, T(0)));
    EXPECT_EQ(dense::sum(x), canonical_reference(hx, hx, val, add, T(0)));
    EXPECT_EQ(dense::nrm2(x), std::sqrt(canonical_reference(hx, hx, sq, add, T(0))));
    EXPECT_EQ(dense::min(x), canonical_reference(hx, hx, val, mn, inf));
    EXPECT_EQ(dense::max(x), canonical_reference(hx, hx, val, mx, -inf));

    // device order: within the stated bound of an extended-precision sum
    long double exact = 0, mag = 0, exact_sum = 0, mag_sum = 0;
    for (std::size_t i = 0; i < n; ++i) {
      exact += (long double)hx[i] * hy[i];
      mag += std::fabs((long double)hx[i] * hy[i]);
      exact_sum += hx[i];
      mag_sum += std::fabs((long double)hx[i]);
    }
    const auto dev_order = dense::ReduceOrder::device;
    EXPECT_NEAR((long double)dense::dot(x, y, dev_order), exact, 64 * eps * mag);
    EXPECT_NEAR((long double)dense::sum(x, dev_order), exact_sum, 64 * eps * mag_sum);
    EXPECT_EQ(dense::min(x, dev_order), *std::min_element(hx.begin(), hx.end()));
    EXPECT_EQ(dense::max(x, dev_order), *std::max_element(hx.begin(), hx.end()));
    // and the canonical results themselves satisfy the same bound
    EXPECT_NEAR((long double)dense::dot(x, y), exact, 64 * eps * mag);
  }
}

TEST_P(DenseTest, ElementwiseFloat) { run_elementwise<float>(); }
TEST_P(DenseTest, ElementwiseDouble) { run_elementwise<double>(); }
TEST_P(DenseTest, ReductionsFloat) { run_reductions<float>(); }
TEST_P(DenseTest, ReductionsDouble) { run_reductions<double>(); }

TEST_P(DenseTest, ThreeLevelCanonicalReduction) {
  // More than 4096^2 elements: three levels of partials.
  const std::size_t n = 4096 * 4096 + 4099;
  std::vector<float> h(n);
  for (std::size_t i = 0; i < n; ++i) h[i] = float((i * 2654435761u) % 1000) * 1e-3f - 0.5f;
  auto x = upload(h);
  auto val = [](float a, float) { return a; };
  auto add = [](float a, float b) { return a + b; };
  EXPECT_EQ(dense::sum(x), canonical_reference(h, h, val, add, 0.0f));
}

TEST_P(DenseTest, EmptyReductionsGiveIdentities) {
  Buffer<double> e(dev, 0);
  EXPECT_EQ(dense::sum(e), 0.0);
  EXPECT_EQ(dense::dot(e, e), 0.0);
  EXPECT_EQ(dense::min(e), std::numeric_limits<double>::infinity());
  EXPECT_EQ(dense::max(e), -std::numeric_limits<double>::infinity());
}

TEST_P(DenseTest, MismatchedOperandsAreErrors) {
  Buffer<float> a(dev, 10), b(dev, 11);
  EXPECT_THROW(dense::axpy(1.0f, a, b), Error);
  EXPECT_THROW(dense::dot(a, b), Error);
  auto cpu = open_device("cpu");
  if (dev->id() != "cpu") {
    Buffer<float> c(cpu, 10);
    EXPECT_THROW(dense::copy(a, c), Error);
  }
}

TEST_P(DenseTest, ReducerReuseAndCapacity) {
  dense::Reducer<double> r(dev, 5000);
  auto h = test::random_vector<double>(5000, 77);
  auto x = upload(h);
  double first = r.sum(x);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(r.sum(x), first);
  Buffer<double> big(dev, 5001);
  EXPECT_THROW(r.sum(big), Error);
}

// Arrays given as a device allocation from an offset (launch::In / Out, as
// mg's streamed tiles are): y[oy + i] = 3 x[ox + i] for i < m, every other
// element of y untouched. Offsets of whole 16-byte packs (the element-wise
// kernel moves packs on GPUs); m odd, so the tail path runs too. Exact
// equality: one product, rounded once, on every backend and on the host.
TEST_P(DenseTest, ArraysFromAnOffsetAreReadAndWrittenThere) {
  const std::size_t n = 1003, m = 517, ox = 36, oy = 100;
  const std::vector<float> hx = test::random_vector<float>(n, 5);
  auto x = upload(hx);
  auto y = poisoned<float>(n);
  const std::size_t pw = launch::pack_width<float>(*dev);  // elements per item
  dispatch(*dev, [&](auto tag) {
    dense::kernels::ew<float>(
        tag, dev->queue(), m / pw + m % pw, ts_ew_params<float>{m, 3.0f, TS_EW_SCALE},
        launch::In<float>(*dev, x.handle(), ox), launch::In<float>(*dev, x.handle(), ox),
        launch::Out<float>(*dev, y.handle(), oy));
  });
  const std::vector<float> hy = y.to_vector();
  for (std::size_t i = 0; i < n; ++i) {
    if (i >= oy && i < oy + m)
      ASSERT_EQ(hy[i], 3.0f * hx[ox + i - oy]) << "element " << i;
    else
      ASSERT_TRUE(std::isnan(hy[i])) << "element " << i << " outside the view was written";
  }
}

// A kernel compiled per variant refuses a variant it was not compiled for,
// on every backend whose launcher the list generates (OpenCL and CUDA; the
// CPU's launchers of group kernels are loops without variants).
TEST(LaunchGuard, AVariantNotCompiledIsRefused) {
  int checked = 0;
  for (const std::string& id : test::device_ids()) {
    auto dev = open_device(id);
    if (dev->backend() == Backend::cpu) continue;
    Buffer<double> x(dev, 4), out(dev, 4);
    try {
      dispatch(*dev, [&](auto tag) {
        dense::kernels::reduce_chunks<double>(tag, dev->queue(), {1, 0, 0, 3},
                                              ts_fold_params<double>{4, TS_TERM_DOT, 0}, x, x, out);
      });
      FAIL() << id << ": no error";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("variant 3"), std::string::npos) << e.what();
    }
    ++checked;
  }
  if (test::device_ids().size() > 1) {
    EXPECT_GT(checked, 0);
  }
}

// The one launcher (core/launch) refuses a launch whose buffers live on two
// devices, before any work, naming both (two CPU devices: two Device objects).
TEST(LaunchGuard, BuffersOnTwoDevicesAreRefused) {
  auto a = open_device("cpu"), b = open_device("cpu");
  ASSERT_NE(a.get(), b.get());
  Buffer<float> x(a, 8), y(b, 8);
  y.copy_from_host(std::vector<float>(8, 5.0f));
  try {
    dense::kernels::ew<float>(CpuTag{}, b->queue(), 8, ts_ew_params<float>{8, 2.0f, TS_EW_SCALE}, x,
                              y, y);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("buffers on different devices"), std::string::npos)
        << e.what();
  }
  EXPECT_EQ(y.to_vector(), std::vector<float>(8, 5.0f));  // nothing written
}

INSTANTIATE_TEST_SUITE_P(AllDevices, DenseTest, ::testing::ValuesIn(test::device_ids()),
                         test::id_name);

}  // namespace
}  // namespace tessera
