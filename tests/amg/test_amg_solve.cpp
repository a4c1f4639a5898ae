// AMG as a preconditioner on every device.
#include <gtest/gtest.h>

#include <cstdio>

#include "amg/preconditioner.hpp"
#include "core/registry.hpp"
#include "krylov/solver.hpp"
#include "sparse/matrix_families.hpp"
#include "test_support.hpp"

namespace tessera::amg {
namespace {

class AmgSolve : public ::testing::TestWithParam<std::string> {};

TEST_P(AmgSolve, PoissonCgProbe) {
  auto dev = open_device(GetParam());
  const auto a = sparse::generate_family<double>("stencil2d5:64");
  Options o;
  o.block = 1;
  Amg<double> m(dev, a, o);
  std::printf("%s", describe(m.hierarchy()).c_str());
  auto mat = std::make_shared<sparse::DeviceMatrix<double>>(dev, a);
  krylov::MatrixOperator<double> op(mat);
  const auto n = static_cast<std::size_t>(a.rows);
  Buffer<double> b(dev, n), x(dev, n);
  b.copy_from_host(test::random_vector<double>(n, 7));
  x.copy_from_host(std::vector<double>(n, 0.0));
  krylov::Options ko;
  ko.method = krylov::Method::cg;
  ko.tol = 1e-8;
  const auto r = krylov::solve<double>(op, &m, b, x, ko);
  std::printf("iterations %d relres %g\n", r.iterations, r.true_relres);
  EXPECT_TRUE(r.converged());
}

INSTANTIATE_TEST_SUITE_P(Devices, AmgSolve, ::testing::ValuesIn(test::device_ids()), test::id_name);

}  // namespace
}  // namespace tessera::amg
