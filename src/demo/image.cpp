#include "demo/image.hpp"

#include <png.h>

#include <algorithm>
#include <cstdlib>

#include "core/atomic_file.hpp"
#include "core/error.hpp"

namespace tessera::demo {

namespace {

// 3x5 glyphs, one 3-bit mask per row (bit 2 = left column).
const unsigned char* glyph(char c) {
  static const unsigned char digits[10][5] = {{7, 5, 5, 5, 7}, {2, 6, 2, 2, 7}, {7, 1, 7, 4, 7}, {7, 1, 7, 1, 7},
                                              {5, 5, 7, 1, 1}, {7, 4, 7, 1, 7}, {7, 4, 7, 5, 7}, {7, 1, 1, 1, 1},
                                              {7, 5, 7, 5, 7}, {7, 5, 7, 1, 7}};
  static const unsigned char dot[5] = {0, 0, 0, 0, 2}, minus[5] = {0, 0, 7, 0, 0}, e[5] = {7, 4, 7, 4, 7},
                             plus[5] = {0, 2, 7, 2, 0}, x[5] = {0, 5, 2, 5, 0}, pct[5] = {5, 1, 2, 4, 5},
                             blank[5] = {0, 0, 0, 0, 0};
  if (c >= '0' && c <= '9') return digits[c - '0'];
  switch (c) {
    case '.': return dot;
    case '-': return minus;
    case 'e': return e;
    case '+': return plus;
    case 'x': return x;
    case '%': return pct;
    default: return blank;
  }
}

void append(png_structp p, png_bytep data, png_size_t n) {
  static_cast<std::string*>(png_get_io_ptr(p))->append(reinterpret_cast<const char*>(data), n);
}

}  // namespace

Image::Image(int width, int height, Rgb background)
    : w_(width), h_(height), px_(static_cast<std::size_t>(width) * static_cast<std::size_t>(height), background) {
  if (width <= 0 || height <= 0) throw Error("demo image: width and height must be positive");
}

void Image::set(int x, int y, Rgb c) {
  if (x >= 0 && y >= 0 && x < w_ && y < h_) px_[static_cast<std::size_t>(y) * w_ + x] = c;
}

void Image::fill_rect(int x0, int y0, int x1, int y1, Rgb c) {
  for (int y = std::min(y0, y1); y <= std::max(y0, y1); ++y)
    for (int x = std::min(x0, x1); x <= std::max(x0, x1); ++x) set(x, y, c);
}

void Image::line(int x0, int y0, int x1, int y1, Rgb c, int thickness) {
  const int dx = std::abs(x1 - x0), dy = -std::abs(y1 - y0), sx = x0 < x1 ? 1 : -1, sy = y0 < y1 ? 1 : -1;
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
        if (g[r] & (4 >> col)) fill_rect(x + col * scale, y + r * scale, x + col * scale + scale - 1, y + r * scale + scale - 1, c);
    x += 4 * scale;
  }
}

std::string Image::encode_png() const {
  std::string out;
  png_structp p = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
  png_infop info = p ? png_create_info_struct(p) : nullptr;
  if (!p || !info) {
    png_destroy_write_struct(&p, info ? &info : nullptr);
    throw Error("libpng: cannot create a PNG writer");
  }
  if (setjmp(png_jmpbuf(p))) {
    png_destroy_write_struct(&p, &info);
    throw Error("libpng: encoding a demo plot failed");
  }
  png_set_write_fn(p, &out, append, nullptr);
  png_set_IHDR(p, info, static_cast<png_uint_32>(w_), static_cast<png_uint_32>(h_), 8, PNG_COLOR_TYPE_RGB,
               PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info(p, info);
  for (int y = 0; y < h_; ++y)
    png_write_row(p, reinterpret_cast<png_const_bytep>(&px_[static_cast<std::size_t>(y) * w_]));
  png_write_end(p, nullptr);
  png_destroy_write_struct(&p, &info);
  return out;
}

void Image::write_png(const std::filesystem::path& path) const { write_file_atomic(path, encode_png()); }

}  // namespace tessera::demo
