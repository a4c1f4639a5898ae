#include "bench/harness.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <ctime>

#include <fmt/format.h>

#include "core/atomic_file.hpp"
#include "tessera/config.hpp"

namespace tessera::bench {

namespace {
/// Median (mean of the middle two for an even count) and minimum of t.ms.
void summarize(Timing& t) {
  std::vector<double> sorted = t.ms;
  std::sort(sorted.begin(), sorted.end());
  const std::size_t m = sorted.size();
  t.median_ms = m == 0 ? 0 : (m % 2 ? sorted[m / 2] : 0.5 * (sorted[m / 2 - 1] + sorted[m / 2]));
  t.min_ms = m == 0 ? 0 : sorted.front();
}
}  // namespace

Timing time_runs(Queue& q, const std::function<void(int)>& run, const TimingOptions& opt) {
  const auto start = std::chrono::steady_clock::now();
  auto over_budget = [&] {
    return opt.budget_s > 0 &&
           std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() >
               opt.budget_s;
  };
  int min_timed = 3;
  int i = 0;
  for (int w = 0; w < opt.warmup; ++w) {
    run(i++);
    q.synchronize();  // so that the budget sees the run's time
    if (over_budget()) {
      if (w == 0) min_timed = 1;  // one run longer than the whole budget
      break;
    }
  }
  Timing t;
  t.ms.reserve(static_cast<std::size_t>(opt.reps));
  for (int r = 0; r < opt.reps; ++r) {
    if (r >= min_timed && over_budget()) break;
    auto begin = q.record();
    run(i++);
    auto stop = q.record();
    t.ms.push_back(stop->ms_since(*begin));
  }
  summarize(t);
  return t;
}

Timing time_wall(const std::function<void()>& sync, const std::function<void()>& run,
                 const TimingOptions& opt) {
  for (int w = 0; w < opt.warmup; ++w) run();
  Timing t;
  for (int r = 0; r < opt.reps; ++r) {
    sync();
    const auto t0 = std::chrono::steady_clock::now();
    run();
    sync();
    t.ms.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  summarize(t);
  return t;
}

Measurement measure_native_copy(Device& device, std::size_t bytes, const TimingOptions& opt) {
  auto dev = device.shared_from_this();
  void* a = device.allocate(bytes);
  void* b = nullptr;
  try {
    b = device.allocate(bytes);
  } catch (...) {
    device.deallocate(a);
    throw;
  }
  Queue& q = device.queue();
  Measurement m;
  m.kernel = "native_copy";
  m.precision = "-";
  m.size = bytes;
  m.bytes = 2.0 * double(bytes);
  m.note = "backend memcpy (device to device)";
  try {
    q.copy(b, 0, a, 0, bytes);  // defined contents; first touch
    m.timing = time_runs(
        q, [&](int) { q.copy(a, 0, b, 0, bytes); }, opt);
  } catch (...) {
    device.deallocate(a);
    device.deallocate(b);
    throw;
  }
  device.deallocate(a);
  device.deallocate(b);
  return m;
}

nlohmann::json to_json(const DeviceInfo& d) {
  return {{"id", d.id},
          {"backend", std::string(to_string(d.backend))},
          {"name", d.name},
          {"vendor", d.vendor},
          {"platform", d.platform},
          {"driver", d.driver_version},
          {"is_gpu", d.is_gpu},
          {"compute_units", d.compute_units},
          {"global_mem_bytes", d.global_mem_bytes},
          {"cache_bytes", d.cache_bytes}};
}

nlohmann::json run_metadata() {
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  std::time_t now = std::time(nullptr);
  char date[32] = {};
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  return {{"tessera_version", TESSERA_VERSION},
          {"git_commit", TESSERA_GIT_COMMIT},
          {"build_type", TESSERA_BUILD_TYPE},
          {"date", date},
          {"host", host}};
}

nlohmann::json SuiteReport::to_json() const {
  nlohmann::json j = {
      {"suite", suite}, {"run", run_metadata()}, {"devices", nlohmann::json::array()}};
  for (const auto& d : devices) {
    nlohmann::json dj = {{"device", bench::to_json(d.device)},
                         {"copy_gbps", d.copy_gbps},
                         {"results", nlohmann::json::array()}};
    for (const auto& m : d.results)
      dj["results"].push_back({{"kernel", m.kernel},
                               {"precision", m.precision},
                               {"size", m.size},
                               {"median_ms", m.timing.median_ms},
                               {"min_ms", m.timing.min_ms},
                               {"reps", m.timing.ms.size()},
                               {"bytes", m.bytes},
                               {"flops", m.flops},
                               {"gbps", m.gbps()},
                               {"gflops", m.gflops()},
                               {"fraction_of_copy", d.copy_gbps > 0 ? m.gbps() / d.copy_gbps : 0.0},
                               {"note", m.note}});
    j["devices"].push_back(std::move(dj));
  }
  return j;
}

std::string SuiteReport::to_markdown() const {
  std::string out;
  for (const auto& d : devices) {
    out += fmt::format(
        "\n### {} — {} ({}, {})\n\ncopy bandwidth measured in this run: {:.1f} GB/s\n\n", suite,
        d.device.id, d.device.name, d.device.driver_version, d.copy_gbps);
    out +=
        "| kernel | precision | size | median ms | min ms | GB/s | GFLOP/s | % of copy | note |\n";
    out += "|---|---|---:|---:|---:|---:|---:|---:|---|\n";
    for (const auto& m : d.results)
      out +=
          fmt::format("| {} | {} | {} | {:.4f} | {:.4f} | {:.1f} | {:.1f} | {:.1f} | {} |\n",
                      m.kernel, m.precision, m.size, m.timing.median_ms, m.timing.min_ms, m.gbps(),
                      m.gflops(), d.copy_gbps > 0 ? 100.0 * m.gbps() / d.copy_gbps : 0.0, m.note);
  }
  return out;
}

void write_json(const SuiteReport& r, const std::string& path) {
  write_file_atomic(path, r.to_json().dump(2) + "\n");
}

}  // namespace tessera::bench
