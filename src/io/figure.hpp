// Figures a report can show: a field on its world axes (ticks, axis titles
// with units, a title with the time, a colour bar with ticks and the value's
// name) drawn on io::Image. One implementation for every module's
// quick-looks (swe --format png, lbm slices); the demo's line plots use the
// same ticks and text.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "io/raster.hpp"

namespace tessera::io {

/// At most `max` tick values inside [lo, hi] on a 1-2-5 step (the step
/// returned in *step when given); empty when lo or hi is not finite.
std::vector<double> nice_ticks(double lo, double hi, int max, double* step = nullptr);
/// A tick's label: as few digits as the step needs ("0.25", "1500", "1e-06").
std::string tick_label(double v, double step);

/// Text sizes (pixels per em) of every figure.
struct FigureText {
  static constexpr int title = 16, label = 14, tick = 12;
};

struct FieldPlot {
  long nx = 0, ny = 0;                            ///< cells (i along x, j along y)
  double x0 = 0, x1 = 1, y0 = 0, y1 = 1;          ///< the field's world extent
  std::string title, x_label, y_label;            ///< e.g. "depth, t = 600 s", "x (m)"
  std::string value_label;                        ///< the colour bar's, e.g. "depth (m)"
  double lo = 0, hi = 1;                          ///< the colour scale; beyond it the end colours
  std::function<double(long i, long j)> value;    ///< NaN: a masked cell
  Rgb masked{200, 200, 200};                      ///< (dry, wall, NODATA)
  int long_side_min = 256, long_side_max = 1024;  ///< the field's pixels on its long side
};

/// A drawn figure and where its parts lie (pixels; y down).
struct Figure {
  struct Box {
    int x = 0, y = 0, w = 0, h = 0;
  };
  Image image;
  Box field, bar;  ///< the field's cells, the colour bar (top: the scale's hi)
};

/// The field (y up, nearest cell per pixel), framed by its axes, under its
/// title, beside its colour bar.
Figure draw_field(const FieldPlot& p);

}  // namespace tessera::io
