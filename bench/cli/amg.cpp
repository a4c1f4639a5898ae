// `tessera bench amg`: smoothed-aggregation AMG as a preconditioner, time
// to a 1e-8 relative residual against the other preconditioners on the
// same system (docs/amg.md explains the rows). Each case gives a setup row
// (host wall time; the phases, the upload, levels and complexities in the
// note) and one solve row per preconditioner (device time of the whole
// solve from x = 0, b = A * ones; iterations in the note).
//
// --param keys (all optional):
//   cases=poisson3d,poisson2d,aniso,convdiff,elasticity,trace
//   n3=255      3D Poisson laplace7:N (CG; against CG + one geometric mg
//               V-cycle on the same matrix-free problem poisson3d:N, whose
//               sides must be c 2^k - 1; quick 31)
//   n2=2047     2D problems stencil2d5:N, aniso2d:N (eps 0.001, 30 deg),
//               convdiff2d:N (Peclet 100, GMRES(30)) (quick 63)
//   ne=40       elasticity3d:N (3 x 3 blocks, CG; with the rigid-body modes
//               as the near-nullspace, and with constants; quick 6)
//   trace=4     a thesis TRACE case (complex 5 x 5 blocks, GMRES(30); quick:
//               trace:3x5x4,blocks=2)
//   baselines=1 0: AMG rows only
//   smoother=auto  every case's AMG smoother (auto: Gauss-Seidel on a CPU,
//               Jacobi on a GPU; gauss-seidel, chebyshev, jacobi)
#include <fmt/format.h>

#include <chrono>

#include "amg/preconditioner.hpp"
#include "apps/tessera/commands.hpp"
#include "core/error.hpp"
#include "core/progress.hpp"
#include "krylov/poisson.hpp"
#include "krylov/precond.hpp"
#include "krylov/solver.hpp"
#include "mg/layout.hpp"
#include "sparse/convert.hpp"
#include "sparse/device_inputs.hpp"
#include "sparse/device_matrix.hpp"
#include "sparse/kernel_choice.hpp"
#include "sparse/matrix_families.hpp"

