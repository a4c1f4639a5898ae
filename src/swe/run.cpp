#include "swe/run.hpp"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <memory>

#include <fmt/format.h>

#include "core/run_info.hpp"
#include "core/atomic_file.hpp"
#include "core/hash.hpp"
#include "core/error.hpp"
#include "core/fault_injection.hpp"
#include "core/interrupt.hpp"
#include "core/progress.hpp"
#include "core/registry.hpp"
#include "swe/cases.hpp"
#include "swe/crs.hpp"
#include "swe/distributed.hpp"
#include "swe/forcing.hpp"
#include "io/time_series.hpp"
#include "swe/output.hpp"
#include "swe/physical.hpp"
#include "swe/run_support.hpp"
#include "swe/series.hpp"
#include "swe/thesis.hpp"
#include "tessera/config.hpp"
#if TESSERA_HAVE_MPI
#include "skeleton/mpi_comm.hpp"
#endif

namespace tessera::swe {

namespace {

using Clock = std::chrono::steady_clock;
using detail::Checkpoints;
using detail::finish_summary;
using detail::interruption;
using detail::Outputs;
using detail::progress_to;

// An .asc that must lie on the bathymetry's grid: the same size, cells and
// corner, and no other coordinate system.
AscGrid read_aligned_asc(const std::string& path, const AscGrid& g, const std::string& bed_path) {
  const AscGrid l = read_raster(path);
  if (l.ncols != g.ncols || l.nrows != g.nrows)
    throw UsageError(fmt::format("{} is {}x{} but the bathymetry is {}x{}", path, l.ncols, l.nrows,
                                 g.ncols, g.nrows));
  if (std::fabs(l.dx - g.dx) > 1e-9 * g.dx || std::fabs(l.dy - g.dy) > 1e-9 * g.dy ||
      std::fabs(l.xll - g.xll) > 1e-6 * g.dx || std::fabs(l.yll - g.yll) > 1e-6 * g.dy)
    throw UsageError(fmt::format(
        "{} (cells {} x {}, corner {}, {}) does not lie on the bathymetry's grid (cells {} x "
        "{}, corner {}, {})",
        path, l.dx, l.dy, l.xll, l.yll, g.dx, g.dy, g.xll, g.yll));
  if (!l.crs_wkt.empty() && !g.crs_wkt.empty() && l.crs_wkt != g.crs_wkt)
    throw UsageError(
        fmt::format("{}: its .prj names another coordinate system than {}'s", path, bed_path));
  return l;
}

// --manning-file: n per cell on the bathymetry's grid; NODATA only where the
// bed is NODATA too (those cells hold no water).
std::vector<double> manning_map(const std::string& path, const AscGrid& g, const PhysCase& c,
                                const std::string& bed_path) {
  const AscGrid m = read_aligned_asc(path, g, bed_path);
  std::vector<double> n(c.z.size(), 0.0);
  for (long r = 0; r < m.nrows; ++r)
    for (long col = 0; col < m.ncols; ++col) {
      const long k = col * c.ny + (m.nrows - 1 - r);
      const double v = m.at(r, col);
      if (m.has_nodata && v == m.nodata) {
        if (c.z[std::size_t(k)] < c.z_nodata)
          throw UsageError(
              fmt::format("{}: NODATA at row {}, column {}, where {} has ground: "
                          "every wet cell needs a Manning n",
                          path, r + 1, col + 1, bed_path));
        continue;
      }
      if (!(v >= 0) || !(v < 1))
        throw UsageError(
            fmt::format("{}: Manning n {} at row {}, column {}: expected 0 <= n < 1 "
                        "s m^-1/3",
                        path, v, r + 1, col + 1));
      n[std::size_t(k)] = v;
    }
  return n;
}

PhysCase physical_case(const RunOptions& o) {
  PhysCase c;
  if (!o.bathymetry.empty()) {
    const AscGrid g = read_raster(o.bathymetry);
    // the grid is the file's: a different --nx/--ny is a contradiction, not a resampling
    if ((o.nx && o.nx != g.ncols) || (o.ny && o.ny != g.nrows))
      throw UsageError(
          fmt::format("{} is {}x{} cells; --nx {} --ny {} ask for another grid (drop them: the "
                      "bathymetry sets the grid)",
                      o.bathymetry, g.ncols, g.nrows, o.nx, o.ny));
    require_metres(o.bathymetry, g.crs_wkt);  // the cell sizes are taken as metres
    c = make_case("radial-dam", g.ncols, g.nrows);
    c.name = o.bathymetry;
    apply_bathymetry(c, g, o.nodata == "error");
    if (!o.level_file.empty() && std::isfinite(o.level))
      throw UsageError(
          fmt::format("give --level {} or --level-file {}, not both", o.level, o.level_file));
    if (!o.level_file.empty()) {
      const AscGrid l = read_aligned_asc(o.level_file, g, o.bathymetry);
      for (long r = 0; r < l.nrows; ++r)
        for (long col = 0; col < l.ncols; ++col) {
          const long k = col * c.ny + (l.nrows - 1 - r);
          const double v = l.at(r, col);
          c.h[k] = l.has_nodata && v == l.nodata ? 0.0 : std::max(0.0, v - c.z[k]);
        }
    } else if (std::isfinite(o.level)) {
      for (std::size_t k = 0; k < c.h.size(); ++k) c.h[k] = std::max(0.0, o.level - c.z[k]);
    } else {
      throw UsageError(
          "--bathymetry needs an initial water level: --level-file FILE.asc or --level ETA");
    }
    c.t_end = 10;
    if (!o.manning_file.empty()) {
      if (o.manning >= 0) throw UsageError("give --manning N or --manning-file FILE.asc, not both");
      c.manning_map = manning_map(o.manning_file, g, c, o.bathymetry);
    }
  } else {
    if (!o.manning_file.empty())
      throw UsageError("--manning-file needs --bathymetry (the map lies on its grid)");
    // a built-in case sets its own water and has no NODATA
    if (!o.level_file.empty() || std::isfinite(o.level))
      throw UsageError(fmt::format("{}: needs --bathymetry (--case {} sets its own water)",
                                   o.level_file.empty() ? "--level" : "--level-file", o.case_name));
    if (o.nodata != "wall")
      throw UsageError(fmt::format("--nodata {}: needs --bathymetry (--case {} has no NODATA)",
                                   o.nodata, o.case_name));
    c = make_case(o.case_name, o.nx, o.ny);
  }
  static const char* bc_options[4] = {"--bc-x-lo", "--bc-x-hi", "--bc-y-lo", "--bc-y-hi"};
  for (int s = 0; s < 4; ++s)
    if (!o.bc[s].empty()) c.bc[s] = parse_boundary(bc_options[s], o.bc[s], c.bc_value[s]);
  if (o.manning >= 0) c.manning = o.manning;
  if (o.t_end >= 0) c.t_end = o.t_end;
  Forcing& f = c.forcing;
  f.losses = parse_losses(o.losses);
  if (!o.rain.empty())
    f.rain = io::read_time_series(o.rain, "rain intensity (mm/h)", io::Between::step, 0.0);
  if (!o.rain_grid.empty()) {
    if (!o.rain.empty()) throw UsageError("give --rain or --rain-grid, not both");
    read_rain_grid(o.rain_grid, c);
  }
  for (const std::string& s : o.inflows) f.inflows.push_back(parse_inflow(s, c));
  for (const std::string& s : o.sources) f.inflows.push_back(parse_point_source(s, c));
  for (const std::string& s : o.segments) {
    BcSegment g = parse_segment(s, c);
    for (const BcSegment& other : f.segments)
      if (other.side == g.side)
        throw UsageError(fmt::format("--bc-segment {}: side already has the segment {}; one a side",
                                     s, other.spec));
    f.segments.push_back(std::move(g));
  }
  f.require_covers(c.t_end);
  f.sample_every = o.series_every;
  add_sections(c, o.sections);
  SweSeries(o.series_every, o.gauges, c);  // its options refused before any output is written
  long rained = 0;
  for (double z : c.z) rained += z < c.z_nodata;
  f.rain_area = double(rained) * c.dx * c.dy;
  return c;
}

// A series as the restart check compares it: its file and a hash of its rows.
std::string series_id(const io::TimeSeries& s) {
  std::uint64_t h = fnv1a64({});
  for (std::size_t k = 0; k < s.t.size(); ++k)
    for (double v : {s.t[k], s.v[k]})
      h = fnv1a64(std::string_view(reinterpret_cast<const char*>(&v), sizeof v), h);
  return fmt::format("{} {:016x}", s.path, h);
}

// The maximum maps as rasters on the case's grid (.asc with the CRS's .prj;
// NODATA on NODATA cells, and for arrival and its time where the water never
// came) when there is an output folder; the summary's digest either way.
nlohmann::json write_max_maps(const RunOptions& o, const PhysCase& c, const MaxMaps& m) {
  std::size_t at = 0;
  for (std::size_t k = 1; k < m.depth.size(); ++k)
    if (m.depth[k] > m.depth[at]) at = k;
  nlohmann::json j = {{"max_depth_m", m.depth.empty() ? 0.0 : m.depth[at]},
                      {"at", {{"i", long(at) / c.ny}, {"j", long(at) % c.ny}}},
                      {"arrival_depth_m", o.arrival_depth}};
  if (o.out.empty()) return j;
  const auto nodata = [&](std::size_t k) { return !(c.z[k] < c.z_nodata); };
  const auto dry = [&](std::size_t k) { return nodata(k) || m.arrival[k] < 0; };
  const struct {
    const char* file;
    const std::vector<double>& v;
    bool when_wet;
  } maps[] = {{"max_depth", m.depth, false},
              {"max_speed", m.speed, false},
              {"time_of_max_depth", m.time_of_max, true},
              {"arrival_time", m.arrival, true}};
  const bool tif = o.raster_format == "geotiff";
  for (const auto& f : maps) {
    const std::string path =
        (std::filesystem::path(o.out) / (std::string(f.file) + (tif ? ".tif" : ".asc"))).string();
    const std::function<bool(std::size_t)> mask =
        f.when_wet ? std::function<bool(std::size_t)>(dry) : nodata;
    if (tif)
      write_geotiff(path, c, f.v, mask);
    else
      write_asc(path, c, f.v, mask);
    j["files"].push_back(path);
  }
  return j;
}

// What a restarted physical run must agree on with its checkpoint besides
// the grid and precision (option name -> effective value): the scheme, the
// boundaries, the bed and the stepping schedule. The device, the part count,
// --columns and the outputs are free (they do not change the bits).
template <class T>
nlohmann::ordered_json physical_config(const RunOptions& o, const PhysCase& c) {
  static const char* sides[4] = {"bc-x-lo", "bc-x-hi", "bc-y-lo", "bc-y-hi"};
  static const char* kinds[] = {"wall",      "transmissive", "periodic",    "level",
                                "discharge", "exchange",     "normal-depth"};
  nlohmann::ordered_json j = {{"case", o.bathymetry.empty() ? o.case_name : "bathymetry"},
                              {"order", o.order},
                              {"cfl", o.cfl},
                              {"dt", o.dt},
                              {"manning", c.manning},
                              {"every", o.every},
                              {"every-time", o.every_time}};
  for (int s = 0; s < 4; ++s) {
    const int b = int(c.bc[s]);
    j[sides[s]] = b == int(Bc::level) || b == int(Bc::discharge)
                      ? fmt::format("{}:{}", kinds[b], c.bc_value[s])
                      : std::string(kinds[b]);
  }
  // the bed as the solver stores it, with its geometry
  std::uint64_t h = fnv1a64({});
  for (double z : c.z) {
    const T v = T(z);
    h = fnv1a64(std::string_view(reinterpret_cast<const char*>(&v), sizeof v), h);
  }
  for (double g : {c.dx, c.dy, c.x0, c.y0})
    h = fnv1a64(std::string_view(reinterpret_cast<const char*>(&g), sizeof g), h);
  j["bed"] = fmt::format("{:016x}", h);
  if (!c.manning_map.empty()) {
    std::uint64_t m = fnv1a64({});
    for (double n : c.manning_map) {
      const T v = T(n);
      m = fnv1a64(std::string_view(reinterpret_cast<const char*>(&v), sizeof v), m);
    }
    j["manning-map"] = fmt::format("{:016x}", m);
  }
  const Forcing& f = c.forcing;
  if (f.rain) j["rain"] = series_id(*f.rain);
  if (!f.rain_times.empty()) {  // the frames as the run samples them
    std::uint64_t h = fnv1a64({});
    for (std::size_t k = 0; k < f.rain_times.size(); ++k) {
      h = fnv1a64(std::string_view(reinterpret_cast<const char*>(&f.rain_times[k]), 8), h);
      const auto& fr = f.rain_frames[k];
      h = fnv1a64(std::string_view(reinterpret_cast<const char*>(fr.data()), fr.size() * 8), h);
    }
    j["rain-grid"] = fmt::format("{} {:016x}", f.rain_grid, h);
  }
  if (f.losses.model != LossModel::none) j["losses"] = f.losses.spec;
  for (const Inflow& in : f.inflows)
    j["inflows"].push_back(fmt::format("{} {}: {}", in.option, in.spec, series_id(in.q)));
  if (o.series_every > 0) j["series-every"] = o.series_every;
  if (o.max_maps) j["max-maps"] = o.arrival_depth;
  for (const std::string& g : o.gauges) j["gauges"].push_back(g);
  for (const std::string& g : o.sections) j["sections"].push_back(g);
  for (const BcSegment& g : f.segments)
    j["bc-segments"].push_back(g.stage ? fmt::format("{}: {}", g.spec, series_id(*g.stage))
                                       : g.spec);
  return j;
}

// Solver: PhysSolver<T> on one device, or DistributedPhysSolver<T> on a team.
// `writer`: this process writes the checkpoints (rank 0 under MPI); saving the
// state is collective, so every rank takes part.
template <class T, class Solver = PhysSolver<T>, class Where = std::shared_ptr<Device>>
int run_physical(const RunOptions& o, const Where& dev, nlohmann::json& j, bool writer = true) {
  const PhysCase c = physical_case(o);
  PhysOptions po;
  po.order = o.order == 2 ? Order::second : Order::first;
  po.cfl = o.cfl;
  po.fixed_dt = o.dt;
  po.columns = o.columns;
  po.align_every = o.every;
  po.track_max = o.max_maps;
  if (o.raster_format != "asc" && o.raster_format != "geotiff")
    throw UsageError(fmt::format("--raster-format {}: expected asc or geotiff", o.raster_format));
  if (o.raster_format == "geotiff" && !gdal_supported())
    throw UsageError(
        "--raster-format geotiff: this tessera was built without GDAL (install libgdal-dev and "
        "rebuild)");
  po.arrival_depth = o.arrival_depth;
  if (!(o.arrival_depth > 0) || !std::isfinite(o.arrival_depth))
    throw UsageError(fmt::format("--arrival-depth {}: expected a depth > 0 m", o.arrival_depth));
  const nlohmann::ordered_json config = physical_config<T>(o, c);
  // the run ends when the time reaches t_end as the device stores it
  const double t_stop = double(T(c.t_end));
  // adaptive steps: the first one, from the initial state, bounds them all
  // from above (waves only speed up what is already moving); a run that needs
  // more steps than representable even at that rate cannot end
  const double first_dt = o.dt > 0 ? o.dt : detail::first_adaptive_dt(c, o.cfl);
  detail::check_run_length(c.t_end, first_dt, o.every, o.every_time,
                           std::numeric_limits<T>::epsilon(),
                           o.dt > 0 ? "--dt" : "the first CFL step");
  SweCheckpoint restart;
  if (!o.restart.empty()) {
    restart = detail::read_restart(o);
    check_restart_config(restart, "physical", o.precision, c.nx, c.ny, config, o.restart);
    if (!(restart.time(0) < t_stop))
      throw UsageError(fmt::format(
          "{}: the checkpoint is at t = {:.9g} s, the run ends at --t-end {}: nothing to "
          "continue; give a larger --t-end",
          o.restart, restart.time(0), c.t_end));
  }
  Solver s(dev, c, po);
  Outputs out(o);
  out.set_initial(
      Snapshot{c.nx, c.ny, c.dx, c.dy, c.x0, c.y0, 0, 0, c.h, c.hu, c.hv, c.z, c.crs_wkt});
  RunProgress progress;
  auto snapshot = [&](const Health& h) {
    const HostFields f = s.state();
    Snapshot sn{c.nx,    c.ny, c.dx, c.dy, c.x0, c.y0,     h.time,
                h.steps, f.h,  f.hu, f.hv, c.z,  c.crs_wkt};
    return sn;
  };
  SweSeries series(o.series_every, o.gauges, c);
  // the series in NetCDF too when the fields are (--format netcdf)
  const bool netcdf_series =
      std::find(o.formats.begin(), o.formats.end(), "netcdf") != o.formats.end();
  auto sample = [&](double t) { series.sample(t, s); };
  if (!detail::resume<PhysSolverState<T>>(o, restart, s, out, progress)) {
    progress.mass_start = s.mass();
    out.write(snapshot(Health{}));
    if (series.active()) sample(0.0);
  } else {
    series.resume(progress);
  }
  Health h = s.health();
  const long first = h.steps;
  Checkpoints ckpt(o, writer, first);
  long target_k = progress.next_target;  // --every-time: k of the advance in progress
  long resume_k = target_k;              // the advance a restart starts with
  auto save = [&](const std::string& path, bool write) {
    SweCheckpoint ck;
    ck.config = nlohmann::json::parse(config.dump());
    ck.run = progress;
    ck.run.next_target = resume_k;
    out.record(ck.run);
    series.save(ck.run);
    series.write(o.out, netcdf_series);  // the rows a restart continues from
    ck.state = s.save_state();           // collective
    if (write) write_swe_checkpoint(path, ck);
  };
  Progress bar("swe", 100);
  int shown = 0;
  const auto t0 = Clock::now();
  // A first SIGINT/SIGTERM is noticed at the next health check (a step
  // boundary). Checkpoints are taken where a restarted run resumes the same
  // sequence of steps: at a check inside an advance that goes on, or between
  // two advances (--every-time) after the output of the first.
  struct StopAt {
    Health at;
    std::string checkpoint;
  };
  double advance_end = t_stop;  // the time the advance in progress stops at
  auto pause_point = [&](const Health& now, long next_k) {
    resume_k = next_k;
    // Under MPI the signal agreed at the health check (every rank stops at the
    // same one: saving is collective); in one process also one that came since.
    if (now.signal || (!o.mpi && interrupted())) throw StopAt{now, ckpt.write(now.steps, save)};
    if (ckpt.due(now.steps)) ckpt.write(now.steps, save);
  };
  install_interrupt_handlers();
  auto on_check = [&](const Health& now) {
    progress_to(bar, shown, now.time / c.t_end, now.time, c.t_end,
                std::chrono::duration<double>(Clock::now() - t0).count());
    if (!now.bad && series.template due<T>(now.time)) sample(now.time);  // collective
    // --every: the multiples of the step count, and the run's last check
    if (o.every > 0 && !now.bad && (now.steps % o.every == 0 || !(now.time < advance_end)))
      out.write(snapshot(now));
    fault::at_step_boundary();  // test-only: TESSERA_FAULT=sigint_at_step:N
    if (!now.bad && now.time < advance_end)
      pause_point(now, target_k);  // the advance goes on after this check
  };
  try {
    if (o.every_time > 0) {
      for (; !h.bad && h.time < t_stop; ++target_k) {
        const double target = std::min(c.t_end, double(target_k) * o.every_time);
        advance_end = double(T(target));
        h = s.advance_to(target, on_check);
        if (h.bad) break;
        out.write(snapshot(h));
        if (h.time < t_stop) pause_point(h, target_k + 1);
      }
    } else {
      h = s.advance_to(c.t_end, on_check);
      if (!h.bad && o.every <= 0) out.write(snapshot(h));
    }
  } catch (const StopAt& stop) {
    out.finish();
    series.write(o.out, netcdf_series);
    throw interruption(stop.at.signal ? stop.at.signal : interrupted(), stop.at.steps, stop.at.time,
                       stop.checkpoint, out);
  }
  const double wall = std::chrono::duration<double>(Clock::now() - t0).count();
  j["order"] = o.order;
  j["cfl"] = o.cfl;
  if (!o.restart.empty()) j["restarted_from"] = {{"file", o.restart}, {"step", first}};
  if (h.bad) {  // no checkpoint of a bad state
    j["status"] = "bad";
    j["bad"] = {{"step", h.bad_step}, {"i", h.bad_i}, {"j", h.bad_j}};
    std::fprintf(
        stderr,
        "tessera swe: the solution became invalid (NaN, infinite or negative depth) at step %ld "
        "in cell (i=%ld, j=%ld), around t = %.6g s; stopped.%s%s\n",
        h.bad_step, h.bad_i, h.bad_j, h.time, out.count() ? " Last good output: " : "",
        out.count() ? out.last().c_str() : "");
    finish_summary(j, c.nx * c.ny, h.steps, h.steps - first, h.time, wall, progress.mass_start,
                   NAN);
    return 1;
  }
  out.finish();
  if (series.active() && h.time > series.last_time()) sample(h.time);  // the end
  series.write(o.out, netcdf_series);
  if (series.active()) j["series"] = series.json();
  if (o.max_maps) j["max_maps"] = write_max_maps(o, c, s.max_maps());  // collective
  resume_k = target_k;
  if (!o.checkpoint.empty()) ckpt.write(h.steps, save);
  const double mass_end = s.mass();
  finish_summary(j, c.nx * c.ny, h.steps, h.steps - first, h.time, wall, progress.mass_start,
                 mass_end);
  j["mass_balance"] = mass_balance(c, s, h.time, progress.mass_start, mass_end);
  return 0;
}

// --gpus N / --mpi: the physical model over x-slabs of a skeleton team; every
// rank computes each snapshot and the summary, rank 0 alone writes them.
int run_parts(const RunOptions& o, const std::shared_ptr<Device>& dev, bool dbl, nlohmann::json& j,
              bool& rank0) {
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
  return dbl ? run_physical<double, DistributedPhysSolver<double>>(mine, team, j, rank0)
             : run_physical<float, DistributedPhysSolver<float>>(mine, team, j, rank0);
}

}  // namespace

int run_swe(const RunOptions& o, nlohmann::json& j) {
  if (o.model != "thesis" && o.model != "physical")
    throw UsageError("--model must be thesis or physical");
  if (o.precision != "float" && o.precision != "double")
    throw UsageError("--precision must be float or double");
  auto dev = open_device(o.device);
  if (o.precision == "double" && !dev->info().fp64)
    throw UsageError(fmt::format("{} has no double precision", dev->id()));
  j = {{"command", "swe"},
       {"model", o.model},
       {"case", o.bathymetry.empty() ? o.case_name : o.bathymetry},
       {"precision", o.precision},
       {"device", to_json(dev->info())},
       {"run", run_metadata()},
       {"status", "ok"}};
  const bool dbl = o.precision == "double";
  if (o.model == "thesis" && (o.gpus > 1 || o.mpi))
    throw UsageError("--gpus / --mpi: only the physical model runs on several devices");
  bool rank0 = true;
  if (o.checkpoint_every > 0 && o.checkpoint.empty())
    throw UsageError("--checkpoint-every needs --checkpoint FILE");
  int rc =
      o.model == "physical" && (o.gpus > 1 || o.mpi) ? run_parts(o, dev, dbl, j, rank0)
      : o.model == "thesis"
          ? (dbl ? detail::run_thesis<double>(o, dev, j) : detail::run_thesis<float>(o, dev, j))
          : (dbl ? run_physical<double>(o, dev, j) : run_physical<float>(o, dev, j));
  if (!rank0) return rc;  // rank 0 reports for every rank
  std::printf(
      "swe %s/%s on %s: %ld steps, t = %.6g s, wall %.3f s, %.1f Mcell/s, mass %.9g -> %.9g "
      "(relative drift %.3g)\n",
      o.model.c_str(), j["case"].get<std::string>().c_str(), dev->id().c_str(),
      j["steps"].get<long>(), j["simulated_time_s"].get<double>(), j["wall_s"].get<double>(),
      j["mcells_per_s"].get<double>(), j["mass_start"].get<double>(),
      j["mass_end"].is_number() ? j["mass_end"].get<double>() : NAN,
      j["mass_relative_drift"].is_number() ? j["mass_relative_drift"].get<double>() : NAN);
  if (j.contains("mass_balance")) {
    const auto& b = j["mass_balance"];
    std::printf(
        "mass balance: stored %.9g -> %.9g m3, rain %.9g, inflow %.9g, through boundaries %.9g, "
        "infiltrated %.9g; residual %.3g m3 (%.3g relative)\n",
        b["stored_start_m3"].get<double>(), b["stored_end_m3"].get<double>(),
        b["rain_m3"].get<double>(), b["inflow_m3"].get<double>(),
        b["boundary_net_inflow_m3"].get<double>(), b["infiltrated_m3"].get<double>(),
        b["residual_m3"].get<double>(), b["relative_residual"].get<double>());
  }
  if (!o.out.empty())
    write_file_atomic((std::filesystem::path(o.out) / "summary.json").string(), j.dump(2) + "\n");
  return rc;
}

}  // namespace tessera::swe
