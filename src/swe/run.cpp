#include "swe/run.hpp"

#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <memory>

#include <fmt/format.h>

#include "bench/harness.hpp"
#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "core/fault_injection.hpp"
#include "core/interrupt.hpp"
#include "core/progress.hpp"
#include "core/registry.hpp"
#include "swe/cases.hpp"
#include "swe/distributed.hpp"
#include "swe/output.hpp"
#include "swe/physical.hpp"
#include "swe/thesis.hpp"
#include "tessera/config.hpp"
#if TESSERA_HAVE_MPI
#include "skeleton/mpi_comm.hpp"
#endif

namespace tessera::swe {

namespace {

using Clock = std::chrono::steady_clock;

// The outputs of one run: numbered files per format, a .pvd for the .vti
// series, one NetCDF file for the whole run.
class Outputs {
 public:
  Outputs(const RunOptions& o) : o_(o) {
    if (o.out.empty()) return;
    std::filesystem::create_directories(o.out);
    for (const auto& f : o.formats) {
      if (f != "vtk" && f != "vti" && f != "netcdf" && f != "png")
        throw UsageError(fmt::format("unknown output format '{}' (vtk, vti, netcdf, png)", f));
      if (f == "netcdf") nc_ = std::make_unique<NetcdfWriter>(path("swe.nc"));
    }
  }
  void write(const Snapshot& s) {
    if (o_.out.empty()) return;
    for (const auto& f : o_.formats) {
      const std::string stem = fmt::format("swe_{:06d}", count_);
      if (f == "vtk") last_ = path(stem + ".vtk"), write_vtk_legacy(last_, s);
      if (f == "vti") {
        last_ = path(stem + ".vti");
        write_vti(last_, s);
        series_.emplace_back(s.time, stem + ".vti");
        write_pvd(path("swe.pvd"), series_);
      }
      if (f == "png") last_ = path(stem + ".png"), write_png(last_, s, o_.png_field);
      if (f == "netcdf") nc_->append(s), last_ = path("swe.nc") + " (after close)";
    }
    ++count_;
  }
  void finish() {
    if (nc_) nc_->close();
  }
  const std::string& last() const { return last_; }
  int count() const { return count_; }

