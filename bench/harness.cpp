#include "bench/harness.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "core/atomic_file.hpp"

namespace tessera::bench {

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
  write_output(path, r.to_json().dump(2) + "\n");
}

}  // namespace tessera::bench
