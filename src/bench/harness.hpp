// The benchmark harness every suite uses: warm-up, repeated runs timed with
// device events, median and minimum, modelled bytes and flops, achieved GB/s
// and GFLOP/s, and the fraction of the copy bandwidth measured in the same run.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/device.hpp"

namespace tessera::bench {

struct TimingOptions {
  int warmup = 3;
  int reps = 20;
  /// Seconds for one row, 0 for none: once the runs (warm-up included) have
  /// taken this long, the row stops after at least one warm-up and three timed
  /// runs, or one timed run when a single warm-up run alone took longer than
  /// the budget (such a run, seconds of work, is its own average). Keeps a full
  /// report's slow rows (whole solves, 100-SpMV thesis runs on the biggest
  /// matrices) from taking minutes each, while fast rows still get every
  /// repetition.
  double budget_s = 0;
};

struct Timing {
  std::vector<double> ms;  ///< every timed run
  double median_ms = 0;
  double min_ms = 0;
};

/// Runs `run(i)` warmup + reps times on `q` (fewer when opt.budget_s runs
/// out); each timed run lies between two events of `q`. `i` counts the runs, so callers can rotate among buffer sets
/// to defeat caches.
Timing time_runs(Queue& q, const std::function<void(int)>& run, const TimingOptions& opt);

/// The same for work spread over several devices (no one queue to bracket):
/// each timed run is host wall-clock time between `sync()` before it and
/// `sync()` after it (opt.warmup untimed runs first; opt.budget_s ignored).
Timing time_wall(const std::function<void()>& sync, const std::function<void()>& run,
                 const TimingOptions& opt);

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

/// Identity of the build and the run (version, commit, date, host).
nlohmann::json run_metadata();
nlohmann::json to_json(const DeviceInfo& d);

/// Writes a suite report as JSON (atomically).
void write_json(const SuiteReport& r, const std::string& path);

}  // namespace tessera::bench
