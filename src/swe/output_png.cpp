// PNG quick-look (libpng): the field, a colour bar and its min/max labels.
#include <png.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "swe/output.hpp"

namespace tessera::swe {

namespace {

struct Rgb {
  unsigned char r, g, b;
};

// Viridis-like map through five control points.
Rgb colour(double t) {
  static const double p[5][3] = {{68, 1, 84}, {59, 82, 139}, {33, 145, 140}, {94, 201, 98}, {253, 231, 37}};
  t = std::clamp(std::isfinite(t) ? t : 0.0, 0.0, 1.0) * 4;
  const int k = std::min(3, int(t));
  const double f = t - k;
  auto mix = [&](int c) { return static_cast<unsigned char>(p[k][c] + f * (p[k + 1][c] - p[k][c]) + 0.5); };
  return {mix(0), mix(1), mix(2)};
}

// 3x5 glyphs for number labels, one row per 3-bit mask.
const unsigned char* glyph(char c) {
  static const unsigned char digits[10][5] = {{7, 5, 5, 5, 7}, {2, 6, 2, 2, 7}, {7, 1, 7, 4, 7}, {7, 1, 7, 1, 7},
                                              {5, 5, 7, 1, 1}, {7, 4, 7, 1, 7}, {7, 4, 7, 5, 7}, {7, 1, 1, 1, 1},
                                              {7, 5, 7, 5, 7}, {7, 5, 7, 1, 7}};
  static const unsigned char dot[5] = {0, 0, 0, 0, 2}, minus[5] = {0, 0, 7, 0, 0},
                             e[5] = {7, 4, 7, 4, 7}, plus[5] = {0, 2, 7, 2, 0}, blank[5] = {0, 0, 0, 0, 0};
  if (c >= '0' && c <= '9') return digits[c - '0'];
  return c == '.' ? dot : c == '-' ? minus : c == 'e' ? e : c == '+' ? plus : blank;
}

struct Image {
  int w, h;
  std::vector<Rgb> px;
  void set(int x, int y, Rgb c) {
    if (x >= 0 && y >= 0 && x < w && y < h) px[static_cast<std::size_t>(y) * w + x] = c;
  }
  void text(int x, int y, const std::string& s, int scale) {
    for (char c : s) {
      const unsigned char* g = glyph(c);
      for (int r = 0; r < 5; ++r)
        for (int col = 0; col < 3; ++col)
          if (g[r] & (4 >> col))
            for (int a = 0; a < scale; ++a)
              for (int b = 0; b < scale; ++b) set(x + col * scale + a, y + r * scale + b, {0, 0, 0});
      x += 4 * scale;
    }
  }
};

void png_append(png_structp p, png_bytep data, png_size_t n) {
  auto* out = static_cast<std::string*>(png_get_io_ptr(p));
  out->append(reinterpret_cast<const char*>(data), n);
}

std::string encode(const Image& im) {
  std::string out;
  png_structp p = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
  png_infop info = p ? png_create_info_struct(p) : nullptr;
  if (!p || !info) throw Error("libpng: cannot create a writer");
  if (setjmp(png_jmpbuf(p))) {
    png_destroy_write_struct(&p, &info);
    throw Error("libpng: encoding failed");
  }
  png_set_write_fn(p, &out, png_append, nullptr);
  png_set_IHDR(p, info, im.w, im.h, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info(p, info);
  for (int y = 0; y < im.h; ++y)
    png_write_row(p, reinterpret_cast<png_const_bytep>(&im.px[static_cast<std::size_t>(y) * im.w]));
  png_write_end(p, nullptr);
  png_destroy_write_struct(&p, &info);
  return out;
}

}  // namespace

void write_png(const std::string& path, const Snapshot& s, const std::string& field) {
  if (field != "depth" && field != "eta") throw UsageError("PNG field must be depth or eta");
  const std::size_t n = static_cast<std::size_t>(s.nx * s.ny);
  std::vector<double> v(n);
  for (std::size_t k = 0; k < n; ++k) v[k] = field == "depth" ? s.h[k] : s.eta(k);
  double lo = *std::min_element(v.begin(), v.end()), hi = *std::max_element(v.begin(), v.end());
  if (!(hi > lo)) hi = lo + 1;
  // at most 1024 pixels per side (nearest cell), at least 256 on the long side
  const double scale = std::min(1024.0 / double(std::max(s.nx, s.ny)), std::max(1.0, 256.0 / double(std::max(s.nx, s.ny))));
  const int mw = std::max(1, int(double(s.nx) * scale)), mh = std::max(1, int(double(s.ny) * scale));
  const int bar = 16, pad = 8, label = 4 * 2 * 10;
  Image im{mw + pad + bar + pad + label, std::max(mh, 60), {}};
  im.px.assign(static_cast<std::size_t>(im.w) * im.h, {255, 255, 255});
  for (int py = 0; py < mh; ++py)
    for (int px = 0; px < mw; ++px) {
      const long i = std::min(s.nx - 1, long(double(px) / scale));
      const long j = std::min(s.ny - 1, long(double(mh - 1 - py) / scale));  // y up
      im.set(px, py, colour((v[i * s.ny + j] - lo) / (hi - lo)));
    }
  for (int py = 0; py < im.h; ++py)
    for (int b = 0; b < bar; ++b) im.set(mw + pad + b, py, colour(1.0 - double(py) / double(im.h - 1)));
  im.text(mw + pad + bar + pad, 0, fmt::format("{:.3g}", hi), 2);
  im.text(mw + pad + bar + pad, im.h - 10, fmt::format("{:.3g}", lo), 2);
  write_file_atomic(path, encode(im));
}

}  // namespace tessera::swe
