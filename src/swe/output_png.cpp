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

void write_png(const std::string& path, const Snapshot& s, const std::string& field) {
  if (field != "depth" && field != "eta") throw UsageError("PNG field must be depth or eta");
  const std::size_t n = static_cast<std::size_t>(s.nx * s.ny);
  std::vector<double> v(n);
  for (std::size_t k = 0; k < n; ++k) v[k] = field == "depth" ? s.h[k] : s.eta(k);
  double lo = *std::min_element(v.begin(), v.end()), hi = *std::max_element(v.begin(), v.end());
  if (!(hi > lo)) hi = lo + 1;
  // at most 1024 pixels per side (nearest cell), at least 256 on the long side
  const double scale = std::min(1024.0 / double(std::max(s.nx, s.ny)),
                                std::max(1.0, 256.0 / double(std::max(s.nx, s.ny))));
  const int mw = std::max(1, int(double(s.nx) * scale)),
            mh = std::max(1, int(double(s.ny) * scale));
  const int bar = 16, pad = 8, label = 4 * 2 * 10;
  io::Image im(mw + pad + bar + pad + label, std::max(mh, 60));
  for (int py = 0; py < mh; ++py)
    for (int px = 0; px < mw; ++px) {
      const long i = std::min(s.nx - 1, long(double(px) / scale));
      const long j = std::min(s.ny - 1, long(double(mh - 1 - py) / scale));  // y up
      im.set(px, py, io::viridis((v[i * s.ny + j] - lo) / (hi - lo)));
    }
  for (int py = 0; py < im.height(); ++py)
    for (int b = 0; b < bar; ++b)
      im.set(mw + pad + b, py, io::viridis(1.0 - double(py) / double(im.height() - 1)));
  im.text(mw + pad + bar + pad, 0, fmt::format("{:.3g}", hi), 2);
  im.text(mw + pad + bar + pad, im.height() - 10, fmt::format("{:.3g}", lo), 2);
  im.write_png(path);
}

}  // namespace tessera::swe
