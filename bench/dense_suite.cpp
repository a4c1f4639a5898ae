#include "bench/dense_suite.hpp"

#include <random>
#include <vector>

#include <fmt/format.h>

#include "bench/stream.hpp"
#include "core/buffer.hpp"
#include "core/enum_names.hpp"
#include "core/progress.hpp"
#include "dense/matmul.hpp"

namespace tessera::bench {

namespace {

using dense::MatmulVariant;
using dense::VecAddVariant;

constexpr VecAddVariant kVecAdds[] = {VecAddVariant::global, VecAddVariant::local_static,
                                      VecAddVariant::local_dynamic};
constexpr MatmulVariant kMatmuls[] = {MatmulVariant::naive, MatmulVariant::tiled,
                                      MatmulVariant::register_blocked, MatmulVariant::vendor};

std::vector<std::size_t> matrix_sizes(const DenseOptions& opt) {
  if (opt.size) return {opt.size};
  return {1024, 8192};
}

// Whether variant v runs at order n. On devices that are not GPUs the large
// default size runs only the CPU backend's blocked loop nest: naive and tiled
// there, and every PoCL kernel, would take from minutes to hours per run.
bool planned(const Device& dev, const DenseOptions& opt, MatmulVariant v, std::size_t n) {
  if (!dense::matmul_available(v, dev)) return false;
  if (opt.size || n <= 1024 || dev.info().is_gpu) return true;
  return dev.backend() == Backend::cpu && v == MatmulVariant::register_blocked;
}

template <class T>
Buffer<T> random_buffer(const std::shared_ptr<Device>& dev, std::size_t n, std::uint64_t seed) {
  std::vector<T> h(n);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (auto& v : h) v = static_cast<T>(u(rng));
  Buffer<T> b(dev, n);
  b.copy_from_host(h);
  return b;
}

// Times one kernel and appends its measurement; returns its index in the report.
struct Recorder {
  Device& dev;
  DeviceReport& report;
  Progress& progress;
  const TimingOptions& timing;
  const char* precision;

