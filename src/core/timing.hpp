// Timing on a device: warm-up, repeated runs between two events of a queue
// (or host wall-clock time between two synchronisations for work spread over
// several devices), median and minimum. The benchmark harness (bench/) and
// the modules' own timed runs (sparse's SpMV runs, the demo) use it.
#pragma once
#include <functional>
#include <vector>

#include "core/device.hpp"

namespace tessera {

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

}  // namespace tessera
