// bench::time_runs: how many runs it makes with and without a row budget.
// The counts are deterministic (any run takes more than a nanosecond), so no
// assertion depends on how fast this machine is.
#include <gtest/gtest.h>

#include "core/registry.hpp"
#include "bench/harness.hpp"

namespace tessera {
namespace {

TEST(TimeRuns, WithoutABudgetMakesEveryWarmupAndRep) {
  auto dev = open_device("cpu");
  int calls = 0;
  std::vector<int> seen;
  const auto t = bench::time_runs(dev->queue(),
                                  [&](int i) {
                                    ++calls;
                                    seen.push_back(i);
                                  },
                                  {2, 7});
  EXPECT_EQ(calls, 9);
  EXPECT_EQ(t.ms.size(), 7u);
  for (int i = 0; i < 9; ++i)
    EXPECT_EQ(seen[static_cast<std::size_t>(i)], i) << "runs are numbered for rotation";
  EXPECT_GE(t.min_ms, 0.0);
  EXPECT_LE(t.min_ms, t.median_ms);
}

TEST(TimeRuns, AWarmupLongerThanTheBudgetLeavesOneTimedRun) {
  auto dev = open_device("cpu");
  int calls = 0;
  const auto t = bench::time_runs(dev->queue(), [&](int) { ++calls; }, {5, 20, 1e-12});
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(t.ms.size(), 1u);
}

TEST(TimeRuns, ASpentBudgetWithoutWarmupStopsAfterThreeTimedRuns) {
  auto dev = open_device("cpu");
  int calls = 0;
  const auto t = bench::time_runs(dev->queue(), [&](int) { ++calls; }, {0, 20, 1e-12});
  EXPECT_EQ(calls, 3);
  EXPECT_EQ(t.ms.size(), 3u);
}

TEST(TimeRuns, ABudgetNeverCutsBelowTheRepsAsked) {
  auto dev = open_device("cpu");
  int calls = 0;
  const auto t = bench::time_runs(dev->queue(), [&](int) { ++calls; }, {0, 2, 1e-12});  // 2 < 3
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(t.ms.size(), 2u);
}

}  // namespace
}  // namespace tessera
