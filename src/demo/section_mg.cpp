// Demo section: the multigrid thesis's 2D problem (8191^2 unknowns; 1023^2
// with --quick, 2047^2 on a CPU) solved to a relative residual of 1e-8 with the device-resident
// solver, next to the thesis's own V(0,2) cycle on the same grid.
#include <cmath>
#include <vector>

#include <fmt/format.h>

#include "core/progress.hpp"
#include "demo/plot.hpp"
#include "demo/section.hpp"
#include "mg/problems.hpp"
#include "mg/solver.hpp"
#include "mg/thesis.hpp"

namespace tessera::demo {

namespace {

// ||b - A x|| / ||b|| on the host in double for the unscaled 5-point
// operator with a zero boundary: independent of the device's reductions.
double host_relative_residual(const mg::Dims& d, const std::vector<double>& b,
                              const std::vector<double>& x) {
  const long nx = d.nx, ny = d.ny;
  double rr = 0, bb = 0;
#pragma omp parallel for reduction(+ : rr, bb)
  for (long j = 0; j < ny; ++j)
    for (long i = 0; i < nx; ++i) {
      const auto k = static_cast<std::size_t>(j * nx + i);
      const double w = i > 0 ? x[k - 1] : 0, e = i + 1 < nx ? x[k + 1] : 0;
      const double s = j > 0 ? x[k - static_cast<std::size_t>(nx)] : 0,
                   n = j + 1 < ny ? x[k + static_cast<std::size_t>(nx)] : 0;
      const double r = b[k] - (4 * x[k] - w - e - s - n);
      rr += r * r;
      bb += b[k] * b[k];
    }
  return std::sqrt(rr / bb);
}

// Per fine point and cycle, with the coarse levels' 4/3 (bench/mg_suite.cpp's
// model A for the resident FP64 V(1,1), the thesis's V(0,nu) in float).
constexpr double kResidentBytes = 146.0 * 4.0 / 3.0;
constexpr double kThesisBytes = (26.0 + 12.0 * 2) * 4.0 / 3.0;
constexpr double kTol = 1e-8;
constexpr double kThesisSeconds = 4.2;  // 10 x V(0,2) at 8191^2 on a Radeon HD 6870 (docs/mg.md)

}  // namespace

SectionResult run_mg(const Context& c) {
  SectionResult r = section("mg", "Multigrid (thesis 2D Poisson)");
  const long n = c.pick(1023L, 2047L, 8191L);
  const mg::Dims d{n, n, 1, 2};
  Progress bar("mg", 3);
  bar.step("right-hand side");
  const auto b = mg::random_problem<double>(d, 1).b;

  bar.step(fmt::format("resident V(1,1) to {:g}", kTol));
  mg::Options o;
  o.tol = kTol;
  o.max_cycles = 40;
  mg::Solver<double> s(c.device, d, o);
  s.set_rhs(b);
  const mg::SolveReport rep = s.solve();
  const double host_relres = host_relative_residual(d, b, s.solution());

  bar.step("thesis V(0,2) x 10");
  std::vector<double> thesis_hist;
  double thesis_s = 0;
  {
    mg::ThesisMultigrid<float> t(c.device, n, n, 2);
    t.set_rhs(std::vector<float>(b.begin(), b.end()));
    thesis_hist.push_back(t.residual_norm() / rep.rhs_norm);
    for (int k = 0; k < 10; ++k) {
      auto e0 = c.device->queue().record();
      t.cycle();
      auto e1 = c.device->queue().record();
      c.device->synchronize();
      thesis_s += e1->ms_since(*e0) * 1e-3;
      thesis_hist.push_back(t.residual_norm() / rep.rhs_norm);
    }
  }

  std::vector<double> hist;
  for (double v : rep.residuals) hist.push_back(v / rep.rhs_norm);
  plot_log_history(c.out / "mg_residuals.png",
                   {{hist, {31, 119, 180}, "resident solver: FP64 V(1,1), red-black GS"},
                    {thesis_hist, {255, 127, 14}, "thesis cycle: FP32 V(0,2), Jacobi"}},
                   kTol,
                   {fmt::format("Multigrid on the {}x{} Poisson problem", n, n), "V-cycle",
                    "relative residual ||r|| / ||b||", fmt::format("tolerance {:g}", kTol)});
  r.figures.push_back(
      {"mg_residuals.png",
       fmt::format(
           "Relative residual per cycle, {}x{} grid: blue the resident solver (FP64 V(1,1), "
           "red-black Gauss-Seidel), orange the thesis's cycle (FP32 V(0,2), undamped Jacobi), "
           "which stagnates; dashed: the tolerance {:g}.",
           n, n, kTol)});

  r.correct = rep.status == mg::Status::converged && host_relres <= kTol * 1.01;
  r.summary = fmt::format(
      "{}x{} unknowns solved to {:.2e} in {} V(1,1) cycles, {} of device time ({:.3g} unknowns/s)",
      n, n, rep.relative_residual(), rep.cycles, duration(rep.seconds),
      rep.seconds > 0 ? double(d.points()) / rep.seconds : 0.0);
  r.check = fmt::format(
      "the solver reports '{}'; ||b - Ax||/||b|| recomputed on the host in double = {:.3e} "
      "(must be <= {:g} x 1.01)",
      mg::to_string(rep.status), host_relres, kTol);
  const double pts = double(d.points());
  Table t{"Today against the thesis (Realisierung eines Mehrgitterverfahrens in OpenCL)",
          {"run", "grid", "time", "roofline", "original study"},
          {}};
  t.rows.push_back({fmt::format("resident solver to {:g} ({} cycles)", kTol, rep.cycles),
                    fmt::format("{}^2", n), duration(rep.seconds),
                    roofline(c, kResidentBytes * pts * rep.cycles, rep.seconds),
                    "the thesis's solver does not converge (it stagnates)"});
  t.rows.push_back(
      {"thesis cycle, 10 x V(0,2), float", fmt::format("{}^2", n), duration(thesis_s),
       roofline(c, 10 * kThesisBytes * pts, thesis_s),
       fmt::format("{} at 8191^2 (Radeon HD 6870); {:.3g}x faster here{}", duration(kThesisSeconds),
                   thesis_s > 0 ? kThesisSeconds / thesis_s : 0.0,
                   n == 8191 ? "" : " (smaller grid)")});
  r.tables.push_back(t);
  r.commands = {
      fmt::format("tessera mg --dim 2 --n {} --tol {:g} --device {}", n, kTol, c.device->id()),
      fmt::format(
          "tessera mg --mode thesis --n {} --post 2 --max-cycles 10 --precision float --device {}",
          n, c.device->id())};
  return r;
}

}  // namespace tessera::demo
