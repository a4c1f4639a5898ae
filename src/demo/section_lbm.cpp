// Demo section: flow past a sphere (the geometry of the skeleton thesis's gas
// simulation) with the production lattice Boltzmann solver (D3Q19 BGK, FP32,
// esoteric pull), a velocity-magnitude slice, MLUPS against the copy
// bandwidth, the drag coefficient and the wake; then the same flow on the
// skeleton library's distributed field (z-slabs over several devices, halo
// exchange of the crossing populations) checked against the one-device run.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/progress.hpp"
#include "core/registry.hpp"
#include "demo/section.hpp"
#include "lbm/cases.hpp"
#include "lbm/distributed.hpp"
#include "lbm/driver.hpp"
#include "lbm/output.hpp"
#include "skeleton/team.hpp"

namespace tessera::demo {

namespace {

constexpr double kU = 0.1;
constexpr double kMassTol = 0.01;  // open inlet/outlet: mass settles within 1% of the start
// The free-stream drag of a sphere (Schiller-Naumann, Re < 800); the box's
// walls (blockage d/H = 1/4) raise it, a wrong flow misses this band.
double schiller_naumann(double re) { return 24 / re * (1 + 0.15 * std::pow(re, 0.687)); }
constexpr double kCdLow = 0.8, kCdHigh = 2.5;  // times schiller_naumann(Re)
constexpr double kThesisMlups = 1936;          // thesis-gas on an A100 (80^3, docs/lbm.md)
constexpr long kCompareSteps = 100;

// Parts of the skeleton run: logical devices on the CPU and OpenCL, real GPUs
// on CUDA (as many as exist, at most 2).
int skeleton_parts(const Device& d) {
  if (d.backend() != Backend::cuda) return 2;
  int n = 0;
  for (const auto& info : list_devices()) n += info.backend == Backend::cuda;
  return std::clamp(n, 1, 2);
}

}  // namespace

SectionResult run_lbm(const Context& c) {
  SectionResult r = section("lbm", "Skeleton + lattice Boltzmann (flow past a sphere)");
  // quick: a coarse sphere (6 cells) at Re 40 keeps tau = 0.545 stable
  const lbm::Grid g =
      c.pick(lbm::Grid{80, 24, 24}, lbm::Grid{96, 32, 32}, lbm::Grid{320, 128, 128});
  const double d = double(g.ny) / 4, re = c.pick(40.0, 100.0, 100.0);
  const long steps = c.pick(800L, 1500L, 4000L), chunk = c.pick(200L, 500L, 500L);
  lbm::Case cs = lbm::sphere(g, d, re, kU);
  cs.config.validate();
  Progress bar("lbm", int((steps + chunk - 1) / chunk) + 1);
  nlohmann::json report;
  lbm::RunSummary sum;
  std::vector<std::uint8_t> flags;
  lbm::Fields f;
  {
    lbm::Solver s(c.device, cs.config);
    cs.apply(s);
    lbm::RunOptions o;
    o.steps = steps;
    o.every = chunk;
    o.progress = [&](long done, long total, double mlups) {
      bar.step(fmt::format("step {}/{} {:.0f} MLUPS", done, total, mlups));
    };
    sum = lbm::run(s, cs, o, report);
    f = s.fields();
    flags = s.flags();
    lbm::SliceFrame fr;
    fr.step = s.time();
    lbm::write_png_slice(c.out / "lbm_speed.png", f, flags, g.nz / 2, lbm::SliceQuantity::speed,
                         fr);
  }
  r.figures.push_back(
      {"lbm_speed.png",
       fmt::format(
           "Velocity magnitude (lattice units, inlet {:g}) in the middle z-plane after {} steps: "
           "{}x{}x{} cells, sphere of diameter {:g} cells at x = nx/4, Re = {:g}; walls grey.",
           kU, steps, g.nx, g.ny, g.nz, d, re)});
  const double cd = report.value("drag_coefficient", NAN);
  const double mass = (sum.mass_end - sum.mass_start) / sum.mass_start;
  // wake: the centre-line speed one diameter behind the sphere against the inlet
  const long wx = std::min(g.nx - 2, long(double(g.nx) / 4 + d)), wy = g.ny / 2, wz = g.nz / 2;
  const double wake = f.ux[static_cast<std::size_t>((wz * g.ny + wy) * g.nx + wx)] / kU;

  // the skeleton: the same flow on a distributed field, against one device
  bar.step("skeleton z-slabs");
  const int parts = skeleton_parts(*c.device);
  double max_diff = 0;
  {
    lbm::Config cfg = cs.config;
    lbm::Solver one(c.device, cfg);
    cs.apply(one);
    one.step(kCompareSteps);
    lbm::DistributedSolver dist(skeleton::Team::open(c.device->id(), parts), cfg);
    dist.set_flags(cs.flags);
    dist.initialize(1.0, cs.u0);
    dist.step(kCompareSteps);
    dist.synchronize();
    const auto a = one.incoming(), b = dist.incoming();
    max_diff = a.size() == b.size() ? 0.0 : INFINITY;
    for (std::size_t k = 0; k < std::min(a.size(), b.size()); ++k)
      max_diff = std::max(max_diff, std::isfinite(b[k]) ? std::fabs(a[k] - b[k]) : INFINITY);
  }

  const double cd_sn = schiller_naumann(re);
  r.correct = std::fabs(mass) <= kMassTol && cd >= kCdLow * cd_sn && cd <= kCdHigh * cd_sn &&
              wake < 0.5 && max_diff == 0;
  const double bytes = double(cs.config.state_bytes()) * 2 -
                       double(g.cells());  // populations read+written, flags read
  r.summary = fmt::format(
      "{}x{}x{} cells, {} steps: {:.0f} MLUPS ({}); drag coefficient {:.3f} at Re {:g}", g.nx, g.ny,
      g.nz, sum.steps, sum.mlups, roofline(c, bytes * double(sum.steps), sum.seconds), cd, re);
  r.check = fmt::format(
      "every density and velocity finite; mass change {:.2e} (open inlet/outlet: must be <= {:g}); drag "
      "coefficient {:.3f} in [{:.2f}, {:.2f}] ({:g} to {:g} times Schiller-Naumann's free-stream {:.2f} at Re "
      "{:g}: the box's blockage d/H = 1/4 raises it); centre-line speed one diameter behind the sphere {:.2f} of the inlet (wake: "
      "must be < 0.5); skeleton run on {} part(s) equals the one-device run after {} steps (max "
      "difference {:g}, must be 0)",
      mass, kMassTol, cd, kCdLow * cd_sn, kCdHigh * cd_sn, kCdLow, kCdHigh, cd_sn, re, wake, parts,
      kCompareSteps, max_diff);
  Table t{"Today against the skeleton thesis (gas simulation, A100)",
          {"run", "cells", "MLUPS", "roofline", "original study"},
          {}};
  t.rows.push_back({"production solver, D3Q19 BGK FP32", fmt::format("{}x{}x{}", g.nx, g.ny, g.nz),
                    fmt::format("{:.0f}", sum.mlups),
                    roofline(c, bytes * double(sum.steps), sum.seconds),
                    fmt::format("{:.0f} MLUPS (thesis-gas 80^3 on an A100); {:.1f}x here",
                                kThesisMlups, sum.mlups / kThesisMlups)});
  r.tables.push_back(t);
  r.commands = {fmt::format(
      "tessera lbm --case sphere --size {} {} {} --re {:g} --steps {} --out run --png speed --device {}",
      g.nx, g.ny, g.nz, re, steps, c.device->id())};
  return r;
}

}  // namespace tessera::demo
