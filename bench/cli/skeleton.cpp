// `tessera bench skeleton`: the skeleton library against the copy roofline
// and a hand-written kernel, and its multi-GPU scaling.
//   map / zip / fold           DC of n^3, bytes 2N / 3N / N elements
//   mapStencil heat7, blur27   DC of n^3, neutral boundary, vs the hand-written
//                              kernel on an (n+2)^3 array (skel_examples_stencil.h
//                              math in both; results compared bitwise)
//   scaling (--param gpus=1,2,4, scaling=weak|strong|both, steps=K)
//                              heat7 float, n^3 per GPU (weak) or n^3 in all
//                              (strong): time per step, efficiency vs 1 GPU,
//                              halo time and link bandwidth, overlap efficiency
#include <algorithm>
#include <chrono>
#include <cstring>
#include <limits>

#include <fmt/format.h>

#include "apps/tessera/commands.hpp"
#include "skeleton/examples.hpp"
#include "skeleton/kernels/native_stencil.hpp"
#include "skeleton/skeleton.hpp"

namespace tessera::app {

namespace {

namespace sk = tessera::skeleton;
namespace ex = tessera::skeleton::examples;
using bench::Measurement;

std::vector<int> parse_gpus(const BenchArgs& a) {
  std::vector<int> out;
  for (const std::string& item : a.param_list("gpus", "1"))
    out.push_back(int(parse_int_param("gpus", item, 1)));
  if (out.empty()) throw UsageError("--param gpus=: expected a list such as 1,2,4");
  return out;
}

template <class T>
const char* prec() {
  return sizeof(T) == 4 ? "float" : "double";
}

template <class T>
std::vector<T> pattern(std::size_t n) {
  std::vector<T> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = T((i * 2654435761u) % 1024) * T(0.0009765625) - T(0.5);
  return v;
}

template <class T>
void map_rows(const std::shared_ptr<Device>& dev, long n, const BenchArgs& a,
              bench::DeviceReport& r) {
  const sk::Team team({dev});
  const double cells = double(n) * n * n;
  sk::DC<T> x(team, n, n, n), y(team, n, n, n), out(team, n, n, n);
  x.scatter(pattern<T>(static_cast<std::size_t>(cells)));
  y.fill(T(1));
  auto row = [&](const char* k, double elems, const std::function<void()>& f) {
    Measurement m;
    m.kernel = k;
    m.precision = prec<T>();
    m.size = static_cast<std::size_t>(n);
    m.bytes = elems * cells * sizeof(T);
    m.flops = cells;
    m.timing = bench::time_runs(
        dev->queue(), [&](int) { f(); }, a.timing);
    r.results.push_back(m);
  };
  row("skeleton map", 2,
      [&] { x.map(sk::portable(ex::Affine{}, ex::cl_point("ts_skel_affine")), out); });
  row("skeleton zip", 3,
      [&] { x.zip(y, sk::portable(ex::Axpy{}, ex::cl_point("ts_skel_axpy")), out); });
  row("skeleton fold", 1,
      [&] { (void)x.fold(sk::portable(ex::Add{}, ex::cl_point("ts_skel_add"))); });
}

template <class T, class Fn>
void stencil_rows(const std::shared_ptr<Device>& dev, long n, int points, const Fn& fn,
                  const BenchArgs& a, bench::DeviceReport& r) {
  const sk::Team team({dev});
  const double cells = double(n) * n * n;
  const auto init = pattern<T>(static_cast<std::size_t>(cells));
  sk::DC<T> x(team, n, n, n), y(team, n, n, n);
  x.scatter(init);
  const sk::Stencil st = sk::Stencil::uniform(1, sk::BoundaryMode::neutral);
  Measurement m;
  m.kernel = fmt::format("skeleton mapStencil {}-point", points);
  m.precision = prec<T>();
  m.size = static_cast<std::size_t>(n);
  m.bytes = 2 * cells * sizeof(T);
  m.flops = (points == 7 ? 9 : 27) * cells;
  m.timing = bench::time_runs(
      dev->queue(), [&](int) { x.mapStencil(fn, y, st, T(0)); }, a.timing);
  if (dev->backend() == Backend::opencl) {
    m.note = "no hand-written OpenCL baseline";
    r.results.push_back(m);
    return;
  }
  // the hand-written kernel on a zero-padded array
  const long p = n + 2;
  std::vector<T> padded(static_cast<std::size_t>(p * p * p), T(0));
  for (long z = 0; z < n; ++z)
    for (long yy = 0; yy < n; ++yy)
      std::memcpy(&padded[static_cast<std::size_t>(((z + 1) * p + yy + 1) * p + 1)],
                  &init[static_cast<std::size_t>((z * n + yy) * n)],
                  sizeof(T) * static_cast<std::size_t>(n));
  Buffer<T> in(dev, padded.size()), out(dev, padded.size());
  in.copy_from_host(padded);
  std::vector<T> poisoned = padded;  // NaN where the kernel must write
  for (long z = 1; z <= n; ++z)
    for (long yy = 1; yy <= n; ++yy)
      std::fill_n(&poisoned[static_cast<std::size_t>((z * p + yy) * p + 1)], n,
                  std::numeric_limits<T>::quiet_NaN());
  const auto got = y.gather();
  // Each hand-written walk (runs; for 7 points also the register march) on a
  // freshly poisoned output, checked bitwise against the skeleton.
  std::vector<sk::kernels::NativeWalk> walks{sk::kernels::NativeWalk::runs};
  if (points == 7 && dev->backend() == Backend::cuda)
    walks.push_back(sk::kernels::NativeWalk::march);
  std::vector<Measurement> hand;
  bool same = true;
  for (const auto walk : walks) {
    out.copy_from_host(poisoned);
    Measurement h = m;
    h.kernel = fmt::format("hand-written {}-point{}", points,
                           walk == sk::kernels::NativeWalk::march ? ", register march" : "");
    h.timing = bench::time_runs(
        dev->queue(),
        [&](int) {
          dispatch(*dev, [&](auto tag) {
            sk::kernels::native_stencil(tag, dev->queue(), points, in, out, n, walk);
          });
        },
        a.timing);
    const auto want = out.to_vector();
    for (long z = 0; z < n && same; ++z)
      for (long yy = 0; yy < n && same; ++yy)
        same = std::memcmp(&got[static_cast<std::size_t>((z * n + yy) * n)],
                           &want[static_cast<std::size_t>(((z + 1) * p + yy + 1) * p + 1)],
                           sizeof(T) * static_cast<std::size_t>(n)) == 0;
    hand.push_back(h);
  }
  const auto best =
      std::min_element(hand.begin(), hand.end(), [](const Measurement& u, const Measurement& v) {
        return u.timing.median_ms < v.timing.median_ms;
      });
  m.note =
      fmt::format("time / fastest hand-written ({}) = {:.3f}; results {}", best->kernel,
                  m.timing.median_ms / best->timing.median_ms, same ? "bitwise equal" : "DIFFER");
  r.results.push_back(m);
  for (auto& h : hand) r.results.push_back(h);
}

void sync_all(const sk::Team& t) {
  for (int p = 0; p < t.local_parts(); ++p) t.device(p).synchronize();
}

struct StepTiming {
  bench::Timing step;  // ms per step
  double halo_ms = 0, halo_gbps = 0;
};

// `steps` heat7 steps a -> b -> a ... on `team`, per-step wall-clock times
// over `reps` batches; then the halo exchange alone.
StepTiming time_steps(const sk::Team& team, long nx, long ny, long nz, int steps,
                      const BenchArgs& a) {
  sk::DC<float> x(team, nx, ny, nz), y(team, nx, ny, nz);
  x.scatter(pattern<float>(static_cast<std::size_t>(nx * ny * nz)));
  y.fill(0.0f);
  const auto heat = sk::portable(ex::Heat7{}, ex::cl_stencil("ts_skel_heat7"));
  const sk::Stencil st = sk::Stencil::uniform(1, sk::BoundaryMode::neutral);
  auto batch = [&] {
    for (int s = 0; s < steps; ++s) {
      if (s % 2 == 0)
        x.mapStencil(heat, y, st, 0.0f);
      else
        y.mapStencil(heat, x, st, 0.0f);
    }
  };
  bench::TimingOptions opt = a.timing;
  opt.warmup = std::max(1, opt.warmup);
  StepTiming t;
  t.step = bench::time_wall([&] { sync_all(team); }, batch, opt);
  for (double* v : {&t.step.median_ms, &t.step.min_ms}) *v /= steps;
  for (double& v : t.step.ms) v /= steps;
  sk::ExchangeRequest req;
  req.width = {0, 0, 1};
  sync_all(team);
  const auto t0 = std::chrono::steady_clock::now();
  for (int s = 0; s < steps; ++s) x.field().exchange(req);
  sync_all(team);
  t.halo_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() /
      steps;
  const auto& ex_stats = x.field().last_exchange();
  const double bytes = double(ex_stats.peer_bytes + ex_stats.mpi_bytes + ex_stats.local_bytes);
  t.halo_gbps = t.halo_ms > 0 ? bytes / t.halo_ms * 1e-6 : 0;
  return t;
}

void scaling_rows(const std::shared_ptr<Device>& dev, long n, const BenchArgs& a,
                  bench::DeviceReport& r) {
  const auto gpus = parse_gpus(a);
  const std::string scaling = a.param("scaling", "both");
  const int steps = int(a.param_int("steps", a.quick ? "4" : "20", 1));
  for (const std::string kind : {"weak", "strong"}) {
    if (scaling != "both" && scaling != kind) continue;
    double t1 = 0;
    for (int g : gpus) {
      const sk::Team team = g == 1 ? sk::Team({dev}) : sk::Team::open(dev->id(), g);
      const long nz = kind == "weak" ? n * g : n;
      const StepTiming t = time_steps(team, n, n, nz, steps, a);
      if (g == 1) t1 = t.step.median_ms;
      Measurement m;
      m.kernel = fmt::format("heat7 {} scaling, {} GPU(s)", kind, g);
      m.precision = "float";
      m.size = static_cast<std::size_t>(n);
      m.bytes = 2.0 * double(n) * n * nz * sizeof(float);
      m.flops = 9.0 * double(n) * n * nz;
      m.timing = t.step;
      const double eff =
          t1 > 0 ? (kind == "weak" ? t1 / t.step.median_ms : t1 / (g * t.step.median_ms)) : 0;
      const double overlap = g > 1 && t.halo_ms > 0 && kind == "weak"
                                 ? std::clamp(1.0 - (t.step.median_ms - t1) / t.halo_ms, 0.0, 1.0)
                                 : 1.0;
      m.note = fmt::format(
          "{} efficiency {:.1f}% (vs 1 GPU {:.3f} ms/step); halo {:.3f} ms/exchange, {:.1f} GB/s; "
          "overlap efficiency {:.0f}%",
          kind, 100 * eff, t1, t.halo_ms, t.halo_gbps, 100 * overlap);
      r.results.push_back(m);
    }
  }
}

bench::DeviceReport run_skeleton(const std::shared_ptr<Device>& dev, const BenchArgs& a) {
  bench::DeviceReport r;
  r.device = dev->info();
  const bool gpu = dev->info().is_gpu;
  const long n = a.size ? static_cast<long>(a.size) : a.quick ? (gpu ? 256 : 48) : (gpu ? 512 : 96);
  const auto copy = bench::measure_native_copy(
      *dev, static_cast<std::size_t>(n) * n * n * sizeof(float), a.timing);
  r.copy_gbps = copy.gbps();
  r.results.push_back(copy);
  if (a.run_float()) {
    map_rows<float>(dev, n, a, r);
    stencil_rows<float>(dev, n, 7, sk::portable(ex::Heat7{}, ex::cl_stencil("ts_skel_heat7")), a,
                        r);
    stencil_rows<float>(dev, n, 27, sk::portable(ex::Blur27{}, ex::cl_stencil("ts_skel_blur27")), a,
                        r);
  }
  if (a.run_double()) {
    map_rows<double>(dev, n, a, r);
    stencil_rows<double>(dev, n, 7, sk::portable(ex::Heat7{}, ex::cl_stencil("ts_skel_heat7")), a,
                         r);
    stencil_rows<double>(dev, n, 27, sk::portable(ex::Blur27{}, ex::cl_stencil("ts_skel_blur27")),
                         a, r);
  }
  scaling_rows(dev, n, a, r);
  return r;
}

const RegisterBenchSuite skeleton{
    "skeleton", "skeletons: map/zip/fold vs copy, mapStencil vs hand-written, multi-GPU scaling",
    run_skeleton};

}  // namespace

}  // namespace tessera::app
