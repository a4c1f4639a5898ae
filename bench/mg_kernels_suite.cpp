#include "bench/mg_kernels_suite.hpp"

#include <algorithm>
#include <regex>
#include <vector>

#include <fmt/format.h>

#include "core/buffer.hpp"
#include "core/progress.hpp"
#include "dense/dense.hpp"
#include "mg/layout.hpp"
#include "mg/problems.hpp"
#include "mg/solver.hpp"

namespace tessera::bench {

namespace {

// Bytes per fine point (FP64) of each pass when every value crosses DRAM once.
constexpr double kSweepFused = 24;  // read x_old, b; write x_new
constexpr double kSweepColour =
    24;                           // one colour: read x, b, write x (half the points, whole lines)
constexpr double kRestrict = 17;  // read x, b; write the coarse b (1/8)
constexpr double kRestrictRed = 13;  // the red points' residuals only: read x, red b; write 1/8
constexpr double kProlong = 17;      // read the coarse e (1/8), read and write x
constexpr double kModelE = 66;       // V(1,1) per fine point (fine level only)
// Split levels (red and black stored apart): a colour's sweep reads its b and
// the other colour's x and writes its x, each half the points
constexpr double kSplitColour = 12;
constexpr double kProlongOneColour = 9;    // read the coarse e (1/8), read and write one colour's x
constexpr double kSplitRedProlonged = 13;  // one colour's sweep (12) + the coarse e (1/8)

template <class F>
Measurement timed_always(Device& dev, const std::string& name, double bytes_per_point,
                         double points, const TimingOptions& t, F f) {
  Measurement m;
  m.kernel = name;
  m.precision = "double";
  m.size = static_cast<std::size_t>(points);
  m.bytes = bytes_per_point * points;
  m.timing = time_runs(
      dev.queue(), [&](int) { f(); }, t);
  return m;
}

// The whole cycles timed, with the options and launch shapes each sets.
// The sweeps of earlier sessions' variants (fused sweeps from other
// thresholds, fused prolongation, host levels from 63^3 to 7^3) are in
// bench/results/nvidia-h200/2026-11-28-s17; these are the ones that set
// today's defaults.
struct Variant {
  const char* name;
  bool fused, fuse_prolongation;
  long fused_min_points;       // -1: the default
  long host_side = 0;          // levels of at most host_side^3 points on the host CPU (0: none)
  long split_min_points = -2;  // -2: no split levels, -1: the default threshold
  bool red_restriction = true;
  bool prolong_in_red_sweep = true;
  bool prolong_cells = false;          // kernels::Tuning::prolong_slots off
  bool restrict_lean = true;           // kernels::Tuning::restrict_lean
  int slot_planes = 8, slot_rows = 8;  // kernels::Tuning::slot_planes, slot_rows
};

std::vector<Variant> cycle_variants(long fine_points) {
  return {
      Variant{"V(1,1) fused sweeps, natural storage", true, false, -1},
      Variant{"V(1,1) fused sweeps, natural storage, every residual restricted", true, false, -1, 0,
              -2, false},
      Variant{"V(1,1) two-pass sweeps (model A)", false, false, -1},
      Variant{"V(1,1) split levels from 2^20 points (default)", true, false, -1, 0, -1},
      Variant{"V(1,1) split, every residual restricted", true, false, -1, 0, -1, false},
      Variant{"V(1,1) split, prolongation kernel (not in the red sweep)", true, false, -1, 0, -1,
              true, false},
      Variant{"V(1,1) split, prolongation kernel by cells", true, false, -1, 0, -1, true, false,
              true},
      Variant{"V(1,1) split, restriction without the lean loop", true, false, -1, 0, -1, true, true,
              false, false},
      Variant{"V(1,1) split, slot kernels one plane per work-item, 2 rows (session 19)", true,
              false, -1, 0, -1, true, true, false, true, 1, 2},
      Variant{"V(1,1) split, slot kernels marching 4 planes, 8 rows", true, false, -1, 0, -1, true,
              true, false, true, 4, 8},
      Variant{"V(1,1) split, slot kernels marching 16 planes, 8 rows", true, false, -1, 0, -1, true,
              true, false, true, 16, 8},
      Variant{"V(1,1) split, slot kernels marching 8 planes, 2 rows", true, false, -1, 0, -1, true,
              true, false, true, 8, 2},
      Variant{"V(1,1) split levels from 2^22 points", true, false, -1, 0, 1L << 22},
      Variant{"V(1,1) split finest level only", true, false, -1, 0, fine_points},
      Variant{"V(1,1) split (default), levels <= 15^3 on the host CPU", true, false, -1, 15, -1}};
}

/// The operands of a group of kernel timings on fine level f and coarse
/// level c: b and x hold the same random interior, bc is zero and ec a
/// random coarse correction.
struct LevelOperands {
  Buffer<double> b, x, bc, ec;
  LevelOperands(const std::shared_ptr<Device>& device, const mg::Dims& f, const mg::Dims& c)
      : b(device, f.storage()),
        x(device, f.storage()),
        bc(device, c.storage()),
        ec(device, c.storage()) {
    const auto interior = mg::random_problem<double>(f, 1).b;
    mg::upload_interior(b, f, interior);
    mg::upload_interior(x, f, interior);
    dense::fill(bc, 0.0);
    mg::upload_interior(ec, c, mg::random_problem<double>(c, 2).b);
  }
};

}  // namespace

DeviceReport run_mg_kernels(const std::shared_ptr<Device>& device, const MgKernelsOptions& opt) {
  DeviceReport r;
  std::regex rows;
  try {
    rows = std::regex(opt.rows);
  } catch (const std::regex_error& e) {
    throw UsageError(fmt::format("mg-kernels: --param rows='{}' is not a regular expression ({})",
                                 opt.rows, e.what()));
  }
  auto wanted = [&](const std::string& name) {
    return opt.rows.empty() || std::regex_search(name, rows);
  };
  const auto variants = cycle_variants(opt.n * opt.n * opt.n);
  const int cycles = int(std::count_if(variants.begin(), variants.end(),
                                       [&](const Variant& v) { return wanted(v.name); }));
  Progress progress("mg-kernels on " + device->id(), 4 + cycles);
  // Times a row (pushed onto r.results) when its name matches opt.rows.
  auto timed = [&](Device& dev, const std::string& name, double bytes_per_point, double points,
                   const TimingOptions& t, auto f) {
    if (!wanted(name)) return;
    r.results.push_back(timed_always(dev, name, bytes_per_point, points, t, f));
    progress.note(name);
  };
  r.device = device->info();
  progress.step("copy");
  // the CPU's copy: 256 MiB, well beyond its caches and a quarter of the time
  const std::size_t copy_bytes = std::size_t(1) << (device->backend() == Backend::cpu ? 28 : 30);
  auto copy = measure_native_copy(*device, copy_bytes, opt.timing);
  r.copy_gbps = copy.gbps();
  r.results.push_back(copy);

  using namespace mg;
  const Dims d{opt.n, opt.n, opt.n, 3}, c{(opt.n - 1) / 2, (opt.n - 1) / 2, (opt.n - 1) / 2, 3};
  const double pts = double(d.points());
  progress.step("kernels");
  {
    LevelOperands o(device, d, c);
    Buffer<double>&b = o.b, &x = o.x, &bc = o.bc, &ec = o.ec;
    Buffer<double> x2(device, d.storage());
    dense::fill(x2, 0.0);
    Queue& q = device->queue();
    dispatch(*device, [&](auto tag) {
      timed(*device, "fused red-black sweep", kSweepFused, pts, opt.timing, [&] {
        kernels::gauss_seidel_fused(tag, q, d, b, x, x2,
                                    static_cast<const Buffer<double>*>(nullptr),
                                    static_cast<const Dims*>(nullptr));
      });
      timed(*device, "fused sweep + prolongation", kSweepFused + 1, pts, opt.timing,
            [&] { kernels::gauss_seidel_fused(tag, q, d, b, x, x2, &ec, &c); });
      timed(*device, "one colour (two-pass sweep)", kSweepColour, pts, opt.timing,
            [&] { kernels::gauss_seidel_color(tag, q, d, 0, b, x); });
      timed(*device, "residual + full-weighting restriction", kRestrict, pts, opt.timing,
            [&] { kernels::restrict_residual(tag, q, d, b, x, c, bc, false); });
      timed(*device, "red residuals + full-weighting restriction", kRestrictRed, pts, opt.timing,
            [&] { kernels::restrict_residual(tag, q, d, b, x, c, bc, true); });
      timed(*device, "prolongation + correction", kProlong, pts, opt.timing,
            [&] { kernels::prolong_add(tag, q, d, x, c, ec, -1); });
    });
  }
  progress.step("split kernels");
  {
    Dims ds = d;
    ds.split = true;
    Dims cs = c;
    cs.split = true;
    LevelOperands o(device, ds, c);
    Buffer<double>&b = o.b, &x = o.x, &bc = o.bc, &ec = o.ec;
    Buffer<double> ecs(device, cs.storage());
    mg::upload_interior(ecs, cs, mg::random_problem<double>(c, 2).b);
    Queue& q = device->queue();
    dispatch(*device, [&](auto tag) {
      timed(*device, "split: red-black sweep (two colour kernels)", 2 * kSplitColour, pts,
            opt.timing, [&] {
              kernels::gauss_seidel_color(tag, q, ds, 0, b, x);
              kernels::gauss_seidel_color(tag, q, ds, 1, b, x);
            });
      timed(*device, "split: one colour", kSplitColour, pts, opt.timing,
            [&] { kernels::gauss_seidel_color(tag, q, ds, 0, b, x); });
      timed(*device, "split: residual + full-weighting restriction", kRestrict, pts, opt.timing,
            [&] { kernels::restrict_residual(tag, q, ds, b, x, c, bc, false); });
      timed(*device, "split: red residuals + full-weighting restriction", kRestrictRed, pts,
            opt.timing, [&] { kernels::restrict_residual(tag, q, ds, b, x, c, bc, true); });
      // a kernel timed under other launch shapes (kernels::Tuning: the same bits)
      auto tuned = [&](const std::string& name, double bytes, auto set, auto f) {
        const kernels::Tuning saved = kernels::tuning();
        set(kernels::tuning());
        timed(*device, name, bytes, pts, opt.timing, f);
        kernels::tuning() = saved;
      };
      auto restrict_split = [&] { kernels::restrict_residual(tag, q, ds, b, x, cs, ecs, true); };
      auto red_prolonged = [&] { kernels::gauss_seidel_red_prolonged(tag, q, ds, b, x, cs, ecs); };
      tuned(
          "split: red residuals + restriction to a split level", kRestrictRed,
          [](kernels::Tuning& t) { t.restrict_lean = false; }, restrict_split);
      tuned(
          "split: red residuals + restriction to a split level, lean loop", kRestrictRed,
          [](kernels::Tuning& t) { t.restrict_lean = true; }, restrict_split);
      timed(*device, "split: prolongation to black points (by slots)", kProlongOneColour, pts,
            opt.timing, [&] { kernels::prolong_add(tag, q, ds, x, c, ec, 1); });
      timed(*device, "split: prolongation to black points from a split level", kProlongOneColour,
            pts, opt.timing, [&] { kernels::prolong_add(tag, q, ds, x, cs, ecs, 1); });
      timed(*device, "split: red sweep reading x + P e (in place of the prolongation)",
            kSplitRedProlonged, pts, opt.timing, red_prolonged);
      // work-items marching planes (Tuning::slot_planes), groups of 2 or 8
      // rows (Tuning::slot_rows; the rows above: the defaults, 8 and 8)
      for (int rows : {2, 8})
        for (int planes : {1, 4, 16, 32}) {
          auto set = [rows, planes](kernels::Tuning& t) {
            t.slot_rows = rows;
            t.slot_planes = planes;
          };
          const std::string shape =
              fmt::format("{} planes per work-item, {} rows per work-group", planes, rows);
          tuned("split: one colour, " + shape, kSplitColour, set,
                [&] { kernels::gauss_seidel_color(tag, q, ds, 0, b, x); });
          tuned("split: red sweep reading x + P e, " + shape, kSplitRedProlonged, set,
                red_prolonged);
          tuned("split: prolongation to black points (by slots), " + shape, kProlongOneColour, set,
                [&] { kernels::prolong_add(tag, q, ds, x, cs, ecs, 1); });
        }
      timed(*device, "split: red sweep reading x + P e from a natural level", kSplitRedProlonged,
            pts, opt.timing, [&] { kernels::gauss_seidel_red_prolonged(tag, q, ds, b, x, c, ec); });
      timed(*device, "split: prolongation to every point", kProlong, pts, opt.timing,
            [&] { kernels::prolong_add(tag, q, ds, x, c, ec, -1); });
      // launch shapes (kernels::Tuning: the same bits at every value)
      const kernels::Tuning saved = kernels::tuning();
      // the prolongation by coarse cells (Tuning::prolong_slots off)
      kernels::tuning().prolong_slots = false;
      for (int bound : {1, 12})
        for (int cells : {1, 2, 4, 8, 16}) {
          kernels::tuning().prolong_cells = cells;
          kernels::tuning().prolong_min_blocks = bound;
          timed(*device,
                fmt::format("split: prolongation to black points by cells, {} per item{}", cells,
                            bound > 1 ? ", 40 registers (CUDA)" : ""),
                kProlongOneColour, pts, opt.timing,
                [&] { kernels::prolong_add(tag, q, ds, x, cs, ecs, 1); });
        }
      kernels::tuning() = saved;
      for (int planes : {4, 8, 16, 32}) {
        kernels::tuning().restrict_planes = planes;
        timed(*device,
              fmt::format("split: red residuals + restriction, {} planes per group", planes),
              kRestrictRed, pts, opt.timing,
              [&] { kernels::restrict_residual(tag, q, ds, b, x, cs, ecs, true); });
      }
      kernels::tuning() = saved;
    });
  }
  // Per coarse level: the fused sweep against the two colour kernels (same
  // bits), which sets Options::fused_min_points
  progress.step("sweeps per level");
  for (long n = (opt.n - 1) / 2; n >= 15; n = (n - 1) / 2) {
    const Dims e{n, n, n, 3};
    const double pe = double(e.points());
    Buffer<double> b(device, e.storage()), x(device, e.storage()), x2(device, e.storage());
    b.copy_from_host(to_halo_layout(e, random_problem<double>(e, 3).b));
    dense::fill(x, 0.0);
    dense::fill(x2, 0.0);
    Queue& q = device->queue();
    dispatch(*device, [&](auto tag) {
      timed(*device, fmt::format("fused red-black sweep, level {}^3", n), kSweepFused, pe,
            opt.timing, [&] {
              kernels::gauss_seidel_fused(tag, q, e, b, x, x2,
                                          static_cast<const Buffer<double>*>(nullptr),
                                          static_cast<const Dims*>(nullptr));
            });
      timed(*device, fmt::format("two-pass red-black sweep, level {}^3", n), 2 * kSweepColour, pe,
            opt.timing, [&] {
              kernels::gauss_seidel_color(tag, q, e, 0, b, x);
              kernels::gauss_seidel_color(tag, q, e, 1, b, x);
            });
    });
  }
  for (const Variant& v : variants) {
    if (!wanted(v.name)) continue;
    progress.step(v.name);
    Options o;
    o.fused = v.fused;
    o.fuse_prolongation = v.fuse_prolongation;
    if (v.fused_min_points >= 0) o.fused_min_points = v.fused_min_points;
    o.host_coarse_points = v.host_side * v.host_side * v.host_side;
    o.split = v.split_min_points >= -1;
    if (v.split_min_points >= 0) o.split_min_points = v.split_min_points;
    o.red_restriction = v.red_restriction;
    o.prolong_in_red_sweep = v.prolong_in_red_sweep;
    Solver<double> s(device, d, o);
    s.set_rhs(random_problem<double>(d, 1).b);
    const kernels::Tuning saved = kernels::tuning();
    if (v.prolong_cells) kernels::tuning().prolong_slots = false;
    kernels::tuning().restrict_lean = v.restrict_lean;
    kernels::tuning().slot_planes = v.slot_planes;
    kernels::tuning().slot_rows = v.slot_rows;
    auto m = timed_always(*device, v.name, kModelE * 8.0 / 7.0, pts,
                          TimingOptions{opt.timing.warmup, 10}, [&] { s.cycle(); });
    kernels::tuning() = saved;
    const double floor_ms = kModelE * 8.0 / 7.0 * pts / (r.copy_gbps * 1e6);
    m.note = fmt::format("bytes = model E; floor {:.3f} ms, {:.2f}x the floor", floor_ms,
                         m.timing.median_ms / floor_ms);
    r.results.push_back(m);
  }
  if (r.results.size() == 1)  // the copy alone
    throw UsageError(
        fmt::format("mg-kernels: --param rows='{}' matched no row (an ECMAScript regex searched in "
                    "each row's name: escape + ( ) ^ as \\+ \\( \\) \\^)",
                    opt.rows));
  return r;
}

}  // namespace tessera::bench
