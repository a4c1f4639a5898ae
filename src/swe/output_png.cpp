// PNG quick-look (io/raster.hpp): the field, a colour bar and its min/max labels.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/error.hpp"
#include "io/raster.hpp"
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
  if (!(hi > lo)) hi = lo + (field == "depth" ? 1.0 : std::max(1e-3, 1e-3 * std::fabs(lo)));
  return {lo, hi};
}

void write_png(const std::string& path, const Snapshot& s, const std::string& field,
               const PngScale& scale) {
  check_field(field);
  const double lo = scale.lo, hi = scale.hi;
  // at most 1024 pixels per side (nearest cell), at least 256 on the long side
  const double px_per_cell = std::min(1024.0 / double(std::max(s.nx, s.ny)),
                                      std::max(1.0, 256.0 / double(std::max(s.nx, s.ny))));
  const int mw = std::max(1, int(double(s.nx) * px_per_cell)),
            mh = std::max(1, int(double(s.ny) * px_per_cell));
  const int bar = 16, pad = 8, label = 4 * 2 * 11, footer = 2 * 10 + 4;
  io::Image im(mw + pad + bar + pad + label, std::max(mh, 60) + footer);
  const io::Rgb dry{200, 200, 200};
  for (int py = 0; py < mh; ++py)
    for (int px = 0; px < mw; ++px) {
      const long i = std::min(s.nx - 1, long(double(px) / px_per_cell));
      const long j = std::min(s.ny - 1, long(double(mh - 1 - py) / px_per_cell));  // y up
      const std::size_t k = static_cast<std::size_t>(i * s.ny + j);
      if (field == "eta" && !(s.h[k] > 0)) {
        im.set(px, py, dry);
        continue;
      }
      const double v = field == "depth" ? s.h[k] : s.eta(k);
      im.set(px, py, io::viridis(std::clamp((v - lo) / (hi - lo), 0.0, 1.0)));
    }
  const int bar_h = std::max(mh, 60);
  for (int py = 0; py < bar_h; ++py)
    for (int b = 0; b < bar; ++b)
      im.set(mw + pad + b, py, io::viridis(1.0 - double(py) / double(bar_h - 1)));
  // the ends are the run's one scale: values beyond them take the end colours
  im.text(mw + pad + bar + pad, 0, fmt::format(">={:.3g}", hi), 2);
  im.text(mw + pad + bar + pad, bar_h - 10, fmt::format("<={:.3g}", lo), 2);
  im.text(0, bar_h + 4,
          fmt::format("{} M  T={:.4g} S  X {:.4g}..{:.4g} M  Y {:.4g}..{:.4g} M",
                      field == "depth" ? "DEPTH" : "ETA", s.time, s.x0, s.x0 + double(s.nx) * s.dx,
                      s.y0, s.y0 + double(s.ny) * s.dy),
          2);
  im.write_png(path);
}

}  // namespace tessera::swe
