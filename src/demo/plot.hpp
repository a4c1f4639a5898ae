// Line plots of convergence histories for the demo page: y on a log scale
// (decades labelled 1e-k), x the iteration or cycle index.
#pragma once
#include <filesystem>
#include <vector>

#include "demo/image.hpp"

namespace tessera::demo {

struct Series {
  std::vector<double> y;  ///< y[i] at x = i; non-positive or non-finite values are skipped
  Rgb colour{31, 119, 180};
};

/// Draws the series on log-y axes (one decade per grid line, a dashed
/// horizontal line at `target` when > 0) and writes the PNG. Throws Error
/// when no series has a positive finite value.
void plot_log_history(const std::filesystem::path& path, const std::vector<Series>& series, double target = 0);

}  // namespace tessera::demo
