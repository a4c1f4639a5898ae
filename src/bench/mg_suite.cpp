#include "bench/mg_suite.hpp"

#include <fmt/format.h>

#include "core/progress.hpp"
#include "mg/problems.hpp"
#include "mg/solver.hpp"
#include "mg/thesis.hpp"

namespace tessera::bench {

namespace {

// Byte models per fine-level point and V(1,1) (anchors-multigrid.md §5, for
// 8-byte values): A = naive RB-GS (one kernel per colour, as implemented),
// C = unfused Jacobi, E = fused floor target. Coarse levels add 4/3 (2D) or
// 8/7 (3D); 4-byte values halve the bytes.
constexpr double kModelA = 146, kModelC = 98, kModelE = 66;
// Thesis V(0,nu) per fine point (4-byte values): residual 12, restriction 5,
// prolongation 9, nu Jacobi sweeps of 12.
double thesis_bytes_per_point(int nu) { return 26.0 + 12.0 * nu; }

double coarse_factor(int dim) { return dim == 3 ? 8.0 / 7.0 : 4.0 / 3.0; }

void thesis_rows(Device& dev, const std::shared_ptr<Device>& devp, const MgBenchOptions& opt,
                 DeviceReport& r, Progress& progress) {
  const long n = opt.n2d;
  const double pts = double(n) * double(n);
  std::vector<int> nus = opt.quick ? std::vector<int>{2, 16} : std::vector<int>{2, 4, 8, 16, 128};
  for (int nu : nus) {
    progress.step(fmt::format("thesis nu={}", nu));
    mg::ThesisMultigrid<float> t(devp, n, n, nu);
    t.set_rhs(mg::random_problem<float>(t.dims(0), 1).b);
    Measurement c;
    c.kernel = fmt::format("thesis 10 x V(0,{})", nu);
    c.precision = "float";
    c.size = static_cast<std::size_t>(n);
    c.bytes = 10 * thesis_bytes_per_point(nu) * 4.0 / 3.0 * pts;
    for (const auto& f : kThesisMgFigures)
      if (f.nu == nu) c.note = fmt::format("thesis: CPU {} s, HD 6870 {} s", f.cpu_s, f.gpu_s);
    c.timing = time_runs(dev.queue(), [&](int) { for (int k = 0; k < 10; ++k) t.cycle(); },
                         TimingOptions{1, opt.timing.reps});
    r.results.push_back(c);
    Measurement s;
    s.kernel = fmt::format("thesis smoother x{}", nu);
    s.precision = "float";
    s.size = static_cast<std::size_t>(n);
    s.bytes = 12.0 * nu * pts;
    s.timing = time_runs(dev.queue(), [&](int) { t.smooth(nu); }, opt.timing);
    r.results.push_back(s);
  }
}

void modern_rows(Device& dev, const std::shared_ptr<Device>& devp, int dim, long n,
                 const MgBenchOptions& opt, DeviceReport& r, Progress& progress) {
  const mg::Dims d{n, n, dim == 3 ? n : 1, dim};
  const double pts = double(d.points());
  if (dim == 3) {  // before/after: the two-pass red-black V(1,1)
    progress.step("3D rbgs V(1,1) two-pass");
    mg::Options o;
    o.fused = false;
    mg::Solver<double> s(devp, d, o);
    s.set_rhs(mg::random_problem<double>(d, 1).b);
    Measurement v;
    v.kernel = "3D V(1,1) rbgs two-pass";
    v.precision = "double";
    v.size = static_cast<std::size_t>(n);
    v.bytes = kModelA * coarse_factor(dim) * pts;
    v.timing = time_runs(dev.queue(), [&](int) { s.cycle(); }, opt.timing);
    v.note = "model A (one kernel per colour, prolongation separate)";
    r.results.push_back(v);
  }
  for (auto sm : {mg::Smoother::rbgs, mg::Smoother::jacobi}) {
    const char* smn = sm == mg::Smoother::rbgs ? "rbgs" : "jacobi";
    progress.step(fmt::format("{}D {} V(1,1)", dim, smn));
    mg::Options o;
    o.smoother = sm;
    mg::Solver<double> s(devp, d, o);
    s.set_rhs(mg::random_problem<double>(d, 1).b);
    Measurement v;
    v.kernel = fmt::format("{}D V(1,1) {}", dim, smn);
    v.precision = "double";
    v.size = static_cast<std::size_t>(n);
    const bool fused = sm == mg::Smoother::rbgs && dim == 3;
    v.bytes = (fused ? kModelE : sm == mg::Smoother::rbgs ? kModelA : kModelC) * coarse_factor(dim) * pts;
    v.flops = 0;
    v.timing = time_runs(dev.queue(), [&](int) { s.cycle(); }, opt.timing);
    const double floor_ms = kModelE * coarse_factor(dim) * pts / (r.copy_gbps * 1e6);
    v.note = fmt::format("model {}; {:.3g} DOF/s; model-E floor {:.3f} ms = {:.2f}x",
                         fused ? "E" : sm == mg::Smoother::rbgs ? "A" : "C",
                         pts / (v.timing.median_ms * 1e-3), floor_ms, v.timing.median_ms / floor_ms);
    r.results.push_back(v);
    // convergence factor of this configuration, for the record
    // FP64 round-off floors the relative residual near 1e-9 at 8191^2
    o.tol = dim == 3 ? 1e-10 : 1e-8;
    o.max_cycles = 60;
    o.fmg = true;
    mg::Solver<double> f(devp, d, o);
    f.set_rhs(mg::manufactured_problem<double>(d).b);
    progress.step(fmt::format("{}D {} FMG solve", dim, smn));
    Measurement fm;
    fm.kernel = fmt::format("{}D FMG+V(1,1) {} to {:g}", dim, smn, o.tol);
    fm.precision = "double";
    fm.size = static_cast<std::size_t>(n);
    mg::SolveReport rep;
    // each run starts from zero (a device fill, inside the timed region)
    fm.timing = time_runs(dev.queue(), [&](int) { f.reset(); rep = f.solve(); }, TimingOptions{0, 3});
    fm.note = fmt::format("{} cycles, {}, factor {:.3f}, {:.3g} DOF/s", rep.cycles, mg::to_string(rep.status),
                          rep.asymptotic_factor(), pts / (fm.timing.median_ms * 1e-3));
    r.results.push_back(fm);
  }
}

}  // namespace

DeviceReport run_mg(const std::shared_ptr<Device>& device, const MgBenchOptions& opt) {
  DeviceReport r;
  r.device = device->info();
  Progress progress("mg on " + device->id(), 1 + (opt.quick ? 2 : 5) + 8);
  progress.step("copy");
  auto copy = measure_native_copy(*device, std::size_t(1) << 30, opt.timing);
  r.copy_gbps = copy.gbps();
  r.results.push_back(copy);
  thesis_rows(*device, device, opt, r, progress);
  modern_rows(*device, device, 2, opt.n2d, opt, r, progress);
  modern_rows(*device, device, 3, opt.n3d, opt, r, progress);
  return r;
}

}  // namespace tessera::bench
