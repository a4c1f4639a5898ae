// The memory-hierarchy kernels (dense/matmul.hpp) on every device: every
// vector-add and matrix-product variant against references computed here,
// float and double, odd and non-square shapes, random inputs, outputs poisoned
// with NaN so that an element a kernel forgets to write fails.
//
// Tolerances:
//  - vector add is exact (one IEEE addition, the same on every backend).
//  - matmul, all variants: |C_ij - R_ij| <= 2 k eps (|A||B|)_ij, where R is
//    accumulated in double. Any summation order of k products (fused or not)
//    is within gamma_k (|A||B|)_ij of the exact product, gamma_k = k u/(1 - k u)
//    ~ k eps/2 (Higham, Accuracy and Stability, sec. 3.5); the double reference
//    adds at most the same in its own eps, so c = 2 leaves a margin of 2 for T
//    = float and covers both errors for T = double.
//  - matmul, all variants but vendor: bitwise equal to one fused accumulator
//    per element, p ascending (the order matmul_point.h prescribes), checked
//    on every element of small products and on the edges plus a random sample
//    of large ones (the sequential fma reference is slow on the host).
// Large shapes (1023 in float, 1000 in double) run once per precision, so the
// file stays fast on PoCL with two cores.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include <fmt/format.h>

#include "core/buffer.hpp"
#include "dense/matmul.hpp"
#include "test_support.hpp"

namespace tessera {
namespace {

using dense::MatmulVariant;
using dense::VecAddVariant;

constexpr MatmulVariant kMatmulVariants[] = {MatmulVariant::naive, MatmulVariant::tiled,
                                             MatmulVariant::register_blocked,
                                             MatmulVariant::vendor};
constexpr VecAddVariant kVecAddVariants[] = {VecAddVariant::global, VecAddVariant::local_static,
                                             VecAddVariant::local_dynamic};

struct Shape {
  std::size_t m, k, n;
};

// Small shapes: scalars, k = 1, the 7x33 * 33x5 of the issue, and shapes that
// straddle every blocking boundary (16-tiles, 128-blocks, 8-slices), with k
// and n multiples of 4 (16-byte path) and not (element path).
const Shape kSmallShapes[] = {{1, 1, 1},      {7, 33, 5},    {33, 7, 33},
                              {17, 1, 19},    {1, 1000, 1},  {100, 20, 136},
                              {65, 130, 129}, {130, 9, 257}, {129, 16, 128}};

// A product with its inputs, the double reference and sum |A||B| per element.
template <class T>
struct Problem {
  Shape s;
  std::vector<T> A, B;
  std::vector<double> ref, mag;

  Problem(Shape shape, std::uint64_t seed) : s(shape) {
    A = test::random_vector<T>(s.m * s.k, seed);
    B = test::random_vector<T>(s.k * s.n, seed + 1);
    ref.assign(s.m * s.n, 0.0);
    mag.assign(s.m * s.n, 0.0);
    const auto m = static_cast<std::ptrdiff_t>(s.m);
#pragma omp parallel for schedule(static)
    for (std::ptrdiff_t i = 0; i < m; ++i)
      for (std::size_t p = 0; p < s.k; ++p) {
        const double a = A[i * s.k + p];
        for (std::size_t j = 0; j < s.n; ++j) {
          const double b = B[p * s.n + j];
          ref[i * s.n + j] += a * b;
          mag[i * s.n + j] += std::fabs(a) * std::fabs(b);
        }
      }
  }

  // One fused accumulator, p ascending: what every variant but vendor computes.
  T canonical(std::size_t i, std::size_t j) const {
    T acc = T(0);
    for (std::size_t p = 0; p < s.k; ++p) acc = std::fma(A[i * s.k + p], B[p * s.n + j], acc);
    return acc;
  }
};

class MatmulTest : public ::testing::TestWithParam<std::string> {
 protected:
  std::shared_ptr<Device> dev = open_device(GetParam());

  template <class T>
  Buffer<T> upload(const std::vector<T>& h) {
    Buffer<T> b(dev, h.size());
    b.copy_from_host(h);
    return b;
  }

