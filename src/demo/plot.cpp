#include "demo/plot.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "core/error.hpp"
#include "io/figure.hpp"

namespace tessera::demo {

void plot_log_history(const std::filesystem::path& path, const std::vector<Series>& series,
                      double target, const PlotLabels& labels) {
  using F = io::FigureText;
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
  const int label_every = std::max(1, (d1 - d0 + 9) / 10);  // at most ~10 decade labels
  int yw = 0;
  for (int d = d0; d <= d1; d += label_every)
    yw = std::max(yw, Image::text_width(fmt::format("1e{}", d), F::tick));
  const int W = 720, H = 420, left = yw + 14, right = 16;
  const int top = (labels.title.empty() ? 8 : F::title + 14) + F::label + 6;
  const int bottom = F::tick + 10 + F::label + 10;
  const int pw = W - left - right, ph = H - top - bottom;
  const double xmax = double(std::max<std::size_t>(n, 2) - 1);
  auto px = [&](double x) { return left + int(std::lround(x / xmax * pw)); };
  auto py = [&](double y) {
    return top + int(std::lround((double(d1) - std::log10(y)) / double(d1 - d0) * ph));
  };
  Image im(W, H);
  const Rgb grid{225, 225, 225}, axis{0, 0, 0}, red{214, 39, 40};
  for (int d = d0; d <= d1; ++d) {  // decades: grid lines and labels
    const int y = py(std::pow(10.0, d));
    im.line(left, y, left + pw, y, grid);
    if ((d - d0) % label_every == 0)
      im.text(left - 6, y - F::tick * 2 / 3, fmt::format("1e{}", d), F::tick, axis,
              Image::Align::right);
  }
  double step = 1;
  for (double x : io::nice_ticks(0, xmax, 8, &step)) {
    if (std::fabs(x - std::round(x)) > 1e-9) continue;  // whole iterations only
    const int X = px(x);
    im.line(X, top, X, top + ph, grid);
    im.text(X, top + ph + 6, fmt::format("{}", long(std::lround(x))), F::tick, axis,
            Image::Align::centre);
  }
  im.line(left, top, left, top + ph, axis);
  im.line(left, top + ph, left + pw, top + ph, axis);
  im.text(left + pw / 2, top + ph + F::tick + 12, labels.x_label, F::label, axis,
          Image::Align::centre);
  im.text(left - yw - 10, top - F::label - 6, labels.y_label, F::label, axis);
  if (!labels.title.empty()) im.text(W / 2, 6, labels.title, F::title, axis, Image::Align::centre);
  if (target > 0)
    for (int x = left; x < left + pw; x += 12)
      im.line(x, py(target), std::min(x + 6, left + pw), py(target), red);
  for (const auto& s : series) {
    int lx = -1, ly = -1;
    for (std::size_t i = 0; i < s.y.size(); ++i) {
      if (!(s.y[i] > 0 && std::isfinite(s.y[i]))) {
        lx = -1;
        continue;
      }
      const int X = px(double(i)), Y = py(s.y[i]);
      if (s.line && lx >= 0) im.line(lx, ly, X, Y, s.colour, 2);
      if (s.markers || s.y.size() <= 60) im.fill_rect(X - 3, Y - 3, X + 3, Y + 3, s.colour);
      lx = X, ly = Y;
    }
  }
  // the legend inside the axes, on white
  std::vector<std::pair<std::string, const Series*>> entries;
  for (const auto& s : series)
    if (!s.name.empty()) entries.emplace_back(s.name, &s);
  if (target > 0 && !labels.target.empty()) entries.emplace_back(labels.target, nullptr);
  if (!entries.empty()) {
    int tw = 0;
    for (const auto& e : entries) tw = std::max(tw, Image::text_width(e.first, F::tick));
    const int row = F::tick + 8, bw = tw + 44, bh = int(entries.size()) * row + 8;
    // the corner of the axes that hides the fewest points (top right first)
    int bx = left + pw - bw - 8, by = top + 8, fewest = -1;
    for (const auto& [cx, cy] : {std::pair{left + pw - bw - 8, top + 8},
                                 {left + 8, top + ph - bh - 8},
                                 {left + pw - bw - 8, top + ph - bh - 8},
                                 {left + 8, top + 8}}) {
      int hidden = 0;
      for (const auto& s : series)
        for (std::size_t i = 0; i < s.y.size(); ++i) {
          if (!(s.y[i] > 0 && std::isfinite(s.y[i]))) continue;
          const int X = px(double(i)), Y = py(s.y[i]);
          hidden += X >= cx - 4 && X <= cx + bw + 4 && Y >= cy - 4 && Y <= cy + bh + 4;
        }
      if (fewest < 0 || hidden < fewest) fewest = hidden, bx = cx, by = cy;
    }
    im.fill_rect(bx, by, bx + bw, by + bh, {255, 255, 255});
    im.line(bx, by, bx + bw, by, grid), im.line(bx, by + bh, bx + bw, by + bh, grid);
    im.line(bx, by, bx, by + bh, grid), im.line(bx + bw, by, bx + bw, by + bh, grid);
    for (std::size_t k = 0; k < entries.size(); ++k) {
      const int y = by + 6 + int(k) * row + row / 2 - 2;
      if (const Series* s = entries[k].second) {
        if (s->line) im.line(bx + 8, y, bx + 32, y, s->colour, 2);
        if (s->markers || s->y.size() <= 60)
          im.fill_rect(bx + 17, y - 3, bx + 23, y + 3, s->colour);
      } else {
        im.line(bx + 8, y, bx + 14, y, red), im.line(bx + 20, y, bx + 26, y, red);
      }
      im.text(bx + 38, y - F::tick * 2 / 3, entries[k].first, F::tick, axis);
    }
  }
  im.write_png(path);
}

}  // namespace tessera::demo
