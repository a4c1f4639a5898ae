#include "core/timing.hpp"

#include <algorithm>
#include <chrono>

namespace tessera {

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

}  // namespace tessera