  template <class T>
  void check_product(const Problem<T>& P, MatmulVariant v);
  template <class T>
  void run_shapes(const Shape* shapes, std::size_t count, std::uint64_t seed);
  template <class T>
  void run_vector_add();
};

template <class T>
void MatmulTest::check_product(const Problem<T>& P, MatmulVariant v) {
  const Shape s = P.s;
  SCOPED_TRACE(fmt::format("{} x {} x {}, {}", s.m, s.k, s.n, dense::to_string(v)));
  auto A = upload(P.A), B = upload(P.B);
  auto C = upload(std::vector<T>(s.m * s.n, test::poison<T>()));
  dense::matmul(A, B, C, s.m, s.k, s.n, v);
  const auto got = C.to_vector();

  const double tol = 2.0 * double(s.k) * double(std::numeric_limits<T>::epsilon());
  std::size_t bad = 0;
  for (std::size_t e = 0; e < got.size(); ++e) {
    const double err = std::fabs(double(got[e]) - P.ref[e]);
    if (!(err <= tol * P.mag[e]) && bad++ < 5)  // NaN (unwritten) fails too
      ADD_FAILURE() << "C(" << e / s.n << ", " << e % s.n << ") = " << got[e] << ", reference "
                    << P.ref[e] << ", error " << err << " > bound " << tol * P.mag[e];
  }
  EXPECT_EQ(bad, 0u) << "elements outside the error bound";
  if (v == MatmulVariant::vendor) return;

  // Bitwise: every element of small products; edges and a sample of large ones.
  std::vector<std::pair<std::size_t, std::size_t>> at;
  if (s.m * s.n * s.k <= (std::size_t(1) << 22)) {
    for (std::size_t i = 0; i < s.m; ++i)
      for (std::size_t j = 0; j < s.n; ++j) at.emplace_back(i, j);
  } else {
    for (std::size_t i = 0; i < s.m; ++i) at.insert(at.end(), {{i, 0}, {i, s.n - 1}});
    for (std::size_t j = 0; j < s.n; ++j) at.insert(at.end(), {{0, j}, {s.m - 1, j}});
    std::mt19937_64 rng(7);
    for (int r = 0; r < 2000; ++r) at.emplace_back(rng() % s.m, rng() % s.n);
  }
  bad = 0;
  for (auto [i, j] : at) {
    const T want = P.canonical(i, j), have = got[i * s.n + j];
    if (std::memcmp(&want, &have, sizeof(T)) != 0 && !(want == 0 && have == 0) && bad++ < 5)
      ADD_FAILURE() << "C(" << i << ", " << j << ") = " << have << " differs from the canonical "
                    << want << " by " << (double(have) - double(want));
  }
  EXPECT_EQ(bad, 0u) << "elements not bitwise equal to the canonical accumulation";
}

template <class T>
void MatmulTest::run_shapes(const Shape* shapes, std::size_t count, std::uint64_t seed) {
  for (std::size_t c = 0; c < count; ++c) {
    const Problem<T> P(shapes[c], seed + 10 * c);
    for (MatmulVariant v : kMatmulVariants)
      if (dense::matmul_available(v, *dev)) check_product(P, v);
  }
}

TEST_P(MatmulTest, SmallShapesFloat) {
  run_shapes<float>(kSmallShapes, std::size(kSmallShapes), 100);
}
TEST_P(MatmulTest, SmallShapesDouble) {
  run_shapes<double>(kSmallShapes, std::size(kSmallShapes), 200);
}
// Odd-sized square (no dimension a multiple of any block; element-wise path).
TEST_P(MatmulTest, Square1023Float) {
  const Shape s{1023, 1023, 1023};
  run_shapes<float>(&s, 1, 300);
}
// Even-sized square whose k and n allow the 16-byte path, with partial blocks.
TEST_P(MatmulTest, Square1000Double) {
  const Shape s{1000, 1000, 1000};
  run_shapes<double>(&s, 1, 400);
}

TEST_P(MatmulTest, EmptySumGivesZeroAndEmptyShapesDoNothing) {
  Buffer<float> A(dev, 0), B(dev, 0);
  auto C = upload(std::vector<float>(6, test::poison<float>()));
  dense::matmul(A, B, C, 2, 0, 3, MatmulVariant::tiled);
  for (float x : C.to_vector()) EXPECT_EQ(x, 0.0f);
  Buffer<float> E(dev, 0), F(dev, 0);
  auto B5 = upload(std::vector<float>(5, 1.0f));
  EXPECT_NO_THROW(dense::matmul(E, B5, F, 0, 1, 5, MatmulVariant::naive));
}

TEST_P(MatmulTest, BadInputIsAnError) {
  Buffer<float> A(dev, 6), B(dev, 12), C(dev, 8);  // 2x3 * 3x4 = 2x4
  A.copy_from_host(std::vector<float>(6, 0.5f));   // defined inputs (compute-sanitizer initcheck)
  B.copy_from_host(std::vector<float>(12, 2.0f));
  EXPECT_NO_THROW(dense::matmul(A, B, C, 2, 3, 4, MatmulVariant::naive));
  try {
    dense::matmul(A, B, C, 3, 3, 4, MatmulVariant::naive);  // A is not 3x3
    FAIL() << "no error for a wrong m";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("A holds 6 elements"), std::string::npos) << e.what();
  }
  EXPECT_THROW(dense::matmul(A, B, C, 2, 3, 5, MatmulVariant::tiled), Error);  // B, C: n
  EXPECT_THROW(dense::matmul(A, B, C, 2, 2, 4, MatmulVariant::tiled), Error);  // A, B: k
  Buffer<float> S(dev, 4);                                                     // 2x2
  try {
    dense::matmul(S, S, S, 2, 2, 2, MatmulVariant::naive);
    FAIL() << "no error for C aliasing A";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("distinct"), std::string::npos) << e.what();
  }
  EXPECT_THROW(dense::matmul(A, B, C, std::size_t(1) << 62, 8, 4, MatmulVariant::naive), Error);
  if (!dense::matmul_available(MatmulVariant::vendor, *dev)) {
    EXPECT_THROW(dense::matmul(A, B, C, 2, 3, 4, MatmulVariant::vendor), UsageError);
  }
  if (dev->id() != "cpu") {
    Buffer<float> Ccpu(open_device("cpu"), 8);
    EXPECT_THROW(dense::matmul(A, B, Ccpu, 2, 3, 4, MatmulVariant::naive), Error);
  }
  Buffer<double> x(dev, 10), y(dev, 11), z(dev, 10);
  EXPECT_THROW(dense::vector_add(x, y, z), Error);
  EXPECT_THROW(dense::vector_add(y, x, z, VecAddVariant::local_dynamic), Error);
}

