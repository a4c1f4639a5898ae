#include "lbm/driver.hpp"

#include <chrono>
#include <cmath>
#include <csignal>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/fault_injection.hpp"
#include "core/interrupt.hpp"
#include "lbm/checkpoint.hpp"
#include "lbm/kernels/lbm_flags.h"
#include "lbm/output.hpp"

namespace tessera::lbm {

nlohmann::json RunSummary::to_json() const {
  return {{"steps", steps}, {"seconds", seconds}, {"mlups", mlups}, {"mass_start", mass_start},
          {"mass_end", mass_end}, {"mass_relative_change", mass_start ? (mass_end - mass_start) / mass_start : 0.0}};
}

long first_non_finite(const Fields& f, const std::vector<std::uint8_t>& flags) {
  for (std::size_t n = 0; n < f.rho.size(); ++n) {
    const int t = flags[n] & TS_LBM_TYPE_MASK;
    if (t == TS_LBM_WALL || t == TS_LBM_MOVING) continue;
    if (!std::isfinite(f.rho[n]) || !std::isfinite(f.ux[n]) || !std::isfinite(f.uy[n]) || !std::isfinite(f.uz[n]))
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

// One run loop for both solvers: chunks, NaN checks, outputs, checkpoints,
// clean interruption.
template <class S>
RunSummary run_steps(S& s, const Case& c, const RunOptions& o, nlohmann::json& report) {
  RunSummary r;
  r.mass_start = s.mass();
  const long chunk = o.every > 0 ? o.every : std::min<long>(o.steps, 1000);
  std::vector<std::pair<double, std::string>> pvd;
  if (!o.out.empty()) std::filesystem::create_directories(o.out);
  const long z_slice = o.slice_z >= 0 ? o.slice_z : s.grid().nz / 2;
  long done = 0, checked = s.time();
  Fields f;
  auto outputs = [&](const Fields& fields) {
    if (!o.out.empty()) {
      const std::string name = fmt::format("{}_{:08d}.vti", c.name, s.time());
      write_vti(o.out / name, fields);
      pvd.emplace_back(double(s.time()), name);
      write_pvd(o.out / (c.name + ".pvd"), pvd);
      if (!o.png.empty() && png_available())
        write_png_slice(o.out / fmt::format("{}_{:08d}.png", c.name, s.time()), fields, s.flags(), z_slice,
                        parse_slice_quantity(o.png));
    }
    if (!o.checkpoint.empty()) write_checkpoint(o.checkpoint, s);
  };
  // SIGINT/SIGTERM: the first one stops the run at the next step boundary with
  // a checkpoint and the outputs (core/interrupt.hpp); steps are enqueued in
  // pieces so that a signal waits for at most kPoll steps more.
  install_interrupt_handlers();
  constexpr long kPoll = 64;
  while (done < o.steps) {
    long n = std::min(chunk, o.steps - done);
    const double sec = timed(s, [&] {
      for (long k = 0; k < n;) {
        const long m = std::min(kPoll, n - k);
        s.step(m);
        k += m;
        fault::at_step_boundary();  // test-only: TESSERA_FAULT=sigint_at_step:N
        if (interrupted() && k < n) n = k;
      }
    });
    r.seconds += sec;
    done += n;
    if (o.progress) o.progress(done, o.steps, sec > 0 ? double(s.grid().cells()) * n / sec * 1e-6 : 0.0);
    {  // NaN check after every chunk; outputs every `every` steps and at the end
      f = s.fields();
      const long bad = first_non_finite(f, s.flags());
      if (bad >= 0) {
        const Grid g = s.grid();
        throw Error(fmt::format("the simulation diverged: a non-finite density or velocity appeared between step {} "
                                "and step {} at cell ({}, {}, {}) (checked every {} steps; the outputs of step {} are "
                                "the last good ones). Lower the velocity, raise tau or refine the grid.",
                                checked, s.time(), bad % g.nx, (bad / g.nx) % g.ny, bad / (g.nx * g.ny), chunk,
                                checked));
      }
      checked = s.time();
      if (const int sig = interrupted(); sig && done < o.steps) {  // (a finished run just finishes)
        outputs(f);
        std::filesystem::path ckpt = o.checkpoint;
        if (ckpt.empty()) {
          ckpt = (o.out.empty() ? std::filesystem::path(".") : o.out) / fmt::format("{}_{:08d}.ckpt", c.name, s.time());
          write_checkpoint(ckpt, s);
        }
        throw Interrupted(sig, fmt::format("interrupted by {} after step {}: checkpoint {} (continue with --restart {}){}",
                                           signal_name(sig),
                                           s.time(), ckpt.string(), ckpt.string(),
                                           o.out.empty() ? "" : ", outputs in " + o.out.string()));
      }
      if (o.every > 0 || done == o.steps) outputs(f);
    }
  }
  r.steps = done;
  r.mlups = r.seconds > 0 ? double(s.grid().cells()) * double(done) / r.seconds * 1e-6 : 0.0;
  r.mass_end = s.mass();
  if (f.rho.empty()) f = s.fields();
  case_figures(c, s, f, report);
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
