// `tessera mg`: solve a Poisson problem with the thesis-exact (whole grid
// resident or streamed out of core) or the device-resident multigrid, print
// the residual history and timings.
#include <chrono>
#include <filesystem>
#include <cmath>
#include <cstdio>
#include <memory>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "apps/tessera/commands.hpp"
#include "apps/tessera/option_checks.hpp"
#include "bench/harness.hpp"
#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "core/registry.hpp"
#include "io/npy.hpp"
#include "io/vti.hpp"
#include "mg/problems.hpp"
#include "mg/solver.hpp"
#include "mg/streaming.hpp"
#include "mg/thesis.hpp"

namespace tessera::app {

namespace {

struct MgArgs {
  int dim = 2;
  long n = 1023;
  std::string mode = "resident", cycle = "V", smoother = "rbgs", precision = "double";
  std::string rhs = "random", rhs_file, out, json, device = "best";
  int pre = 1, post = 1, max_cycles = 30;
  double omega = 0, tol = 1e-8;
  // streaming mode
  std::string budget = "0", transfer = "staged";
  int queues = 4, depth = 0;
  long tile = 0;
  long host_coarse = 0;
  std::string storage = "split";
  std::string restriction = "red";
  bool no_cycle_fusion = false, row_cache = false;
};

// "268435456", "256M", "1.5G", "64K" -> bytes (powers of 1024).
std::size_t parse_bytes(const std::string& s) {
  std::size_t pos = 0;
  double v = 0;
  try {
    v = std::stod(s, &pos);
  } catch (const std::exception&) {
    pos = 0;
  }
  double scale = 1;
  const std::string unit = s.substr(pos);
  if (unit == "K" || unit == "k")
    scale = 1024.0;
  else if (unit == "M" || unit == "m")
    scale = 1024.0 * 1024;
  else if (unit == "G" || unit == "g")
    scale = 1024.0 * 1024 * 1024;
  else if (!unit.empty() || pos == 0)
    scale = -1;
  if (scale < 0 || !(v >= 0) || v * scale > 1e18)
    throw UsageError("--budget: expected bytes with an optional K/M/G suffix (got '" + s + "')");
  return static_cast<std::size_t>(v * scale);
}

template <class T>
std::vector<T> load_rhs(const MgArgs& a, const mg::Dims& d, std::vector<double>& exact) {
  if (a.rhs == "manufactured") {
    auto p = mg::manufactured_problem<T>(d);
    exact = p.exact;
    return p.b;
  }
  if (a.rhs == "file") {
    auto arr = io::read_npy(a.rhs_file);
    if (static_cast<long>(arr.data.size()) != d.points())
      throw UsageError(fmt::format("{}: holds {} values, the grid has {}", a.rhs_file,
                                   arr.data.size(), d.points()));
    for (std::size_t i = 0; i < arr.data.size(); ++i)
      if (!std::isfinite(arr.data[i]))
        throw Error(fmt::format(
            "{}: value {} (index {} in C order) is not finite: the right-hand side must be",
            a.rhs_file, arr.data[i], i));
    return std::vector<T>(arr.data.begin(), arr.data.end());
  }
  return mg::random_problem<T>(d, 1).b;
}

void print_history(const std::vector<double>& r, double bnorm) {
  std::printf("%6s %14s %12s %8s\n", "cycle", "||r||", "||r||/||b||", "factor");
  for (std::size_t c = 0; c < r.size(); ++c)
    std::printf("%6zu %14.6e %12.4e %8s\n", c, r[c], bnorm > 0 ? r[c] / bnorm : 0.0,
                c ? fmt::format("{:.4f}", r[c] / r[c - 1]).c_str() : "");
}

// --out: .npy (shape (nz,) ny, nx) or .vti (point data "u" at the interior
// points of the unit square/cube, spacing 1/(n+1), for ParaView).
bool vti_out(const std::string& out) { return std::filesystem::path(out).extension() == ".vti"; }

template <class T>
void write_solution(const std::string& out, const mg::Dims& d, const std::vector<T>& u) {
  if (!vti_out(out)) {
    std::vector<std::int64_t> shape{d.ny, d.nx};
    if (d.dim == 3) shape.insert(shape.begin(), d.nz);
    io::write_npy(out, shape, u);
    return;
  }
  io::VtiImage im;
  const double h = 1.0 / double(d.nx + 1);
  im.extent = {d.nx - 1, d.ny - 1, d.dim == 3 ? d.nz - 1 : 0};
  im.origin = {h, 1.0 / double(d.ny + 1), d.dim == 3 ? 1.0 / double(d.nz + 1) : 0.0};
  im.spacing = {h, 1.0 / double(d.ny + 1), d.dim == 3 ? 1.0 / double(d.nz + 1) : 1.0};
  im.arrays.push_back({"u", 1, std::vector<double>(u.begin(), u.end()), {}});
  io::write_vti(out, im);
}

template <class T>
int run_thesis(const MgArgs& a, std::shared_ptr<Device> dev, nlohmann::json& j) {
  if (a.dim != 2) throw UsageError("thesis mode is 2D only");
  mg::ThesisMultigrid<T> m(dev, a.n, a.n, a.post);
  mg::Dims d = m.dims(0);
  std::vector<double> exact;
  auto b = load_rhs<T>(a, d, exact);
  m.set_rhs(b);
  std::vector<double> hist{m.residual_norm()};
  double seconds = 0;
  for (int c = 0; c < a.max_cycles; ++c) {
    auto s = dev->queue().record();
    m.cycle();
    auto e = dev->queue().record();
    seconds += e->ms_since(*s) * 1e-3;
    hist.push_back(m.residual_norm());
    if (!std::isfinite(hist.back()))
      throw Error(fmt::format("the residual became {} in cycle {}: the iteration diverged",
                              hist.back(), c + 1));
  }
  double bnorm = 0;
  for (T v : b) bnorm += double(v) * double(v);
  bnorm = std::sqrt(bnorm);
  print_history(hist, bnorm);
  std::printf("thesis V(0,%d), %d cycles on %s: %.3f ms of device time (levels: %d)\n", a.post,
              a.max_cycles, dev->id().c_str(), seconds * 1e3, m.levels());
  j["residuals"] = hist;
  j["seconds"] = seconds;
  if (!a.out.empty()) write_solution(a.out, d, m.solution());
  return 0;
}

template <class T>
int run_streaming(const MgArgs& a, std::shared_ptr<Device> dev, nlohmann::json& j) {
  if (a.dim != 2) throw UsageError("streaming mode is 2D only (the thesis's design)");
  mg::StreamingOptions o;
  o.budget_bytes = parse_bytes(a.budget);
  o.queues = a.queues;
  o.transfer = mg::stream::parse_transfer_path(a.transfer);
  o.tile_w = o.tile_h = a.tile;
  o.depth = a.depth;
  o.fuse_cycles = !a.no_cycle_fusion;
  o.row_cache = a.row_cache;
  mg::StreamingMultigrid<T> m(dev, a.n, a.n, a.post, o);
  mg::Dims d = m.dims(0);
  std::vector<double> exact;
  auto b = load_rhs<T>(a, d, exact);
  m.set_rhs(b);
  std::printf(
      "streaming: problem %.1f MiB in host memory, device budget %.1f MiB (%d queues), tiles "
      "%ld x %ld, restriction depth %d, transfers %s, cycles %sfused%s\n",
      double(m.problem_bytes()) / (1 << 20), double(m.device_bytes()) / (1 << 20), a.queues,
      m.tile_w(), m.tile_h(), m.depth(), a.transfer.c_str(), m.fuses_cycles() ? "" : "not ",
      a.row_cache ? ", smoother with the row cache" : "");
  std::vector<double> hist{m.residual_norm()};
  double seconds = 0;
  for (int c = 0; c < a.max_cycles; ++c) {
    const auto t0 = std::chrono::steady_clock::now();
    m.cycle();  // returns with every transfer landed in host memory
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    hist.push_back(m.residual_norm());
    if (!std::isfinite(hist.back()))
      throw Error(fmt::format("the residual became {} in cycle {}: the iteration diverged",
                              hist.back(), c + 1));
  }
  double bnorm = 0;
  for (T v : b) bnorm += double(v) * double(v);
  bnorm = std::sqrt(bnorm);
  print_history(hist, bnorm);
  const auto& tr = m.transfers();
  std::printf(
      "streaming V(0,%d), %d cycles on %s: %.3f ms wall time, %.1f MiB up, %.1f MiB down "
      "(%.2f GB/s)\n",
      a.post, a.max_cycles, dev->id().c_str(), seconds * 1e3, tr.up_bytes / (1 << 20),
      tr.down_bytes / (1 << 20),
      seconds > 0 ? (tr.up_bytes + tr.down_bytes) / seconds * 1e-9 : 0.0);
  j["residuals"] = hist;
  j["seconds"] = seconds;
  j["streaming"] = {{"budget_bytes", m.device_bytes()},
                    {"problem_bytes", m.problem_bytes()},
                    {"queues", a.queues},
                    {"transfer", a.transfer},
                    {"tile", m.tile_w()},
                    {"depth", m.depth()},
                    {"cycle_fusion", m.fuses_cycles()},
                    {"row_cache", a.row_cache},
                    {"up_bytes", tr.up_bytes},
                    {"down_bytes", tr.down_bytes}};
  if (!a.out.empty()) write_solution(a.out, d, m.solution());
  return 0;
}

template <class T>
int run_resident(const MgArgs& a, std::shared_ptr<Device> dev, nlohmann::json& j) {
  mg::Options o;
  o.cycle = a.cycle == "W"   ? mg::CycleType::W
            : a.cycle == "F" ? mg::CycleType::F
                             : mg::CycleType::V;
  o.fmg = a.cycle == "FMG";
  o.pre = a.pre;
  o.post = a.post;
  o.smoother = a.smoother == "jacobi" ? mg::Smoother::jacobi : mg::Smoother::rbgs;
  o.omega = a.omega;
  o.host_coarse_points = a.host_coarse;
  o.split = a.storage == "split";
  o.red_restriction = a.restriction == "red";
  o.tol = a.tol;
  o.max_cycles = a.max_cycles;
  mg::Dims d{a.n, a.n, a.dim == 3 ? a.n : 1, a.dim};
  mg::Solver<T> m(dev, d, o);
  std::vector<double> exact;
  m.set_rhs(load_rhs<T>(a, d, exact));
  auto rep = m.solve();
  print_history(rep.residuals, rep.rhs_norm);
  const double dofs = double(d.points());
  std::printf(
      "%s after %d cycles (%s%s(%d,%d), %s) on %s: %.3f ms device time, %.3g DOF/s, "
      "asymptotic factor %.4f\n",
      mg::to_string(rep.status).c_str(), rep.cycles, o.fmg ? "FMG + " : "",
      a.cycle == "FMG" ? "V" : a.cycle.c_str(), a.pre, a.post, a.smoother.c_str(),
      dev->id().c_str(), rep.seconds * 1e3, rep.seconds > 0 ? dofs / rep.seconds : 0.0,
      rep.asymptotic_factor());
  j["status"] = mg::to_string(rep.status);
  j["residuals"] = rep.residuals;
  j["cycles"] = rep.cycles;
  j["seconds"] = rep.seconds;
  j["asymptotic_factor"] = rep.asymptotic_factor();
  int split_levels = 0;
  for (int l = 0; l < m.levels(); ++l) split_levels += m.dims(l).split ? 1 : 0;
  j["storage"] = a.storage;
  j["restriction"] = a.restriction;
  j["split_levels"] = split_levels;
  if (!exact.empty()) {
    const double err = mg::max_error(m.solution(), exact);
    std::printf("max error against the continuous solution: %.3e\n", err);
    j["max_error"] = err;
  }
  if (!a.out.empty()) write_solution(a.out, d, m.solution());
  if (rep.status != mg::Status::converged) {
    std::fprintf(stderr, "tessera mg: %s: relative residual %.3e did not reach %.1e\n",
                 mg::to_string(rep.status).c_str(), rep.relative_residual(), a.tol);
    return 1;
  }
  return 0;
}

}  // namespace

Command add_mg_command(CLI::App& app) {
  auto a = std::make_shared<MgArgs>();
  auto* cmd = app.add_subcommand("mg", "Geometric multigrid Poisson solver");
  cmd->add_option("--dim", a->dim, "2 or 3")->check(CLI::IsMember({2, 3}));
  cmd->add_option("--n", a->n, "Interior points per side (thesis: 2^k-1; resident: c*2^k-1)")
      ->check(CLI::Range(1L, 1L << 20));
  cmd->add_option("--mode", a->mode, "thesis, streaming (thesis cycle, out of core) or resident")
      ->check(CLI::IsMember({"thesis", "streaming", "resident"}));
  cmd->add_option("--cycle", a->cycle, "V, W, F or FMG")
      ->check(CLI::IsMember({"V", "W", "F", "FMG"}));
  cmd->add_option("--pre", a->pre, "Pre-smoothing steps")->check(CLI::Range(0, 1000));
  cmd->add_option("--post", a->post, "Post-smoothing steps (thesis: nu)")
      ->check(CLI::Range(0, 1000));
  cmd->add_option("--smoother", a->smoother, "jacobi or rbgs")
      ->check(CLI::IsMember({"jacobi", "rbgs"}));
  cmd->add_option("--omega", a->omega,
                  "Jacobi damping, 0 < omega < 2 (default: 4/5 in 2D, 6/7 in 3D)")
      ->check(interval(0, 2, true, true));
  cmd->add_option("--host-coarse", a->host_coarse,
                  "Resident: run levels of at most this many points on the host CPU (0: none)")
      ->check(CLI::Range(0L, 1L << 40));
  cmd->add_option(
         "--storage", a->storage,
         "Resident, 3D rbgs: split (default: red and black points stored apart on levels of 2^20 "
         "points or more) or natural; the same results")
      ->check(CLI::IsMember({"natural", "split"}));
  cmd->add_option(
         "--restriction", a->restriction,
         "Resident, rbgs with pre-smoothing: red (default: only the red points' residuals are "
         "restricted, the black ones vanish after the sweep) or all")
      ->check(CLI::IsMember({"red", "all"}));
  cmd->add_option("--precision", a->precision, "float or double")
      ->check(CLI::IsMember({"float", "double"}));
  cmd->add_option("--tol", a->tol, "Relative residual to stop at (0: run --max-cycles cycles)")
      ->check(non_negative());
  cmd->add_option("--max-cycles", a->max_cycles, "Maximum cycles (thesis: cycles run)")
      ->check(CLI::Range(1, 100000));
  cmd->add_option("--rhs", a->rhs, "random, manufactured or file")
      ->check(CLI::IsMember({"random", "manufactured", "file"}));
  cmd->add_option("--rhs-file", a->rhs_file, "Right-hand side as .npy (selects --rhs file)");
  cmd->add_option("--out,-o", a->out,
                  "Write the solution: FILE.npy (NumPy) or FILE.vti (VTK image data)");
  cmd->add_option("--device,-d", a->device, "Device id");
  cmd->add_option(
      "--budget", a->budget,
      "Streaming: device memory for tiles, bytes (K/M/G suffix; 0: half the device, at most the problem)");
  cmd->add_option("--queues", a->queues, "Streaming: queues/streams used round-robin")
      ->check(CLI::Range(1, 64));
  cmd->add_option("--transfer", a->transfer, "Streaming: rect, contiguous, pinned or staged")
      ->check(CLI::IsMember({"rect", "contiguous", "pinned", "staged"}));
  cmd->add_option("--tile", a->tile,
                  "Streaming: output tile side in points (0: the largest that fits)")
      ->check(CLI::Range(0L, 1L << 20));
  cmd->add_option("--depth", a->depth,
                  "Streaming: restriction levels per device visit (0: as many as fit)")
      ->check(CLI::Range(0, 64));
  cmd->add_flag(
      "--no-cycle-fusion", a->no_cycle_fusion,
      "Streaming: restrict in a separate pass instead of fusing it into the previous cycle's smoothing");
  cmd->add_flag(
      "--row-cache", a->row_cache,
      "Streaming: smooth with the thesis's local-memory row cache (kernel_smoothing_cache; same results)");
  add_json_option(cmd, a->json, "Write the residual history and timings");
  return {
      cmd, [a, cmd] {
        if (a->rhs == "file" && a->rhs_file.empty())
          throw UsageError("--rhs file needs --rhs-file PATH");
        // A file given is the right-hand side: never a random one instead.
        if (!a->rhs_file.empty()) {
          if (cmd->count("--rhs") && a->rhs != "file")
            throw UsageError(fmt::format(
                "--rhs-file {} gives the right-hand side, --rhs {} another: leave --rhs out "
                "(or say --rhs file)",
                a->rhs_file, a->rhs));
          a->rhs = "file";
        }
        // Options a mode does not have are refused, not silently ignored.
        const bool resident = a->mode == "resident", streaming = a->mode == "streaming";
        for (const char* opt : {"--tol", "--pre", "--cycle", "--smoother", "--omega",
                                "--host-coarse", "--storage", "--restriction"})
          if (!resident && cmd->count(opt))
            throw UsageError(fmt::format(
                "{} is an option of --mode resident; the {} mode runs the thesis's V(0,ν) cycle "
                "(--post ν) for --max-cycles cycles",
                opt, a->mode));
        for (const char* opt : {"--budget", "--queues", "--transfer", "--tile", "--depth",
                                "--no-cycle-fusion", "--row-cache"})
          if (!streaming && cmd->count(opt))
            throw UsageError(fmt::format("{} is an option of --mode streaming", opt));
        if (!a->out.empty() && !vti_out(a->out) &&
            std::filesystem::path(a->out).extension() != ".npy")
          throw UsageError("--out " + a->out + ": give a .npy or a .vti file");
        auto dev = open_device(a->device);
        nlohmann::json j = {{"command", "mg"},
                            {"mode", a->mode},
                            {"dim", a->dim},
                            {"n", a->n},
                            {"precision", a->precision},
                            {"device", bench::to_json(dev->info())},
                            {"run", bench::run_metadata()}};
        const bool dbl = a->precision == "double";
        int rc = a->mode == "thesis"
                     ? (dbl ? run_thesis<double>(*a, dev, j) : run_thesis<float>(*a, dev, j))
                 : a->mode == "streaming"
                     ? (dbl ? run_streaming<double>(*a, dev, j) : run_streaming<float>(*a, dev, j))
                     : (dbl ? run_resident<double>(*a, dev, j) : run_resident<float>(*a, dev, j));
        if (!a->json.empty()) write_output(a->json, j.dump(2) + "\n");
        return rc;
      }};
}

namespace {
const RegisterCommand registered{30, add_mg_command};
}  // namespace

}  // namespace tessera::app