template <class T>
void MatmulTest::run_vector_add() {
  for (std::size_t n : {1, 7, 33, 255, 256, 257, 1000, 1023, 100003}) {
    auto ha = test::random_vector<T>(n, 1 + n), hb = test::random_vector<T>(n, 2 + n);
    auto a = upload(ha), b = upload(hb);
    for (VecAddVariant v : kVecAddVariants) {
      SCOPED_TRACE(fmt::format("n = {}, {}", n, dense::to_string(v)));
      auto c = upload(std::vector<T>(n, test::poison<T>()));
      dense::vector_add(a, b, c, v);
      const auto got = c.to_vector();
      std::size_t bad = 0;
      for (std::size_t i = 0; i < n; ++i)
        if (!(got[i] == ha[i] + hb[i]) && bad++ < 5)
          ADD_FAILURE() << "c[" << i << "] = " << got[i] << ", expected " << ha[i] + hb[i];
      EXPECT_EQ(bad, 0u);
    }
  }
}

TEST_P(MatmulTest, VectorAddFloat) { run_vector_add<float>(); }
TEST_P(MatmulTest, VectorAddDouble) { run_vector_add<double>(); }

INSTANTIATE_TEST_SUITE_P(AllDevices, MatmulTest, ::testing::ValuesIn(test::device_ids()),
                         test::id_name);

}  // namespace
}  // namespace tessera
