#include "demo/plot.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include <fmt/format.h>

#include "core/error.hpp"

namespace tessera::demo {

void plot_log_history(const std::filesystem::path& path, const std::vector<Series>& series,
                      double target) {
  double lo = INFINITY, hi = -INFINITY;
  std::size_t n = 0;
  for (const auto& s : series) {
    n = std::max(n, s.y.size());
    for (double v : s.y)
      if (v > 0 && std::isfinite(v)) lo = std::min(lo, v), hi = std::max(hi, v);
  }
  if (!(lo <= hi))
    throw Error(fmt::format("{}: nothing to plot (no positive finite value)", path.string()));
  if (target > 0) lo = std::min(lo, target), hi = std::max(hi, target);
  const int d0 = int(std::floor(std::log10(lo))),
            d1 = std::max(d0 + 1, int(std::ceil(std::log10(hi))));
  const int W = 640, H = 360, left = 64, right = 16, top = 12, bottom = 36;
  const int pw = W - left - right, ph = H - top - bottom;
  const double xmax = double(std::max<std::size_t>(n, 2) - 1);
  auto px = [&](double x) { return left + int(std::lround(x / xmax * pw)); };
  auto py = [&](double y) {
    return top + int(std::lround((double(d1) - std::log10(y)) / double(d1 - d0) * ph));
  };
  Image im(W, H);
  const Rgb grid{225, 225, 225}, axis{0, 0, 0};
  // decades: grid lines and labels (thinned to at most ~10 labels)
  const int label_every = std::max(1, (d1 - d0 + 9) / 10);
  for (int d = d0; d <= d1; ++d) {
    const int y = py(std::pow(10.0, d));
    im.line(left, y, left + pw, y, grid);
    if ((d - d0) % label_every == 0) {
      const std::string s = fmt::format("1e{}", d);
      im.text(left - 6 - Image::text_width(s, 2), y - 5, s, 2);
    }
  }
  // x ticks at a 1-2-5 step giving at most ~8 ticks
  double step = 1;
  for (double m :
       {1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0, 200.0, 500.0, 1000.0, 2000.0, 5000.0, 10000.0})
    if (xmax / m <= 8) {
      step = m;
      break;
    }
  for (double x = 0; x <= xmax + 1e-9; x += step) {
    const int X = px(x);
    im.line(X, top, X, top + ph, grid);
    const std::string s = fmt::format("{}", long(x));
    im.text(X - Image::text_width(s, 2) / 2, top + ph + 8, s, 2);
  }
  im.line(left, top, left, top + ph, axis);
  im.line(left, top + ph, left + pw, top + ph, axis);
  if (target > 0)
    for (int x = left; x < left + pw; x += 12)
      im.line(x, py(target), std::min(x + 6, left + pw), py(target), {214, 39, 40});
  for (const auto& s : series) {
    int lx = -1, ly = -1;
    for (std::size_t i = 0; i < s.y.size(); ++i) {
      if (!(s.y[i] > 0 && std::isfinite(s.y[i]))) {
        lx = -1;
        continue;
      }
      const int X = px(double(i)), Y = py(s.y[i]);
      if (lx >= 0) im.line(lx, ly, X, Y, s.colour, 2);
      if (s.y.size() <= 60) im.fill_rect(X - 2, Y - 2, X + 2, Y + 2, s.colour);
      lx = X, ly = Y;
    }
  }
  im.write_png(path);
}

}  // namespace tessera::demo
