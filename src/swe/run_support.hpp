// Pieces shared by the thesis and the physical runs of `tessera swe`
// (run.cpp, run_thesis.cpp): the numbered outputs, progress, summary and the
// checkpoints a run writes (at the end, every N steps, when interrupted).
#pragma once
#include <algorithm>
#include <cmath>
#include <limits>
#include <csignal>
#include <filesystem>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "core/interrupt.hpp"
#include "core/progress.hpp"
#include "swe/checkpoint.hpp"
#include "swe/output.hpp"
#include "swe/physical.hpp"
#include "swe/run.hpp"

namespace tessera::swe::detail {

// The outputs of one run: numbered files per format, a .pvd for the .vti
// series, one NetCDF file for the whole run. A restarted run resumes the
// numbering and the series where the checkpoint left them.
class Outputs {
 public:
  explicit Outputs(const RunOptions& o) : o_(o) {
    if (o.out.empty()) return;
    std::filesystem::create_directories(o.out);
    for (const auto& f : o.formats) {
      if (f != "vtk" && f != "vti" && f != "netcdf" && f != "png")
        throw UsageError(fmt::format(
            "--format: unknown output format '{}' (expected a comma-separated list of vtk, vti, netcdf, png)",
            f));
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
      if (f == "png") {
        if (!scale_) scale_ = png_scale_of(s, o_.png_field);  // no initial state given
        last_ = path(stem + ".png"), write_png(last_, s, o_.png_field, *scale_);
      }
      if (f == "netcdf") nc_->append(s), last_ = path("swe.nc") + " (after close)";
    }
    ++count_;
  }
  void finish() {
    if (nc_) nc_->close();
  }
  /// The PNG colour scale of every frame: --png-range, or the run's initial
  /// state (a restarted run sets up the same case, so its frames match the
  /// straight run's).
  void set_initial(const Snapshot& s0) {
    if (o_.png_range.size() == 2)
      scale_ = PngScale{o_.png_range[0], o_.png_range[1]};
    else
      scale_ = png_scale_of(s0, o_.png_field);
  }
  const std::string& last() const { return last_; }
  int count() const { return count_; }
  void resume(const RunProgress& p) {
    count_ = static_cast<int>(p.outputs);
    series_ = p.series;
    last_ = p.last_output;
  }
  void record(RunProgress& p) const {
    p.outputs = count_;
    p.series = series_;
    p.last_output = last_;
  }

 private:
  std::string path(const std::string& name) const {
    return (std::filesystem::path(o_.out) / name).string();
  }
  const RunOptions& o_;
  std::optional<PngScale> scale_;
  std::unique_ptr<NetcdfWriter> nc_;
  std::vector<std::pair<double, std::string>> series_;
  int count_ = 0;
  std::string last_;
};

// When and where a run writes checkpoints. `write` saves the state (a
// collective call for distributed solvers) and, on the writing rank, the file.
class Checkpoints {
 public:
  Checkpoints(const RunOptions& o, bool writer, long start_steps)
      : o_(o), writer_(writer), mark_(start_steps) {}
  /// --checkpoint-every: a multiple of N steps was passed since the last one.
  bool due(long steps) const {
    return o_.checkpoint_every > 0 && steps / o_.checkpoint_every > mark_ / o_.checkpoint_every;
  }
  /// --checkpoint FILE, or after an interruption without it `OUT/swe_STEP.ckpt` (OUT: --out, or the working directory).
  std::string path_for(long steps) const {
    if (!o_.checkpoint.empty()) return o_.checkpoint;
    return ((o_.out.empty() ? std::filesystem::path(".") : std::filesystem::path(o_.out)) /
            fmt::format("swe_{:08d}.ckpt", steps))
        .string();
  }
  template <class Save>
  std::string write(long steps, Save&& save) {
    const std::string p = path_for(steps);
    save(p, writer_);
    mark_ = steps;
    return p;
  }

