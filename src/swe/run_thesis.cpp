// `tessera swe --model thesis`: the thesis dam break on one device, with
// outputs, checkpoints and restart.
#include <chrono>
#include <cmath>
#include <cstdio>

#include <fmt/format.h>

#include "core/device.hpp"
#include "core/error.hpp"
#include "core/fault_injection.hpp"
#include "core/interrupt.hpp"
#include "core/progress.hpp"
#include "swe/run.hpp"
#include "swe/run_support.hpp"
#include "swe/thesis.hpp"

namespace tessera::swe::detail {

namespace {

using Clock = std::chrono::steady_clock;

// What a restarted thesis run must agree on with its checkpoint besides the
// grid and precision (option name -> effective value). The variant and the
// work-group shape are free: every race-free variant computes the same bits.
nlohmann::ordered_json thesis_config(const RunOptions& o, double dt) {
  return {{"h-left", o.h_left}, {"h-right", o.h_right}, {"dt", dt}, {"every", o.every}};
}

// The thesis kernels have no health flags: the run checks the fields where it
// downloads them anyway (outputs, checkpoints, the end). Throws an Error
// naming the step range, the first bad cell and the field (exit 1).
template <class T>
void check_state(const ThesisState<T>& st, long nx, long ny, long step, long good) {
  for (long i = 1; i <= nx; ++i)
    for (long jj = 1; jj <= ny; ++jj) {
      const long k = st.grid.at(i, jj);
      const char* what = !std::isfinite(double(st.z[k])) ? "a non-finite depth"
                         : !(st.z[k] > T(0)) ? "a depth <= 0 (the thesis scheme has no dry cells)"
                         : !std::isfinite(double(st.qx[k])) ? "a non-finite x-discharge"
                         : !std::isfinite(double(st.qy[k])) ? "a non-finite y-discharge"
                                                            : nullptr;
      if (what)
        throw Error(fmt::format(
            "the thesis model diverged between step {} and step {}: {} in cell ({}, {}) (Z = {}, "
            "Qx = {}, Qy = {}); step {} was the last one checked good. Lower --dt, or use --model "
            "physical (wet/dry, well-balanced)",
            good, step, what, i - 1, jj - 1, double(st.z[k]), double(st.qx[k]), double(st.qy[k]),
            good));
    }
}

}  // namespace

template <class T>
int run_thesis(const RunOptions& o, const std::shared_ptr<Device>& dev, nlohmann::json& j) {
  if (o.case_name != "thesis-dam")
    throw UsageError(
        fmt::format("the thesis model runs only the thesis dam break (it has no bathymetry "
                    "and cannot handle dry cells); case '{}' needs --model physical",
                    o.case_name));
  if (!o.bathymetry.empty())
    throw UsageError("the thesis model has a flat bottom: no --bathymetry");
  // the physical model's options: refused, never ignored
  const std::pair<const char*, bool> physical_only[] = {
      {"--rain", !o.rain.empty()},
      {"--rain-grid", !o.rain_grid.empty()},
      {"--losses", o.losses != "none"},
      {"--inflow", !o.inflows.empty()},
      {"--source", !o.sources.empty()},
      {"--bc-segment", !o.segments.empty()},
      {"--series-every", o.series_every > 0},
      {"--gauge", !o.gauges.empty()},
      {"--section", !o.sections.empty()},
      {"--max-maps", o.max_maps},
      {"--manning-file", !o.manning_file.empty()},
      {"--level-file", !o.level_file.empty()},
      {"--level", !std::isnan(o.level)},
      {"--manning", o.manning >= 0},
      {"--order 2", o.order != 1},
      {"--nodata", o.nodata != "wall"},
      {"--bc-x-lo", !o.bc[0].empty()},
      {"--bc-x-hi", !o.bc[1].empty()},
      {"--bc-y-lo", !o.bc[2].empty()},
      {"--bc-y-hi", !o.bc[3].empty()},
      {"--raster-format", o.raster_format != "asc"},
      {"--columns", o.columns != 3}};
  for (const auto& [option, given] : physical_only)
    if (given) throw UsageError(fmt::format("{} is an option of --model physical", option));
  DamBreak c;
  c.nx = o.nx ? o.nx : 1000;
  c.ny = o.ny ? o.ny : c.nx;
  c.deep = o.h_left;
  c.shallow = o.h_right;
  const auto init = thesis_dam_break<T>(c);  // refuses dry cells
  const double dx = c.dx(), t_end = o.t_end >= 0 ? o.t_end : 20.0;
  const double dt =
      o.dt > 0 ? o.dt : thesis_dt(dx, std::max(c.deep, c.shallow), std::min(c.deep, c.shallow));
  // the coded system's waves travel at |u| + sqrt(4.9); 2D Lax-Friedrichs needs nu <= 1/2
  const double nu = dt / dx * std::sqrt(4.9);
  if (nu > 0.5)
    throw UsageError(fmt::format(
        "dt = {} is unstable for the thesis scheme: Courant number {:.3f} > 0.5", dt, nu));
  check_run_length(t_end, dt, o.every, o.every_time, 0.0,
                   "--dt");  // the thesis clock is k * dt: exact
  const long steps = thesis_steps(t_end, dt);
  const nlohmann::ordered_json config = thesis_config(o, dt);
  SweCheckpoint restart;
  if (!o.restart.empty()) {
    restart = read_restart(o);
    check_restart_config(restart, "thesis", o.precision, c.nx, c.ny, config, o.restart);
    if (restart.steps() >= steps)
      throw UsageError(
          fmt::format("{}: the checkpoint is at step {} (t = {:.6g} s), the run ends at step {} "
                      "(--t-end {}): nothing to continue; give a larger --t-end",
                      o.restart, restart.steps(), restart.time(dt), steps, t_end));
  }
  ThesisSolver<T> s(dev, init, thesis_coefficient<T>(dt, dx), thesis_variant(o.variant),
                    parse_work_group(o.work_group, *dev));
  Outputs out(o);
  {  // the PNG colour scale from the initial state (a restart sets up the same)
    Snapshot s0;
    s0.nx = c.nx;
    s0.ny = c.ny;
    s0.dx = s0.dy = dx;
    for (long i = 1; i <= c.nx; ++i)
      for (long jj = 1; jj <= c.ny; ++jj) s0.h.push_back(double(init.z[init.grid.at(i, jj)]));
    s0.hu.assign(s0.h.size(), 0.0);
    s0.hv.assign(s0.h.size(), 0.0);
    out.set_initial(s0);
  }
  RunProgress progress;
  if (!resume<ThesisSolverState<T>>(o, restart, s, out, progress))
    progress.mass_start = thesis_mass(init, dx);
  long good = s.steps();  // the last step whose fields were checked
  auto checked = [&](long step) {
    auto st = s.state();
    check_state(st, c.nx, c.ny, step, good);
    good = step;
    return st;
  };
  auto snapshot = [&](long step) {
    const auto st = checked(step);
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
  const long first = s.steps();
  Checkpoints ckpt(o, true, first);
  auto save = [&](const std::string& path, bool) {
    SweCheckpoint ck;
    ck.config = nlohmann::json::parse(config.dump());
    ck.run = progress;
    out.record(ck.run);
    ck.state = s.save_state();
    check_state(std::get<ThesisSolverState<T>>(ck.state).fields, c.nx, c.ny, s.steps(),
                good);  // never save a bad state
    good = s.steps();
    write_swe_checkpoint(path, ck, dt);
  };
  if (first == 0 && !o.out.empty()) out.write(snapshot(0));
  Progress bar("swe thesis", 100);
  int shown = 0;
  const auto t0 = Clock::now();
  install_interrupt_handlers();
  for (long k = first + 1; k <= steps; ++k) {
    s.step();
    if (o.mass) std::printf("step %ld mass %.17g\n", k, thesis_mass(s.state(), dx));
    if (o.every > 0 && k % o.every == 0) out.write(snapshot(k));
    fault::at_step_boundary();  // test-only: TESSERA_FAULT=sigint_at_step:N
    if (const int sig = interrupted();
        sig && k < steps) {  // first SIGINT/SIGTERM: stop after this step
      const std::string file = ckpt.write(k, save);
      out.finish();
      throw interruption(sig, k, double(k) * dt, file, out);
    }
    if (ckpt.due(k) && k < steps) ckpt.write(k, save);
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
  if (!o.checkpoint.empty()) ckpt.write(steps, save);
  j["dt"] = dt;
  j["variant"] = o.variant;
  j["work_group"] = fmt::format("{}x{}", s.work_group().l0, s.work_group().l1);
  if (!o.restart.empty()) j["restarted_from"] = {{"file", o.restart}, {"step", first}};
  finish_summary(j, c.nx * c.ny, steps, steps - first, double(steps) * dt, wall,
                 progress.mass_start, thesis_mass(checked(steps), dx));
  return 0;
}

template int run_thesis<float>(const RunOptions&, const std::shared_ptr<Device>&, nlohmann::json&);
template int run_thesis<double>(const RunOptions&, const std::shared_ptr<Device>&, nlohmann::json&);

}  // namespace tessera::swe::detail
