// `tessera bench swe`: the thesis's table (every variant at 1000², SP and DP,
// ms/step, Mcell/s, the thesis's best as a reference), its scalability ladder
// (--param scaling=1), and the physical first-order model at 16384² against
// the byte model of anchors-shallow-water.md §4 and the copy bandwidth
// measured in the same run.
#include <algorithm>
#include <chrono>
#include <cmath>

#include <fmt/format.h>

#include "apps/tessera/commands.hpp"
#include "apps/tessera/option_checks.hpp"
#include "core/error.hpp"
#include "core/progress.hpp"
#include "skeleton/team.hpp"
#include "swe/cases.hpp"
#include "swe/distributed.hpp"
#include "swe/physical.hpp"
#include "swe/thesis.hpp"

namespace tessera::app {

namespace {

using bench::Measurement;
using bench::TimingOptions;

// Thesis, best 1000² runs (3960 steps, whole process): DP 14.613 s (V5, 8x8),
// SP 7.655 s (V5, 1x256), Radeon HD 5830 (seed §5.4).
constexpr double kThesisBestDp = 14.613, kThesisBestSp = 7.655;
constexpr long kThesisSteps = 3960;

// Bytes per cell per step. Thesis kernel: Z, Qx, Qy read and written (6
// values); the copy variants copy the three fields again (+6). Physical first
// order: h, hu, hv read and written + z read (7 values: 28 B FP32, 56 B FP64);
// second order (RK2, two stages): 17 values (§4.1).
double thesis_values(const swe::ThesisVariant& v) {
  return v.buffers == swe::ThesisBuffers::copy && v.device_ghosts ? 12.0 : 6.0;
}

template <class T>
void thesis_row(const std::shared_ptr<Device>& dev, const swe::ThesisVariant& v, long n,
                const std::string& wg, int steps, const TimingOptions& t, bench::DeviceReport& r) {
  swe::DamBreak c;
  c.nx = c.ny = n;
  const double dx = c.dx(), dt = swe::thesis_dt(dx, c.deep, c.shallow);
  swe::ThesisSolver<T> s(
      dev, swe::thesis_dam_break<T>(c), swe::thesis_coefficient<T>(dt, dx), v,
      v.kernel == swe::ThesisKernel::global || v.kernel == swe::ThesisKernel::rows ||
              v.kernel == swe::ThesisKernel::walls || v.kernel == swe::ThesisKernel::strip
          ? swe::WorkGroup{}
          : swe::parse_work_group(wg, *dev));
  Measurement m;
  m.precision = std::is_same_v<T, float> ? "float" : "double";
  m.size = static_cast<std::size_t>(n);
  const swe::WorkGroup w = s.work_group();
  m.kernel = fmt::format("thesis {} {} ({} steps)", v.name,
                         w.is_default() ? std::string("default") : fmt::format("{}x{}", w.l0, w.l1),
                         steps);
  m.bytes = thesis_values(v) * sizeof(T) * double(n) * double(n) * steps;
  m.timing = bench::time_runs(
      dev->queue(), [&](int) { s.run(steps); }, t);
  const double ms_step = m.timing.median_ms / steps;
  const double full = ms_step * 1e-3 * double(swe::thesis_steps(20.0, dt));
  const double best = std::is_same_v<T, float> ? kThesisBestSp : kThesisBestDp;
  m.note = fmt::format(
      "{:.4f} ms/step, {:.0f} Mcell/s; 20 s run {:.3f} s = {:.0f}x the thesis's best {} s", ms_step,
      double(n) * double(n) / ms_step * 1e-3, full, best / full, best);
  if (n != 1000)
    m.note = fmt::format("{:.4f} ms/step, {:.0f} Mcell/s", ms_step,
                         double(n) * double(n) / ms_step * 1e-3);
  if (!v.device_ghosts)
    m.note += "; plus 6 fields over the host link per step (not in the byte model)";
  r.results.push_back(m);
}

// One state for every physical row of a precision (building a 16384² case on
// the host costs more than the timed steps).
template <class T>
void physical_rows(const std::shared_ptr<Device>& dev, long n, const std::vector<int>& columns,
                   bool second, int steps, const TimingOptions& t, bench::DeviceReport& r) {
  swe::PhysCase c =
      swe::make_case("thesis-dam", n, n);  // wet everywhere, bathymetry read every step
  std::vector<double> a(static_cast<std::size_t>(c.nx)), b(static_cast<std::size_t>(c.ny));
  for (long i = 0; i < c.nx; ++i) a[i] = 0.5 * std::sin(0.01 * double(i));
  for (long j = 0; j < c.ny; ++j) b[j] = std::cos(0.013 * double(j));
  for (long i = 0; i < c.nx; ++i)
    for (long j = 0; j < c.ny; ++j) c.z[i * c.ny + j] = a[i] * b[j] - 1.0;
  swe::PhysSolver<T> s(dev, c, swe::PhysOptions{});
  c = swe::PhysCase{};  // free the host copy
  std::vector<std::pair<swe::Order, int>> schemes;
  for (int k : columns) schemes.emplace_back(swe::Order::first, k);
  if (second) schemes.emplace_back(swe::Order::second, 1);
  for (const auto& [order, cols] : schemes) {
    s.set_scheme(order, cols);
    Measurement m;
    m.precision = std::is_same_v<T, float> ? "float" : "double";
    m.size = static_cast<std::size_t>(n);
    const double values = order == swe::Order::first ? 7.0 : 17.0;
    m.kernel =
        order == swe::Order::first
            ? fmt::format("physical first order, {}, dt fused ({} steps)",
                          cols == 3 ? "faces shared" : fmt::format("{} col/item", cols), steps)
            : fmt::format("physical second order RK2 ({} steps)", steps);
    m.bytes = values * sizeof(T) * double(n) * double(n) * steps;
    m.timing = bench::time_runs(
        dev->queue(), [&](int) { s.run_steps(steps); }, t);
    const double ms_step = m.timing.median_ms / steps;
    m.note = fmt::format("{:.4f} ms/step, {:.0f} Mcell/s, model {:.0f} B/cell/step", ms_step,
                         double(n) * double(n) / ms_step * 1e-3, values * sizeof(T));
    if (s.health().bad) m.note += " (solution went bad: timing invalid)";
    r.results.push_back(m);
  }
}

// --param wet=F: dry skipping (the shared-face first-order update) on an n x n
// basin whose water covers the fraction F (a square in one corner, 1 m over
// the wavy bed; dry elsewhere) against the same basin wet everywhere, and
// with skipping off. The byte model counts every cell, so "% of copy" above
// 100 is the skipping's gain.
template <class T>
void dry_rows(const std::shared_ptr<Device>& dev, long n, double wet, int steps,
              const TimingOptions& t, bench::DeviceReport& r) {
  const long side = std::max(1L, long(std::lround(std::sqrt(wet) * double(n))));
  using Row = std::tuple<std::string, double, bool>;
  for (const auto& [label, fraction, skip] :
       {Row{"wet everywhere", 1.0, true},
        Row{fmt::format("{:.0f}% wet, dry tiles skipped", 100 * wet), wet, true},
        Row{fmt::format("{:.0f}% wet, every tile computed", 100 * wet), wet, false}}) {
    swe::PhysCase c = swe::make_case("thesis-dam", n, n);
    for (long i = 0; i < c.nx; ++i)
      for (long j = 0; j < c.ny; ++j) {
        const std::size_t k = std::size_t(i * c.ny + j);
        c.z[k] = 0.5 * std::sin(0.01 * double(i)) * std::cos(0.013 * double(j)) - 1.0;
        c.h[k] = fraction >= 1.0 || (i < side && j < side) ? 1.0 - c.z[k] : 0.0;
      }
    swe::PhysOptions o;
    o.skip_dry = skip;
    swe::PhysSolver<T> s(dev, c, o);
    c = swe::PhysCase{};
    Measurement m;
    m.precision = std::is_same_v<T, float> ? "float" : "double";
    m.size = static_cast<std::size_t>(n);
    m.kernel = fmt::format("physical first order, {} ({} steps)", label, steps);
    m.bytes = 7.0 * sizeof(T) * double(n) * double(n) * steps;
    m.timing = bench::time_runs(
        dev->queue(), [&](int) { s.run_steps(steps); }, t);
    const double ms_step = m.timing.median_ms / steps;
    m.note = fmt::format("{:.4f} ms/step, {:.0f} Mcell/s of the whole grid; {} of the tiles dry",
                         ms_step, double(n) * double(n) / ms_step * 1e-3, s.dry_tiles());
    if (s.health().bad) m.note += " (solution went bad: timing invalid)";
    r.results.push_back(m);
  }
}

// --param parts=1,2,4 (or gpus=): the physical first-order model on x-slabs over
// that many devices from this one on (cuda:0 -> cuda:0..N-1; cpu/OpenCL:
// logical devices); weak scaling (n x n per part) and strong scaling (n x n in
// all), wall clock per step including the halo exchange and the dt all-reduce.
template <class T>
void scaling_rows(const std::shared_ptr<Device>& dev, long n, const std::vector<int>& parts,
                  int steps, const TimingOptions& t, bench::DeviceReport& r) {
  for (const bool weak : {true, false}) {
    double base = 0;
    for (int g : parts) {
      const long nx = weak ? n * g : n;
      swe::PhysCase c = swe::make_case("thesis-dam", nx, n);  // wet everywhere
      for (long i = 0; i < c.nx; ++i)
        for (long j = 0; j < c.ny; ++j)
          c.z[i * c.ny + j] = 0.5 * std::sin(0.01 * double(i)) * std::cos(0.013 * double(j)) - 1.0;
      swe::DistributedPhysSolver<T> d(
          g == 1 ? skeleton::Team({dev}) : skeleton::Team::open(dev->id(), g), c,
          swe::PhysOptions{});
      c = swe::PhysCase{};
      d.set_scheme(swe::Order::first, swe::PhysOptions{}.columns);
      Measurement m;
      m.precision = std::is_same_v<T, float> ? "float" : "double";
      m.size = static_cast<std::size_t>(nx);
      m.kernel = fmt::format("physical first order {} scaling, {} part(s), {}x{} cells ({} steps)",
                             weak ? "weak" : "strong", g, nx, n, steps);
      m.bytes = 7.0 * sizeof(T) * double(nx) * double(n) * steps /
                g;  // per device, as the copy it is compared with
      m.timing = bench::time_wall([&] { d.synchronize(); }, [&] { d.run_steps(steps); }, t);
      const double ms_step = m.timing.median_ms / steps,
                   mcells = double(nx) * double(n) / ms_step * 1e-3;
      if (g == parts.front()) base = mcells / g;
      m.note = fmt::format(
          "{:.4f} ms/step, {:.0f} Mcell/s total, {:.0f} per part, parallel efficiency {:.1f}% of "
          "{} x the {}-part rate{}",
          ms_step, mcells, mcells / g, 100.0 * mcells / (g * base), g, parts.front(),
          d.health().bad ? " (solution went bad: timing invalid)" : "");
      r.results.push_back(m);
    }
  }
}

bench::DeviceReport run_swe_suite(const std::shared_ptr<Device>& dev, const BenchArgs& a) {
  bench::DeviceReport r;
  r.device = dev->info();
  const bool cpu = dev->backend() == Backend::cpu;
  const long thesis_n = a.param_int("thesis-n", cpu ? "200" : "1000", 1);
  const long phys_n = a.size ? static_cast<long>(a.size) : (cpu ? 512 : 16384);
  const std::string wg = a.param("wg", "8x32");
  const int steps = int(a.param_int("steps", "20", 1));
  const TimingOptions t{std::max(1, a.timing.warmup), std::max(1, std::min(a.timing.reps, 10))};
  const bool fp64 = dev->info().fp64 && a.run_double();
  // the roofline denominator: a copy as large as one physical field
  const Measurement copy =
      bench::measure_native_copy(*dev, static_cast<std::size_t>(phys_n) * phys_n * 4, t);
  r.copy_gbps = copy.gbps();
  r.results.push_back(copy);
  if (const std::string ps = a.param("parts", a.param("gpus", ""));
      !ps.empty()) {  // scaling rows only
    std::vector<int> parts;
    for (const std::string& item : split_list("--param parts", ps))
      parts.push_back(int(parse_int_param("parts", item, 1)));
    if (a.run_float()) scaling_rows<float>(dev, phys_n, parts, steps, t, r);
    if (fp64) scaling_rows<double>(dev, phys_n, parts, steps, t, r);
    return r;
  }
  if (const std::string w = a.param("wet", ""); !w.empty()) {  // dry skipping rows only
    const double wet = parse_double_param("wet", w, 1e-6, 1.0);
    if (a.run_float()) dry_rows<float>(dev, phys_n, wet, steps, t, r);
    if (fp64) dry_rows<double>(dev, phys_n, wet, steps, t, r);
    return r;
  }
  const auto& variants = swe::thesis_variants();
  Progress p("bench swe", int(variants.size()) * 2 + 4);
  const std::vector<std::string> only = a.param_list("variants", "");
  for (const auto& name : only) {  // a name given is a variant, or refused
    try {
      swe::thesis_variant(name);
    } catch (const UsageError& e) {
      throw UsageError(fmt::format("--param variants: {}", e.what()));
    }
  }
  if (a.param_flag("thesis", true))
    for (const auto& v : variants) {
      if (cpu && v.buffers == swe::ThesisBuffers::in_place) continue;
      if (a.quick && v.name != "v5-pingpong" && v.name != "strip-walls") continue;
      if (!only.empty() && std::find(only.begin(), only.end(), v.name) == only.end()) continue;
      p.step("thesis " + v.name);
      if (a.run_float()) thesis_row<float>(dev, v, thesis_n, wg, steps, t, r);
      if (fp64) thesis_row<double>(dev, v, thesis_n, wg, steps, t, r);
    }
  if (a.param_flag("sweep", false))  // Tables 5.10/5.26: work-group shapes of the best variant
    for (const char* shape :
         {"256x1", "1x256", "128x2", "2x128", "64x4", "4x64", "32x8", "8x32", "16x16", "8x8",
          "64x1", "1x64", "1x512", "2x512", "1x1024", "32x32"}) {
      p.step(std::string("sweep ") + shape);
      try {  // shapes the device refuses are "n.d." rows, as in the thesis's tables
        if (a.run_float())
          thesis_row<float>(dev, swe::thesis_variant("v5-pingpong"), thesis_n, shape, steps, t, r);
        if (fp64)
          thesis_row<double>(dev, swe::thesis_variant("v5-pingpong"), thesis_n, shape, steps, t, r);
      } catch (const Error& e) {  // refused shape or launch resources
        Measurement m;
        m.kernel = std::string("thesis v5-pingpong ") + shape;
        m.size = static_cast<std::size_t>(thesis_n);
        m.note = std::string("n.d.: ") + e.what();
        r.results.push_back(m);
      }
    }
  if (a.param_flag("scaling", false))
    for (long n : {100L, 500L, 1000L, 2000L, 2500L, 4000L, 5000L, 16384L}) {
      p.step(fmt::format("scaling {}", n));
      if (a.run_float())
        thesis_row<float>(dev, swe::thesis_variant("v5-pingpong"), n, wg, steps, t, r);
      if (fp64) thesis_row<double>(dev, swe::thesis_variant("v5-pingpong"), n, wg, steps, t, r);
    }
  // first-order GPU updates (--param columns=3,1): 3 one column per work-item with faces
  // shared through local memory, 1 one column (every face per item)
  const std::string cols = a.param("columns", "3,1");
  std::vector<int> columns;
  for (int k : {3, 1})
    if (cols.find(char('0' + k)) != std::string::npos) columns.push_back(k);
  const bool second = a.param("second", "1") == "1";
  p.step("physical");
  if (a.run_float()) physical_rows<float>(dev, phys_n, columns, second, steps, t, r);
  if (fp64) physical_rows<double>(dev, phys_n, columns, second, steps, t, r);
  return r;
}

const RegisterBenchSuite swe_suite{
    "swe",
    "shallow water: thesis variants (1000², SP/DP) and the physical model at 16384² vs copy; "
    "parts=1,2,4: weak/strong scaling over devices; wet=0.1: dry-tile skipping",
    run_swe_suite};

}  // namespace

}  // namespace tessera::app