namespace tessera::app {

namespace {

using bench::Measurement;
using namespace tessera::sparse;

template <Scalar V>
std::string precision_name() {
  return sizeof(real_t<V>) == 4 ? (is_complex_v<V> ? "complex-single" : "single")
                                : (is_complex_v<V> ? "complex-double" : "double");
}

bench::TimingOptions solve_timing(const BenchArgs& args) {
  auto t = args.timing;  // a solve is long: few repetitions
  t.warmup = std::min(t.warmup, 1);
  t.reps = std::min(t.reps, 5);
  return t;
}

// Time to 1e-8 of `op` with preconditioner m from x = 0 (b given).
template <Scalar V>
Measurement solve_row(krylov::LinearOperator<V>& op, krylov::LinearOperator<V>* m,
                      const Buffer<V>& b, krylov::Method method, const BenchArgs& args,
                      const std::string& label) {
  const auto& dev = op.device();
  const std::size_t n = op.size();
  Buffer<V> x(dev, n);
  krylov::DeviceVectorOps<V> ops(dev, n, 1);
  krylov::Options o;
  o.method = method;
  o.restart = 30;
  o.tol = 1e-8;
  o.max_iters = 2000;
  krylov::Result last;
  Measurement r;
  r.kernel = label;
  r.precision = precision_name<V>();
  r.size = n;
  r.timing = bench::time_runs(
      dev->queue(),
      [&](int) {
        ops.combine(x, 0, V(0), nullptr, 0, nullptr, 0, 0, nullptr);
        last = krylov::solve<V>(op, m, b, x, o);
      },
      solve_timing(args));
  krylov::Options split = o;
  split.time_split_events = true;
  ops.combine(x, 0, V(0), nullptr, 0, nullptr, 0, 0, nullptr);
  const auto t = krylov::solve<V>(op, m, b, x, split).time;
  r.note = fmt::format(
      "{} it ({}), true relres {:.2e}; device ms: spmv {:.2f} precond {:.2f} ortho {:.2f}",
      last.iterations, krylov::to_string(last.status), last.true_relres, 1e3 * t.spmv,
      1e3 * t.precond, 1e3 * t.ortho);
  return r;
}

// The AMG setup of `a` as a row (host wall time of build_hierarchy and the
// upload) and the preconditioner it built.
template <Scalar V>
std::unique_ptr<amg::Amg<V>> amg_setup(const std::shared_ptr<Device>& dev, const Csr<V>& a,
                                       const amg::Options& o, const amg::Nullspace<V>& null,
                                       const std::string& name, std::vector<Measurement>& rows) {
  const auto t0 = std::chrono::steady_clock::now();
  auto m = std::make_unique<amg::Amg<V>>(dev, a, o, null);
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  const auto& h = m->hierarchy();
  Measurement r;
  r.kernel = fmt::format("amg setup {}", name);
  r.precision = precision_name<V>();
  r.size = static_cast<std::size_t>(a.rows);
  r.timing.ms = {ms};
  r.timing.median_ms = r.timing.min_ms = ms;
  std::string sizes;
  for (const auto& l : h.levels) sizes += fmt::format("{}{}", sizes.empty() ? "" : "/", l.a.rows);
  const auto& t = h.times;
  r.note = fmt::format(
      "host wall, smoother {}, {} levels (rows {}), operator complexity {:.3f}, grid {:.3f}; host "
      "ms: diagonal and rho {:.1f} strength "
      "{:.1f} aggregation {:.1f} tentative {:.1f} smoothing {:.1f} galerkin {:.1f} colouring {:.1f} "
      "coarse {:.1f} (products on {}); upload {:.1f} ms",
      amg::to_string(m->options().smoother), h.levels.size(), sizes, h.operator_complexity(),
      h.grid_complexity(), 1e3 * t.diagonal, 1e3 * t.strength, 1e3 * t.aggregation,
      1e3 * t.tentative, 1e3 * t.smoothing, 1e3 * t.galerkin, 1e3 * t.coloring, 1e3 * t.coarse,
      h.products_on, 1e3 * m->upload_seconds());
  rows.push_back(std::move(r));
  return m;
}

// One case: the AMG setup and solve, then each baseline preconditioner.
template <Scalar V>
void case_rows(const std::shared_ptr<Device>& dev, const HostMatrix<V>& hm, const amg::Options& o,
               krylov::Method method, const std::vector<std::string>& baselines, int block,
               const BenchArgs& args, std::vector<Measurement>& rows,
               const amg::Nullspace<V>& null = {}) {
  const Csr<V> csr = hm.is_block ? to_csr(hm.block) : hm.csr;
  const KernelChoice kc =
      hm.is_block ? choose_kernel(hm.block, dev->backend()) : choose_kernel(csr, dev->backend());
  auto dm = hm.is_block ? std::make_shared<DeviceMatrix<V>>(dev, hm.block, kc.kernel)
                        : std::make_shared<DeviceMatrix<V>>(dev, csr, kc.kernel, kc.options);
  krylov::MatrixOperator<V> op(dm);
  const std::size_t n = op.size();
  Buffer<V> ones(dev, n), b(dev, n);
  ones.copy_from_host(std::vector<V>(n, V(1)));
  op.apply(ones, b);  // b = A * ones: consistent in rows without entries
  const std::string method_name(krylov::to_string(method));
  const std::string what = hm.name + (null.cols ? " rigid-body modes" : "");
  auto m = amg_setup(dev, csr, o, null, what, rows);
  rows.push_back(solve_row<V>(op, m.get(), b, method, args,
                              fmt::format("{} + amg to 1e-8 {}", method_name, what)));
  m.reset();
  for (const auto& p : baselines) {
    auto pm = krylov::make_preconditioner<V>(p, dev, csr, block);
    rows.push_back(solve_row<V>(op, pm.get(), b, method, args,
                                fmt::format("{} + {} to 1e-8 {}", method_name, p, hm.name)));
  }
}

// CG with one geometric V-cycle on the matrix-free 3D Poisson problem
// (mg's own; the same matrix as laplace7:N).
Measurement poisson_cg_mg_row(const std::shared_ptr<Device>& dev, long n, const BenchArgs& args) {
  const mg::Dims d{n, n, n, 3};
  krylov::PoissonOperator<double> a(dev, d);
  krylov::MultigridPreconditioner<double> m(dev, d);
  Buffer<double> b(dev, d.storage());
  b.copy_from_host(
      mg::to_halo_layout(d, std::vector<double>(static_cast<std::size_t>(d.points()), 1.0)));
  return solve_row<double>(a, &m, b, krylov::Method::cg, args,
                           fmt::format("cg + geometric mg V(1,1) to 1e-8 poisson3d:{}", n));
}

bench::DeviceReport run_amg_suite(const std::shared_ptr<Device>& device, const BenchArgs& args) {
  bench::DeviceReport report;
  report.device = device->info();
  const auto cases =
      args.param_list("cases", "poisson3d,poisson2d,aniso,convdiff,elasticity,trace");
  const long n3 = args.param_int("n3", args.quick ? "31" : "255", 3);
  const long n2 = args.param_int("n2", args.quick ? "63" : "2047", 3);
  const long ne = args.param_int("ne", args.quick ? "6" : "40", 1);
  const std::string trace = args.param("trace", args.quick ? "3x5x4,blocks=2" : "4");
  const bool baselines = args.param_flag("baselines", true);
  for (const auto& c : cases)
    if (c != "poisson3d" && c != "poisson2d" && c != "aniso" && c != "convdiff" &&
        c != "elasticity" && c != "trace")
      throw UsageError(fmt::format(
          "--param cases: no case '{}' (poisson3d, poisson2d, aniso, convdiff, elasticity, trace)",
          c));
  Progress progress("amg on " + device->id(), 1 + static_cast<int>(cases.size()));
  progress.step("copy");
  const Measurement copy =
      bench::measure_native_copy(*device, std::size_t(1) << (args.quick ? 24 : 29), args.timing);
  report.copy_gbps = copy.gbps();
  report.results.push_back(copy);
  auto base = [&](std::vector<std::string> b) {
    return baselines ? b : std::vector<std::string>{};
  };
  // --param smoother=auto|gauss-seidel|chebyshev|jacobi: every case's
  // (auto, the default: Gauss-Seidel on a CPU, Jacobi on a GPU)
  const std::string smoother_name = args.param("smoother", "auto");
  amg::Smoother smoother{};
  try {
    smoother = amg::parse_smoother(smoother_name);
  } catch (const UsageError&) {
    throw UsageError(fmt::format(
        "--param smoother={}: expected auto, chebyshev, gauss-seidel or jacobi", smoother_name));
  }
  amg::Options point;
  point.block = 1;
  point.smoother = smoother;
  for (const auto& c : cases) {
    progress.step(c);
    auto& rows = report.results;
    if (c == "poisson3d") {
      case_rows(device, generate_matrix<double>(fmt::format("laplace7:{}", n3)), point,
                krylov::Method::cg, base({"jacobi"}), 1, args, rows);
      if (baselines) rows.push_back(poisson_cg_mg_row(device, n3, args));
    } else if (c == "poisson2d") {
      case_rows(device, generate_matrix<double>(fmt::format("stencil2d5:{}", n2)), point,
                krylov::Method::cg, base({"jacobi"}), 1, args, rows);
    } else if (c == "aniso") {
      case_rows(device, generate_matrix<double>(fmt::format("aniso2d:{},eps=0.001,angle=30", n2)),
                point, krylov::Method::cg, base({"jacobi"}), 1, args, rows);
    } else if (c == "convdiff") {
      amg::Options o = point;
      o.strength = amg::Strength::classical;
      o.theta = 0.25;
      case_rows(device, generate_matrix<double>(fmt::format("convdiff2d:{},peclet=100", n2)), o,
                krylov::Method::gmres, base({"jacobi", "ilu0"}), 1, args, rows);
    } else if (c == "elasticity") {
      amg::Options o;
      o.block = 3;
      o.smoother = smoother;
      const std::string spec = fmt::format("elasticity3d:{}", ne);
      const auto hm = generate_matrix<double>(spec);
      // the six rigid-body modes (the near-nullspace elasticity needs), then
      // the default constants
      case_rows(device, hm, o, krylov::Method::cg, base({"block-jacobi"}), 3, args, rows,
                amg::rigid_body_modes<double>(elasticity3d_coordinates(spec), 3));
      case_rows(device, hm, o, krylov::Method::cg, {}, 3, args, rows);
    } else {
      amg::Options o;
      o.block = 5;
      o.smoother = smoother;
      case_rows(device, generate_matrix<std::complex<double>>("trace:" + trace), o,
                krylov::Method::gmres, base({"block-jacobi", "ilu0"}), 5, args, rows);
    }
  }
  return report;
}

const RegisterBenchSuite registered{
    "amg", "AMG: setup and time to 1e-8 against geometric mg, Jacobi, block Jacobi and ILU(0)",
    run_amg_suite};

}  // namespace

}  // namespace tessera::app
