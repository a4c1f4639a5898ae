#include "io/raster.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "core/error.hpp"
#include "io/png.hpp"

namespace tessera::io {

static_assert(sizeof(Rgb) == 3, "Image rows are handed to the PNG encoder as packed RGB bytes");

namespace {

// 3x5 glyphs, one 3-bit mask per row, top row first (bit 2 = left column).
const unsigned char* glyph(char c) {
  static const unsigned char digits[10][5] = {
      {7, 5, 5, 5, 7}, {2, 6, 2, 2, 7}, {7, 1, 7, 4, 7}, {7, 1, 7, 1, 7}, {5, 5, 7, 1, 1},
      {7, 4, 7, 1, 7}, {7, 4, 7, 5, 7}, {7, 1, 1, 1, 1}, {7, 5, 7, 5, 7}, {7, 5, 7, 1, 7}};
  static const unsigned char dot[5] = {0, 0, 0, 0, 2}, minus[5] = {0, 0, 7, 0, 0},
                             e[5] = {7, 4, 7, 4, 7}, plus[5] = {0, 2, 7, 2, 0},
                             x[5] = {0, 5, 2, 5, 0}, pct[5] = {5, 1, 2, 4, 5},
                             blank[5] = {0, 0, 0, 0, 0};
  // capitals for labels (axes, units, times); lower case draws them too,
  // except 'e' and 'x', which numbers and sizes use in their own shapes
  static const unsigned char letters[26][5] = {
      {2, 5, 7, 5, 5}, {6, 5, 6, 5, 6}, {3, 4, 4, 4, 3}, {6, 5, 5, 5, 6}, {7, 4, 6, 4, 7},
      {7, 4, 6, 4, 4}, {3, 4, 5, 5, 3}, {5, 5, 7, 5, 5}, {7, 2, 2, 2, 7}, {1, 1, 1, 5, 2},
      {5, 5, 6, 5, 5}, {4, 4, 4, 4, 7}, {5, 7, 7, 5, 5}, {6, 5, 5, 5, 5}, {2, 5, 5, 5, 2},
      {6, 5, 6, 4, 4}, {2, 5, 5, 6, 3}, {6, 5, 6, 5, 5}, {3, 4, 2, 1, 6}, {7, 2, 2, 2, 2},
      {5, 5, 5, 5, 7}, {5, 5, 5, 5, 2}, {5, 5, 7, 7, 5}, {5, 5, 2, 5, 5}, {5, 5, 2, 2, 2},
      {7, 1, 2, 4, 7}};
  static const unsigned char equal[5] = {0, 7, 0, 7, 0}, less[5] = {1, 2, 4, 2, 1},
                             greater[5] = {4, 2, 1, 2, 4}, colon[5] = {0, 2, 0, 2, 0};
  if (c >= '0' && c <= '9') return digits[c - '0'];
  if (c >= 'A' && c <= 'Z') return letters[c - 'A'];
  if (c >= 'a' && c <= 'z' && c != 'e' && c != 'x') return letters[c - 'a'];
  switch (c) {
    case '=':
      return equal;
    case '<':
      return less;
    case '>':
      return greater;
    case ':':
      return colon;
    case '.':
      return dot;
    case '-':
      return minus;
    case 'e':
      return e;
    case '+':
      return plus;
    case 'x':
      return x;
    case '%':
      return pct;
    default:
      return blank;
  }
}

}  // namespace

Rgb viridis(double t) {
  static const double p[5][3] = {
      {68, 1, 84}, {59, 82, 139}, {33, 145, 140}, {94, 201, 98}, {253, 231, 37}};
  t = std::clamp(std::isnan(t) ? 0.0 : t, 0.0, 1.0) * 4;
  const int k = std::min(3, int(t));
  const double f = t - k;
  auto mix = [&](int c) {
    return static_cast<std::uint8_t>(p[k][c] + f * (p[k + 1][c] - p[k][c]) + 0.5);
  };
  return {mix(0), mix(1), mix(2)};
}

Image::Image(int width, int height, Rgb background) : w_(width), h_(height) {
  if (width <= 0 || height <= 0) throw Error("image: width and height must be positive");
  px_.assign(static_cast<std::size_t>(width) * static_cast<std::size_t>(height), background);
}

void Image::set(int x, int y, Rgb c) {
  if (x >= 0 && y >= 0 && x < w_ && y < h_) px_[static_cast<std::size_t>(y) * w_ + x] = c;
}

void Image::fill_rect(int x0, int y0, int x1, int y1, Rgb c) {
  for (int y = std::min(y0, y1); y <= std::max(y0, y1); ++y)
    for (int x = std::min(x0, x1); x <= std::max(x0, x1); ++x) set(x, y, c);
}

void Image::line(int x0, int y0, int x1, int y1, Rgb c, int thickness) {
  const int dx = std::abs(x1 - x0), dy = -std::abs(y1 - y0), sx = x0 < x1 ? 1 : -1,
            sy = y0 < y1 ? 1 : -1;
  const int lo = -(thickness - 1) / 2, hi = thickness / 2;
  int err = dx + dy;
  for (;;) {
    fill_rect(x0 + lo, y0 + lo, x0 + hi, y0 + hi, c);
    if (x0 == x1 && y0 == y1) break;
    const int e2 = 2 * err;
    if (e2 >= dy) err += dy, x0 += sx;
    if (e2 <= dx) err += dx, y0 += sy;
  }
}

void Image::text(int x, int y, const std::string& s, int scale, Rgb c) {
  for (char ch : s) {
    const unsigned char* g = glyph(ch);
    for (int r = 0; r < 5; ++r)
      for (int col = 0; col < 3; ++col)
        if (g[r] & (4 >> col))
          fill_rect(x + col * scale, y + r * scale, x + col * scale + scale - 1,
                    y + r * scale + scale - 1, c);
    x += 4 * scale;
  }
}

std::string Image::encode_png() const {
  return io::encode_png(w_, h_, 3, reinterpret_cast<const std::uint8_t*>(px_.data()));
}

void Image::write_png(const std::filesystem::path& path) const {
  io::write_png(path, w_, h_, 3, reinterpret_cast<const std::uint8_t*>(px_.data()));
}

}  // namespace tessera::io
