// Convergence histories for `tessera report` (the suites time, they do not keep
// histories): multigrid residuals per cycle (2D/3D, red-black Gauss-Seidel and
// damped Jacobi, V(1,1) and W(1,1)) and GMRES/CG residuals per iteration on a
// TRACE-like matrix and the 7-point Laplacian. Written to results/histories.json.
#include <complex>
#include <cstdint>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "krylov/precond.hpp"
#include "krylov/solver.hpp"
#include "mg/solver.hpp"
#include "sparse/convert.hpp"
#include "sparse/device_inputs.hpp"
#include "sparse/device_matrix.hpp"
#include "sparse/laplacian.hpp"

namespace tessera::app {

namespace {
// Deterministic pseudo-random values in [-1, 1) (no dependence on <random>'s
// implementation, so every machine solves the same problem).
std::vector<double> random_values(std::size_t n, std::uint64_t seed) {
  std::vector<double> v(n);
  for (auto& x : v) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    x = static_cast<double>(seed >> 11) / 9007199254740992.0 * 2 - 1;
  }
  return v;
}

nlohmann::json mg_history(const std::shared_ptr<Device>& dev, int dim, long n, mg::Smoother s,
                          mg::CycleType cycle) {
  mg::Dims d{n, n, dim == 3 ? n : 1, dim};
  mg::Options o;
  o.smoother = s;
  o.cycle = cycle;
  o.tol = 1e-10;
  o.max_cycles = 40;
  mg::Solver<double> solver(dev, d, o);
  solver.set_rhs(random_values(static_cast<std::size_t>(d.points()), 42));
  const mg::SolveReport r = solver.solve();
  std::vector<double> rel;
  for (double v : r.residuals) rel.push_back(r.rhs_norm > 0 ? v / r.rhs_norm : v);
  const char* cyc = cycle == mg::CycleType::V ? "V" : cycle == mg::CycleType::W ? "W" : "F";
  return {{"label", fmt::format("{}D {}^{} {}(1,1) {}", dim, n, dim, cyc,
                                s == mg::Smoother::rbgs ? "rbgs" : "jacobi")},
          {"dim", dim},
          {"n", n},
          {"status", mg::to_string(r.status)},
          {"factor", r.asymptotic_factor()},
          {"seconds", r.seconds},
          {"relative_residuals", rel}};
}

template <class V>
nlohmann::json krylov_history(const std::shared_ptr<Device>& dev, const std::string& label,
                              std::shared_ptr<sparse::DeviceMatrix<V>> a,
                              krylov::LinearOperator<V>* m, const krylov::Options& o) {
  krylov::MatrixOperator<V> op(a);
  const auto n = static_cast<std::size_t>(a->rows());
  // b = A x* for a random x*: a consistent system. TRACE's ghost rows are
  // empty, so a random b would put a part of itself out of A's range and every
  // solver would stall at that part's norm (the first reports plotted GMRES
  // stagnating at 0.68 for that reason).
  std::vector<V> hx(n);
  const auto r = random_values(n, 7);
  for (std::size_t i = 0; i < n; ++i) hx[i] = V(r[i]);
  Buffer<V> b(dev, n), x(dev, n);
  x.copy_from_host(hx);
  op.apply(x, b);
  x.copy_from_host(std::vector<V>(n, V(0)));
  const krylov::Result res = krylov::solve<V>(op, m, b, x, o);
  return {{"label", label},
          {"status", std::string(krylov::to_string(res.status))},
          {"iterations", res.iterations},
          {"true_relres", res.true_relres},
          {"seconds", res.time.total},
          {"relative_residuals", res.history}};
}
}  // namespace

/// Histories for the report's convergence plots; each entry is computed in
/// its own try block so one failure leaves the others.
nlohmann::json report_histories(const std::shared_ptr<Device>& dev, bool quick) {
  const bool gpu = dev->info().is_gpu;
  nlohmann::json out = {{"mg", nlohmann::json::array()},
                        {"krylov", nlohmann::json::array()},
                        {"errors", nlohmann::json::array()}};
  auto attempt = [&](const char* group, const std::string& what, auto&& f) {
    try {
      out[group].push_back(f());
    } catch (const std::exception& e) {
      out["errors"].push_back(what + ": " + e.what());
    }
  };
  const long n2 = gpu ? (quick ? 1023 : 4095) : 127, n3 = gpu ? (quick ? 127 : 255) : 31;
  for (auto s : {mg::Smoother::rbgs, mg::Smoother::jacobi}) {
    attempt("mg", "mg 2D", [&] { return mg_history(dev, 2, n2, s, mg::CycleType::V); });
    attempt("mg", "mg 3D", [&] { return mg_history(dev, 3, n3, s, mg::CycleType::V); });
  }
  attempt("mg", "mg 3D W",
          [&] { return mg_history(dev, 3, n3, mg::Smoother::rbgs, mg::CycleType::W); });

  // The thesis's GMRES experiment: a fixed number of iterations, no restart
  // (complex, TRACE-like matrix, block-Jacobi on the 5 x 5 blocks).
  using C = std::complex<double>;
  const std::string trace = gpu ? "trace:10x40x20" : "trace:2x8x8";
  const int iters = gpu ? 100 : 30;
  for (auto ortho : {krylov::Ortho::mgs, krylov::Ortho::cgs2})
    attempt("krylov", "gmres " + trace, [&] {
      const auto hm = sparse::generate_matrix<C>(trace);
      auto a =
          std::make_shared<sparse::DeviceMatrix<C>>(dev, hm.block, sparse::block_solver_kernel());
      krylov::BlockJacobi<C> m(dev, sparse::to_csr(hm.block), 5);
      krylov::Options o;
      o.ortho = ortho;
      o.fixed_iterations = true;
      o.max_iters = iters;
      return krylov_history<C>(
          dev,
          fmt::format("GMRES {} it {} block-Jacobi, {}", iters, krylov::to_string(ortho), trace), a,
          &m, o);
    });
  const long lap = gpu ? 64 : 16;
  for (auto method : {krylov::Method::cg, krylov::Method::gmres, krylov::Method::bicgstab})
    attempt("krylov", "laplace", [&] {
      auto csr = sparse::laplacian_7pt<double>(lap, lap, lap);
      auto a = std::make_shared<sparse::DeviceMatrix<double>>(dev, csr);
      krylov::Options o;
      o.method = method;
      o.tol = 1e-8;
      o.max_iters = 2000;
      return krylov_history<double>(
          dev, fmt::format("{} laplace7:{}", krylov::to_string(method), lap), a, nullptr, o);
    });
  return out;
}

}  // namespace tessera::app
