// `tessera lbm`: run a lattice Boltzmann case (the production solver) or the
// thesis's gas simulation, with progress/MLUPS, outputs, checkpoints and a
// summary JSON. Exit codes: 1 runtime (divergence, corrupt files, out of
// memory), 2 usage (unstable or invalid parameters).
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "apps/tessera/commands.hpp"
#include "apps/tessera/option_checks.hpp"
#include "bench/harness.hpp"
#include "core/atomic_file.hpp"
#include "tessera/config.hpp"
#include "core/error.hpp"
#include "core/interrupt.hpp"
#include "core/progress.hpp"
#include "core/registry.hpp"
#include "lbm/case_file.hpp"
#include "lbm/cases.hpp"
#include "lbm/checkpoint.hpp"
#include "lbm/distributed.hpp"
#include "lbm/driver.hpp"
#include "lbm/output.hpp"
#include "lbm/thesis_gas.hpp"
#include "lbm/thesis_gas_parts.hpp"
#include "skeleton/team.hpp"
#if TESSERA_HAVE_MPI
#include "skeleton/mpi_comm.hpp"
#endif

namespace tessera::app {

namespace {

struct LbmArgs {
  std::string case_name = "cavity", lattice, collision = "bgk", precision = "fp32",
              streaming = "auto";
  std::vector<long> size;
  long steps = -1, every = 0, slice_z = -1;
  double re = 100, tau = 0, u = 0.1, diameter = 0;
  double trt_magic = 0;  ///< 0: the case's (lbm::kTrtMagicWalls or lbm::trt_magic_open)
  int gpus = 1;
  bool mpi = false;  ///< --mpi: the parts span the MPI ranks (--gpus per rank)
  std::string device = "best", out, json, png = "speed", checkpoint, restart, import_frame,
              export_frame;
  std::vector<double> png_range;  // --png-range LO HI
  std::string thesis_layout = "aos";
  std::string thesis_impl = "native";
  std::string config;                            ///< --config FILE
  std::shared_ptr<lbm::CaseFromFile> from_file;  ///< its [domain] ... tables, if any
};

lbm::Grid grid_of(const std::vector<long>& s, lbm::Grid fallback) {
  if (s.empty()) return fallback;
  lbm::Grid g{s[0], s.size() > 1 ? s[1] : s[0], s.size() > 2 ? s[2] : (s.size() > 1 ? 1 : s[0])};
  return g;
}

void check_mach(double u, const char* what) {
  if (u == 0)
    throw UsageError(fmt::format(
        "--u 0: the {} must be non-zero (it sets tau through --re, or drives the flow)", what));
  if (lbm::mach(std::fabs(u)) > lbm::kMaxMach)
    throw UsageError(
        fmt::format("--u {}: the {} is Mach {:.3g} > {}: too fast for the lattice Boltzmann model",
                    u, what, lbm::mach(std::fabs(u)), lbm::kMaxMach));
}

// tau = 1/2 + 3 u L / Re: a Reynolds number so high (or a speed so low) that
// tau rounds to 1/2 leaves no viscosity; say which options did it.
void check_tau_from_re(const LbmArgs& a, const lbm::Case& c) {
  const bool from_re =
      a.case_name == "cavity" || a.case_name == "cylinder" || a.case_name == "sphere";
  if (from_re && !(c.config.tau > 0.5))
    throw UsageError(fmt::format(
        "--re {} with --u {} gives tau = {:.17g}: no viscosity left (tau must exceed 0.5); "
        "lower --re, raise --u or use more cells",
        a.re, a.u, c.config.tau));
}

lbm::Case make_case(const LbmArgs& a) {
  if (a.from_file) return a.from_file->c;
  const lbm::Lattice l = a.lattice.empty() ? lbm::Lattice::d3q19 : lbm::parse_lattice(a.lattice);
  const bool two_d = l == lbm::Lattice::d2q9;
  if (a.case_name == "cavity") {
    // N fluid cells per side; 3D lattices: periodic in z with Z cells (default 1)
    if (a.size.size() > 1 && a.size[0] != a.size[1])
      throw UsageError("the cavity is square: give --size N (or N N Z)");
    const long n = a.size.empty() ? 129 : a.size[0], nz = a.size.size() > 2 ? a.size[2] : 1;
    check_mach(a.u, "lid speed");
    return lbm::cavity(l, n, a.re, a.u, nz);
  }
  if (a.case_name == "poiseuille") {
    const lbm::Grid g = grid_of(a.size, {1, 34, 1});
    check_mach(a.u, "centre-line speed");
    return lbm::poiseuille(l, g.ny - 2, a.tau > 0 ? a.tau : 0.8, a.u, g.nx, g.nz);
  }
  if (a.case_name == "tgv") {
    const lbm::Grid g = grid_of(a.size, {64, 64, two_d ? 1 : 64});
    check_mach(a.u, "vortex speed");
    return lbm::taylor_green(l, g.nx, a.tau > 0 ? a.tau : 0.6, a.u, g.nz);
  }
  if (a.case_name == "cylinder") {
    const lbm::Grid g = grid_of(a.size, {400, 100, two_d ? 1 : 4});
    check_mach(a.u, "inlet speed");
    return lbm::cylinder(l, g, a.diameter > 0 ? a.diameter : double(g.ny) / 5.0, a.re, a.u);
  }
  if (a.case_name == "sphere") {
    // its walls and drag are set up on D3Q19's links only: another lattice
    // is refused, not replaced
    if (l != lbm::Lattice::d3q19)
      throw UsageError(fmt::format("--lattice {}: the sphere case runs on D3Q19 only", a.lattice));
    const lbm::Grid g = grid_of(a.size, {160, 64, 64});
    check_mach(a.u, "inlet speed");
    return lbm::sphere(g, a.diameter > 0 ? a.diameter : double(g.ny) / 4.0, a.re, a.u);
  }
  throw UsageError("--case '" + a.case_name + "': unknown case");
}

// The bodies' links with interpolated bounce-back: the case's and those the
// solver runs (q = 1/2 and links beside a wall or a boundary cell keep
// halfway bounce-back), printed and in the JSON.
void print_links(const lbm::Case& c, std::size_t kept, nlohmann::json& j) {
  if (c.links.empty()) return;
  std::printf("interpolated bounce-back: %zu links into the bodies, %zu interpolated\n",
              c.links.size(), kept);
  j["interpolated_links"] = kept;
}

// A case file's unit conversion, printed and in the JSON.
void print_units(const LbmArgs& a, const lbm::Config& cfg, nlohmann::json& j) {
  if (!a.from_file) return;
  const lbm::Units& u = a.from_file->units;
  std::printf("%s\n", u.describe(cfg.tau).c_str());
  j["units"] = {{"physical", u.physical},
                {"dx_m", u.dx},
                {"dt_s", u.dt},
                {"density_kg_m3", u.density},
                {"speed_lattice", u.speed},
                {"speed_m_s", u.speed_si},
                {"viscosity_lattice", (cfg.tau - 0.5) / 3.0},
                {"reference_length_cells", u.length}};
  // a force in lattice units times this is newtons (rho dx^4 / dt^2; 2D: per dx of depth)
  if (u.physical && u.density > 0)
    j["units"]["newton_per_lattice_force"] = u.density * std::pow(u.dx, 4) / (u.dt * u.dt);
}

// --config FILE: its top-level keys are options; a [domain] table makes it a
// case of its own, which the built-in cases' options would contradict.
void read_config(CLI::App& cmd, LbmArgs& a) {
  const auto entries = io::read_case_file(a.config, {true, true});
  apply_case_file_options(cmd, a.config, entries, "lbm");
  if (!lbm::describes_a_case(entries)) return;
  for (const char* o : {"--case", "--size", "--re", "--tau", "--u", "--diameter"})
    if (cmd.get_option(o)->count() > 0)
      throw UsageError(fmt::format(
          "{} and the case file {}: its [domain] table describes the case (give one or the other)",
          o, a.config));
  const lbm::Lattice l = a.lattice.empty() ? lbm::Lattice::d3q19 : lbm::parse_lattice(a.lattice);
  // STL bodies are voxelized on the run's device (several devices: the CPU)
  const auto voxels = a.gpus == 1 ? open_device(a.device) : nullptr;
  a.from_file =
      std::make_shared<lbm::CaseFromFile>(lbm::case_from_file(a.config, entries, l, voxels));
  for (const std::string& w : a.from_file->warnings)
    std::fprintf(stderr, "tessera lbm: warning: %s\n", w.c_str());
  a.case_name = "file";
  // [run] time and output-interval, unless the command line gives --steps
  // and --every (the command line wins, as for the file's top-level keys)
  if (a.from_file->steps >= 0 && cmd.get_option("--steps")->count() == 0)
    a.steps = a.from_file->steps;
  if (a.from_file->every >= 0 && cmd.get_option("--every")->count() == 0)
    a.every = a.from_file->every;
}

// The case with the run's collision, precision and TRT parameter, validated:
// the same for one device and several.
lbm::Case configured_case(const LbmArgs& a) {
  lbm::Case c = make_case(a);
  c.config.collision = lbm::parse_collision(a.collision);
  c.config.precision = lbm::parse_precision(a.precision);
  if (a.tau > 0 &&
      (a.case_name == "cavity" || a.case_name == "cylinder" || a.case_name == "sphere"))
    throw UsageError("--tau follows from --re for the " + a.case_name + " case; give --re instead");
  if (a.trt_magic > 0) lbm::set_trt_magic(c.config, a.trt_magic, "--trt-magic");
  check_tau_from_re(a, c);
  c.config.validate();
  return c;
}

// The case's lattice must fit before its flags and fields are built on the host.
void preflight(const LbmArgs& a, const Device& dev) {
  lbm::Config c;
  c.lattice = a.lattice.empty() ? lbm::Lattice::d3q19 : lbm::parse_lattice(a.lattice);
  c.precision = lbm::parse_precision(a.precision);
  const long x = a.size.empty() ? 1 : a.size[0];
  c.grid = {x, a.size.size() > 1 ? a.size[1] : x, a.size.size() > 2 ? a.size[2] : 1};
  if (a.from_file) c.grid = a.from_file->c.config.grid;
  lbm::check_fits(c, dev);
}

// The run options both solvers share, and the progress bar.
lbm::RunOptions run_options(const LbmArgs& a, Progress& bar) {
  lbm::RunOptions o;
  o.steps = a.steps >= 0 ? a.steps : 1000;
  o.steps_given = a.steps >= 0;
  o.every = a.every;
  o.out = a.out;
  o.png = a.png;
  o.png_range = a.png_range;
  o.slice_z = a.slice_z;
  o.checkpoint = a.checkpoint;
  if (a.from_file && a.from_file->units.physical) {
    o.seconds_per_step = a.from_file->units.dt;
    o.metres_per_cell = a.from_file->units.dx;
  }
  o.progress = [&bar](long done, long total, double mlups) {
    bar.step(fmt::format("step {}/{}  {:.0f} MLUPS", done, total, mlups));
  };
  return o;
}

long chunks_of(const LbmArgs& a) {
  const long steps = a.steps >= 0 ? a.steps : 1000;
  const long chunk = a.every > 0 ? a.every : std::max(1L, std::min<long>(steps, 1000));
  return (steps + chunk - 1) / chunk;
}

void print_summary(const lbm::RunSummary& r, const nlohmann::json& j, const char* clock) {
  std::printf("%ld steps in %.3f s of %s: %.1f MLUPS; mass change %.3e (relative)\n", r.steps,
              r.seconds, clock, r.mlups,
              r.mass_start ? (r.mass_end - r.mass_start) / r.mass_start : 0.0);
  for (const char* key :
       {"ghia_max_deviation", "poiseuille_l2_error", "drag_coefficient", "reynolds"})
    if (j.contains(key)) std::printf("%s: %.6g\n", key, j[key].get<double>());
}

// A checkpoint continues only the run it was written by: the lattice and
// every constant of the case (another one is a usage error, exit 2, as in
// every module: the file is fine, the options differ), so that options given
// with --restart are used or refused, never silently ignored.
void check_restart(const LbmArgs& a, const lbm::Config& r, const lbm::Config& want) {
  if (r.grid.nx != want.grid.nx || r.grid.ny != want.grid.ny || r.grid.nz != want.grid.nz ||
      r.lattice != want.lattice || r.precision != want.precision)
    throw UsageError(fmt::format(
        "{}: the checkpoint holds a {}x{}x{} {} {} lattice, the run asks for {}x{}x{} {} {}",
        a.restart, r.grid.nx, r.grid.ny, r.grid.nz, lbm::to_string(r.lattice),
        lbm::to_string(r.precision), want.grid.nx, want.grid.ny, want.grid.nz,
        lbm::to_string(want.lattice), lbm::to_string(want.precision)));
  std::vector<std::string> differ;
  auto cmp = [&](const char* what, const std::string& file, const std::string& run) {
    if (file != run)
      differ.push_back(fmt::format("{} {} in the checkpoint, {} in the run", what, file, run));
  };
  auto vec = [](const std::array<double, 3>& v) {
    return fmt::format("({:.17g}, {:.17g}, {:.17g})", v[0], v[1], v[2]);
  };
  cmp("collision", lbm::to_string(r.collision), lbm::to_string(want.collision));
  cmp("tau (from --re or --tau)", fmt::format("{:.17g}", r.tau), fmt::format("{:.17g}", want.tau));
  if (r.collision == lbm::Collision::trt)
    cmp("TRT magic parameter", fmt::format("{:.17g}", r.trt_magic),
        fmt::format("{:.17g}", want.trt_magic));
  cmp("body force", vec(r.force), vec(want.force));
  cmp("wall velocity (--u)", vec(r.u_wall), vec(want.u_wall));
  cmp("inlet velocity (--u)", vec(r.u_in), vec(want.u_in));
  cmp("outlet density", fmt::format("{:.17g}", r.rho_out), fmt::format("{:.17g}", want.rho_out));
  cmp("inlet profile", lbm::describe(r.inlet), lbm::describe(want.inlet));
  if (!differ.empty()) {
    std::string list;
    for (const auto& d : differ) list += (list.empty() ? "" : "; ") + d;
    throw UsageError(fmt::format(
        "{}: the checkpoint was written by another run: {} (restart with the options of the "
        "run that wrote it)",
        a.restart, list));
  }
}

int run_production(const LbmArgs& a, const std::shared_ptr<Device>& dev, nlohmann::json& j) {
  preflight(a, *dev);
  const lbm::Case c = configured_case(a);
  std::unique_ptr<lbm::Solver> s;
  if (!a.restart.empty()) {
    s = lbm::read_checkpoint(a.restart, dev);
    check_restart(a, s->config(), c.config);
    s->set_links(c.links);  // (not in the checkpoint: the case's surface)
  } else {
    s = std::make_unique<lbm::Solver>(dev, c.config);
    c.apply(*s);
  }
  const auto& cfg = s->config();
  std::printf(
      "lbm %s: %s %s %s, %ldx%ldx%ld cells, tau %.5g (nu %.5g%s), %ld B/cell/step streamed, on "
      "%s\n",
      c.name.c_str(), lbm::to_string(cfg.lattice).c_str(), lbm::to_string(cfg.collision).c_str(),
      lbm::to_string(cfg.precision).c_str(), cfg.grid.nx, cfg.grid.ny, cfg.grid.nz, cfg.tau,
      cfg.viscosity(),
      cfg.collision == lbm::Collision::trt
          ? fmt::format(", TRT Lambda {:.4g}", cfg.trt_magic).c_str()
          : "",
      long(2 * cfg.state_bytes() / std::uint64_t(cfg.grid.cells()) - 1), dev->id().c_str());
  print_links(c, s->links().size(), j);
  print_units(a, cfg, j);
  std::fflush(stdout);  // the run has started: say so now, also into a file
  Progress bar("lbm " + c.name, int(chunks_of(a)));
  const lbm::RunSummary r = lbm::run(*s, c, run_options(a, bar), j);
  print_summary(r, j, "device time");
  j["case"] = c.name;
  j["config"] = {{"lattice", lbm::to_string(cfg.lattice)},
                 {"collision", lbm::to_string(cfg.collision)},
                 {"precision", lbm::to_string(cfg.precision)},
                 {"grid", {cfg.grid.nx, cfg.grid.ny, cfg.grid.nz}},
                 {"tau", cfg.tau},
                 {"streaming", "esoteric-pull"}};
  if (cfg.collision == lbm::Collision::trt) j["config"]["trt_magic"] = cfg.trt_magic;
  j["summary"] = r.to_json();
  return 0;
}

// --gpus N (or --streaming ab): the same case on N devices (skeleton field,
// z-slabs, crossing populations only), the same run loop as one device.
// Checkpoints hold the gathered lattice: a restart may use another N.
// --mpi: the parts span the ranks mpirun started (one rank per GPU set:
// cuda:N of rank r on a host is cuda:N + r --gpus); every rank computes the
// forces and checks, rank 0 alone prints and writes (`rank0`).
int run_distributed(const LbmArgs& a, const std::string& device_id, nlohmann::json& j,
                    bool& rank0) {
  std::shared_ptr<skeleton::Comm> comm;
  std::string id = device_id;
#if TESSERA_HAVE_MPI
  std::unique_ptr<skeleton::MpiSession> mpi;
  if (a.mpi) {
    mpi = std::make_unique<skeleton::MpiSession>(nullptr, nullptr);
    comm = mpi->world();
    if (id.rfind("cuda:", 0) == 0)
      id = fmt::format("cuda:{}", std::stoi(id.substr(5)) + mpi->local_rank() * a.gpus);
  }
#else
  if (a.mpi) throw UsageError("--mpi: this tessera was built without MPI");
#endif
  preflight(a, *open_device(id));
  const lbm::Case c = configured_case(a);
  auto team = skeleton::Team::open(id, a.gpus, comm);
  rank0 = team.rank() == 0;
  if (!rank0 && !std::freopen("/dev/null", "w", stdout))  // rank 0 reports for every rank
    throw Error("--mpi: rank " + std::to_string(team.rank()) + " cannot silence its output");
  std::unique_ptr<lbm::DistributedSolver> d;
  if (!a.restart.empty()) {
    d = std::make_unique<lbm::DistributedSolver>(lbm::read_distributed_checkpoint(a.restart, team));
    check_restart(a, d->config(), c.config);
    d->set_links(c.links);
  } else {
    d = std::make_unique<lbm::DistributedSolver>(team, c.config);
    c.apply(*d);
  }
  const auto& cfg = d->config();
  std::printf(
      "lbm %s on %d x %s%s: %s %s %s, %ldx%ldx%ld cells, z-slabs, A-B pull, crossing populations "
      "only\n",
      c.name.c_str(), team.total_parts(), device_id.c_str(),
      comm ? fmt::format(" ({} MPI ranks)", team.ranks()).c_str() : "",
      lbm::to_string(cfg.lattice).c_str(), lbm::to_string(cfg.collision).c_str(),
      lbm::to_string(cfg.precision).c_str(), cfg.grid.nx, cfg.grid.ny, cfg.grid.nz);
  print_links(c, d->links().size(), j);
  print_units(a, cfg, j);
  std::fflush(stdout);
  Progress bar("lbm " + c.name, rank0 ? int(chunks_of(a)) : 0);
  lbm::RunOptions o = run_options(a, bar);
  if (!rank0) {
    o.out.clear();  // (the checkpoint's gather needs every rank; rank 0 writes it)
    o.progress = nullptr;
  }
  if (comm) o.agree = [&team](int signal) { return team.max_over_ranks(signal); };
  lbm::RunSummary r;
  try {
    r = lbm::run(*d, c, o, j);
  } catch (const Interrupted&) {
    if (rank0) throw;  // every rank stops here together; rank 0 says where the checkpoint is
    return 130;
  } catch (const std::exception& e) {
#if TESSERA_HAVE_MPI
    // an error one rank may meet alone (rank 0's outputs: a full disk):
    // the others would wait for it in the next collective
    if (team.ranks() > 1) {
      std::fprintf(stderr, "tessera: error (rank %d of %d): %s\n", team.rank(), team.ranks(),
                   e.what());
      skeleton::MpiSession::abort_all(1);
    }
#endif
    throw;
  }
  print_summary(r, j, "wall clock");
  const auto& x = d->last_exchange();
  std::printf("halo per step: %zu B between devices, %zu B via MPI\n", x.peer_bytes + x.local_bytes,
              x.mpi_bytes);
  j["case"] = c.name;
  j["parts"] = team.total_parts();
  j["ranks"] = team.ranks();
  j["config"] = {{"lattice", lbm::to_string(cfg.lattice)},
                 {"collision", lbm::to_string(cfg.collision)},
                 {"precision", lbm::to_string(cfg.precision)},
                 {"grid", {cfg.grid.nx, cfg.grid.ny, cfg.grid.nz}},
                 {"tau", cfg.tau},
                 {"streaming", "ab-pull"}};
  if (cfg.collision == lbm::Collision::trt) j["config"]["trt_magic"] = cfg.trt_magic;
  j["summary"] = r.to_json();
  j["summary"]["halo_bytes_per_step"] = x.peer_bytes + x.local_bytes + x.mpi_bytes;
  return 0;
}

int run_thesis(const LbmArgs& a, const std::shared_ptr<Device>& dev, nlohmann::json& j) {
  const lbm::Grid g = grid_of(a.size, {100, 100, 100});
  lbm::ThesisGas sim(dev, g, lbm::parse_thesis_layout(a.thesis_layout));
  if (a.import_frame.empty())
    sim.generate();
  else
    sim.import_frame(a.import_frame);
  const long steps = a.steps >= 0 ? a.steps : 1;
  std::vector<double> ms;
  for (long i = 0; i < steps; ++i) {
    auto t0 = dev->queue().record();
    sim.step();
    auto t1 = dev->queue().record();
    dev->synchronize();
    ms.push_back(t1->ms_since(*t0));
    if (a.json.empty())
      std::printf("%g / %g\n", ms.back() * 1e-3,
                  ms.back() * 1e-3);  // total / kernel (1 GPU: no halo)
  }
  double total = 0;
  for (double m : ms) total += m;
  const double mlups = total > 0 ? double(g.cells()) * double(steps) / (total * 1e-3) * 1e-6 : 0.0;
  std::printf("thesis-gas %ldx%ldx%ld, %ld iterations on %s: %.4f s, %.1f MLUPS (A-B, %s)\n", g.nx,
              g.ny, g.nz, steps, dev->id().c_str(), total * 1e-3, mlups,
              sim.layout() == lbm::ThesisLayout::aos ? "76 B AoS cells" : "structure of arrays");
  if (!a.export_frame.empty()) sim.export_frame(a.export_frame);
  j["case"] = "thesis-gas";
  j["layout"] = lbm::to_string(sim.layout());
  j["grid"] = {g.nx, g.ny, g.nz};
  j["summary"] = {{"steps", steps}, {"seconds", total * 1e-3}, {"mlups", mlups}, {"step_ms", ms}};
  return 0;
}

// thesis-gas -g N or --thesis-impl mapstencil: z-slabs of whole cells,
// per-iteration "total / w/o sync".
int run_thesis_parts(const LbmArgs& a, const std::string& device_id, nlohmann::json& j) {
  const lbm::Grid g = grid_of(a.size, {100, 100, 100});
  lbm::ThesisGasParts sim(skeleton::Team::open(device_id, a.gpus), g,
                          lbm::parse_thesis_impl(a.thesis_impl));
  if (a.import_frame.empty())
    sim.generate();
  else
    sim.import_frame(a.import_frame);
  const long steps = a.steps >= 0 ? a.steps : 1;
  for (long i = 0; i < steps; ++i) {
    const double t0 = sim.total_seconds(), k0 = sim.kernel_seconds();
    sim.step();
    if (a.json.empty())
      std::printf("%g / %g\n", sim.total_seconds() - t0, sim.kernel_seconds() - k0);
  }
  const double mlups = sim.total_seconds() > 0
                           ? double(g.cells()) * double(steps) / sim.total_seconds() * 1e-6
                           : 0.0;
  std::printf(
      "thesis-gas %ldx%ldx%ld on %d x %s (%s), %ld iterations: total %.4f s, w/o sync %.4f s, %.1f MLUPS\n",
      g.nx, g.ny, g.nz, a.gpus, device_id.c_str(), lbm::to_string(sim.impl()), steps,
      sim.total_seconds(), sim.kernel_seconds(), mlups);
  if (!a.export_frame.empty()) sim.export_frame(a.export_frame);
  j["case"] = "thesis-gas";
  j["implementation"] = lbm::to_string(sim.impl());
  j["grid"] = {g.nx, g.ny, g.nz};
  j["summary"] = {{"steps", steps},
                  {"total_seconds", sim.total_seconds()},
                  {"kernel_seconds", sim.kernel_seconds()},
                  {"mlups", mlups}};
  return 0;
}

}  // namespace

Command add_lbm_command(CLI::App& app) {
  auto a = std::make_shared<LbmArgs>();
  auto* cmd = app.add_subcommand(
      "lbm", "Lattice Boltzmann flows (D2Q9/D3Q19/D3Q27) and the thesis's gas simulation");
  cmd->add_option(
      "--config", a->config,
      "TOML case file: top-level keys = these options without dashes; tables [domain], "
      "[units], [flow], [boundary], [[body]], [[probe]], [run] describe a case of its own "
      "(docs/lbm.md)");
  cmd->add_option("--case", a->case_name, "thesis-gas, cavity, poiseuille, tgv, cylinder or sphere")
      ->check(CLI::IsMember({"thesis-gas", "cavity", "poiseuille", "tgv", "cylinder", "sphere"}));
  cmd->add_option("--size,-s", a->size, "Cells: X [Y [Z]] (thesis-gas: -s x y z)")
      ->expected(1, 3)
      ->check(CLI::Range(1L, 1L << 20));
  cmd->add_option(
         "--steps,-n", a->steps,
         "The step the run ends at (default 1000; with --restart the run continues to it; thesis-gas: "
         "iterations, default 1)")
      ->check(CLI::Range(0L, 1L << 40));
  cmd->add_option("--re", a->re, "Reynolds number (cavity, cylinder, sphere)")->check(positive());
  cmd->add_option("--tau", a->tau, "Relaxation time (poiseuille, tgv); must exceed 0.5")
      ->check(interval(0.5, 1e308, true, false));
  cmd->add_option("--u", a->u,
                  "Characteristic speed in lattice units (lid, inlet, centre line, vortex)");
  cmd->add_option("--diameter", a->diameter, "Obstacle diameter in cells (cylinder, sphere)")
      ->check(positive());
  cmd->add_option("--lattice", a->lattice, "D2Q9, D3Q19 (default) or D3Q27");
  cmd->add_option("--collision", a->collision, "bgk or trt");
  cmd->add_option("--trt-magic", a->trt_magic,
                  "TRT: Lambda = (tau+ - 1/2)(tau- - 1/2) (default 3/16 with walls only; with an "
                  "inlet or outlet 1/12, less above grid Reynolds number 10: docs/lbm.md)")
      ->check(positive());
  cmd->add_option("--precision", a->precision,
                  "fp32, fp16s or fp64 (storage; fp16s computes in fp32)");
  cmd->add_option(
         "--streaming", a->streaming,
         "auto, esoteric (in place, one copy; one device) or ab (two lattices, pull; any number of devices)")
      ->check(CLI::IsMember({"auto", "esoteric", "ab"}));
  cmd->add_option(
         "--gpus,-g", a->gpus,
         "Devices: N > 1 splits z over N devices from --device on (cuda:0 -> cuda:0..N-1; cpu/opencl: logical devices)")
      ->check(CLI::Range(1, 64));
  cmd->add_flag(
      "--mpi", a->mpi,
      "Also split over the MPI ranks this was started on (mpirun; --gpus devices per rank)");
  cmd->add_option("--device,-d", a->device, "Device id (cpu, opencl:P:D, cuda:N, best)");
  cmd->add_option("--out,-o", a->out, "Folder for .vti/.pvd/.png outputs");
  cmd->add_option("--every", a->every, "Write outputs (and check for NaN) every this many steps")
      ->check(CLI::Range(0L, 1L << 40));
  cmd->add_option("--png", a->png, "PNG slice quantity: speed, density, ux, uy, uz ('' for none)");
  cmd->add_option("--png-range", a->png_range,
                  "The PNG slices' colour scale LO HI (default: the first slice that is not "
                  "uniform sets it for the run)")
      ->expected(2);
  cmd->add_option("--slice-z", a->slice_z, "z of the PNG slice (default: the middle)")
      ->check(CLI::Range(0L, 1L << 20));
  cmd->add_option("--checkpoint", a->checkpoint,
                  "Write a checkpoint here at every output and at the end");
  cmd->add_option("--restart", a->restart, "Continue from this checkpoint");
  cmd->add_option("--import,-i", a->import_frame, "thesis-gas: start from this raw frame");
  cmd->add_option("--export,-e", a->export_frame, "thesis-gas: write the final raw frame here");
  cmd->add_option(
         "--thesis-layout", a->thesis_layout,
         "thesis-gas on one device: aos (the thesis's 76-byte cells) or soa (the same values and bits as "
         "structure of arrays; frames stay AoS)")
      ->check(CLI::IsMember({"aos", "soa"}));
  cmd->add_option(
         "--thesis-impl", a->thesis_impl,
         "thesis-gas: native (the thesis's native kernel) or mapstencil (its Muesli program: the user "
         "function through the skeleton's mapStencil); the same bits")
      ->check(CLI::IsMember({"native", "mapstencil"}));
  add_json_option(cmd, a->json, "Write the summary");
  return {
      cmd, [a, cmd] {
        if (!a->config.empty()) read_config(*cmd, *a);
        const bool thesis = a->case_name == "thesis-gas";
        if (!a->png.empty())
          lbm::parse_slice_quantity(a->png);  // before anything runs or is written
        if (a->png_range.size() == 2 &&
            !(std::isfinite(a->png_range[0]) && std::isfinite(a->png_range[1]) &&
              a->png_range[0] < a->png_range[1]))
          throw UsageError(fmt::format("--png-range {} {}: expected finite LO < HI",
                                       a->png_range[0], a->png_range[1]));
        if (!thesis)
          install_interrupt_handlers();  // before the run's first line (tests wait for it)
        if (thesis && !a->lattice.empty() && lbm::parse_lattice(a->lattice) != lbm::Lattice::d3q19)
          throw UsageError("thesis-gas is D3Q19 only");
        if (thesis && a->streaming == "esoteric")
          throw UsageError("thesis-gas streams with two lattices (--streaming ab)");
        if (a->thesis_layout != "aos" && (!thesis || a->gpus > 1))
          throw UsageError(
              "--thesis-layout soa is for the thesis-gas case on one device (its z-slabs keep the thesis's "
              "76-byte cells)");
        const bool muesli = a->thesis_impl == "mapstencil";
        if (muesli && !thesis) throw UsageError("--thesis-impl is for the thesis-gas case");
        if (muesli && a->thesis_layout != "aos")
          throw UsageError(
              "--thesis-impl mapstencil keeps the thesis's 76-byte cells (--thesis-layout aos)");
        if (a->gpus > 1 && a->streaming == "esoteric")
          throw UsageError(
              "--gpus > 1 streams with two lattices (--streaming ab): esoteric pull is single-device");
        if (a->mpi && thesis)
          throw UsageError(
              "--mpi: the production cases (thesis-gas splits over --gpus in one process)");
        if (a->mpi && a->streaming == "esoteric")
          throw UsageError(
              "--mpi streams with two lattices (--streaming ab): esoteric pull is single-device");
        if (a->gpus > 1 || a->mpi || muesli || (!thesis && a->streaming == "ab")) {
          const std::string id = a->device == "best" ? best_device_id() : a->device;
          nlohmann::json j = {{"command", "lbm"}, {"device", id}, {"run", bench::run_metadata()}};
          bool rank0 = true;
          const int rc = thesis ? run_thesis_parts(*a, id, j) : run_distributed(*a, id, j, rank0);
          if (!a->json.empty() && rank0) write_output(a->json, j.dump(2) + "\n");
          return rc;
        }
        auto dev = open_device(a->device);
        nlohmann::json j = {{"command", "lbm"},
                            {"device", bench::to_json(dev->info())},
                            {"run", bench::run_metadata()}};
        const int rc = thesis ? run_thesis(*a, dev, j) : run_production(*a, dev, j);
        if (!a->json.empty()) write_output(a->json, j.dump(2) + "\n");
        return rc;
      }};
}

namespace {
const RegisterCommand registered{60, add_lbm_command};
}  // namespace

}  // namespace tessera::app
