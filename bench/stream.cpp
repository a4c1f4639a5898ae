#include "bench/stream.hpp"

#include <algorithm>
#include <random>
#include <vector>

#include <fmt/format.h>

#include "core/buffer.hpp"
#include "core/error.hpp"
#include "core/host_memory.hpp"
#include "core/progress.hpp"
#include "dense/dense.hpp"

namespace tessera::bench {

std::size_t default_stream_size(const DeviceInfo& d, std::size_t element_bytes) {
  std::size_t n = std::size_t(1) << 28;
  if (!d.is_gpu) n = std::size_t(1) << 25;  // CPUs: far beyond L3, quick enough
  const std::size_t mem_cap = d.global_mem_bytes / 4 / 3 / element_bytes;
  const std::size_t alloc_cap = d.max_alloc_bytes ? d.max_alloc_bytes / element_bytes : n;
  n = std::min({n, mem_cap, alloc_cap});
  return std::max<std::size_t>(n / 1024 * 1024, 1024);
}

namespace {

template <class T>
void run_precision(Device& dev, const std::shared_ptr<Device>& devp, const StreamOptions& opt,
                   DeviceReport& report, Progress& progress) {
  const std::size_t n = opt.size ? opt.size : default_stream_size(dev.info(), sizeof(T));
  const char* prec = sizeof(T) == 4 ? "float" : "double";
  const double b = static_cast<double>(n * sizeof(T));
  // Refused before anything is allocated (a --size the memory cannot hold was
  // killed by the kernel's OOM killer on CPU-side devices): three arrays on
  // the device, one on the host for their values, and on a device that is
  // host memory (the CPU, PoCL) the three as well.
  if (n > (std::uint64_t(1) << 58) / sizeof(T))  // 4 arrays' bytes must not wrap
    throw UsageError(fmt::format("--size {}: more elements than any memory holds", n));
  const std::uint64_t array = std::uint64_t(n) * sizeof(T);
  if (dev.info().global_mem_bytes && 3 * array > dev.info().global_mem_bytes)
    throw OutOfMemory(
        fmt::format("{} for stream's three {} arrays of {} elements", dev.id(), prec, n), 3 * array,
        dev.info().global_mem_bytes);
  const std::uint64_t host = (dev.info().is_gpu ? 1 : 4) * array;
  if (host > host_memory_limit())
    throw OutOfMemory(fmt::format("host memory for stream's {} arrays of {} elements", prec, n),
                      host, host_memory_limit());
  Buffer<T> a(devp, n), bb(devp, n), c(devp, n);
  {
    std::vector<T> h(n);
    std::mt19937_64 rng(42);
    std::uniform_real_distribution<double> u(0.5, 1.5);
    for (auto& v : h) v = static_cast<T>(u(rng));
    a.copy_from_host(h);
    bb.copy_from_host(h);
    c.copy_from_host(h);
  }
  Queue& q = dev.queue();
  const T s = T(3);
  auto add = [&](const char* name, double bytes, double flops, const char* note,
                 const std::function<void(int)>& fn) {
    progress.step(std::string(prec) + " " + name);
    Measurement m;
    m.kernel = name;
    m.precision = prec;
    m.size = n;
    m.bytes = bytes;
    m.flops = flops;
    m.note = note;
    m.timing = time_runs(q, fn, opt.timing);
    report.results.push_back(m);
    return m.gbps();
  };
  double copy = add("native_copy", 2 * b, 0, "backend memcpy (device to device)",
                    [&](int) { q.copy(a.handle(), 0, c.handle(), 0, n * sizeof(T)); });
  // Float and double runs each measure the copy; the faster figure is the
  // denominator (the strictest for every fraction reported against it).
  report.copy_gbps = std::max(report.copy_gbps, copy);
  add("copy", 2 * b, 0, "c = a", [&](int) { dense::copy(a, c); });
  add("scale", 2 * b, double(n), "b = s*c", [&](int) { dense::stream_scale(s, c, bb); });
  add("add", 3 * b, double(n), "c = a + b", [&](int) { dense::stream_add(a, bb, c); });
  add("triad", 3 * b, 2.0 * double(n), "a = b + s*c",
      [&](int) { dense::stream_triad(s, bb, c, a); });
  dense::Reducer<T> red(devp, n);
  add("dot_canonical", 2 * b, 2.0 * double(n), "canonical order",
      [&](int) { (void)red.dot(a, bb, dense::ReduceOrder::canonical); });
  add("dot_device", 2 * b, 2.0 * double(n), "device order",
      [&](int) { (void)red.dot(a, bb, dense::ReduceOrder::device); });
}

}  // namespace

DeviceReport run_stream(const std::shared_ptr<Device>& device, const StreamOptions& opt) {
  DeviceReport r;
  r.device = device->info();
  int steps = 7 * (int(opt.run_float) + int(opt.run_double && device->info().fp64));
  Progress progress("stream on " + device->id(), steps);
  if (opt.run_float) run_precision<float>(*device, device, opt, r, progress);
  if (opt.run_double && device->info().fp64)
    run_precision<double>(*device, device, opt, r, progress);
  return r;
}

}  // namespace tessera::bench
