// `tessera solve`: solve A x = b with a Krylov method on a device, printing
// the residual history, the time split and the true residual recomputed at
// the end (working precision on the device, double on the host).
// Exit codes: 0 converged (or --fixed), 1 not converged (stagnation,
// breakdown, max iterations) or bad input, 2 usage errors.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <complex>
#include <nlohmann/json.hpp>
#include <random>

#include "commands.hpp"
#include "option_checks.hpp"
#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "core/registry.hpp"
#include "io/npy.hpp"
#include "amg/preconditioner.hpp"
#include "krylov/poisson.hpp"
#include "krylov/ilu0.hpp"
#include "krylov/precond.hpp"
#include "mg/layout.hpp"
#include "krylov/solver.hpp"
#include "sparse/analysis.hpp"
#include "sparse/convert.hpp"
#include "sparse/host_memory.hpp"
#include "sparse/device_inputs.hpp"
#include "sparse/device_matrix.hpp"
#include "sparse/kernel_choice.hpp"
#include "io/file_bytes.hpp"
#include "sparse/matrix_families.hpp"
#include "sparse/matrix_market.hpp"

namespace tessera::app {

namespace {

using namespace tessera::sparse;

struct SolveArgs {
  std::string matrix, generate, rhs = "ones", x0, method = "gmres", ortho, precond = "none";
  std::string mode = "resident", precision = "double", device = "best", out, json, basis = "full";
  std::string stagnation = "auto", kernel = "auto";
  int restart = 30, max_iters = 1000, block = 5, sstep = 4;
  double tol = 1e-8;
  bool fixed = false, real = false, drop_ghosts = false;
  // --precond amg (amg/options.hpp); amg_given: an --amg-* option was on the
  // command line, block_given: --block was
  amg::Options amg;
  std::string amg_strength = "symmetric", amg_smoother = "auto", amg_cycle = "V";
  std::string amg_nullspace = "constant", amg_coordinates;
  bool amg_given = false, block_given = false;
  std::string amg_given_option, amg_given_value;  // the first --amg-* on the command line
  std::string amg_degree_given, amg_omega_given;  // their values where given, else empty
};

// The AMG options of the command line (UsageError for a value out of range,
// or for --amg-* with another preconditioner: a value given is used or
// refused).
// Whether device `id` (or "best") is a GPU, from the device list; false
// for an id not in it (opening it refuses it).
bool device_is_gpu(const std::string& id) {
  const std::string want = id.empty() || id == "best" ? best_device_id() : id;
  for (const DeviceInfo& d : list_devices())
    if (d.id == want) return d.is_gpu;
  return false;
}

// The smoother auto is resolved for the device (is_gpu), so that the sweeps
// checked are the ones that run.
amg::Options amg_options_of(const SolveArgs& a, int matrix_block, bool is_gpu) {
  if (a.precond != "amg") {
    if (a.amg_given)
      throw UsageError(
          fmt::format("{} {}: the --amg-* options need --precond amg (got --precond {})",
                      a.amg_given_option, a.amg_given_value, a.precond));
    return {};
  }
  amg::Options o = a.amg;
  o.strength = amg::parse_strength(a.amg_strength);
  o.smoother = amg::resolve_smoother(amg::parse_smoother(a.amg_smoother), is_gpu);
  o.cycle = amg::parse_cycle(a.amg_cycle);
  o.block = a.block_given ? a.block : matrix_block;
  o.check();
  // a smoother's parameter with another smoother would be silently unused
  if (!a.amg_degree_given.empty() && o.smoother != amg::Smoother::chebyshev)
    throw UsageError(fmt::format(
        "--amg-degree {}: the Chebyshev degree needs --amg-smoother chebyshev (the smoother is "
        "{}{})",
        a.amg_degree_given, amg::to_string(o.smoother), a.amg_smoother == "auto" ? ", auto" : ""));
  if (!a.amg_omega_given.empty() && o.smoother != amg::Smoother::jacobi)
    throw UsageError(fmt::format(
        "--amg-omega {}: the Jacobi weight needs --amg-smoother jacobi (the smoother is {}{})",
        a.amg_omega_given, amg::to_string(o.smoother), a.amg_smoother == "auto" ? ", auto" : ""));
  if (a.method == "cg" && !o.symmetric())
    throw UsageError(fmt::format(
        "--method cg needs a symmetric preconditioner: --amg-presweeps and --amg-postsweeps must "
        "be equal (they give {} and {}); or use --method gmres",
        o.pre(), o.post()));
  return o;
}

// The exit status of a solve: 0 where it converged (or ran --fixed
// iterations), 1 otherwise with the reason on stderr. A run whose iteration
// reached --tol while the true residual (`relres`, in double where the host
// computed it) stayed more than 10x above it did not converge: single
// precision cannot reach a tolerance near its epsilon, and a recurrence can
// drift from the true residual; exit 0 would claim a result it does not have.
int exit_status(const krylov::Result& r, const SolveArgs& args, double relres) {
  if (args.fixed) return 0;
  if (r.converged() && relres <= 10 * args.tol) return 0;
  if (r.converged()) {
    std::fprintf(stderr,
                 "tessera solve: the iteration reached --tol %.3g, but the true relative residual "
                 "is %.3e, more than 10x above it: %s\n",
                 args.tol, relres,
                 args.precision == "single"
                     ? "single precision cannot reach that tolerance; use --precision double, or a "
                       "--tol of 1e-6 or more"
                     : "the iteration's residual drifted from the true one; restart from this x "
                       "(--x0) or use a stronger preconditioner");
    return 1;
  }
  std::fprintf(
      stderr,
      "tessera solve: not converged (%s): relative residual %.3e > tol %.3g after %d iterations\n",
      std::string(krylov::to_string(r.status)).c_str(), r.true_relres, args.tol, r.iterations);
  return 1;
}

// --amg-nullspace rigid: elasticity's rigid-body modes at the nodes of
// --amg-coordinates FILE.npy (nodes x 2 or 3), or of a generated
// elasticity3d problem; constant: the default (empty). `block`: the rows per
// node given or the matrix's, 0 for none (then the coordinates' dimension).
template <Scalar V>
amg::Nullspace<V> amg_nullspace_of(const SolveArgs& a, const Csr<V>& csr, int& block) {
  if (a.amg_nullspace != "rigid") {
    if (!a.amg_coordinates.empty())
      throw UsageError("--amg-coordinates: only with --amg-nullspace rigid");
    return {};
  }
  if (a.drop_ghosts) throw UsageError("--amg-nullspace rigid: not with --drop-ghosts");
  std::vector<double> xyz;
  int dim = 3;
  if (!a.amg_coordinates.empty()) {
    const io::NpyArray c = io::read_npy(a.amg_coordinates);
    if (c.shape.size() != 2 || (c.shape[1] != 2 && c.shape[1] != 3))
      throw Error(
          fmt::format("--amg-coordinates {}: holds an array of shape ({}); expected one row "
                      "of x, y[, z] per node (nodes x 2 or nodes x 3)",
                      a.amg_coordinates, fmt::join(c.shape, ", ")));
    dim = static_cast<int>(c.shape[1]);
    xyz = c.data;
  } else if (a.generate.starts_with("elasticity3d:")) {
    xyz = elasticity3d_coordinates(a.generate);
  } else {
    throw UsageError(
        "--amg-nullspace rigid needs the nodes' coordinates: --amg-coordinates FILE.npy (nodes x 2 "
        "or 3), or --generate elasticity3d:N");
  }
  const auto nodes = static_cast<size64>(xyz.size()) / dim;
  if (block == 0) block = dim;
  if (block != dim || nodes * dim != csr.rows)
    throw Error(fmt::format(
        "--amg-nullspace rigid: {} nodes in {} dimensions need {} rows in {} x {} blocks; the "
        "matrix has {} rows in blocks of {}{}",
        nodes, dim, nodes * dim, dim, dim, csr.rows, block,
        block != dim ? fmt::format(" (give --block {})", dim) : std::string()));
  return amg::rigid_body_modes<V>(xyz, dim);
}

// The --json file's amg object: the hierarchy and the setup's phases.
template <Scalar V>
nlohmann::json amg_json(const amg::Amg<V>& m) {
  const auto& h = m.hierarchy();
  const auto& o = m.options();
  nlohmann::json levels = nlohmann::json::array();
  for (const auto& l : h.levels)
    levels.push_back({{"rows", l.a.rows},
                      {"nonzeros", l.a.nnz()},
                      {"block", l.block},
                      {"rho", l.rho},
                      {"colors", l.colors()}});
  const auto& t = h.times;
  return {{"levels", levels},
          {"operator_complexity", h.operator_complexity()},
          {"grid_complexity", h.grid_complexity()},
          {"strength", amg::to_string(o.strength)},
          {"theta", o.theta},
          {"smoother", amg::to_string(o.smoother)},
          {"degree", o.degree},
          {"omega", o.omega},
          {"presweeps", o.pre()},
          {"postsweeps", o.post()},
          {"cycle", amg::to_string(o.cycle)},
          {"max_levels", o.max_levels},
          {"coarse_size", o.coarse_size},
          {"nullspace_vectors", h.levels.size() > 1 ? h.levels[1].block : h.levels[0].block},
          {"setup_s",
           {{"diagonal", t.diagonal},
            {"strength", t.strength},
            {"aggregation", t.aggregation},
            {"tentative", t.tentative},
            {"smoothing", t.smoothing},
            {"galerkin", t.galerkin},
            {"coloring", t.coloring},
            {"coarse", t.coarse},
            {"host_total", t.total},
            {"upload", m.upload_seconds()}}},
          {"products_on", h.products_on}};
}

// --ortho defaults to mgs (the thesis's), in the fused mode to its dcgs2
std::string ortho_of(const SolveArgs& a) {
  return !a.ortho.empty() ? a.ortho : a.mode == "fused" ? "dcgs2" : "mgs";
}

// The --json file's time_s object: seconds by phase and the number of timed
// phases behind them.
nlohmann::json time_json(const krylov::TimeSplit& t) {
  return {{"total", t.total},       {"spmv", t.spmv},   {"ortho", t.ortho},  {"precond", t.precond},
          {"transfer", t.transfer}, {"other", t.other}, {"phases", t.phases}};
}

krylov::Options options_of(const SolveArgs& a) {
  auto o =
      krylov::parse_options(a.method, ortho_of(a), a.mode, a.restart, a.tol, a.max_iters, a.fixed);
  o.compressed_basis = a.basis == "compressed";
  o.block_size = a.sstep;
  o.stagnation_window = a.stagnation == "off"    ? 0
                        : a.stagnation == "auto" ? krylov::Options::kStagnationAuto
                                                 : static_cast<int>(std::stol(a.stagnation));
  return o;
}

template <Scalar V>
std::string value_type_name() {
  if constexpr (std::is_same_v<V, float>)
    return "float";
  else if constexpr (std::is_same_v<V, double>)
    return "double";
  else if constexpr (std::is_same_v<V, std::complex<float>>)
    return "complex<float>";
  else
    return "complex<double>";
}

template <Scalar V>
V from_real(double re, double im = 0) {
  if constexpr (is_complex_v<V>)
    return V(static_cast<real_t<V>>(re), static_cast<real_t<V>>(im));
  else
    return static_cast<V>(re);
}

// ones / random / a Matrix Market vector; generated right-hand sides are zero
// in rows without entries (TRACE's ghost cells) so that the system stays
// consistent.
template <Scalar V>
std::vector<V> make_vector(const std::string& spec, const Csr<V>& a, const char* what,
                           bool zero_default) {
  const auto n = static_cast<std::size_t>(a.rows);
  if (spec.empty() && zero_default) return std::vector<V>(n, V(0));
  std::vector<V> v(n, V(0));
  if (spec == "ones" || spec == "random" || spec == "zero") {
    std::mt19937_64 rng(42);
    std::uniform_real_distribution<double> u(-1, 1);
    for (std::size_t i = 0; i < n; ++i) {
      const double re = u(rng), im = u(rng);
      if (spec == "zero" || a.row_ptr[i] == a.row_ptr[i + 1]) continue;
      v[i] = spec == "ones" ? from_real<V>(1) : from_real<V>(re, im);
    }
    return v;
  }
  if (spec.ends_with(".npy")) {  // NumPy's own format (io/npy.hpp: float32, float64)
    const io::NpyArray a = io::read_npy(spec);
    const bool vector =
        a.shape.size() == 1 || (a.shape.size() == 2 && (a.shape[0] == 1 || a.shape[1] == 1));
    if (!vector)
      throw Error(fmt::format("{} {}: holds an array of shape ({}), not a vector", what, spec,
                              fmt::join(a.shape, ", ")));
    if (a.data.size() != n)
      throw Error(fmt::format("{} {}: {} entries, but the matrix has {} rows", what, spec,
                              a.data.size(), n));
    for (std::size_t i = 0; i < n; ++i) v[i] = from_real<V>(a.data[i]);
    return v;
  }
  // The size first: a vector file declaring another length is refused before
  // a dense vector of its declared length is allocated.
  const MmHeader h = read_matrix_market_header(spec);
  if (h.rows != 1 && h.cols != 1)
    throw Error(fmt::format("{}: holds a {} x {} matrix, not a vector", spec, h.rows, h.cols));
  if (const size64 len = h.cols == 1 ? h.rows : h.cols; len != static_cast<size64>(n))
    throw Error(fmt::format("{} {}: {} entries, but the matrix has {} rows", what, spec, len, n));
  v = read_matrix_market_vector<V>(spec);
  if (v.size() != n)
    throw Error(
        fmt::format("{} {}: {} entries, but the matrix has {} rows", what, spec, v.size(), n));
  return v;
}

// ||b - A x|| / ||b|| on the host in double.
template <Scalar V>
double relres_double(const Csr<V>& a, const std::vector<V>& b, const std::vector<V>& x) {
  using W = std::conditional_t<is_complex_v<V>, std::complex<double>, double>;
  std::vector<W> y(b.size(), W(0));
  for (std::size_t i = 0; i < y.size(); ++i)
    for (auto p = a.row_ptr[i]; p < a.row_ptr[i + 1]; ++p)
      y[i] += W(a.val[static_cast<std::size_t>(p)]) *
              W(x[static_cast<std::size_t>(a.col[static_cast<std::size_t>(p)])]);
  double num = 0, den = 0;
  for (std::size_t i = 0; i < b.size(); ++i) {
    num += std::norm(W(b[i]) - y[i]);
    den += std::norm(W(b[i]));
  }
  return den > 0 ? std::sqrt(num / den) : std::sqrt(num);
}

void print_result(const krylov::Result& r, const SolveArgs& args);

template <Scalar V>
int solve_as(const SolveArgs& args) {
  const HostMatrix<V> hm =
      args.matrix.empty() ? generate_matrix<V>(args.generate) : read_matrix<V>(args.matrix);
  const Csr<V> csr = hm.is_block ? to_csr(hm.block) : hm.csr;
  if (csr.rows != csr.cols)
    throw Error(fmt::format("{}: the matrix is {} x {}; tessera solve needs a square matrix",
                            hm.name, csr.rows, csr.cols));
  if (csr.rows == 0)
    throw Error(fmt::format("{}: the matrix is 0 x 0: there is no system to solve", hm.name));
  // CG's recurrence assumes A = A^H; on another matrix it may stall or stop
  // at a wrong x, which only the true residual below would show. Above
  // sqrt(eps) the difference is not the rounding of a symmetric assembly.
  if (args.method == "cg")
    if (const double d = hermitian_defect(csr);
        d > std::sqrt(std::numeric_limits<sparse::real_t<V>>::epsilon()))
      std::fprintf(stderr,
                   "tessera solve: warning: --method cg assumes a %s matrix; %s differs from its "
                   "%s by up to %.2e of its largest entry: CG may stall or end at a wrong x "
                   "(--method gmres or bicgstab take any matrix)\n",
                   sparse::is_complex_v<V> ? "Hermitian" : "symmetric", hm.name.c_str(),
                   sparse::is_complex_v<V> ? "conjugate transpose" : "transpose", d);
  if (args.precond == "mg")
    throw UsageError(
        "--precond mg: only with --generate poisson2d:N / poisson3d:N (mg's own Poisson problem)");
  const auto hb = make_vector<V>(args.rhs, csr, "--rhs", false);
  const auto hx0 = make_vector<V>(args.x0, csr, "--x0", true);

  // --drop-ghosts: solve only the block rows that exist (TRACE's ghost cells
  // have none and no block refers to them; sparse::drop_empty_block_rows);
  // x keeps x0 in the dropped rows, the residual is that of the whole system
  std::vector<std::size_t> rows;  // the kept scalar rows
  RestrictedSystem<V> red;
  if (args.drop_ghosts) {
    if (!hm.is_block)
      throw UsageError("--drop-ghosts: needs a block matrix (--generate trace:...)");
    red = drop_empty_block_rows(hm.block);
    if (red.kept.empty())
      throw Error(fmt::format("--drop-ghosts: {} has no block row with entries", hm.name));
    const auto bs = static_cast<std::size_t>(hm.block.block.r);
    for (const auto br : red.kept)
      for (std::size_t i = 0; i < bs; ++i) rows.push_back(static_cast<std::size_t>(br) * bs + i);
    std::vector<char> kept(hb.size(), 0);
    for (const auto i : rows) kept[i] = 1;
    for (std::size_t i = 0; i < hb.size(); ++i)
      if (!kept[i] && hb[i] != V(0))
        throw Error(fmt::format(
            "--drop-ghosts: the right-hand side is {} in row {}, which has no entries: the "
            "system is inconsistent there",
            std::abs(hb[i]), i));
  }
  auto restrict_to_rows = [&](const std::vector<V>& v) {
    if (!args.drop_ghosts) return v;
    std::vector<V> out(rows.size());
    for (std::size_t i = 0; i < rows.size(); ++i) out[i] = v[rows[i]];
    return out;
  };
  const Csr<V> sys_csr = args.drop_ghosts ? to_csr(red.a) : Csr<V>{};
  const Csr<V>& a_csr = args.drop_ghosts ? sys_csr : csr;

  const auto dev = open_device(args.device);
  // a block system keeps its blocks (bell-bi, or the kernel named)
  const KernelChoice kc = !hm.is_block            ? kernel_for(args.kernel, csr, dev->backend())
                          : args.kernel == "auto" ? choose_kernel(hm.block, dev->backend())
                                                  : KernelChoice{parse_kernel(args.kernel),
                                                                 DeviceOptions{}, std::string()};
  auto dm = !hm.is_block       ? std::make_shared<DeviceMatrix<V>>(dev, csr, kc.kernel, kc.options)
            : args.drop_ghosts ? std::make_shared<DeviceMatrix<V>>(dev, red.a, kc.kernel)
                               : std::make_shared<DeviceMatrix<V>>(dev, hm.block, kc.kernel);
  krylov::MatrixOperator<V> op(dm);
  // rows per AMG node: --block, else the matrix's blocks, else (rigid-body
  // modes) the coordinates' dimension, else 1
  int amg_block = args.block_given ? args.block : hm.is_block ? hm.block.block.r : 0;
  const auto amg_null =
      args.precond == "amg" ? amg_nullspace_of(args, a_csr, amg_block) : amg::Nullspace<V>{};
  const amg::Options amg_opt =
      amg_options_of(args, amg_block == 0 ? 1 : amg_block, dev->info().is_gpu);
  const auto m = args.precond == "amg"
                     ? std::make_unique<amg::Amg<V>>(dev, a_csr, amg_opt, amg_null)
                     : krylov::make_preconditioner<V>(args.precond, dev, a_csr, args.block);
  const auto* amg_m = dynamic_cast<const amg::Amg<V>*>(m.get());

  const auto sb = restrict_to_rows(hb), sx0 = restrict_to_rows(hx0);
  Buffer<V> b(dev, sb.size()), x(dev, sb.size());
  b.copy_from_host(sb);
  x.copy_from_host(sx0);

  const krylov::Options o = options_of(args);
  const krylov::Result r = krylov::solve<V>(op, m.get(), b, x, o);
  std::vector<V> hx = x.to_vector();
  if (args.drop_ghosts) {  // back into the whole system's numbering
    std::vector<V> full = hx0;
    for (std::size_t i = 0; i < rows.size(); ++i) full[rows[i]] = hx[i];
    hx = std::move(full);
  }
  const double relres_d = relres_double(csr, hb, hx);

  std::printf("system   %s: %lld x %lld, %lld nonzeros, %s on %s\n", hm.name.c_str(),
              (long long)csr.rows, (long long)csr.cols, (long long)csr.val.size(),
              value_type_name<V>().c_str(), dev->id().c_str());
  const std::string ortho_name =
      std::string(krylov::to_string(o.ortho)) +
      (o.ortho == krylov::Ortho::bcgs2 ? fmt::format(" (s = {})", o.block_size) : "");
  std::printf("spmv     %s%s%s\n", std::string(to_string(kc.kernel)).c_str(),
              kc.reason.empty() ? "" : ", auto: ", kc.reason.c_str());
  std::printf("method   %s(%d), %s, precond %s, %s mode, %s basis, tol %.3g%s\n",
              args.method.c_str(), args.restart, ortho_name.c_str(), args.precond.c_str(),
              args.mode.c_str(), args.basis.c_str(), args.tol,
              args.fixed ? ", fixed iterations" : "");
  if (const auto* ilu =
          dynamic_cast<const krylov::Ilu0<V>*>(m.get()))  // latency: one launch per level
    std::printf("ilu0     %zu levels per application (forward and backward)\n", ilu->levels());
  if (amg_m) {
    const amg::Options& ao = amg_m->options();
    std::printf("%s  upload %.3f ms\n  cycle %s(%d,%d), smoother %s%s\n",
                amg::describe(amg_m->hierarchy()).c_str(), 1e3 * amg_m->upload_seconds(),
                std::string(amg::to_string(ao.cycle)).c_str(), ao.pre(), ao.post(),
                std::string(amg::to_string(ao.smoother)).c_str(),
                args.amg_smoother == "auto"
                    ? (dev->info().is_gpu ? " (auto: a GPU)" : " (auto: not a GPU)")
                    : "");
  }
  print_result(r, args);
  std::printf("residual true ||b-Ax||/||b|| = %.6e (working precision), %.6e (double)\n",
              r.true_relres, relres_d);
  const auto& t = r.time;

  if (!args.out.empty()) write_matrix_market_vector<V>(args.out, std::span<const V>(hx));
  if (!args.json.empty()) {
    nlohmann::json j = {{"command", "solve"},
                        {"matrix", hm.name},
                        {"rows", csr.rows},
                        {"nonzeros", csr.val.size()},
                        {"value_type", value_type_name<V>()},
                        {"device", bench::to_json(dev->info())},
                        {"method", args.method},
                        {"restart", args.restart},
                        {"ortho", krylov::to_string(o.ortho)},
                        {"sstep", o.ortho == krylov::Ortho::bcgs2 ? o.block_size : 0},
                        {"precond", args.precond},
                        {"mode", args.mode},
                        {"basis", args.basis},
                        {"rows_solved", args.drop_ghosts ? rows.size() : hb.size()},
                        {"tol", args.tol},
                        {"fixed_iterations", args.fixed},
                        {"stagnation", args.stagnation},
                        {"kernel", std::string(to_string(kc.kernel))},
                        {"kernel_choice", kc.reason.empty() ? "given" : "auto: " + kc.reason},
                        {"status", std::string(krylov::to_string(r.status))},
                        {"converged", r.converged()},
                        {"iterations", r.iterations},
                        {"restarts", r.restarts},
                        {"happy_breakdown", r.happy_breakdown},
                        {"dcgs2_explicit", r.dcgs2_explicit},
                        {"sstep_short_blocks", r.sstep_short_blocks},
                        {"sstep_reprojected", r.sstep_reprojected},
                        {"history", r.history},
                        {"true_relres", r.true_relres},
                        {"true_relres_double", relres_d},
                        {"time_s", time_json(t)}};
    if (amg_m) j["amg"] = amg_json(*amg_m);
    write_output(args.json, j.dump(2) + "\n");
  }
  return exit_status(r, args, relres_d);
}

void print_result(const krylov::Result& r, const SolveArgs& args) {
  const std::size_t hs = r.history.size(), step = std::max<std::size_t>(1, hs / 40);
  for (std::size_t i = 0; i < hs; ++i)
    if (i % step == 0 || i + 1 == hs) std::printf("  it %5zu  relres %.6e\n", i, r.history[i]);
  std::printf(
      "status   %s after %d iterations (%d restarts)%s%s\n",
      std::string(krylov::to_string(r.status)).c_str(), r.iterations, r.restarts,
      r.happy_breakdown ? ", happy breakdown" : "",
      (r.dcgs2_explicit > 0 ? fmt::format(", {} DCGS2 norm(s) taken explicitly", r.dcgs2_explicit)
       : r.sstep_short_blocks + r.sstep_reprojected > 0
           ? fmt::format(", s-step blocks: {} cut short, {} projected three times",
                         r.sstep_short_blocks, r.sstep_reprojected)
           : std::string())
          .c_str());
  const auto& t = r.time;
  std::printf(
      "time     %.3f ms: spmv %.3f, orthogonalisation %.3f, preconditioner %.3f, transfers %.3f, other %.3f"
      " (%ld timed phases)\n",
      1e3 * t.total, 1e3 * t.spmv, 1e3 * t.ortho, 1e3 * t.precond, 1e3 * t.transfer, 1e3 * t.other,
      t.phases);
  (void)args;
}

// --generate poisson3d:N (or poisson2d:N): mg's unscaled Poisson problem,
// matrix free in mg's halo layout; --precond mg runs one V-cycle.
template <class T>
int solve_poisson(const SolveArgs& args, int dim, long n) {
  const mg::Dims d{n, n, dim == 3 ? n : 1, dim};
  const auto dev = open_device(args.device);
  krylov::PoissonOperator<T> op(dev, d);
  std::unique_ptr<krylov::LinearOperator<T>> m;
  if (args.precond == "mg")
    m = std::make_unique<krylov::MultigridPreconditioner<T>>(dev, d);
  else if (args.precond != "none")
    throw UsageError(
        fmt::format("--generate poisson{}d: --precond none or mg (got {})", dim, args.precond));
  if (!args.out.empty() || !args.x0.empty())
    throw UsageError("--generate poisson: --out and --x0 are not supported");
  std::vector<T> interior(static_cast<std::size_t>(d.points()), T(1));
  if (args.rhs == "random") {
    std::mt19937_64 rng(42);
    std::uniform_real_distribution<double> u(-1, 1);
    for (auto& v : interior) v = static_cast<T>(u(rng));
  } else if (args.rhs != "ones") {
    throw UsageError("--generate poisson: --rhs ones or random");
  }
  Buffer<T> b(dev, d.storage()), x(dev, d.storage());
  b.copy_from_host(mg::to_halo_layout(d, interior));
  x.copy_from_host(std::vector<T>(d.storage(), T(0)));
  const krylov::Options o = options_of(args);
  const krylov::Result r = krylov::solve<T>(op, m.get(), b, x, o);
  std::printf("system   poisson%dd:%ld (%ld unknowns, matrix free), %s on %s\n", dim, n, d.points(),
              sizeof(T) == 4 ? "float" : "double", dev->id().c_str());
  std::printf("method   %s, precond %s, %s mode, tol %.3g\n", args.method.c_str(),
              args.precond.c_str(), args.mode.c_str(), args.tol);
  print_result(r, args);
  std::printf("residual true ||b-Ax||/||b|| = %.6e (working precision)\n", r.true_relres);
  if (!args.json.empty()) {
    nlohmann::json j = {{"command", "solve"},
                        {"matrix", fmt::format("poisson{}d:{}", dim, n)},
                        {"rows", d.points()},
                        {"device", bench::to_json(dev->info())},
                        {"method", args.method},
                        {"precond", args.precond},
                        {"mode", args.mode},
                        {"tol", args.tol},
                        {"status", std::string(krylov::to_string(r.status))},
                        {"converged", r.converged()},
                        {"iterations", r.iterations},
                        {"history", r.history},
                        {"true_relres", r.true_relres},
                        {"time_s", time_json(r.time)}};
    write_output(args.json, j.dump(2) + "\n");
  }
  return exit_status(r, args, r.true_relres);
}

int run_solve(const SolveArgs& args) {
  if (args.matrix.empty() == args.generate.empty())
    throw UsageError("solve: give exactly one of --matrix and --generate");
  // the --amg-* values, before any input is read (with --precond amg, the
  // device's kind from the list, without opening it; an id not listed is
  // refused later)
  amg_options_of(args, 1, args.precond == "amg" && device_is_gpu(args.device));
  if (!args.out.empty()) {  // an unsupported compression suffix: refused before the solve (exit 2)
    try {
      io::output_compression(args.out);
    } catch (const UsageError&) {
      throw;
    } catch (const Error& e) {
      throw UsageError(fmt::format("--out {}", e.what()));
    }
  }
  for (int dim : {2, 3}) {
    const std::string prefix = fmt::format("poisson{}d:", dim);
    if (args.generate.rfind(prefix, 0) == 0) {
      long n = 0;
      try {
        std::size_t used = 0;
        n = std::stol(args.generate.substr(prefix.size()), &used);
        if (used != args.generate.size() - prefix.size()) n = 0;
      } catch (const std::exception&) {
      }
      if (n < 1)
        throw UsageError(
            fmt::format("--generate {}: expected {}N with N >= 1", args.generate, prefix));
      return args.precision == "single" ? solve_poisson<float>(args, dim, n)
                                        : solve_poisson<double>(args, dim, n);
    }
  }
  if (args.precond == "mg")
    throw UsageError("--precond mg needs --generate poisson2d:N or poisson3d:N");
  const bool single = args.precision == "single";
  bool complex = spec_is_complex(args.generate) && !args.real;
  if (!args.matrix.empty()) {
    const MmHeader h = read_matrix_market_header(args.matrix);
    complex = h.field == MmField::complex;
    // Refused before anything is sized by the declared rows: the CSR's row
    // pointers and the host's vectors (b, x0, x, the solution in the whole
    // numbering, the double-precision residual check).
    const std::size_t value = (complex ? 2 : 1) * (single ? 4 : 8);
    const auto rows = static_cast<std::uint64_t>(h.rows);
    require_host_memory(
        csr_build_bytes(h.rows, h.entries * (h.symmetry == MmSymmetry::general ? 1 : 2), value) +
            rows * (4 * value + (complex ? 16 : 8)),
        fmt::format("solving the declared {} x {} system ({} entries in the file): CSR row "
                    "pointers and vectors sized by the rows",
                    h.rows, h.cols, h.entries),
        args.matrix,
        "check the size line of the file (row pointers and vectors follow the declared size, not "
        "the entries), or run on a machine with more memory");
  }
  if (complex)
    return single ? solve_as<std::complex<float>>(args) : solve_as<std::complex<double>>(args);
  return single ? solve_as<float>(args) : solve_as<double>(args);
}

}  // namespace

Command add_solve_command(CLI::App& app) {
  auto a = std::make_shared<SolveArgs>();
  auto* cmd = app.add_subcommand("solve",
                                 "Solve A x = b with GMRES(m), FGMRES, CG or BiCGStab on a device");
  cmd->add_option("--matrix", a->matrix, "Matrix Market file (.mtx or .mtx.gz)");
  cmd->add_option(
      "--generate", a->generate,
      "Generated matrix: a TRACE case (trace:1..6, trace:NXxNTHETAxNR[,...]), laplace7:N|NXxNYxNZ, "
      "a matrix family of `tessera sparse spmv --generate` (stencil2d5:N, aniso2d:N, convdiff2d:N, "
      "elasticity3d:N, powerlaw:ROWS, ...), or poisson3d:N / poisson2d:N (matrix free, mg's halo "
      "layout)");
  cmd->add_option("--rhs", a->rhs,
                  "ones, random (zero in empty rows), a Matrix Market vector file or a .npy "
                  "vector (float32 or float64)");
  cmd->add_option("--x0", a->x0, "Initial guess: zero (default), ones, random or a vector file");
  cmd->add_option("--method", a->method, "gmres, fgmres, cg or bicgstab")
      ->check(CLI::IsMember({"gmres", "fgmres", "cg", "bicgstab"}));
  cmd->add_option("--restart", a->restart, "GMRES restart length m")->check(CLI::Range(1, 100000));
  cmd->add_option(
         "--ortho", a->ortho,
         "mgs (default), cgs, cgs2, dcgs2 (delayed CGS2, not with fgmres; the fused mode's default) or bcgs2 "
         "(s-step GMRES: blocks of --sstep Krylov vectors, block CGS2; resident and fused modes, not fgmres)")
      ->check(CLI::IsMember({"mgs", "cgs", "cgs2", "dcgs2", "bcgs2"}));
  cmd->add_option("--sstep", a->sstep, "Krylov vectors per block of s-step GMRES (--ortho bcgs2)")
      ->check(CLI::Range(1, 8));
  cmd->add_option(
         "--precond", a->precond,
         "none, jacobi, block-jacobi, ilu0, amg (smoothed aggregation, --amg-*), or mg (one "
         "V-cycle; with --generate poisson3d:N)")
      ->check(CLI::IsMember({"none", "jacobi", "block-jacobi", "ilu0", "amg", "mg"}));
  std::vector<CLI::Option*> amg_opts{
      cmd->add_option("--amg-strength", a->amg_strength,
                      "AMG strength of connection: symmetric (default; |a_ij| >= theta "
                      "sqrt(|a_ii a_jj|)) or classical (|a_ij| >= theta max_k |a_ik|)")
          ->check(CLI::IsMember({"symmetric", "classical"})),
      cmd->add_option("--amg-theta", a->amg.theta, "AMG strength threshold in [0, 1) (default 0)"),
      cmd->add_option("--amg-smoother", a->amg_smoother,
                      "AMG smoother: auto (default: gauss-seidel on a CPU device, jacobi on a "
                      "GPU), gauss-seidel (multicolour, a sweep forward then back), chebyshev (in "
                      "D^-1 A, D the diagonal blocks; --amg-degree) or jacobi (weighted, "
                      "--amg-omega)")
          ->check(CLI::IsMember({"auto", "jacobi", "chebyshev", "gauss-seidel"})),
      cmd->add_option("--amg-degree", a->amg.degree, "AMG Chebyshev degree (default 2)"),
      cmd->add_option("--amg-omega", a->amg.omega,
                      "AMG Jacobi weight times rho(D^-1 A) (default 4/3: 2/3 on Poisson)"),
      cmd->add_option("--amg-presweeps", a->amg.presweeps,
                      "AMG smoothing sweeps before the coarse correction (default 2 with "
                      "gauss-seidel, 1 otherwise)")
          ->check(CLI::Range(0, 16)),
      cmd->add_option("--amg-postsweeps", a->amg.postsweeps,
                      "AMG smoothing sweeps after it (default 2 with gauss-seidel, 1 otherwise)")
          ->check(CLI::Range(0, 16)),
      cmd->add_option("--amg-cycle", a->amg_cycle, "AMG cycle: V (default) or W")
          ->check(CLI::IsMember({"V", "W", "v", "w"})),
      cmd->add_option("--amg-levels", a->amg.max_levels, "AMG levels at most (default 10)"),
      cmd->add_option("--amg-nullspace", a->amg_nullspace,
                      "AMG near-nullspace: constant (default: one constant per row of a node) or "
                      "rigid (elasticity's rigid-body modes at the nodes of --amg-coordinates, or "
                      "of --generate elasticity3d:N)")
          ->check(CLI::IsMember({"constant", "rigid"})),
      cmd->add_option("--amg-coordinates", a->amg_coordinates,
                      "AMG: the nodes' coordinates for --amg-nullspace rigid, a .npy array of "
                      "nodes x 2 or nodes x 3 in the matrix's node order"),
      cmd->add_option("--amg-coarse-size", a->amg.coarse_size,
                      "AMG: stop coarsening at this many rows (default 300; the coarsest level is "
                      "inverted densely, at most 4096)")};
  std::vector<std::string> kernel_names{"auto"};
  for (sparse::Kernel k : sparse::all_kernels()) kernel_names.emplace_back(sparse::to_string(k));
  cmd->add_option("--kernel", a->kernel,
                  "SpMV kernel: auto (default: chosen from the matrix's rows and blocks, the "
                  "reason printed and in --json) or a name of `tessera sparse spmv --kernel`")
      ->check(CLI::IsMember(kernel_names));
  auto* block_opt =
      cmd->add_option("--block", a->block,
                      "Block size of block-jacobi, rows per group of ilu0's level schedule (TRACE: "
                      "5), rows per AMG node (default: the matrix's blocks, else 1)")
          ->check(CLI::Range(1, 64));
  cmd->add_option("--tol", a->tol, "Relative residual ||r||/||b|| to stop at")
      ->check(non_negative());
  cmd->add_option("--max-iters", a->max_iters, "Maximum iterations")
      ->check(CLI::Range(0, 100000000));
  cmd->add_option("--stagnation", a->stagnation,
                  "Stop CG/BiCGStab after N iterations without a 0.1% gain on the best "
                  "residual (auto: max(200, iterations to the best, 20 n)), GMRES after a restart "
                  "cycle without one; off: never")
      ->check(CLI::Validator(
          [](const std::string& v) -> std::string {
            if (v == "off" || v == "auto") return {};
            try {
              std::size_t used = 0;
              const long n = std::stol(v, &used);
              if (used == v.size() && n >= 1 && n <= 100000000) return {};
            } catch (const std::exception&) {
            }
            return "expected auto, off or an integer from 1 to 100000000, got '" + v + "'";
          },
          "auto|N|off"));
  cmd->add_flag("--fixed", a->fixed,
                "Run exactly --max-iters iterations, no restart (the thesis's benchmark)");
  cmd->add_option("--mode", a->mode,
                  "resident, thesis or fused (GMRES with DCGS2, CG and BiCGStab on fused kernels)")
      ->check(CLI::IsMember({"resident", "thesis", "fused"}));
  cmd->add_option(
         "--basis", a->basis,
         "full (default) or compressed: GMRES keeps its Krylov basis in half (single) or float (double) "
         "precision, arithmetic in the working precision (resident and fused modes)")
      ->check(CLI::IsMember({"full", "compressed"}));
  cmd->add_option("--precision", a->precision, "single or double")
      ->check(CLI::IsMember({"single", "double"}));
  cmd->add_flag("--real", a->real, "Real values for a generated TRACE case");
  cmd->add_flag(
      "--drop-ghosts", a->drop_ghosts,
      "Solve only the block rows that exist (TRACE's ghost cells have none: 38% shorter vectors on "
      "trace:10x40x80); x keeps x0 there, the residual is the whole system's");
  cmd->add_option("--device,-d", a->device, "Device id (cpu, opencl:P:D, cuda:N, best)");
  cmd->add_option("--out,-o", a->out, "Write the solution as a Matrix Market vector");
  add_json_option(cmd, a->json, "Write the residual history, status and time split");
  return {cmd, [a, amg_opts, block_opt] {
            for (const auto* o : amg_opts)
              if (o->count() > 0 && !a->amg_given) {
                a->amg_given = true;
                a->amg_given_option = o->get_name();
                a->amg_given_value = o->as<std::string>();
              }
            a->block_given = block_opt->count() > 0;
            for (const auto* o : amg_opts) {
              if (o->count() == 0) continue;
              if (o->get_name() == "--amg-degree") a->amg_degree_given = o->as<std::string>();
              if (o->get_name() == "--amg-omega") a->amg_omega_given = o->as<std::string>();
            }
            return run_solve(*a);
          }};
}

namespace {
const RegisterCommand registered{45, add_solve_command};
}  // namespace

}  // namespace tessera::app
