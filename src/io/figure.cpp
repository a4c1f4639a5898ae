#include "io/figure.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include <fmt/format.h>

#include "core/error.hpp"

namespace tessera::io {

std::vector<double> nice_ticks(double lo, double hi, int max, double* step) {
  std::vector<double> t;
  if (!std::isfinite(lo) || !std::isfinite(hi) || max < 1) return t;
  if (hi < lo) std::swap(lo, hi);
  // a span of a few ulps (a lake's level in double) has no ticks of its own:
  // at least 1e-9 of the values' magnitude, so that the tick count below is
  // an integer of at most about `max`
  const double span = std::max({hi - lo, 1e-9 * std::max(std::fabs(lo), std::fabs(hi)), 1e-300});
  const double raw = span / double(max), mag = std::pow(10.0, std::floor(std::log10(raw)));
  double s = 10 * mag;
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * mag >= raw) {
      s = m * mag;
      break;
    }
  // k m / 10^-e where the magnitude is below 1 (3 x 0.2 is 0.6000000000000001,
  // 6 / 10 is 0.6); an exact 0, never -0. The count is bounded, not the
  // condition k s <= hi: past 2^53, k + 1 is k.
  const double m = s / mag, inv = mag < 1 ? std::round(1 / mag) : 0;
  const double k0 = std::ceil(lo / s - 1e-9), k1 = std::floor(hi / s + 1e-9);
  for (long i = 0; double(i) <= k1 - k0 && i <= long(max) + 2; ++i) {
    const double k = k0 + double(i);
    t.push_back(std::fabs(k) < 0.5 ? 0.0 : inv > 0 ? k * m / inv : k * m * mag);
  }
  if (step) *step = s;
  return t;
}

std::string tick_label(double v, double step) {
  if (!std::isfinite(v) || !(step > 0)) return fmt::format("{:g}", v);
  const double a = std::fabs(v);
  // whole numbers while the step is (UTM eastings: 500200, not 5e+05)
  if (step >= 1 && a < 1e15) return fmt::format("{:.0f}", v);
  if (step >= 1e-4 && a < 1e15) {
    const int decimals = int(std::ceil(-std::log10(step) - 1e-9));
    return fmt::format("{:.{}f}", v, std::max(0, decimals));
  }
  // tiny steps: as many significant digits as tell neighbours apart
  const int digits =
      int(std::floor(std::log10(std::max(a, step)))) - int(std::floor(std::log10(step))) + 1;
  return fmt::format("{:.{}g}", v, std::clamp(digits, 1, 17));
}

Figure draw_field(const FieldPlot& p) {
  if (p.nx < 1 || p.ny < 1 || !p.value) throw Error("figure: a field needs cells and values");
  using F = FigureText;
  const double lo = p.lo, hi = p.hi > p.lo ? p.hi : p.lo + 1;
  const long n = std::max(p.nx, p.ny);
  const double ppc = std::min(double(p.long_side_max) / double(n),
                              std::max(1.0, double(p.long_side_min) / double(n)));
  const int mw = std::max(1, int(double(p.nx) * ppc)), mh = std::max(1, int(double(p.ny) * ppc));
  double xs = 1, ys = 1, vs = 1;
  const auto xt = nice_ticks(p.x0, p.x1, std::max(3, mw / 64), &xs);
  const auto yt = nice_ticks(p.y0, p.y1, std::max(3, mh / 60), &ys);
  const auto vt = nice_ticks(lo, hi, std::max(4, mh / 40), &vs);
  int yw = 0, vw = 0;
  for (double v : yt) yw = std::max(yw, Image::text_width(tick_label(v, ys), F::tick));
  for (double v : vt) vw = std::max(vw, Image::text_width(tick_label(v, vs), F::tick));
  const int tick = 4, gap = 4, line = F::label + 6;
  const int left = std::max(yw + tick + 2 * gap, Image::text_width(p.y_label, F::label) / 2 + gap);
  const int top = (p.title.empty() ? 0 : F::title + 10) + line;  // title, then the y axis title
  const int bar = 16, bar_x = left + mw + 3 * gap;
  const int right = 3 * gap + std::max(bar + tick + vw + 3 * gap,
                                       Image::text_width(p.value_label, F::label) + 2 * gap);
  const int bottom = tick + gap + F::tick + 6 + line;
  const int width = std::max(left + mw + right, Image::text_width(p.title, F::title) + 4 * gap);
  Image im(width, top + mh + bottom);
  const Rgb black{0, 0, 0};
  for (int py = 0; py < mh; ++py)
    for (int px = 0; px < mw; ++px) {
      const long i = std::min(p.nx - 1, long(double(px) / ppc));
      const long j = std::min(p.ny - 1, long(double(mh - 1 - py) / ppc));  // y up
      const double v = p.value(i, j);
      im.set(left + px, top + py,
             std::isnan(v) ? p.masked : viridis(std::clamp((v - lo) / (hi - lo), 0.0, 1.0)));
    }
  // the frame, ticks and labels
  im.line(left - 1, top - 1, left + mw, top - 1, black);
  im.line(left - 1, top + mh, left + mw, top + mh, black);
  im.line(left - 1, top - 1, left - 1, top + mh, black);
  im.line(left + mw, top - 1, left + mw, top + mh, black);
  for (double x : xt) {
    const int X = left + int(std::lround((x - p.x0) / (p.x1 - p.x0) * mw));
    im.line(X, top + mh, X, top + mh + tick, black);
    im.text(X, top + mh + tick + gap, tick_label(x, xs), F::tick, black, Image::Align::centre);
  }
  for (double y : yt) {
    const int Y = top + mh - int(std::lround((y - p.y0) / (p.y1 - p.y0) * mh));
    im.line(left - 1 - tick, Y, left - 1, Y, black);
    im.text(left - 1 - tick - gap, Y - F::tick * 2 / 3, tick_label(y, ys), F::tick, black,
            Image::Align::right);
  }
  im.text(left + mw / 2, top + mh + tick + gap + F::tick + 6, p.x_label, F::label, black,
          Image::Align::centre);
  im.text(left, top - line, p.y_label, F::label, black, Image::Align::centre);
  if (!p.title.empty()) im.text(width / 2, 4, p.title, F::title, black, Image::Align::centre);
  // the colour bar: the scale's ends at its ends
  for (int py = 0; py < mh; ++py)
    for (int b = 0; b < bar; ++b)
      im.set(bar_x + b, top + py, viridis(1.0 - double(py) / double(std::max(1, mh - 1))));
  im.line(bar_x - 1, top - 1, bar_x + bar, top - 1, black);
  im.line(bar_x - 1, top + mh, bar_x + bar, top + mh, black);
  im.line(bar_x - 1, top - 1, bar_x - 1, top + mh, black);
  im.line(bar_x + bar, top - 1, bar_x + bar, top + mh, black);
  for (double v : vt) {
    const int Y = top + mh - int(std::lround((v - lo) / (hi - lo) * mh));
    im.line(bar_x + bar, Y, bar_x + bar + tick, Y, black);
    im.text(bar_x + bar + tick + gap, Y - F::tick * 2 / 3, tick_label(v, vs), F::tick, black);
  }
  im.text(bar_x, top - line, p.value_label, F::label, black);
  return {std::move(im), {left, top, mw, mh}, {bar_x, top, bar, mh}};
}

}  // namespace tessera::io