  std::size_t add(const std::string& kernel, std::size_t size, double bytes, double flops,
                  std::string note, const std::function<void(int)>& fn) {
    progress.step(fmt::format("{} {} {}", precision, kernel, size));
    Measurement m;
    m.kernel = kernel;
    m.precision = precision;
    m.size = size;
    m.bytes = bytes;
    m.flops = flops;
    m.note = std::move(note);
    m.timing = time_runs(dev.queue(), fn, timing);
    report.results.push_back(std::move(m));
    return report.results.size() - 1;
  }
};

constexpr std::array<std::string_view, 3> kVecAddNotes{
    "c = a + b, one element per work-item, global memory",
    "staged through __local/__shared__ arrays of static size",
    "staged through __local/__shared__ memory sized at launch"};
static_assert(kVecAddNotes.size() == std::size_t(VecAddVariant::local_dynamic) + 1);

std::string vecadd_note(VecAddVariant v) {
  return std::string(enum_name(v, kVecAddNotes, kVecAddNotes.back()));
}

template <class T>
void run_vector_adds(const std::shared_ptr<Device>& devp, const DenseOptions& opt, Recorder& rec) {
  const std::size_t n =
      opt.size ? opt.size * opt.size : default_stream_size(devp->info(), sizeof(T));
  const double b = static_cast<double>(n * sizeof(T));
  auto a = random_buffer<T>(devp, n, 1), bb = random_buffer<T>(devp, n, 2);
  Buffer<T> c(devp, n);
  Queue& q = devp->queue();
  auto copy = rec.add("native_copy", n, 2 * b, 0, "backend memcpy (device to device)",
                      [&](int) { q.copy(a.handle(), 0, c.handle(), 0, n * sizeof(T)); });
  // Float and double each measure the copy; the faster is the denominator.
  rec.report.copy_gbps = std::max(rec.report.copy_gbps, rec.report.results[copy].gbps());
  for (VecAddVariant v : kVecAdds)
    rec.add(fmt::format("vecadd_{}", dense::to_string(v)), n, 3 * b, double(n), vecadd_note(v),
            [&](int) { dense::vector_add(a, bb, c, v); });
}

template <class T>
void run_matmuls(const std::shared_ptr<Device>& devp, const DenseOptions& opt, std::size_t n,
                 Recorder& rec) {
  auto A = random_buffer<T>(devp, n * n, 3), B = random_buffer<T>(devp, n * n, 4);
  Buffer<T> C(devp, n * n);
  const double nd = static_cast<double>(n);
  const double bytes = 3 * nd * nd * sizeof(T);  // compulsory traffic: read A and B, write C
  const double flops = 2 * nd * nd * nd;
  std::size_t index[4] = {};
  bool ran[4] = {};
  for (MatmulVariant v : kMatmuls) {
    if (!planned(*devp, opt, v, n)) continue;
    // The CPU backend has no local memory: its tiled and register_blocked are
    // one cache-blocked loop nest (docs/dense.md).
    const bool cpu = devp->backend() == Backend::cpu;
    std::string note;
    if (v == MatmulVariant::tiled)
      note = cpu ? "CPU: cache-blocked loop nest"
                 : fmt::format("{0}x{0} tiles in local memory", dense::matmul_tile());
    if (v == MatmulVariant::register_blocked)
      note = cpu ? "CPU: cache-blocked loop nest" : "128x128 per work-group, 8x8 per work-item";
    if (v == MatmulVariant::vendor)
      note =
          fmt::format("cuBLAS {}gemm, CUBLAS_DEFAULT_MATH (no TF32)", sizeof(T) == 4 ? 's' : 'd');
    const auto i = static_cast<std::size_t>(v);
    index[i] = rec.add(fmt::format("matmul_{}", dense::to_string(v)), n, bytes, flops, note,
                       [&](int) { dense::matmul(A, B, C, n, n, n, v); });
    ran[i] = true;
  }
  // Speed-ups, once every variant has run.
  auto ms = [&](MatmulVariant v) {
    return rec.report.results[index[std::size_t(v)]].timing.median_ms;
  };
  auto note = [&](MatmulVariant v) -> std::string& {
    return rec.report.results[index[std::size_t(v)]].note;
  };
  const bool naive = ran[0], vendor = ran[3];
  if (naive && ran[1])
    note(MatmulVariant::tiled) += fmt::format(
        "; {:.1f}x over naive (lecture: {:.1f}x, GTX 670, n=1024 float, {:.0f} -> {:.0f} ms)",
        ms(MatmulVariant::naive) / ms(MatmulVariant::tiled), kLectureNaiveMs / kLectureTiledMs,
        kLectureNaiveMs, kLectureTiledMs);
  if (naive && ran[2])
    note(MatmulVariant::register_blocked) += fmt::format(
        "; {:.1f}x over naive", ms(MatmulVariant::naive) / ms(MatmulVariant::register_blocked));
  for (MatmulVariant v :
       {MatmulVariant::naive, MatmulVariant::tiled, MatmulVariant::register_blocked})
    if (vendor && ran[std::size_t(v)])
      note(v) += fmt::format("{}{:.0f}% of vendor", note(v).empty() ? "" : "; ",
                             100.0 * ms(MatmulVariant::vendor) / ms(v));
}

int planned_steps(const Device& dev, const DenseOptions& opt) {
  int steps = 1 + 3;  // copy and the vector adds
  for (std::size_t n : matrix_sizes(opt))
    for (MatmulVariant v : kMatmuls) steps += planned(dev, opt, v, n);
  return steps;
}

template <class T>
void run_precision(const std::shared_ptr<Device>& devp, const DenseOptions& opt, Recorder& rec) {
  run_vector_adds<T>(devp, opt, rec);
  for (std::size_t n : matrix_sizes(opt)) run_matmuls<T>(devp, opt, n, rec);
}

}  // namespace

DeviceReport run_dense(const std::shared_ptr<Device>& device, const DenseOptions& opt) {
  DeviceReport r;
  r.device = device->info();
  const bool dbl = opt.run_double && device->info().fp64;
  const int steps =
      (opt.run_float ? planned_steps(*device, opt) : 0) + (dbl ? planned_steps(*device, opt) : 0);
  Progress progress("dense on " + device->id(), steps);
  if (opt.run_float) {
    Recorder rec{*device, r, progress, opt.timing, "float"};
    run_precision<float>(device, opt, rec);
  }
  if (dbl) {
    Recorder rec{*device, r, progress, opt.timing, "double"};
    run_precision<double>(device, opt, rec);
  }
  return r;
}

}  // namespace tessera::bench
