// PNG quick-look (io/figure.hpp): the field on its world axes, its time, a colour bar.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/error.hpp"
#include "io/figure.hpp"
#include "swe/output.hpp"

namespace tessera::swe {

namespace {
void check_field(const std::string& field) {
  if (field != "depth" && field != "eta") throw UsageError("PNG field must be depth or eta");
}
}  // namespace

PngScale png_scale_of(const Snapshot& s, const std::string& field) {
  check_field(field);
  double lo = field == "depth" ? 0.0 : INFINITY, hi = -INFINITY;
  for (std::size_t k = 0; k < s.h.size(); ++k) {
    if (field == "eta" && !(s.h[k] > 0)) continue;
    const double v = field == "depth" ? s.h[k] : s.eta(k);
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  if (!std::isfinite(lo) || !std::isfinite(hi)) return {0, 1};  // dry everywhere
  // one value (a lake at rest), or a span of a few ulps of a level: a scale
  // of its own
  if (!(hi - lo > 1e-9 * std::max(std::fabs(lo), std::fabs(hi))))
    hi = lo + (field == "depth" ? 1.0 : std::max(1e-3, 1e-3 * std::fabs(lo)));
  return {lo, hi};
}

io::Figure png_figure(const Snapshot& s, const std::string& field, const PngScale& scale) {
  check_field(field);
  io::FieldPlot p;
  p.nx = s.nx, p.ny = s.ny;
  p.x0 = s.x0, p.x1 = s.x0 + double(s.nx) * s.dx;
  p.y0 = s.y0, p.y1 = s.y0 + double(s.ny) * s.dy;
  const bool depth = field == "depth";
  p.title = fmt::format("{}, t = {:.6g} s", depth ? "water depth" : "water level", s.time);
  p.x_label = "x (m)";
  p.y_label = "y (m)";
  p.value_label = depth ? "depth (m)" : "level (m)";
  p.lo = scale.lo, p.hi = scale.hi;  // the run's one scale: values beyond it take the end colours
  p.value = [&](long i, long j) {
    const std::size_t k = static_cast<std::size_t>(i * s.ny + j);
    if (!depth && !(s.h[k] > 0)) return double(NAN);  // dry: grey
    return depth ? s.h[k] : s.eta(k);
  };
  p.masked = {200, 200, 200};
  return io::draw_field(p);
}

void write_png(const std::string& path, const Snapshot& s, const std::string& field,
               const PngScale& scale) {
  png_figure(s, field, scale).image.write_png(path);
}

}  // namespace tessera::swe
