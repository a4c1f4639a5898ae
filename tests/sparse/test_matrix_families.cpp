// The generated matrix families (sparse/matrix_families.hpp): exact sizes of
// the structured ones (counted by hand from the stencils), the statistics the
// random ones promise, CSR invariants, determinism, and the refusals.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <random>

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
      if (p > a.row_ptr[i]) {
        ASSERT_LT(a.col[p - 1], a.col[p]) << "row " << i;
      }
    }
  }
}

/// a(i, j), 0 where nothing is stored.
double at(const Csr<double>& a, size64 i, size64 j) {
  for (index_t p = a.row_ptr[i]; p < a.row_ptr[i + 1]; ++p)
    if (a.col[p] == j) return a.val[p];
  return 0;
}

/// Whether a(i, j) == a(j, i) exactly for every stored entry (and the
/// pattern is symmetric).
bool exactly_symmetric(const Csr<double>& a) {
  for (size64 i = 0; i < a.rows; ++i)
    for (index_t p = a.row_ptr[i]; p < a.row_ptr[i + 1]; ++p) {
      const index_t j = a.col[p];
      const index_t* first = a.col.data() + a.row_ptr[j];
      const index_t* last = a.col.data() + a.row_ptr[j + 1];
      const index_t* q = std::lower_bound(first, last, static_cast<index_t>(i));
      if (q == last || *q != i || a.val[q - a.col.data()] != a.val[p]) return false;
    }
  return true;
}

std::vector<double> times(const Csr<double>& a, const std::vector<double>& x) {
  std::vector<double> y(static_cast<std::size_t>(a.rows), 0.0);
  for (size64 i = 0; i < a.rows; ++i)
    for (index_t p = a.row_ptr[i]; p < a.row_ptr[i + 1]; ++p) y[i] += a.val[p] * x[a.col[p]];
  return y;
}

/// The smallest x^T A x / x^T x over `tries` random x (uniform in [-1, 1)).
double min_rayleigh(const Csr<double>& a, int tries) {
  std::mt19937_64 engine(7);
  std::uniform_real_distribution<double> u(-1, 1);
  double lowest = 1e300;
  for (int t = 0; t < tries; ++t) {
    std::vector<double> x(static_cast<std::size_t>(a.rows));
    for (double& v : x) v = u(engine);
    const std::vector<double> y = times(a, x);
    double xy = 0, xx = 0;
    for (std::size_t i = 0; i < x.size(); ++i) xy += x[i] * y[i], xx += x[i] * x[i];
    lowest = std::min(lowest, xy / xx);
  }
  return lowest;
}

