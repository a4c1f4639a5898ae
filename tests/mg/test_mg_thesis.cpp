// Thesis-exact multigrid: operator identities, bitwise equality across
// backends, the coarsest solve, and the stagnation of undamped Jacobi.
#include <gtest/gtest.h>

#include <cmath>

#include "core/registry.hpp"
#include "dense/dense.hpp"
#include "mg/kernels/mg_kernels.hpp"
#include "mg/thesis.hpp"
#include "test_support.hpp"

namespace tessera::mg {
namespace {

// Dense matrices of the thesis operators on the CPU, built column by column
// from unit vectors (the operators carry the thesis's minus signs).
struct ThesisOperators {
  Dims f{15, 15, 1, 2}, c{7, 7, 1, 2};
  std::shared_ptr<Device> cpu = open_device("cpu");
  Queue& q = cpu->queue();

  std::vector<double> apply_restrict(const std::vector<double>& fine) {
    Buffer<double> src(cpu, f.storage()), out(cpu, c.storage());
    src.copy_from_host(to_halo_layout(f, fine));
    dense::fill(out, 0.0);
    kernels::thesis_restrict(CpuTag{}, q, f, src, c, out);
    return from_halo_layout(c, out.to_vector());
  }
  std::vector<double> apply_prolong(const std::vector<double>& coarse) {
    Buffer<double> xc(cpu, c.storage()), xf(cpu, f.storage());
    xc.copy_from_host(to_halo_layout(c, coarse));
    dense::fill(xf, 0.0);
    kernels::thesis_prolong(CpuTag{}, q, f, xf, c, xc, false);
    return from_halo_layout(f, xf.to_vector());
  }
  // A x = -(residual with b = 0)
  std::vector<double> apply_A(const Dims& d, const std::vector<double>& x) {
    Buffer<double> b(cpu, d.storage()), xb(cpu, d.storage()), r(cpu, d.storage());
    dense::fill(b, 0.0);
    dense::fill(r, 0.0);
    xb.copy_from_host(to_halo_layout(d, x));
    kernels::thesis_residual(CpuTag{}, q, d, b, xb, r);
    auto v = from_halo_layout(d, r.to_vector());
    for (auto& e : v) e = -e;
    return v;
  }
};

TEST(MgThesisOperators, RestrictionIsProlongationTransposed) {
  ThesisOperators ops;
  const long nf = ops.f.points(), nc = ops.c.points();
  std::vector<double> R(static_cast<std::size_t>(nc * nf)), P(static_cast<std::size_t>(nf * nc));
  for (long col = 0; col < nf; ++col) {
    std::vector<double> e(static_cast<std::size_t>(nf), 0.0);
    e[static_cast<std::size_t>(col)] = 1.0;
    auto r = ops.apply_restrict(e);  // = -R e
    for (long row = 0; row < nc; ++row)
      R[static_cast<std::size_t>(row * nf + col)] = -r[static_cast<std::size_t>(row)];
  }
  for (long col = 0; col < nc; ++col) {
    std::vector<double> e(static_cast<std::size_t>(nc), 0.0);
    e[static_cast<std::size_t>(col)] = 1.0;
    auto p = ops.apply_prolong(e);  // = -P e
    for (long row = 0; row < nf; ++row)
      P[static_cast<std::size_t>(row * nc + col)] = -p[static_cast<std::size_t>(row)];
  }
  double weight_sum = 0;
  for (long i = 0; i < nc; ++i)
    for (long j = 0; j < nf; ++j) {
      ASSERT_EQ(R[static_cast<std::size_t>(i * nf + j)], P[static_cast<std::size_t>(j * nc + i)])
          << i << "," << j;
      if (i == nc / 2) weight_sum += R[static_cast<std::size_t>(i * nf + j)];
    }
  EXPECT_EQ(weight_sum, 4.0);  // eq. 2.4: weights 1 + 6 * 1/2, no 1/4 normalisation
}

TEST(MgThesisOperators, GalerkinProductIsTheCoarseStencil) {
  ThesisOperators ops;
  const long nc = ops.c.points();
  for (long col = 0; col < nc; ++col) {
    std::vector<double> e(static_cast<std::size_t>(nc), 0.0);
    e[static_cast<std::size_t>(col)] = 1.0;
    auto p = ops.apply_prolong(e);
    for (auto& v : p) v = -v;  // P e
    auto rap = ops.apply_restrict(ops.apply_A(ops.f, p));
    for (auto& v : rap) v = -v;       // R A P e
    auto ac = ops.apply_A(ops.c, e);  // A_c e
    for (long i = 0; i < nc; ++i)
      ASSERT_EQ(rap[static_cast<std::size_t>(i)], ac[static_cast<std::size_t>(i)])
          << "column " << col << " row " << i;
  }
}

TEST(MgThesis, CoarsestLevelSolvedExactly) {
  auto cpu = open_device("cpu");
  ThesisMultigrid<float> mg(cpu, 1, 1, 2);
  mg.set_rhs({3.0f});
  mg.cycle();
  EXPECT_EQ(mg.solution()[0], 0.75f);
  EXPECT_EQ(mg.residual_norm(), 0.0);
}

TEST(MgThesis, LevelsFollowTheThesis) {
  auto cpu = open_device("cpu");
  ThesisMultigrid<float> mg(cpu, 63, 31, 2);
  ASSERT_EQ(mg.levels(), 5);  // 63x31, 31x15, 15x7, 7x3, 3x1
  EXPECT_EQ(mg.dims(4).nx, 3);
  EXPECT_EQ(mg.dims(4).ny, 1);
}

TEST(MgThesis, RejectsUnsupportedSizes) {
  auto cpu = open_device("cpu");
  EXPECT_THROW(ThesisMultigrid<float>(cpu, 64, 63, 2), UsageError);
  EXPECT_THROW(ThesisMultigrid<float>(cpu, 63, 63, 0), UsageError);
}

TEST(MgThesis, UndampedJacobiStagnates) {
  // Digest §2.7: with omega = 1 and no pre-smoothing the asymptotic factor
  // tends to cos(pi h)^nu (0.99 at m = 31, nu = 2), after a good first cycle.
  auto cpu = open_device("cpu");
  const long m = 31;
  ThesisMultigrid<double> mg(cpu, m, m, 2);
  mg.set_rhs(test::random_vector<double>(m * m, 7));
  double r0 = mg.residual_norm(), prev = r0, factor = 0;
  mg.cycle();
  double first = mg.residual_norm() / r0;
  prev = mg.residual_norm();
  for (int c = 1; c < 40; ++c) {
    mg.cycle();
    double r = mg.residual_norm();
    factor = r / prev;
    prev = r;
  }
  EXPECT_LT(first, 0.4);
  EXPECT_GT(factor, 0.95);
  EXPECT_LT(factor, 1.0);
}

class MgThesisDeviceTest : public ::testing::TestWithParam<std::string> {};

TEST_P(MgThesisDeviceTest, BitwiseEqualToCpu) {
  for (auto [w, h] : {std::pair<long, long>{63, 63}, {31, 7}}) {
    auto b = test::random_vector<float>(static_cast<std::size_t>(w * h), 11);
    auto x0 = test::random_vector<float>(static_cast<std::size_t>(w * h), 12, -0.1, 0.1);
    auto run = [&](const std::string& id) {
      ThesisMultigrid<float> mg(open_device(id), w, h, 3);
      mg.set_rhs(b);
      mg.set_solution(x0);
      for (int c = 0; c < 3; ++c) mg.cycle();
      mg.smooth(2);
      return mg.solution();
    };
    auto ref = run("cpu"), got = run(GetParam());
    for (std::size_t i = 0; i < ref.size(); ++i)
      ASSERT_EQ(got[i], ref[i]) << w << "x" << h << " element " << i;
  }
}

INSTANTIATE_TEST_SUITE_P(AllDevices, MgThesisDeviceTest, ::testing::ValuesIn(test::device_ids()),
                         test::id_name);

}  // namespace
}  // namespace tessera::mg