 private:
  std::string path(const std::string& name) const { return (std::filesystem::path(o_.out) / name).string(); }
  const RunOptions& o_;
  std::unique_ptr<NetcdfWriter> nc_;
  std::vector<std::pair<double, std::string>> series_;
  int count_ = 0;
  std::string last_;
};

// What a run stopped by a signal says (main() prints it, exit 128 + signal).
Interrupted interruption(int sig, long step, double t, const Outputs& out) {
  return Interrupted(sig, fmt::format("interrupted by {} after step {} (t = {:.6g} s){}", sig == SIGTERM ? "SIGTERM" : "SIGINT",
                                      step, t, out.count() ? "; last output: " + out.last() : ""));
}

void progress_to(Progress& p, int& shown, double fraction, double t, double t_end, double wall) {
  const int pct = static_cast<int>(std::min(1.0, fraction) * 100);
  while (shown < pct) {
    ++shown;
    const double eta = fraction > 0 ? wall * (1 - fraction) / fraction : 0;
    p.step(fmt::format("t = {:.4g} / {:.4g} s, ETA {:.0f} s", t, t_end, eta));
  }
}

void finish_summary(nlohmann::json& j, long cells, long steps, double t, double wall, double m0, double m1) {
  j["steps"] = steps;
  j["simulated_time_s"] = t;
  j["wall_s"] = wall;
  j["mcells_per_s"] = wall > 0 ? double(cells) * double(steps) / wall * 1e-6 : 0.0;
  j["mass_start"] = m0;
  j["mass_end"] = m1;
  j["mass_relative_drift"] = m0 != 0 ? (m1 - m0) / m0 : 0.0;
}

template <class T>
int run_thesis(const RunOptions& o, const std::shared_ptr<Device>& dev, nlohmann::json& j) {
  if (o.case_name != "thesis-dam")
    throw UsageError(fmt::format("the thesis model runs only the thesis dam break (it has no bathymetry "
                                 "and cannot handle dry cells); case '{}' needs --model physical", o.case_name));
  if (!o.bathymetry.empty()) throw UsageError("the thesis model has a flat bottom: no --bathymetry");
  DamBreak c;
  c.nx = o.nx ? o.nx : 1000;
  c.ny = o.ny ? o.ny : c.nx;
  c.deep = o.h_left;
  c.shallow = o.h_right;
  const auto init = thesis_dam_break<T>(c);  // refuses dry cells
  const double dx = c.dx(), t_end = o.t_end >= 0 ? o.t_end : 20.0;
  const double dt = o.dt > 0 ? o.dt : thesis_dt(dx, std::max(c.deep, c.shallow), std::min(c.deep, c.shallow));
  // the coded system's waves travel at |u| + sqrt(4.9); 2D Lax-Friedrichs needs nu <= 1/2
  const double nu = dt / dx * std::sqrt(4.9);
  if (nu > 0.5)
    throw UsageError(fmt::format("dt = {} is unstable for the thesis scheme: Courant number {:.3f} > 0.5", dt, nu));
  const long steps = thesis_steps(t_end, dt);
  ThesisSolver<T> s(dev, init, thesis_coefficient<T>(dt, dx), thesis_variant(o.variant),
                    parse_work_group(o.work_group, *dev));
  Outputs out(o);
  auto snapshot = [&](long step) {
    const auto st = s.state();
    Snapshot sn;
    sn.nx = c.nx;
    sn.ny = c.ny;
    sn.dx = sn.dy = dx;
    sn.time = double(step) * dt;
    sn.step = step;
    for (long i = 1; i <= c.nx; ++i)
      for (long jj = 1; jj <= c.ny; ++jj) {
        const long k = st.grid.at(i, jj);
        sn.h.push_back(st.z[k]);
        sn.hu.push_back(st.qx[k]);
        sn.hv.push_back(st.qy[k]);
      }
    return sn;
  };
  const double m0 = thesis_mass(init, dx);
  if (!o.out.empty()) out.write(snapshot(0));
  Progress bar("swe thesis", 100);
  int shown = 0;
  const auto t0 = Clock::now();
  install_interrupt_handlers();
  for (long k = 1; k <= steps; ++k) {
    s.step();
    if (o.mass) std::printf("step %ld mass %.17g\n", k, thesis_mass(s.state(), dx));
    if (o.every > 0 && k % o.every == 0) out.write(snapshot(k));
    fault::at_step_boundary();  // test-only: TESSERA_FAULT=sigint_at_step:N
    if (const int sig = interrupted()) {  // first SIGINT/SIGTERM: stop after this step, with its output
      if (!o.out.empty() && !(o.every > 0 && k % o.every == 0)) out.write(snapshot(k));
      out.finish();
      throw interruption(sig, k, double(k) * dt, out);
    }
    if ((k & 63) == 0 || k == steps) {
      dev->synchronize();
      progress_to(bar, shown, double(k) / double(steps), double(k) * dt, t_end,
                  std::chrono::duration<double>(Clock::now() - t0).count());
    }
  }
  dev->synchronize();
  const double wall = std::chrono::duration<double>(Clock::now() - t0).count();
  if (o.every <= 0 && !o.out.empty()) out.write(snapshot(steps));
  out.finish();
  j["dt"] = dt;
  j["variant"] = o.variant;
  j["work_group"] = fmt::format("{}x{}", s.work_group().l0, s.work_group().l1);
  finish_summary(j, c.nx * c.ny, steps, double(steps) * dt, wall, m0, thesis_mass(s.state(), dx));
  return 0;
}

Bc parse_bc(const std::string& s, double& value) {
  const auto colon = s.find(':');
  const std::string kind = s.substr(0, colon);
  if (kind == "wall" || kind == "transmissive" || kind == "periodic") {
    if (colon != std::string::npos) throw UsageError(fmt::format("boundary '{}' takes no value", s));
    return kind == "wall" ? Bc::wall : kind == "periodic" ? Bc::periodic : Bc::transmissive;
  }
  if ((kind == "level" || kind == "discharge") && colon != std::string::npos) {
    try {
      value = std::stod(s.substr(colon + 1));
    } catch (const std::exception&) {
      throw UsageError(fmt::format("boundary '{}': '{}' is not a number", s, s.substr(colon + 1)));
    }
    return kind == "level" ? Bc::level : Bc::discharge;
  }
  throw UsageError(fmt::format("boundary '{}': expected wall, transmissive, periodic, level:ETA or discharge:Q", s));
}

PhysCase physical_case(const RunOptions& o) {
  PhysCase c;
  if (!o.bathymetry.empty()) {
    const AscGrid g = read_asc(o.bathymetry);
    c = make_case("radial-dam", g.ncols, g.nrows);
    c.name = o.bathymetry;
    apply_bathymetry(c, g, o.nodata == "error");
    if (!o.level_file.empty()) {
      const AscGrid l = read_asc(o.level_file);
      if (l.ncols != g.ncols || l.nrows != g.nrows)
        throw UsageError(fmt::format("{} is {}x{} but the bathymetry is {}x{}", o.level_file, l.ncols, l.nrows, g.ncols, g.nrows));
      for (long r = 0; r < l.nrows; ++r)
        for (long col = 0; col < l.ncols; ++col) {
          const long k = col * c.ny + (l.nrows - 1 - r);
          const double v = l.at(r, col);
          c.h[k] = l.has_nodata && v == l.nodata ? 0.0 : std::max(0.0, v - c.z[k]);
        }
    } else if (std::isfinite(o.level)) {
      for (std::size_t k = 0; k < c.h.size(); ++k) c.h[k] = std::max(0.0, o.level - c.z[k]);
    } else {
      throw UsageError("--bathymetry needs an initial water level: --level-file FILE.asc or --level ETA");
    }
    c.t_end = 10;
  } else {
    c = make_case(o.case_name, o.nx, o.ny);
  }
  for (int s = 0; s < 4; ++s)
    if (!o.bc[s].empty()) c.bc[s] = parse_bc(o.bc[s], c.bc_value[s]);
  if (o.manning >= 0) c.manning = o.manning;
  if (o.t_end >= 0) c.t_end = o.t_end;
  return c;
}

// Solver: PhysSolver<T> on one device, or DistributedPhysSolver<T> on a team.
template <class T, class Solver = PhysSolver<T>, class Where = std::shared_ptr<Device>>
int run_physical(const RunOptions& o, const Where& dev, nlohmann::json& j) {
  const PhysCase c = physical_case(o);
  PhysOptions po;
  po.order = o.order == 2 ? Order::second : Order::first;
  po.cfl = o.cfl;
  po.fixed_dt = o.dt;
  po.columns = o.columns;
  if (o.every > 0) po.check_every = o.every;
  Solver s(dev, c, po);
  Outputs out(o);
  auto snapshot = [&](const Health& h) {
    const HostFields f = s.state();
    Snapshot sn{c.nx, c.ny, c.dx, c.dy, c.x0, c.y0, h.time, h.steps, f.h, f.hu, f.hv, c.z};
    return sn;
  };
  const double m0 = s.mass();
  out.write(snapshot(Health{}));
  Progress bar("swe", 100);
  int shown = 0;
  const auto t0 = Clock::now();
  Health h;
  // A first SIGINT/SIGTERM is noticed at the next health check (a step
  // boundary): the check throws StopAt out of advance_to, the state of that
  // step is written and the run ends with Interrupted (exit 130/143).
  struct StopAt {
    Health at;
  };
  install_interrupt_handlers();
  auto on_check = [&](const Health& now) {
    progress_to(bar, shown, now.time / c.t_end, now.time, c.t_end,
                std::chrono::duration<double>(Clock::now() - t0).count());
    if (o.every > 0 && !now.bad) out.write(snapshot(now));
    fault::at_step_boundary();  // test-only: TESSERA_FAULT=sigint_at_step:N
    if (interrupted() && !now.bad) throw StopAt{now};
  };
  try {
    if (o.every_time > 0) {
      for (long k = 1; !h.bad && h.time < c.t_end; ++k) {
        h = s.advance_to(std::min(c.t_end, double(k) * o.every_time), on_check);
        if (!h.bad) out.write(snapshot(h));
      }
    } else {
      h = s.advance_to(c.t_end, on_check);
      if (!h.bad && o.every <= 0) out.write(snapshot(h));
    }
  } catch (const StopAt& stop) {
    if (!o.out.empty() && o.every <= 0) out.write(snapshot(stop.at));
    out.finish();
    throw interruption(interrupted(), stop.at.steps, stop.at.time, out);
  }
  const double wall = std::chrono::duration<double>(Clock::now() - t0).count();
  j["order"] = o.order;
  j["cfl"] = o.cfl;
  if (h.bad) {
    j["status"] = "bad";
    j["bad"] = {{"step", h.bad_step}, {"i", h.bad_i}, {"j", h.bad_j}};
    std::fprintf(stderr,
                 "tessera swe: the solution became invalid (NaN, infinite or negative depth) at step %ld "
                 "in cell (i=%ld, j=%ld), around t = %.6g s; stopped.%s%s\n",
                 h.bad_step, h.bad_i, h.bad_j, h.time, out.count() ? " Last good output: " : "",
                 out.count() ? out.last().c_str() : "");
    finish_summary(j, c.nx * c.ny, h.steps, h.time, wall, m0, NAN);
    return 1;
  }
  out.finish();
  finish_summary(j, c.nx * c.ny, h.steps, h.time, wall, m0, s.mass());
  return 0;
}

// --gpus N / --mpi: the physical model over x-slabs of a skeleton team; every
// rank computes each snapshot and the summary, rank 0 alone writes them.
int run_parts(const RunOptions& o, const std::shared_ptr<Device>& dev, bool dbl, nlohmann::json& j, bool& rank0) {
  std::shared_ptr<skeleton::Comm> comm;
  std::string id = dev->id();
#if TESSERA_HAVE_MPI
  std::unique_ptr<skeleton::MpiSession> mpi;
  if (o.mpi) {
    mpi = std::make_unique<skeleton::MpiSession>(nullptr, nullptr);
    comm = mpi->world();
    if (id.rfind("cuda:", 0) == 0)  // one rank per GPU set: shift by the local rank
      id = fmt::format("cuda:{}", std::stoi(id.substr(5)) + mpi->local_rank() * o.gpus);
  }
#else
  if (o.mpi) throw UsageError("--mpi: this tessera was built without MPI");
#endif
  const skeleton::Team team = skeleton::Team::open(id, o.gpus, comm);
  RunOptions mine = o;
  rank0 = team.rank() == 0;
  if (!rank0) mine.out.clear();
  j["parts"] = team.total_parts();
  j["ranks"] = team.ranks();
  return dbl ? run_physical<double, DistributedPhysSolver<double>>(mine, team, j)
             : run_physical<float, DistributedPhysSolver<float>>(mine, team, j);
}

}  // namespace

int run_swe(const RunOptions& o, nlohmann::json& j) {
  if (o.model != "thesis" && o.model != "physical") throw UsageError("--model must be thesis or physical");
  if (o.precision != "float" && o.precision != "double") throw UsageError("--precision must be float or double");
  auto dev = open_device(o.device);
  if (o.precision == "double" && !dev->info().fp64)
    throw UsageError(fmt::format("{} has no double precision", dev->id()));
  j = {{"command", "swe"}, {"model", o.model}, {"case", o.bathymetry.empty() ? o.case_name : o.bathymetry},
       {"precision", o.precision}, {"device", bench::to_json(dev->info())}, {"run", bench::run_metadata()},
       {"status", "ok"}};
  const bool dbl = o.precision == "double";
  if (o.model == "thesis" && (o.gpus > 1 || o.mpi)) throw UsageError("--gpus / --mpi: only the physical model runs on several devices");
  bool rank0 = true;
  int rc = o.model == "physical" && (o.gpus > 1 || o.mpi) ? run_parts(o, dev, dbl, j, rank0) : o.model == "thesis" ? (dbl ? run_thesis<double>(o, dev, j) : run_thesis<float>(o, dev, j))
                               : (dbl ? run_physical<double>(o, dev, j) : run_physical<float>(o, dev, j));
  if (!rank0) return rc;  // rank 0 reports for every rank
  std::printf("swe %s/%s on %s: %ld steps, t = %.6g s, wall %.3f s, %.1f Mcell/s, mass %.9g -> %.9g "
              "(relative drift %.3g)\n",
              o.model.c_str(), j["case"].get<std::string>().c_str(), dev->id().c_str(), j["steps"].get<long>(),
              j["simulated_time_s"].get<double>(), j["wall_s"].get<double>(), j["mcells_per_s"].get<double>(),
              j["mass_start"].get<double>(), j["mass_end"].is_number() ? j["mass_end"].get<double>() : NAN,
              j["mass_relative_drift"].is_number() ? j["mass_relative_drift"].get<double>() : NAN);
  if (!o.out.empty()) write_file_atomic((std::filesystem::path(o.out) / "summary.json").string(), j.dump(2) + "\n");
  return rc;
}

}  // namespace tessera::swe
