#include "bench/mg_suite.hpp"

#include <algorithm>
#include <chrono>
#include <memory>

#include <fmt/format.h>

#include "core/buffer.hpp"
#include "core/dispatch.hpp"
#include "core/error.hpp"
#include "core/progress.hpp"
#include "mg/kernels/mg_stream_kernels.hpp"
#include "mg/problems.hpp"
#include "mg/solver.hpp"
#include "mg/streaming.hpp"
#include "mg/thesis.hpp"

namespace tessera::bench {

namespace {

// Byte models per fine-level point and V(1,1) (anchors-multigrid.md §5, for
// 8-byte values): A = naive RB-GS (one kernel per colour, as implemented),
// C = unfused Jacobi, E = fused floor target. Coarse levels add 4/3 (2D) or
// 8/7 (3D); 4-byte values halve the bytes.
constexpr double kModelA = 146, kModelC = 98, kModelE = 66;
// Thesis V(0,nu) per fine point (4-byte values): residual 12, restriction 5,
// prolongation 9, nu Jacobi sweeps of 12.
double thesis_bytes_per_point(int nu) { return 26.0 + 12.0 * nu; }

double coarse_factor(int dim) { return dim == 3 ? 8.0 / 7.0 : 4.0 / 3.0; }

void thesis_rows(Device& dev, const std::shared_ptr<Device>& devp, const MgBenchOptions& opt,
                 DeviceReport& r, Progress& progress) {
  const long n = opt.n2d;
  const double pts = double(n) * double(n);
  std::vector<int> nus = opt.quick ? std::vector<int>{2, 16} : std::vector<int>{2, 4, 8, 16, 128};
  for (int nu : nus) {
    progress.step(fmt::format("thesis nu={}", nu));
    mg::ThesisMultigrid<float> t(devp, n, n, nu);
    t.set_rhs(mg::random_problem<float>(t.dims(0), 1).b);
    Measurement c;
    c.kernel = fmt::format("thesis 10 x V(0,{})", nu);
    c.precision = "float";
    c.size = static_cast<std::size_t>(n);
    c.bytes = 10 * thesis_bytes_per_point(nu) * 4.0 / 3.0 * pts;
    for (const auto& f : kThesisMgFigures)
      if (f.nu == nu) c.note = fmt::format("thesis: CPU {} s, HD 6870 {} s", f.cpu_s, f.gpu_s);
    c.timing = time_runs(
        dev.queue(),
        [&](int) {
          for (int k = 0; k < 10; ++k) t.cycle();
        },
        TimingOptions{1, opt.timing.reps});
    r.results.push_back(c);
    Measurement s;
    s.kernel = fmt::format("thesis smoother x{}", nu);
    s.precision = "float";
    s.size = static_cast<std::size_t>(n);
    s.bytes = 12.0 * nu * pts;
    s.timing = time_runs(
        dev.queue(), [&](int) { t.smooth(nu); }, opt.timing);
    r.results.push_back(s);
  }
}

void modern_rows(Device& dev, const std::shared_ptr<Device>& devp, int dim, long n,
                 const MgBenchOptions& opt, DeviceReport& r, Progress& progress) {
  const mg::Dims d{n, n, dim == 3 ? n : 1, dim};
  const double pts = double(d.points());
  if (dim == 3) {  // before/after: the two-pass red-black V(1,1)
    progress.step("3D rbgs V(1,1) two-pass");
    mg::Options o;
    o.fused = false;
    mg::Solver<double> s(devp, d, o);
    s.set_rhs(mg::random_problem<double>(d, 1).b);
    Measurement v;
    v.kernel = "3D V(1,1) rbgs two-pass";
    v.precision = "double";
    v.size = static_cast<std::size_t>(n);
    v.bytes = kModelA * coarse_factor(dim) * pts;
    v.timing = time_runs(
        dev.queue(), [&](int) { s.cycle(); }, opt.timing);
    v.note = "model A (one kernel per colour, prolongation separate)";
    r.results.push_back(v);
  }
  for (auto sm : {mg::Smoother::rbgs, mg::Smoother::jacobi}) {
    const char* smn = sm == mg::Smoother::rbgs ? "rbgs" : "jacobi";
    progress.step(fmt::format("{}D {} V(1,1)", dim, smn));
    mg::Options o;
    o.smoother = sm;
    mg::Solver<double> s(devp, d, o);
    s.set_rhs(mg::random_problem<double>(d, 1).b);
    Measurement v;
    v.kernel = fmt::format("{}D V(1,1) {}", dim, smn);
    v.precision = "double";
    v.size = static_cast<std::size_t>(n);
    const bool fused = sm == mg::Smoother::rbgs && dim == 3;
    v.bytes = (fused                      ? kModelE
               : sm == mg::Smoother::rbgs ? kModelA
                                          : kModelC) *
              coarse_factor(dim) * pts;
    v.flops = 0;
    v.timing = time_runs(
        dev.queue(), [&](int) { s.cycle(); }, opt.timing);
    const double floor_ms = kModelE * coarse_factor(dim) * pts / (r.copy_gbps * 1e6);
    v.note =
        fmt::format("model {}; {:.3g} DOF/s; model-E floor {:.3f} ms = {:.2f}x",
                    fused                      ? "E"
                    : sm == mg::Smoother::rbgs ? "A"
                                               : "C",
                    pts / (v.timing.median_ms * 1e-3), floor_ms, v.timing.median_ms / floor_ms);
    r.results.push_back(v);
    // convergence factor of this configuration, for the record
    // FP64 round-off floors the relative residual near 1e-9 at 8191^2
    o.tol = dim == 3 ? 1e-10 : 1e-8;
    o.max_cycles = 60;
    o.fmg = true;
    mg::Solver<double> f(devp, d, o);
    f.set_rhs(mg::manufactured_problem<double>(d).b);
    progress.step(fmt::format("{}D {} FMG solve", dim, smn));
    Measurement fm;
    fm.kernel = fmt::format("{}D FMG+V(1,1) {} to {:g}", dim, smn, o.tol);
    fm.precision = "double";
    fm.size = static_cast<std::size_t>(n);
    mg::SolveReport rep;
    // each run starts from zero (a device fill, inside the timed region)
    fm.timing = time_runs(
        dev.queue(),
        [&](int) {
          f.reset();
          rep = f.solve();
        },
        TimingOptions{0, 3});
    fm.note = fmt::format("{} cycles, {}, factor {:.3f}, {:.3g} DOF/s", rep.cycles,
                          mg::to_string(rep.status), rep.asymptotic_factor(),
                          pts / (fm.timing.median_ms * 1e-3));
    r.results.push_back(fm);
  }
}

// Wall-clock timing: the streaming mode synchronises its Q queues on the host
// and finishes with host copies (staged path), so device events of one queue
// would not bracket it.
Timing wall_runs(const std::function<void()>& run, int warmup, int reps) {
  for (int i = 0; i < warmup; ++i) run();
  Timing t;
  for (int i = 0; i < reps; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    run();
    t.ms.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  auto v = t.ms;
  std::sort(v.begin(), v.end());
  t.min_ms = v.front();
  t.median_ms = v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
  return t;
}

// Host memory of the thesis hierarchy (b, x, x' per level, halo layout), float.
std::size_t thesis_problem_bytes(long n) {
  std::size_t b = 0;
  for (long k = n; k >= 1; k /= 2) b += 3 * std::size_t(k + 2) * std::size_t(k + 2) * sizeof(float);
  return b;
}

// (c) the streaming mode: 10 V(0,nu) and the smoother alone, budget a
// quarter of the problem; bytes are the host<->device transfers counted.
void streaming_rows(const std::shared_ptr<Device>& devp, const MgBenchOptions& opt, DeviceReport& r,
                    Progress& progress) {
  const long n = opt.n2d;
  const int reps = std::max(1, std::min(3, opt.timing.reps));
  struct Run {
    int nu;
    mg::stream::TransferPath path;
    bool fuse;  // cross-cycle fusion
  };
  for (Run run : {Run{2, mg::stream::TransferPath::staged, true},
                  Run{16, mg::stream::TransferPath::staged, true},
                  Run{2, mg::stream::TransferPath::staged, false},
                  Run{2, mg::stream::TransferPath::pinned, true}}) {
    progress.step(fmt::format("streaming nu={} {}", run.nu, to_string(run.path)));
    mg::StreamingOptions o;
    o.budget_bytes =
        static_cast<std::size_t>(double(thesis_problem_bytes(n)) * opt.budget_fraction);
    o.queues = 4;
    o.transfer = run.path;
    o.fuse_cycles = run.fuse;
    // Small problems (--size 63): a quarter may not hold one tile with the
    // redundant halo of nu steps; the budget then doubles until one fits
    // (the note gives the fraction used).
    auto make = [&] {
      for (;;) {
        try {
          return std::make_unique<mg::StreamingMultigrid<float>>(devp, n, n, run.nu, o);
        } catch (const UsageError&) {
          if (o.budget_bytes >= 4 * thesis_problem_bytes(n)) throw;
          o.budget_bytes *= 2;
        }
      }
    };
    auto mp = make();
    auto& m = *mp;
    m.set_rhs(mg::random_problem<float>(m.dims(0), 1).b);
    const std::string setup = fmt::format(
        "budget {:.4g} MiB = {:.2f} of the problem ({:.4g} MiB), Q=4, tiles {}^2, depth {}, cycles {}",
        double(m.device_bytes()) / (1 << 20), double(m.device_bytes()) / double(m.problem_bytes()),
        double(m.problem_bytes()) / (1 << 20), m.tile_w(), m.depth(),
        m.fuses_cycles() ? "fused" : "not fused");
    Measurement c;
    c.kernel = fmt::format("streaming 10 x V(0,{}) {}{}", run.nu, to_string(run.path),
                           run.fuse ? "" : " unfused");
    c.precision = "float";
    c.size = static_cast<std::size_t>(n);
    double before = m.transfers().up_bytes + m.transfers().down_bytes;
    m.cycle();  // warm-up (and the transfer volume of one cycle)
    const double per_cycle = m.transfers().up_bytes + m.transfers().down_bytes - before;
    c.bytes = 10 * per_cycle;
    c.timing = wall_runs(
        [&] {
          for (int k = 0; k < 10; ++k) m.cycle();
        },
        0, reps);
    c.note = setup + "; bytes = host<->device transfers";
    for (const auto& f : kThesisMgFigures)
      if (f.nu == run.nu)
        c.note += fmt::format("; thesis: CPU {} s, HD 6870 {} s", f.cpu_s, f.gpu_s);
    r.results.push_back(c);
    if (run.path != mg::stream::TransferPath::staged || !run.fuse) continue;
    Measurement s;
    s.kernel = fmt::format("streaming smoother x{} {}", run.nu, to_string(run.path));
    s.precision = "float";
    s.size = static_cast<std::size_t>(n);
    before = m.transfers().up_bytes + m.transfers().down_bytes;
    m.smooth(run.nu);
    s.bytes = m.transfers().up_bytes + m.transfers().down_bytes - before;
    s.timing = wall_runs([&] { m.smooth(run.nu); }, 0, reps);
    s.note = setup + "; bytes = host<->device transfers";
    r.results.push_back(s);
    // the thesis's "GPU + staging + cache" column: the same with the row cache
    o.row_cache = true;
    mg::StreamingMultigrid<float> mc(devp, n, n, run.nu, o);
    mc.set_rhs(mg::random_problem<float>(mc.dims(0), 1).b);
    mc.smooth(run.nu);
    Measurement sc = s;
    sc.kernel += " + row cache";
    sc.timing = wall_runs([&] { mc.smooth(run.nu); }, 0, reps);
    r.results.push_back(sc);
  }
}

// The thesis's per-kernel comparison (§5.2.3): one Jacobi step on a 2048^2
// slice held on the device (float, halo ring, random data), the plain
// kernel against the one with the local-memory row cache (thesis, HD 6870:
// 1.15 ms -> 0.78 ms). Bytes: b and x read, x' written (12 B per point).
void row_cache_rows(const std::shared_ptr<Device>& devp, const MgBenchOptions& opt, DeviceReport& r,
                    Progress& progress) {
  progress.step("row cache");
  const long w = opt.quick ? 256 : 2048, p = w + 2;
  const std::size_t n = std::size_t(p) * std::size_t(p);
  const auto host = mg::random_problem<float>(mg::Dims{w, w, 1, 2}, 3).b;  // any nonzero data
  std::vector<float> v(n);
  for (std::size_t k = 0; k < n; ++k) v[k] = host[k % host.size()];
  Buffer<float> b(devp, n), xs(devp, n), xd(devp, n);
  b.copy_from_host(v);
  xs.copy_from_host(v);
  xd.copy_from_host(v);
  const mg::stream::TileArray tb{b.handle(), 0, p, 0, 0}, tx{xs.handle(), 0, p, 0, 0},
      ty{xd.handle(), 0, p, 0, 0};
  const mg::stream::Region reg{0, w, 0, w};
  for (const bool cache : {false, true}) {
    Measurement m;
    m.kernel = cache ? "thesis Jacobi step, local-memory row cache" : "thesis Jacobi step, plain";
    m.precision = "float";
    m.size = static_cast<std::size_t>(w);
    m.bytes = 12.0 * double(w) * double(w);
    m.timing = time_runs(
        devp->queue(),
        [&](int) {
          dispatch(*devp, [&](auto tag) {
            if (cache)
              mg::stream::kernels::jacobi_cache<float>(tag, *devp, devp->queue(), reg, tb, tx, ty);
            else
              mg::stream::kernels::jacobi<float>(tag, *devp, devp->queue(), reg, tb, tx, ty);
          });
        },
        opt.timing);
    m.note = fmt::format("{}^2 slice on the device; thesis (HD 6870, 2048^2): {} ms", w,
                         cache ? "0.78" : "1.15");
    r.results.push_back(m);
  }
}

// The thesis's transfer table (§5.2.2): write, read and concurrent write+read
// of 2048-wide tiles of a pitched 8193-wide host array, per path and Q.
void transfer_table(const std::shared_ptr<Device>& devp, const MgBenchOptions& opt, DeviceReport& r,
                    Progress& progress) {
  using mg::stream::TransferPath;
  const std::size_t pitch = 8193, rows = 4096, tw = 2048,
                    th = 1024;  // 8 MiB tiles, 128 MiB per direction
  const int reps = std::max(1, std::min(3, opt.timing.reps));
  for (auto path :
       {TransferPath::rect, TransferPath::contiguous, TransferPath::pinned, TransferPath::staged}) {
    progress.step(fmt::format("transfers {}", to_string(path)));
    mg::stream::HostArray<float> host(devp, pitch * rows, path == TransferPath::pinned);
    std::fill(host.data(), host.data() + host.size(), 1.0f);
    // the contiguous path moves whole rows (contiguous on both sides)
    const bool contiguous = path == TransferPath::contiguous;
    const std::size_t w = contiguous ? pitch : tw, h = contiguous ? tw * th / pitch : th;
    std::vector<mg::stream::Rect> rects;
    for (std::size_t j = 0; j + h <= rows; j += h)
      for (std::size_t i = 0; i + w <= pitch; i += w)
        rects.push_back({j * pitch + i, pitch, 0, w, w, h});
    for (int Q = 1; Q <= 4; ++Q) {
      mg::stream::Streamer<float> st(devp, Q, w * h, path);
      const double bytes = double(rects.size() * w * h * sizeof(float));
      const ThesisTransferFigure* fig = nullptr;
      for (const auto& f : kThesisTransferFigures)
        if (to_string(path) == f.path) fig = &f;
      for (int dir = 0; dir < 3; ++dir) {
        Measurement m;
        m.kernel = fmt::format("transfer {} Q={} {}", to_string(path), Q,
                               dir == 0   ? "write"
                               : dir == 1 ? "read"
                                          : "write+read");
        m.precision = "float";
        m.size = rects.size() * w * h;
        m.bytes = dir == 2 ? 2 * bytes : bytes;
        m.timing = wall_runs(
            [&] {
              for (std::size_t t = 0; t < rects.size(); ++t) {
                auto& s = st.next();
                if (dir != 1) st.upload(s, host.data(), rects[t], 0);
                if (dir != 0)
                  st.download(s, 1, rects[(t + rects.size() / 2) % rects.size()], host.data());
              }
              st.drain();
            },
            1, reps);
        m.note = fmt::format("{} tiles of {} x {} floats", rects.size(), w, h);
        if (fig && Q == 4)
          m.note += fmt::format("; thesis (HD 6870, PCIe 2.0, 4 queues): {} GB/s",
                                dir == 0   ? fig->write
                                : dir == 1 ? fig->read
                                           : fig->both);
        r.results.push_back(m);
      }
    }
  }
}

}  // namespace

DeviceReport run_mg(const std::shared_ptr<Device>& device, const MgBenchOptions& opt) {
  DeviceReport r;
  r.device = device->info();
  Progress progress("mg on " + device->id(), 1 + (opt.quick ? 2 : 5) + 8 + (opt.streaming ? 9 : 0));
  progress.step("copy");
  auto copy = measure_native_copy(*device, std::size_t(1) << 30, opt.timing);
  r.copy_gbps = copy.gbps();
  r.results.push_back(copy);
  thesis_rows(*device, device, opt, r, progress);
  modern_rows(*device, device, 2, opt.n2d, opt, r, progress);
  modern_rows(*device, device, 3, opt.n3d, opt, r, progress);
  if (opt.streaming) {
    streaming_rows(device, opt, r, progress);
    row_cache_rows(device, opt, r, progress);
    transfer_table(device, opt, r, progress);
  }
  return r;
}

}  // namespace tessera::bench
