// The benchmark harness every suite uses: warm-up, repeated runs timed with
// device events, median and minimum, modelled bytes and flops, achieved GB/s
// and GFLOP/s, and the fraction of the copy bandwidth measured in the same run.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/device.hpp"
#include "core/run_info.hpp"
#include "core/timing.hpp"

namespace tessera::bench {

// Timing and the run's identity live in core (modules time their own runs
// too); the suites name them as bench:: as before.
using ::tessera::run_metadata;
using ::tessera::time_runs;
using ::tessera::time_wall;
using ::tessera::Timing;
using ::tessera::TimingOptions;
using ::tessera::to_json;

struct Measurement {
  std::string kernel;
  std::string precision;
  std::size_t size = 0;  ///< problem size (elements, cells, n...)
  Timing timing;
  double bytes = 0;  ///< modelled bytes per run (read + written)
  double flops = 0;  ///< modelled floating-point operations per run
  std::string note;
  double gbps() const { return timing.median_ms > 0 ? bytes / timing.median_ms * 1e-6 : 0; }
  double gflops() const { return timing.median_ms > 0 ? flops / timing.median_ms * 1e-6 : 0; }
};

/// One device's results of one suite, with the copy bandwidth that every
/// fraction is taken against.
struct DeviceReport {
  DeviceInfo device;
  double copy_gbps = 0;  ///< measured in this run: the roofline denominator
  std::vector<Measurement> results;
};

struct SuiteReport {
  std::string suite;
  std::vector<DeviceReport> devices;
  nlohmann::json to_json() const;
  std::string to_markdown() const;
};

/// The backend's own device-to-device copy of `bytes` bytes (read + written
/// counted), the roofline denominator of every suite.
Measurement measure_native_copy(Device& device, std::size_t bytes, const TimingOptions& opt);

/// Writes a suite report as JSON (atomically).
void write_json(const SuiteReport& r, const std::string& path);

}  // namespace tessera::bench
