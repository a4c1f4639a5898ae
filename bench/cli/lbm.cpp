// `tessera bench lbm`: the production solver's MLUPS (D3Q19 BGK, FP32 /
// FP16S / FP64 storage, 256^3 unless --size) against the copy bandwidth
// measured in the same run, the thesis's gas simulation at the single-GPU
// sides of its Table B.4 (200 iterations, against the thesis's A100 native
// MLUPS), and on request (--param validate=1) the 129^2 cavity against Ghia
// at Re 100 and 1000.
//
// Byte model per cell and step (esoteric pull, one copy): read and write Q
// populations + read 1 flag byte = 2*Q*s + 1 (D3Q19: FP32 153 B, FP16S 77 B,
// FP64 305 B). Cells next to walls read neighbour flags from cache, not counted.
// Thesis-gas: read 76 B + write 76 B = 152 B per cell (A-B, AoS).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "apps/tessera/commands.hpp"
#include "core/error.hpp"
#include "core/progress.hpp"
#include "lbm/cases.hpp"
#include "lbm/distributed.hpp"
#include "lbm/geometry/crossings.hpp"
#include "lbm/geometry/voxelize.hpp"
#include "lbm/kernels/lbm_point.hpp"
#include "lbm/kernels/lbm_flags.h"
#include "lbm/solver.hpp"
#include "lbm/thesis_gas.hpp"
#include "lbm/thesis_gas_parts.hpp"
#include "skeleton/team.hpp"

