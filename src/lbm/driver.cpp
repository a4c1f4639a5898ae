#include "lbm/driver.hpp"

#include <algorithm>
#include <cstdio>
#include <chrono>
#include <memory>
#include <cmath>
#include <csignal>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/fault_injection.hpp"
#include "core/interrupt.hpp"
#include "lbm/checkpoint.hpp"
#include "lbm/kernels/lbm_flags.h"
#include "lbm/output.hpp"
#include "lbm/series.hpp"

namespace tessera::lbm {

nlohmann::json RunSummary::to_json() const {
  return {{"steps", steps},
          {"seconds", seconds},
          {"mlups", mlups},
          {"mass_start", mass_start},
          {"mass_end", mass_end},
          {"mass_relative_change", mass_start ? (mass_end - mass_start) / mass_start : 0.0}};
}

long first_non_finite(const Fields& f, const std::vector<std::uint8_t>& flags) {
  for (std::size_t n = 0; n < f.rho.size(); ++n) {
    if (TS_LBM_IS_WALL(flags[n])) continue;
    if (!std::isfinite(f.rho[n]) || !std::isfinite(f.ux[n]) || !std::isfinite(f.uy[n]) ||
        !std::isfinite(f.uz[n]))
      return long(n);
  }
  return -1;
}

namespace {

// The case's own figures of merit (validation against analytic/benchmark data).
template <class S>
void case_figures(const Case& c, S& s, const Fields& f, nlohmann::json& j) {
  const Grid g = s.grid();
  if (c.name == "cavity") {
    const double re = c.speed * c.length / c.config.viscosity();
    j["reynolds"] = re;
    for (int ref : {100, 1000})
      if (std::fabs(re - ref) < 1e-6 * ref) j["ghia_max_deviation"] = ghia_deviation(c, f, ref);
  } else if (c.name == "poiseuille") {
    double num = 0, den = 0;
    for (long y = 1; y < g.ny - 1; ++y) {
      const double e = f.ux[std::size_t(g.nx * y)] - poiseuille_exact(c, y);
      num += e * e;
      den += poiseuille_exact(c, y) * poiseuille_exact(c, y);
    }
    j["poiseuille_l2_error"] = std::sqrt(num / den);
  } else if (c.name == "cylinder" || c.name == "sphere") {
    const auto F = s.body_force();
    j["force"] = F;
    // drag coefficient with the frontal length (2D: per unit depth) or area
    const double area = c.name == "sphere" ? 3.14159265358979323846 * c.length * c.length / 4.0
                                           : c.length * double(g.nz);
    j["drag_coefficient"] = 2.0 * F[0] / (c.speed * c.speed * area);
    j["reynolds"] = c.speed * c.length / c.config.viscosity();
  }
}

// Device seconds of `steps()`: events on the one queue, or the wall clock
// between synchronisations of every part.
template <class F>
double timed(Solver& s, F&& steps) {
  auto t0 = s.device().queue().record();
  steps();
  auto t1 = s.device().queue().record();
  s.device().synchronize();
  return t1->ms_since(*t0) * 1e-3;
}
template <class F>
double timed(DistributedSolver& s, F&& steps) {
  s.synchronize();
  const auto t0 = std::chrono::steady_clock::now();
  steps();
  s.synchronize();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Pieces of steps between two looks at the interrupt flag. The queue holds at
// most two pieces (the one running and the next), and a piece is sized from
// the measured step time to take about kPieceSeconds, so a signal is honoured
// within about a second of device time on any backend: OpenCL and CUDA
// enqueue asynchronously, and without the bound a whole chunk was queued
// before the first look.
class Pieces {
 public:
  static constexpr long kMaxSteps = 64;
  static constexpr double kPieceSeconds = 0.25;
  long next(long left) const { return std::min(left, size_); }
  /// Before the first piece of a chunk (the queue is empty).
  void start() {
    primed_ = false;
    t_ = std::chrono::steady_clock::now();
  }
  /// After enqueuing `steps` steps: waits for the previous piece and sizes the next.
  void enqueued(Solver& s, long steps) {
    auto e = s.device().queue().record();
    if (!primed_) {  // the chunk's first piece runs alone: its time sizes the next
      e->wait();
      resize(steps);
      primed_ = true;
      return;
    }
    if (last_) {  // the queue was busy since the last wait: this is the last piece's time
      last_->wait();
      resize(last_steps_);
    } else {
      t_ = std::chrono::steady_clock::now();
    }
    last_ = std::move(e);
    last_steps_ = steps;
  }
  void enqueued(DistributedSolver& s, long steps) {
    s.synchronize();  // its parts meet at every exchange anyway
    resize(steps);
  }
  void drain() {
    if (last_) last_->wait();
    last_.reset();
  }

 private:
  void resize(long steps) {
    const auto now = std::chrono::steady_clock::now();
    const double per_step =
        std::chrono::duration<double>(now - t_).count() / double(std::max(1L, steps));
    size_ = std::clamp(long(kPieceSeconds / std::max(per_step, 1e-9)), 1L, kMaxSteps);
    t_ = now;
  }
  long size_ = 1;  // the run's first piece is one step
  bool primed_ = false;
  long last_steps_ = 0;
  std::chrono::steady_clock::time_point t_ = std::chrono::steady_clock::now();
  std::unique_ptr<Event> last_;
};

// The .pvd entries an uninterrupted run had written before `time`: the
// scheduled outputs (multiples of --every) whose files a restarted run finds
// in --out, so its .pvd lists the whole run as the straight run's does.
std::vector<std::pair<double, std::string>> earlier_outputs(const Case& c, const RunOptions& o,
                                                            long time) {
  std::vector<std::pair<double, std::string>> pvd;
  std::error_code ec;
  if (o.out.empty() || o.every <= 0 || !std::filesystem::is_directory(o.out, ec)) return pvd;
  std::vector<long> times;  // the folder is listed once (the schedule may hold 2^40 steps)
  const std::string prefix = c.name + "_";
  for (const auto& e : std::filesystem::directory_iterator(o.out, ec)) {
    const std::string n = e.path().filename().string();
    if (n.size() != prefix.size() + 12 || n.compare(0, prefix.size(), prefix) != 0 ||
        n.substr(n.size() - 4) != ".vti")
      continue;
    const std::string digits = n.substr(prefix.size(), 8);
    if (digits.find_first_not_of("0123456789") != std::string::npos) continue;
    const long t = std::stol(digits);
    if (t > 0 && t <= time && t % o.every == 0) times.push_back(t);
  }
  std::sort(times.begin(), times.end());
  for (long t : times) pvd.emplace_back(double(t), fmt::format("{}_{:08d}.vti", c.name, t));
  return pvd;
}

// One run loop for both solvers: chunks, NaN checks, outputs, checkpoints,
// clean interruption. The run ends at step o.steps; a restarted run continues
// the same schedule (outputs at multiples of --every and at the end), so it
// writes what the straight run would have written from there on.
template <class S>
RunSummary run_steps(S& s, const Case& c, const RunOptions& o, nlohmann::json& report) {
  RunSummary r;
  r.mass_start = s.mass();
  const long start = s.time();
  if (o.steps < start)
    throw UsageError(fmt::format(
        "--steps {}{} is the step the run ends at, but the checkpoint is already at step {}: "
        "give --steps of at least {}",
        o.steps, o.steps_given ? "" : " (the default)", start, start));
  if (start > 0)
    std::printf("continuing from step %ld to step %ld (--steps is the step the run ends at)\n",
                start, o.steps);
  if (o.slice_z >= s.grid().nz)
    throw UsageError(
        fmt::format("--slice-z {} is outside the lattice's 0..{}", o.slice_z, s.grid().nz - 1));
  if (!o.png.empty()) parse_slice_quantity(o.png);  // refused before anything is written
  std::vector<std::pair<double, std::string>> pvd = earlier_outputs(c, o, start);
  if (!o.out.empty()) std::filesystem::create_directories(o.out);
  const long z_slice = o.slice_z >= 0 ? o.slice_z : s.grid().nz / 2;
  long checked = start;
  Fields f;
  Series series(c, o.out, o.seconds_per_step, start);
  std::pair<double, double> png_range{0, 0};
  if (o.png_range.size() == 2) png_range = {o.png_range[0], o.png_range[1]};
  auto outputs = [&](const Fields& fields) {
    if (!series.empty()) series.sample(s.time(), s.body_forces(c.body_of, c.bodies.size()), fields);
    if (!o.out.empty()) {
      const std::string name = fmt::format("{}_{:08d}.vti", c.name, s.time());
      write_vti(o.out / name, fields, s.flags(), o.metres_per_cell);
      pvd.emplace_back(double(s.time()), name);
      write_pvd(o.out / (c.name + ".pvd"), pvd);
      if (!o.png.empty() && png_available()) {
        SliceFrame fr{s.time(), o.seconds_per_step, o.metres_per_cell, png_range.first,
                      png_range.second};
        const auto used =
            write_png_slice(o.out / fmt::format("{}_{:08d}.png", c.name, s.time()), fields,
                            s.flags(), z_slice, parse_slice_quantity(o.png), fr);
        if (!(png_range.second > png_range.first)) png_range = used;  // one scale from here on
      }
    }
    if (!o.checkpoint.empty()) write_checkpoint(o.checkpoint, s);
  };
  // The end of the chunk that contains step t: the next multiple of --every
  // (outputs), else of 1000 steps (NaN checks), and at most the run's end.
  const long check = o.every > 0 ? o.every : 1000;
  auto chunk_end = [&](long t) { return std::min(o.steps, (t / check + 1) * check); };
  // SIGINT/SIGTERM: the first one stops the run at the next piece boundary
  // with a checkpoint (core/interrupt.hpp); no output is written there, since
  // the straight run has none at that step.
  install_interrupt_handlers();
  Pieces pieces;
  while (s.time() < o.steps) {
    const long from = s.time();
    long n = chunk_end(from) - from;
    const double sec = timed(s, [&] {
      pieces.start();
      for (long k = 0; k < n;) {
        const long m = pieces.next(n - k);
        s.step(m);
        k += m;
        pieces.enqueued(s, m);
        fault::at_step_boundary();  // test-only: TESSERA_FAULT=sigint_at_step:N
        if (!o.agree && interrupted() && k < n) n = k;
      }
      pieces.drain();
    });
    r.seconds += sec;
    if (o.progress)
      o.progress(s.time() - start, o.steps - start,
                 sec > 0 ? double(s.grid().cells()) * double(n) / sec * 1e-6 : 0.0);
    {  // NaN check after every chunk; outputs every `every` steps and at the end
      f = s.fields();
      const long bad = first_non_finite(f, s.flags());
      if (bad >= 0) {
        const Grid g = s.grid();
        throw Error(fmt::format(
            "the simulation diverged: a non-finite density or velocity appeared between step {} "
            "and step {} at cell ({}, {}, {}) (checked every {} steps; the outputs of step {} are "
            "the last good ones). Lower the velocity, raise tau or refine the grid.",
            checked, s.time(), bad % g.nx, (bad / g.nx) % g.ny, bad / (g.nx * g.ny), check,
            checked));
      }
      checked = s.time();
      const bool scheduled = s.time() == o.steps || (o.every > 0 && s.time() % o.every == 0);
      if (const int sig = o.agree ? o.agree(interrupted()) : interrupted();
          sig && s.time() < o.steps) {  // (a finished run just finishes)
        if (scheduled) outputs(f);
        std::filesystem::path ckpt = o.checkpoint;
        if (ckpt.empty()) {
          ckpt = (o.out.empty() ? std::filesystem::path(".") : o.out) /
                 fmt::format("{}_{:08d}.ckpt", c.name, s.time());
          write_checkpoint(ckpt, s);
        } else if (!scheduled) {
          write_checkpoint(ckpt, s);
        }
        throw Interrupted(
            sig,
            fmt::format("interrupted by {} after step {}: checkpoint {} (continue with the same "
                        "options and --restart {}){}",
                        signal_name(sig), s.time(), ckpt.string(), ckpt.string(),
                        o.out.empty() ? "" : ", outputs in " + o.out.string()));
      }
      if (scheduled && (o.every > 0 || s.time() == o.steps)) outputs(f);
    }
  }
  r.steps = s.time() - start;
  r.mlups = r.seconds > 0 ? double(s.grid().cells()) * double(r.steps) / r.seconds * 1e-6 : 0.0;
  r.mass_end = s.mass();
  if (f.rho.empty()) f = s.fields();
  case_figures(c, s, f, report);
  if (!series.empty()) report["series"] = series.to_json();
  return r;
}

}  // namespace

RunSummary run(Solver& s, const Case& c, const RunOptions& o, nlohmann::json& report) {
  return run_steps(s, c, o, report);
}
RunSummary run(DistributedSolver& s, const Case& c, const RunOptions& o, nlohmann::json& report) {
  return run_steps(s, c, o, report);
}

}  // namespace tessera::lbm