double row_sum(const Csr<double>& a, size64 i) {
  double s = 0;
  for (index_t p = a.row_ptr[i]; p < a.row_ptr[i + 1]; ++p) s += a.val[p];
  return s;
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

TEST(MatrixFamilies, Aniso2dIsPyAmgsRotatedDiffusionStencil) {
  // eps = 1 at angle 0: the 5-point Laplacian, entry for entry
  const Csr<double> iso = generate_family<double>("aniso2d:9,eps=1");
  const Csr<double> lap = generate_family<double>("stencil2d5:9");
  expect_valid(iso);
  EXPECT_EQ(iso.row_ptr, lap.row_ptr);
  EXPECT_EQ(iso.col, lap.col);
  EXPECT_EQ(iso.val, lap.val);
  // eps = 1 at any angle: still isotropic, the corners (weight 0) not stored
  EXPECT_EQ(generate_family<double>("aniso2d:9,eps=1,angle=30").nnz(), lap.nnz());
  // angle 0: 5 points, -eps along i (stride 1), -1 along j (stride N)
  const Csr<double> a0 = generate_family<double>("aniso2d:8,eps=0.001");
  EXPECT_EQ(a0.nnz(), 5 * 64 - 4 * 8);
  const size64 p = 3 * 8 + 3;
  EXPECT_DOUBLE_EQ(at(a0, p, p), 2.002);
  EXPECT_DOUBLE_EQ(at(a0, p, p + 1), -0.001);
  EXPECT_DOUBLE_EQ(at(a0, p, p - 8), -1.0);
  // 90 degrees swaps the directions (the corners are cos(pi/2) ~ 6e-17 small)
  const Csr<double> a90 = generate_family<double>("aniso2d:8,eps=0.001,angle=90");
  EXPECT_NEAR(at(a90, p, p + 1), -1.0, 1e-15);
  EXPECT_NEAR(at(a90, p, p - 8), -0.001, 1e-15);
  // 30 degrees: 9 points, PyAMG's weights (its docstring's example at
  // eps = 1e-4, theta = pi/6), symmetric, rows summing to 0 inside
  const Csr<double> a30 = generate_family<double>("aniso2d:8,eps=0.0001,angle=30");
  expect_valid(a30);
  EXPECT_EQ(a30.nnz(), (3 * 8 - 2) * (3 * 8 - 2));
  EXPECT_TRUE(exactly_symmetric(a30));
  EXPECT_NEAR(at(a30, p, p), 2.0002, 1e-15);
  EXPECT_NEAR(at(a30, p, p - 8 - 1), -0.2164847, 1e-7);  // dj = -1, di = -1
  EXPECT_NEAR(at(a30, p, p - 8 + 1), 0.2164847, 1e-7);
  EXPECT_NEAR(at(a30, p, p - 8), -0.750025, 1e-7);
  EXPECT_NEAR(at(a30, p, p - 1), -0.250075, 1e-7);
  EXPECT_NEAR(row_sum(a30, p), 0.0, 1e-14);
  EXPECT_GT(min_rayleigh(a30, 20), 0.0);
  EXPECT_GT(min_rayleigh(a0, 20), 0.0);
}

TEST(MatrixFamilies, Convdiff2dIsANonsymmetricUpwindMMatrix) {
  // angle 0, h = 1/10, |w| = 100: h w_x = 10 on the west neighbour
  const Csr<double> a = generate_family<double>("convdiff2d:9,peclet=100,angle=0");
  expect_valid(a);
  EXPECT_EQ(a.nnz(), 5 * 81 - 4 * 9);
  const size64 p = 4 * 9 + 4;
  EXPECT_DOUBLE_EQ(at(a, p, p), 14.0);
  EXPECT_DOUBLE_EQ(at(a, p, p - 1), -11.0);
  EXPECT_DOUBLE_EQ(at(a, p, p + 1), -1.0);
  EXPECT_DOUBLE_EQ(at(a, p, p - 9), -1.0);
  EXPECT_DOUBLE_EQ(at(a, p, p + 9), -1.0);
  // the default (angle 30): upwind in x and y, an M-matrix: positive
  // diagonal, nonpositive off-diagonals, rows summing to 0 inside and more
  // at the boundary; nonsymmetric; x^T A x > 0
  const Csr<double> d = generate_family<double>("convdiff2d:16");
  expect_valid(d);
  EXPECT_FALSE(exactly_symmetric(d));
  for (size64 i = 0; i < d.rows; ++i) {
    for (index_t q = d.row_ptr[i]; q < d.row_ptr[i + 1]; ++q)
      if (d.col[q] == i) {
        EXPECT_GT(d.val[q], 4.0);
      } else {
        EXPECT_LE(d.val[q], 0.0);
      }
    EXPECT_GE(row_sum(d, i), -1e-13) << "row " << i;
  }
  const double h = 1.0 / 17, wx = h * 100 * std::cos(M_PI / 6), wy = h * 100 * std::sin(M_PI / 6);
  const size64 c = 8 * 16 + 8;
  EXPECT_NEAR(row_sum(d, c), 0.0, 1e-13);
  EXPECT_NEAR(at(d, c, c), 4 + wx + wy, 1e-13);
  EXPECT_NEAR(at(d, c, c - 1), -1 - wx, 1e-13);
  EXPECT_NEAR(at(d, c, c - 16), -1 - wy, 1e-13);
  EXPECT_NEAR(at(d, c, c + 16), -1, 1e-13);
  // convection against the axes: the upwind side flips
  const Csr<double> back = generate_family<double>("convdiff2d:9,angle=180");
  EXPECT_NEAR(at(back, p, p + 1), -11.0, 1e-12);
  EXPECT_NEAR(at(back, p, p - 1), -1.0, 1e-12);
  EXPECT_GT(min_rayleigh(d, 20), 0.0);
  // peclet 0: the 5-point Laplacian
  EXPECT_EQ(generate_family<double>("convdiff2d:9,peclet=0").val,
            generate_family<double>("stencil2d5:9").val);
}

TEST(MatrixFamilies, Elasticity3dAnnihilatesRigidBodyModesAwayFromTheClamp) {
  const struct {
    const char* spec;
    size64 n;
  } cases[] = {{"elasticity3d:3", 3}, {"elasticity3d:4,nu=0.45", 4}};
  for (const auto& [spec, n] : cases) {
    SCOPED_TRACE(spec);
    const Csr<double> a = generate_family<double>(spec);
    expect_valid(a);
    const size64 m = n + 1;
    EXPECT_EQ(a.rows, 3 * n * m * m);
    // x-neighbours of free nodes 3N - 2 in all, y and z 3N + 1; dense 3 x 3
    EXPECT_EQ(a.nnz(), 9 * (3 * n - 2) * (3 * n + 1) * (3 * n + 1));
    EXPECT_TRUE(exactly_symmetric(a));
    EXPECT_GT(min_rayleigh(a, 20), 0.0);
    const std::vector<double> xyz = elasticity3d_coordinates(spec);
    ASSERT_EQ(xyz.size(), static_cast<std::size_t>(a.rows));
    EXPECT_DOUBLE_EQ(xyz[0], 1.0 / double(n));  // node (1, 0, 0)
    EXPECT_DOUBLE_EQ(xyz[3 * (n - 1)], 1.0);    // node (N, 0, 0)
    EXPECT_DOUBLE_EQ(xyz[3 * n + 1], 1.0 / double(n));
    // translations and rotations about the axes through the origin
    std::vector<std::vector<double>> modes(6, std::vector<double>(xyz.size(), 0.0));
    for (std::size_t node = 0; node < xyz.size() / 3; ++node) {
      const double x = xyz[3 * node], y = xyz[3 * node + 1], z = xyz[3 * node + 2];
      for (int c = 0; c < 3; ++c) modes[c][3 * node + c] = 1;
      const std::array<std::array<double, 3>, 3> rot = {
          {{0, -z, y}, {z, 0, -x}, {-y, x, 0}}};  // omega x r for omega = e_x, e_y, e_z
      for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) modes[3 + r][3 * node + c] = rot[r][c];
    }
    double scale = 0;
    for (double v : a.val) scale = std::max(scale, std::abs(v));
    for (int mode = 0; mode < 6; ++mode) {
      SCOPED_TRACE(mode);
      const std::vector<double> y = times(a, modes[mode]);
      double worst = 0, clamped_side = 0;
      for (std::size_t row = 0; row < y.size(); ++row) {
        const bool away = xyz[row - row % 3] > 1.5 / double(n);  // x index >= 2
        (away ? worst : clamped_side) = std::max(away ? worst : clamped_side, std::abs(y[row]));
      }
      EXPECT_LT(worst, 1e-10 * scale);
      if (mode < 3) {  // the clamp holds the rows at x = h
        EXPECT_GT(clamped_side, 1e-3 * scale);
      }
    }
  }
  // the one element of N = 1 (h = 1): K(a x, a x) = (lambda + 4 mu) / 9
  const double nu = 0.3, lambda = nu / ((1 + nu) * (1 - 2 * nu)), mu = 1 / (2 * (1 + nu));
  const Csr<double> one = generate_family<double>("elasticity3d:1");
  EXPECT_EQ(one.rows, 12);
  EXPECT_NEAR(at(one, 0, 0), (lambda + 4 * mu) / 9, 1e-15);
  // N = 2, node (1, 1, 1) in all 8 elements of h = 1/2: 8 h (lambda + 4 mu) / 9
  const Csr<double> two = generate_family<double>("elasticity3d:2");
  const size64 centre = 3 * ((1 * 3 + 1) * 2 + 0);
  EXPECT_NEAR(at(two, centre + 1, centre + 1), 4 * (lambda + 4 * mu) / 9, 1e-14);
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
  EXPECT_NE(why("aniso2d:10,eps=0").find("eps=0: expected 1e-12 to"), std::string::npos);
  EXPECT_NE(why("aniso2d:10,angle=400").find("angle=400: expected -360 to 360"), std::string::npos);
  EXPECT_NE(why("aniso2d:10,theta=3")
                .find("'theta=3': expected key=value with a key of eps, "
                      "angle"),
            std::string::npos);
  EXPECT_NE(why("aniso2d:50000").find("beyond 32-bit indices"), std::string::npos);
  EXPECT_NE(why("convdiff2d:10,peclet=-1").find("peclet=-1: expected 0 to"), std::string::npos);
  EXPECT_NE(why("convdiff2d:10,angle=nan").find("angle=nan: expected a number"), std::string::npos);
  EXPECT_NE(why("elasticity3d:4,nu=0.5").find("nu=0.5: expected -0.99 to 0.4999"),
            std::string::npos);
  EXPECT_NE(why("elasticity3d:4,eps=1").find("with a key of nu"), std::string::npos);
  EXPECT_NE(why("elasticity3d:0").find("size 0"), std::string::npos);
  EXPECT_NE(why("elasticity3d:300").find("beyond 32-bit indices"), std::string::npos);
  auto coordinates_why = [](const char* spec) {
    try {
      (void)elasticity3d_coordinates(spec);
    } catch (const UsageError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(coordinates_why("aniso2d:4").find("only for elasticity3d"), std::string::npos);
  EXPECT_NE(coordinates_why("elasticity3d:4,nu=0.6").find("nu=0.6"), std::string::npos);
  EXPECT_TRUE(is_family_spec("elasticity3d:3"));
  EXPECT_TRUE(is_family_spec("aniso2d:3"));
  EXPECT_TRUE(is_family_spec("convdiff2d:3"));
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
