// Demo section: the shallow-water thesis's dam break (500 m basin, 20 m of
// water behind a dam at x = 100 m, 10 m in front) with the physical model
// (HLL + hydrostatic reconstruction, FP64), PNG snapshots of the depth, mass
// drift, and the flow checked against Stoker's analytic dam-break solution
// before the wave reaches a wall. The thesis's own Lax-Friedrichs model is
// timed on the thesis's 1000^2 grid for the comparison.
#include <algorithm>
#include <chrono>
#include <cmath>

#include <fmt/format.h>

#include "core/progress.hpp"
#include "demo/section.hpp"
#include "swe/cases.hpp"
#include "swe/output.hpp"
#include "swe/physical.hpp"
#include "swe/thesis.hpp"

namespace tessera::demo {

namespace {

using Clock = std::chrono::steady_clock;

// closed walls, FP64: the update conserves mass to rounding, which accumulates
// with the steps: a few ulps (1e-15 relative) per step
constexpr double kMassTolPerStep = 1e-15;
constexpr double kStokerTol =
    0.03;  // relative L1 depth error of the first-order scheme at t = 5 s (1.0% on 200 cells)
constexpr double kThesisBest =
    7.655;  // s, 20 s simulated on 1000^2 in single precision (the thesis's best run)
constexpr double kPhysBytesPerCell =
    56;  // FP64 first order: h, hu, hv read and written, z read (docs/swe.md)

// Relative L1 error of the depth along the middle row against Stoker's solution.
double stoker_error(const swe::PhysCase& pc, const swe::HostFields& f, double t) {
  const swe::DamBreak1D exact{20, 10, 100, pc.g};
  const long j = pc.ny / 2;
  double num = 0, den = 0;
  for (long i = 0; i < pc.nx; ++i) {
    double h, u;
    exact.at(pc.x0 + (double(i) + 0.5) * pc.dx, t, h, u);
    num += std::fabs(f.h[static_cast<std::size_t>(i * pc.ny + j)] - h);
    den += h;
  }
  return num / den;
}

}  // namespace

SectionResult run_swe(const Context& c) {
  SectionResult r = section("swe", "Shallow water (thesis dam break, physical model)");
  const long n = c.pick(100L, 400L, 2000L);
  const swe::PhysCase pc = swe::make_case("thesis-dam", n, n);
  swe::PhysOptions po;
  swe::PhysSolver<double> s(c.device, pc, po);
  const double m0 = s.mass();
  const double times[] = {0, 5, 10, 20};
  Progress bar("swe", 5);
  double wall = 0, stoker = -1;
  swe::Health h;
  swe::PngScale scale{0, 0};  // the initial state's, for every frame
  for (double t : times) {
    bar.step(fmt::format("t = {:g} s", t));
    if (t > 0) {
      const auto t0 = Clock::now();
      h = s.advance_to(t);
      c.device->synchronize();
      wall += std::chrono::duration<double>(Clock::now() - t0).count();
      if (h.bad) break;
    }
    const swe::HostFields f = s.state();
    if (t == 5) stoker = stoker_error(pc, f, t);
    const swe::Snapshot snap{pc.nx,   pc.ny, pc.dx, pc.dy, pc.x0, pc.y0,     t,
                             h.steps, f.h,   f.hu,  f.hv,  pc.z,  pc.crs_wkt};
    const std::string file = fmt::format("swe_t{:02d}.png", int(t));
    if (t == times[0]) scale = swe::png_scale_of(snap, "depth");
    swe::write_png((c.out / file).string(), snap, "depth", scale);
    r.figures.push_back(
        {file,
         fmt::format("Water depth at t = {:g} s ({}x{} cells, 500 m x 500 m, dam at x = 100 m; "
                     "one colour scale for the four frames, in metres)",
                     t, n, n)});
  }
  const double m1 = s.mass(), drift = (m1 - m0) / m0;
  const double mass_tol = kMassTolPerStep * double(std::max<long>(h.steps, 1));

  bar.step("thesis model, 20 s");
  const long tn = c.pick(100L, 400L, 1000L);
  swe::DamBreak db;
  db.nx = db.ny = tn;
  const auto init = swe::thesis_dam_break<float>(db);
  const double dt = swe::thesis_dt(db.dx(), 20, 10);
  const long steps = swe::thesis_steps(20, dt);
  swe::ThesisSolver<float> ts(c.device, init, swe::thesis_coefficient<float>(dt, db.dx()),
                              swe::thesis_variant("fused-walls"),
                              swe::parse_work_group("default", *c.device));
  c.device->synchronize();
  const auto t0 = Clock::now();
  ts.run(steps);
  c.device->synchronize();
  const double thesis_wall = std::chrono::duration<double>(Clock::now() - t0).count();
  const double thesis_drift =
      swe::thesis_mass(ts.state(), db.dx()) / swe::thesis_mass(init, db.dx()) - 1;

  const double cells = double(n) * double(n);
  r.correct = !h.bad && std::fabs(drift) <= mass_tol && stoker >= 0 && stoker <= kStokerTol &&
              std::isfinite(thesis_drift);
  r.summary = fmt::format(
      "{}x{} cells, 20 s simulated in {} steps, {} wall time ({:.3g} Mcell/s), mass drift {:.1e}",
      n, n, h.steps, duration(wall), wall > 0 ? cells * double(h.steps) / wall * 1e-6 : 0.0, drift);
  r.check = fmt::format(
      "{}relative mass drift {:.2e} (closed walls: must be <= 1e-15 per step = {:.1e}); relative L1 depth error against "
      "Stoker's analytic dam break at t = 5 s (before the wave reaches a wall) {:.4f} (must be <= {:g})",
      h.bad ? "the solution became invalid; " : "", drift, mass_tol, stoker, kStokerTol);
  Table t{"Today against the thesis (Stramare, PoliMi 2012)",
          {"run", "grid", "time", "roofline", "original study"},
          {}};
  t.rows.push_back({"physical model (HLL, FP64), 20 s", fmt::format("{}^2", n), duration(wall),
                    roofline(c, kPhysBytesPerCell * cells * double(h.steps), wall),
                    "the thesis has no physical model (linearised pressure, no dry cells)"});
  t.rows.push_back(
      {fmt::format("thesis Lax-Friedrichs (fused-walls, float), 20 s, {} steps", steps),
       fmt::format("{}^2", tn), duration(thesis_wall), "-",
       fmt::format("{} at 1000^2 (best run); {:.3g}x faster here{}", duration(kThesisBest),
                   thesis_wall > 0 ? kThesisBest / thesis_wall : 0.0,
                   tn == 1000 ? "" : " (smaller grid)")});
  r.tables.push_back(t);
  r.commands = {
      fmt::format(
          "tessera swe --case thesis-dam --nx {} --out run --format png --every-time 5 --device {}",
          n, c.device->id()),
      fmt::format(
          "tessera swe --model thesis --nx {} --precision float --variant fused-walls --device {}",
          tn, c.device->id())};
  return r;
}

}  // namespace tessera::demo