namespace tessera::app {

namespace {

struct ThesisRow {
  long side;
  double native_s;  // thesis Table B.4, A100, native total, 200 iterations
};
constexpr ThesisRow kThesisA100[] = {{80, 0.0529},  {160, 0.3798},  {240, 1.2888},  {320, 3.0736},
                                     {400, 6.0364}, {480, 10.4911}, {640, 24.9157}, {800, 49.1322}};

// the thesis's best single-A100 figure of its Muesli program (issue 9; the
// per-side Muesli totals vary, §5.8)
constexpr double kThesisMuesliA100 = 1963;

void production_rows(const std::shared_ptr<Device>& dev, const BenchArgs& a, long side,
                     bench::DeviceReport& r, Progress& progress) {
  const int steps = a.quick ? 2 : 10;
  for (const auto& coll : a.param_list("collision", "bgk"))
    for (const auto& prec : a.param_list("precisions", "fp32,fp16s,fp64")) {
      lbm::Config c;
      c.lattice = lbm::parse_lattice(a.param("lattice", "D3Q19"));
      c.collision = lbm::parse_collision(coll);
      c.precision = lbm::parse_precision(prec);
      c.grid = {side, side, c.lattice == lbm::Lattice::d2q9 ? 1 : side};
      c.tau = 0.6;
      progress.step(fmt::format("{} {} {} {}^3", lbm::to_string(c.lattice),
                                lbm::to_string(c.collision), lbm::to_string(c.precision), side));
      lbm::Solver s(dev, c);
      s.initialize(1.0, {0.05, 0.0, 0.0});  // FluidX3D's benchmark: a periodic box of fluid
      bench::Measurement m;
      m.kernel = fmt::format("{} {} esoteric-pull x{} steps", lbm::to_string(c.lattice),
                             lbm::to_string(c.collision), steps);
      m.precision = lbm::to_string(c.precision);
      m.size = static_cast<std::size_t>(c.grid.cells());
      const double per_cell = 2.0 * double(c.state_bytes()) / double(c.grid.cells()) - 1.0;
      m.bytes = per_cell * double(c.grid.cells()) * steps;
      m.flops = 0;
      m.timing = bench::time_runs(
          dev->queue(), [&](int) { s.step(steps); }, a.timing);
      const double mlups = double(c.grid.cells()) * steps / (m.timing.median_ms * 1e-3) * 1e-6;
      m.note = fmt::format("{:.0f} MLUPS (median), {:.0f} B/cell/step", mlups, per_cell);
      r.results.push_back(m);
    }
}

// Issue 43's goals: bodies must not slow the fluid update (a sphere filling
// solid_percent of the box, MLUPS counted over all cells, against the empty box of
// the same run), and a triangulated sphere of 20 * 4^levels triangles
// voxelized into side^3 (wall clock: binning, upload, kernels, download).
void geometry_rows(const std::shared_ptr<Device>& dev, const BenchArgs& a, long side,
                   bench::DeviceReport& r, Progress& progress) {
  const int steps = a.quick ? 2 : 10;
  const long percent = a.param_int("solid_percent", "10", 1);
  if (percent >= 50) throw UsageError(fmt::format("--param solid_percent={}: below 50", percent));
  const double solid = double(percent) / 100.0;
  for (const auto& prec : a.param_list("precisions", "fp32,fp16s")) {
    double empty = 0;
    // the empty box, the body with halfway bounce-back, and the body with
    // interpolated bounce-back (its links' pass after each step)
    for (const int kind : {0, 1, 2}) {
      const bool body = kind > 0;
      lbm::Config c;
      c.precision = lbm::parse_precision(prec);
      c.grid = {side, side, side};
      c.tau = 0.6;
      progress.step(fmt::format("D3Q19 {} {}^3 {}", prec, side, body ? "with a body" : "empty"));
      lbm::Solver s(dev, c);
      std::vector<std::uint8_t> flags(std::size_t(c.grid.cells()), TS_LBM_FLUID);
      long walls = 0;
      if (body) {  // a sphere of volume solid * side^3 in the middle
        const double rad = std::cbrt(solid * 3.0 / (4.0 * 3.14159265358979323846)) * double(side);
        const double ctr = double(side) / 2 - 0.5;
        for (long z = 0; z < side; ++z)
          for (long y = 0; y < side; ++y)
            for (long x = 0; x < side; ++x) {
              const double dx = double(x) - ctr, dy = double(y) - ctr, dz = double(z) - ctr;
              if (dx * dx + dy * dy + dz * dz <= rad * rad) {
                flags[std::size_t(x + side * (y + side * z))] = TS_LBM_WALL | TS_LBM_BODY;
                ++walls;
              }
            }
      }
      s.set_flags(flags);
      if (kind == 2) {  // q from the sphere's surface along each link into it
        const double rad = std::cbrt(solid * 3.0 / (4.0 * 3.14159265358979323846)) * double(side);
        const double ctr = double(side) / 2 - 0.5;
        const auto inside = [&](double x, double y, double z) {
          return (x - ctr) * (x - ctr) + (y - ctr) * (y - ctr) + (z - ctr) * (z - ctr) <= rad * rad;
        };
        std::vector<lbm::WallLink> links;
        for (const lbm::ForceLink& l : lbm::force_links(c.grid, c.lattice, s.flags(), flags)) {
          const long x = l.n % side, y = (l.n / side) % side, z = l.n / (side * side);
          lbm::point::with_variant(19, 32, [&](auto var) {
            using V = decltype(var);
            const lbm::geometry::LinkSegment seg{{double(x), double(y), double(z)},
                                                 {V::cx(l.i), V::cy(l.i), V::cz(l.i)}};
            links.push_back({l.n, l.i, lbm::geometry::crossing_by_bisection(inside, seg)});
            return 0;
          });
        }
        s.set_links(links);
      }
      s.initialize(1.0, {0.05, 0.0, 0.0});
      bench::Measurement m;
      m.kernel = fmt::format(
          "D3Q19 BGK {} x{} steps",
          body ? fmt::format("{:.1f}% solid (sphere){}",
                             100.0 * double(walls) / double(c.grid.cells()),
                             kind == 2 ? fmt::format(", interpolated ({} links)", s.links().size())
                                       : std::string())
               : std::string("empty box"),
          steps);
      m.precision = lbm::to_string(c.precision);
      m.size = static_cast<std::size_t>(c.grid.cells());
      const double per_cell = 2.0 * double(c.state_bytes()) / double(c.grid.cells()) - 1.0;
      m.bytes = per_cell * double(c.grid.cells()) * steps;  // over all cells, as MLUPS
      m.timing = bench::time_runs(
          dev->queue(), [&](int) { s.step(steps); }, a.timing);
      const double mlups = double(c.grid.cells()) * steps / (m.timing.median_ms * 1e-3) * 1e-6;
      if (!body) empty = mlups;
      m.note =
          body ? fmt::format("{:.0f} MLUPS over all cells, {:.3f} x the empty box (goal >= 0.9)",
                             mlups, mlups / empty)
               : fmt::format("{:.0f} MLUPS", mlups);
      r.results.push_back(m);
    }
  }
  // the voxelizer: an icosphere, each level splitting every triangle in four
  const long vside = a.param_int("voxel_side", "512", 8);
  const int levels = int(a.param_int("voxel_levels", "8", 0));
  std::vector<std::array<double, 3>> v = {
      {-1, 1.618033988749895, 0},  {1, 1.618033988749895, 0},   {-1, -1.618033988749895, 0},
      {1, -1.618033988749895, 0},  {0, -1, 1.618033988749895},  {0, 1, 1.618033988749895},
      {0, -1, -1.618033988749895}, {0, 1, -1.618033988749895},  {1.618033988749895, 0, -1},
      {1.618033988749895, 0, 1},   {-1.618033988749895, 0, -1}, {-1.618033988749895, 0, 1}};
  std::vector<std::array<int, 3>> f = {{0, 11, 5}, {0, 5, 1},  {0, 1, 7},   {0, 7, 10}, {0, 10, 11},
                                       {1, 5, 9},  {5, 11, 4}, {11, 10, 2}, {10, 7, 6}, {7, 1, 8},
                                       {3, 9, 4},  {3, 4, 2},  {3, 2, 6},   {3, 6, 8},  {3, 8, 9},
                                       {4, 9, 5},  {2, 4, 11}, {6, 2, 10},  {8, 6, 7},  {9, 8, 1}};
  for (int l = 0; l < levels; ++l) {  // midpoints shared through a map of edges
    std::map<std::pair<int, int>, int> mid;
    auto middle = [&](int i, int j) {
      const auto key = std::minmax(i, j);
      if (auto it = mid.find(key); it != mid.end()) return it->second;
      v.push_back({(v[std::size_t(i)][0] + v[std::size_t(j)][0]) / 2,
                   (v[std::size_t(i)][1] + v[std::size_t(j)][1]) / 2,
                   (v[std::size_t(i)][2] + v[std::size_t(j)][2]) / 2});
      return mid[key] = int(v.size()) - 1;
    };
    std::vector<std::array<int, 3>> next;
    for (const auto& t : f) {
      const int ab = middle(t[0], t[1]), bc = middle(t[1], t[2]), ca = middle(t[2], t[0]);
      next.insert(next.end(), {{t[0], ab, ca}, {t[1], bc, ab}, {t[2], ca, bc}, {ab, bc, ca}});
    }
    f.swap(next);
  }
  lbm::geometry::Triangles mesh;
  const double rad = 0.4 * double(vside), ctr = double(vside) / 2 - 0.5;
  for (const auto& t : f)
    for (int k : t) {
      const auto& p = v[std::size_t(k)];
      const double n = std::sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
      for (int d = 0; d < 3; ++d) mesh.xyz.push_back(ctr + rad * p[std::size_t(d)] / n);
    }
  progress.step(fmt::format("voxelize {} triangles into {}^3", f.size(), vside));
  const lbm::Grid g{vside, vside, vside};
  bench::Measurement m;
  m.kernel = fmt::format("voxelize icosphere {} triangles", f.size());
  m.precision = "FP64";
  m.size = static_cast<std::size_t>(g.cells());
  m.bytes = double(g.cells());  // the mask written once
  m.timing = bench::time_wall([&] { dev->synchronize(); },
                              [&] { (void)lbm::geometry::voxelize(mesh, g, dev); },
                              bench::TimingOptions{1, 3, 0});
  m.note = fmt::format("{:.3f} s wall clock end to end (goal < 2 s for 1M triangles into 512^3)",
                       m.timing.median_ms * 1e-3);
  r.results.push_back(m);
}

void thesis_rows(const std::shared_ptr<Device>& dev, const BenchArgs& a, bench::DeviceReport& r,
                 Progress& progress) {
  std::vector<long> sides;
  for (const auto& s :
       a.param_list("thesis_sides", a.quick ? "80,160" : "80,160,240,320,400,480,640,800"))
    sides.push_back(parse_int_param("thesis_sides", s, 1));
  const int iterations = int(a.param_int("thesis_iterations", "200", 1));
  for (long side : sides) {
    const lbm::Grid g{side, side, side};
    if (dev->info().global_mem_bytes &&
        2ull * std::uint64_t(g.cells()) * 76 > dev->info().global_mem_bytes) {
      r.results.push_back({fmt::format("thesis-gas {}^3", side),
                           "FP32",
                           std::size_t(g.cells()),
                           {},
                           0,
                           0,
                           "does not fit (2 x 76 B per cell)"});
      continue;
    }
    progress.step(fmt::format("thesis-gas {}^3", side));
    for (const auto layout : {lbm::ThesisLayout::aos, lbm::ThesisLayout::soa}) {
      lbm::ThesisGas sim(dev, g, layout);
      sim.generate();
      bench::Measurement m;
      m.kernel =
          fmt::format("thesis-gas native{} x{} iterations",
                      layout == lbm::ThesisLayout::aos ? "" : " (SoA, same bits)", iterations);
      m.precision = "FP32";
      m.size = static_cast<std::size_t>(side);
      m.bytes = 152.0 * double(g.cells()) * iterations;
      m.timing =
          bench::time_runs(dev->queue(), [&](int) { sim.step(iterations); }, {1, a.quick ? 1 : 3});
      const double mlups = double(g.cells()) * iterations / (m.timing.median_ms * 1e-3) * 1e-6;
      m.note = fmt::format("{:.0f} MLUPS", mlups);
      for (const auto& t : kThesisA100)
        if (t.side == side)
          m.note += fmt::format("; thesis A100 native {:.0f} MLUPS ({:.1f}x)",
                                double(g.cells()) * 200 / t.native_s * 1e-6,
                                mlups / (double(g.cells()) * 200 / t.native_s * 1e-6));
      r.results.push_back(m);
    }
    // the thesis's Muesli program: its user function through mapStencil (the
    // step synchronizes, so the queue's events time the whole call)
    const std::uint64_t ghosted = 2ull * std::uint64_t((side + 2) * (side + 2) * (side + 2)) * 76;
    if (a.param_flag("thesis_muesli", true) && dev->info().global_mem_bytes &&
        ghosted > dev->info().global_mem_bytes) {
      r.results.push_back({fmt::format("thesis-gas mapStencil {}^3", side),
                           "FP32",
                           std::size_t(g.cells()),
                           {},
                           0,
                           0,
                           "does not fit (2 x 76 B per cell with a ghost layer)"});
    } else if (a.param_flag("thesis_muesli", true)) {
      lbm::ThesisGasParts sim(skeleton::Team({dev}), g, lbm::ThesisGasImpl::map_stencil);
      sim.generate();
      bench::Measurement m;
      m.kernel = fmt::format("thesis-gas mapStencil (Muesli program, same bits) x{} iterations",
                             iterations);
      m.precision = "FP32";
      m.size = static_cast<std::size_t>(side);
      m.bytes = 152.0 * double(g.cells()) * iterations;
      m.timing =
          bench::time_runs(dev->queue(), [&](int) { sim.step(iterations); }, {1, a.quick ? 1 : 3});
      const double mlups = double(g.cells()) * iterations / (m.timing.median_ms * 1e-3) * 1e-6;
      m.note = fmt::format("{:.0f} MLUPS; thesis A100 Muesli best {:.0f} MLUPS ({:.1f}x)", mlups,
                           kThesisMuesliA100, mlups / kThesisMuesliA100);
      r.results.push_back(m);
    }
  }
}

void cavity_rows(const std::shared_ptr<Device>& dev, const BenchArgs& a, bench::DeviceReport& r,
                 Progress& progress) {
  const long n = a.param_int("cavity_n", "129", 3);
  for (int re : {100, 1000}) {
    progress.step(fmt::format("cavity Re {} {}^2", re, n));
    lbm::Case c = lbm::cavity(lbm::Lattice::d2q9, n, re, 0.1);
    c.config.collision = lbm::Collision::trt;
    c.config.precision = lbm::Precision::fp64;
    lbm::Solver s(dev, c.config);
    c.apply(s);
    const long steps = a.param_int(re == 100 ? "cavity_steps_100" : "cavity_steps_1000",
                                   re == 100 ? "60000" : "250000", 1);
    bench::Measurement m;
    m.kernel = fmt::format("cavity D2Q9 TRT Re={} x{} steps", re, steps);
    m.precision = "FP64";
    m.size = static_cast<std::size_t>(n);
    m.bytes = (2.0 * 9 * 8 + 1) * double(c.config.grid.cells()) * double(steps);
    m.timing = bench::time_runs(dev->queue(), [&](int) { s.step(steps); }, {0, 1});
    const double dev_ghia = lbm::ghia_deviation(c, s.fields(), re);
    m.note = fmt::format("Ghia max deviation {:.4f} of U (target 0.02): {}", dev_ghia,
                         dev_ghia <= 0.02 ? "PASS" : "FAIL");
    r.results.push_back(m);
  }
}

// Weak (side^2 x side*g) and strong (side^3) scaling over g devices from this
// one on (cuda:0 -> cuda:0..g-1), distributed solver, D3Q19 BGK; wall clock.
void scaling_rows(const std::shared_ptr<Device>& dev, const BenchArgs& a, long side,
                  bench::DeviceReport& r, Progress& progress) {
  const int steps = a.quick ? 2 : 10;
  for (const auto& prec : a.param_list("scaling_precisions", "fp32,fp16s")) {
    double base_weak = 0, base_strong = 0;
    for (const auto& gs : a.param_list("gpus", "1")) {
      const int g = int(parse_int_param("gpus", gs, 1));
      for (const bool weak : {true, false}) {
        lbm::Config c;
        c.precision = lbm::parse_precision(prec);
        c.grid = {side, side, weak ? side * g : side};
        c.tau = 0.6;
        progress.step(fmt::format("{} scaling {} x {}", weak ? "weak" : "strong", g, dev->id()));
        lbm::DistributedSolver d(skeleton::Team::open(dev->id(), g), c);
        d.initialize(1.0, {0.05, 0.0, 0.0});
        bench::Measurement m;
        m.kernel = fmt::format("D3Q19 BGK {} scaling, {} device(s), A-B + crossing halos x{} steps",
                               weak ? "weak" : "strong", g, steps);
        m.precision = lbm::to_string(c.precision);
        m.size = static_cast<std::size_t>(c.grid.cells());
        m.bytes =
            (2.0 * 19 * double(c.variant().store_bytes()) + 1) * double(c.grid.cells()) * steps;
        m.timing = bench::time_wall([&] { d.synchronize(); }, [&] { d.step(steps); }, a.timing);
        const double mlups = double(c.grid.cells()) * steps / (m.timing.median_ms * 1e-3) * 1e-6;
        double& base = weak ? base_weak : base_strong;
        if (g == 1) base = mlups;
        m.note = fmt::format("{:.0f} MLUPS total, {:.0f} per device{}", mlups, mlups / g,
                             base > 0 ? fmt::format(", efficiency {:.1f}% of {} x 1 device",
                                                    100.0 * mlups / (g * base), g)
                                      : std::string());
        r.results.push_back(m);
      }
    }
  }
}

bench::DeviceReport run_lbm(const std::shared_ptr<Device>& dev, const BenchArgs& a) {
  bench::DeviceReport r;
  r.device = dev->info();
  const long side = a.size ? long(a.size) : (a.quick ? 64 : 256);
  const std::size_t copy_bytes = std::size_t(side) * side * side * 19 * 4;
  r.copy_gbps =
      bench::measure_native_copy(*dev, std::max<std::size_t>(copy_bytes, 1 << 26), a.timing).gbps();
  const bool validate = a.param_flag("validate", false);
  Progress progress("bench lbm", 3 + 8 + (validate ? 2 : 0));
  production_rows(dev, a, side, r, progress);
  if (a.param_flag("largest", false)) {
    // the largest cube of FP32 D3Q19 state within 90% of the device memory (FP16S and FP64 scale it)
    for (const auto& prec : a.param_list("precisions", "fp32,fp16s,fp64")) {
      lbm::Config c;
      c.precision = lbm::parse_precision(prec);
      const double per_cell = 19.0 * double(c.variant().store_bytes()) + 1.0;
      const long big =
          long(std::cbrt(0.9 * double(dev->info().global_mem_bytes) / per_cell)) / 16 * 16;
      BenchArgs one = a;
      one.params.insert(one.params.begin(), "precisions=" + prec);
      production_rows(dev, one, big, r, progress);
    }
  }
  if (a.param_flag("thesis", true)) thesis_rows(dev, a, r, progress);
  if (validate) cavity_rows(dev, a, r, progress);
  if (a.param("gpus", "") != "") scaling_rows(dev, a, side, r, progress);
  if (a.param_flag("geometry", false)) geometry_rows(dev, a, side, r, progress);
  return r;
}

const RegisterBenchSuite lbm_suite{
    "lbm",
    "lattice Boltzmann: D3Q19 MLUPS (FP32/FP16S/FP64) vs copy bandwidth, thesis-gas tables; --param largest=1, "
    "precisions=,collision=,lattice=,thesis=0|1,thesis_sides=,thesis_muesli=0|1,validate=1 (Ghia 129^2), gpus=1,2,4 (weak/strong scaling), geometry=1 (a body of solid_percent=10 of the box vs the empty box; voxelize an "
    "icosphere of 20*4^voxel_levels=8 triangles into voxel_side=512^3)",
    run_lbm};

}  // namespace

}  // namespace tessera::app
