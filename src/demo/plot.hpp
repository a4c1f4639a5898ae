// Line plots of convergence histories for the demo page: y on a log scale
// (decades labelled 1e-k), x the iteration or cycle index.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "io/raster.hpp"

namespace tessera::demo {

using io::Image;  // the plots are drawn on io's raster
using io::Rgb;

struct Series {
  std::vector<double> y;  ///< y[i] at x = i; non-positive or non-finite values are skipped
  Rgb colour{31, 119, 180};
  std::string name;      ///< its legend entry
  bool markers = false;  ///< a marker on every point (always when 60 points or fewer)
  bool line = true;      ///< joined by lines
};

struct PlotLabels {
  std::string title, x_label, y_label;
  std::string target;  ///< the dashed line's legend entry
};

/// Draws the series on log-y axes (one decade per grid line, a dashed
/// horizontal line at `target` when > 0) with their legend and writes the
/// PNG. Throws Error when no series has a positive finite value.
void plot_log_history(const std::filesystem::path& path, const std::vector<Series>& series,
                      double target, const PlotLabels& labels);

}  // namespace tessera::demo