 private:
  const RunOptions& o_;
  std::optional<PngScale> scale_;
  bool writer_;
  long mark_;
};

// What a run stopped by a signal says (main() prints it, exit 128 + signal).
inline Interrupted interruption(int sig, long step, double t, const std::string& checkpoint,
                                const Outputs& out) {
  return Interrupted(
      sig,
      fmt::format(
          "interrupted by {} after step {}: checkpoint {} (continue with the same options and --restart {}); "
          "t = {:.6g} s{}",
          signal_name(sig), step, checkpoint, checkpoint, t,
          out.count() ? ", last output: " + out.last() : ""));
}

/// The longest run tessera starts: step counts, and times as multiples of a
/// step, stay exact in a double (2^53) and far inside a long.
inline constexpr long kMaxSteps = 1L << 53;

/// Refuses, before anything runs, a run that cannot end in a representable
/// number of steps or outputs (UsageError naming the options and the limit):
/// `dt` the step (fixed, or an upper bound of the adaptive ones; 0: unknown),
/// `what` where it comes from, `clock_epsilon` the relative precision of the
/// clock the solver keeps (a step below t_end * epsilon would not advance it
/// near the end).
inline void check_run_length(double t_end, double dt, long every, double every_time,
                             double clock_epsilon, const char* what) {
  if (dt > 0) {
    const double steps = std::ceil(t_end / dt);
    if (!(steps <= double(kMaxSteps)))
      throw UsageError(fmt::format(
          "--t-end {} with a step of {} ({}) needs {:.3g} steps, more than the {} (2^53) a "
          "run can count: {}",
          t_end, dt, what, steps, kMaxSteps,
          std::string(what) == "--dt" ? "raise --dt or lower --t-end"
                                      : "raise --cfl or lower --t-end"));
    if (dt <= t_end * clock_epsilon)
      throw UsageError(fmt::format(
          "a step of {} ({}) is below the resolution of the solver's clock at --t-end {} "
          "({:.3g} in this precision): the time would stop advancing; use --precision double",
          dt, what, t_end, t_end * clock_epsilon));
    if (every > 0 && steps / double(every) > double(std::numeric_limits<int>::max()))
      throw UsageError(fmt::format(
          "--every {} over {:.3g} steps would write more than {} outputs: raise --every", every,
          steps, std::numeric_limits<int>::max()));
  }
  if (every_time > 0 && t_end / every_time > double(std::numeric_limits<int>::max()))
    throw UsageError(fmt::format(
        "--every-time {} up to --t-end {} would write more than {} outputs: raise --every-time",
        every_time, t_end, std::numeric_limits<int>::max()));
}

/// The physical model's first adaptive step from the case's initial state
/// (its rate (|u|+c)/dx + (|v|+c)/dy, c = sqrt(g h), over the wet cells), or 0
/// for a still, dry or flat state whose first step the boundaries decide.
inline double first_adaptive_dt(const PhysCase& c, double cfl) {
  double rate = 0;
  for (std::size_t k = 0; k < c.h.size(); ++k) {
    const double h = c.h[k];
    if (!(h > 0)) continue;
    const double wave = std::sqrt(c.g * h);
    rate = std::max(
        rate, (std::fabs(c.hu[k] / h) + wave) / c.dx + (std::fabs(c.hv[k] / h) + wave) / c.dy);
  }
  return rate > 0 ? cfl / rate : 0.0;
}

inline void progress_to(Progress& p, int& shown, double fraction, double t, double t_end,
                        double wall) {
  const int pct = static_cast<int>(std::min(1.0, fraction) * 100);
  while (shown < pct) {
    ++shown;
    const double eta = fraction > 0 ? wall * (1 - fraction) / fraction : 0;
    p.step(fmt::format("t = {:.4g} / {:.4g} s, ETA {:.0f} s", t, t_end, eta));
  }
}

/// `steps`: all steps of the run (a restarted one included); `steps_now`: the
/// steps of this process, which the wall time measured.
inline void finish_summary(nlohmann::json& j, long cells, long steps, long steps_now, double t,
                           double wall, double m0, double m1) {
  j["steps"] = steps;
  j["simulated_time_s"] = t;
  j["wall_s"] = wall;
  j["mcells_per_s"] = wall > 0 ? double(cells) * double(steps_now) / wall * 1e-6 : 0.0;
  j["mass_start"] = m0;
  j["mass_end"] = m1;
  j["mass_relative_drift"] = m0 != 0 ? (m1 - m0) / m0 : 0.0;
}

/// Refuses a restart that cannot continue the outputs (NetCDF is completed at
/// the end of each run) and reads the checkpoint.
inline SweCheckpoint read_restart(const RunOptions& o) {
  for (const auto& f : o.formats)
    if (f == "netcdf" && !o.out.empty())
      throw UsageError(fmt::format(
          "--restart {}: a NetCDF series cannot be continued (swe.nc is completed at the end "
          "of each run and would be replaced); use --format vti, vtk or png for runs that "
          "restart",
          o.restart));
  return read_swe_checkpoint(o.restart);
}

/// --restart: hands the checkpoint's state to the solver (the devices hold it
/// from then on) and its progress to the run and the outputs. False without
/// --restart: the run starts from its initial state.
template <class State, class Solver>
bool resume(const RunOptions& o, SweCheckpoint& restart, Solver& s, Outputs& out,
            RunProgress& progress) {
  if (o.restart.empty()) return false;
  s.restore_state(std::get<State>(restart.state));
  restart.state = SolverStateAny{};
  progress = restart.run;
  out.resume(progress);
  return true;
}

}  // namespace tessera::swe::detail
