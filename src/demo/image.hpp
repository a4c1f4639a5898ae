// A small RGB raster for the demo's plots: lines, rectangles, numeric labels
// (3x5 glyphs), encoded as PNG with libpng.
#pragma once
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace tessera::demo {

struct Rgb {
  std::uint8_t r, g, b;
};

class Image {
 public:
  Image(int width, int height, Rgb background = {255, 255, 255});
  int width() const { return w_; }
  int height() const { return h_; }
  void set(int x, int y, Rgb c);
  Rgb at(int x, int y) const { return px_[static_cast<std::size_t>(y) * w_ + x]; }
  void fill_rect(int x0, int y0, int x1, int y1, Rgb c);
  /// A line `thickness` pixels wide (Bresenham, square pen).
  void line(int x0, int y0, int x1, int y1, Rgb c, int thickness = 1);
  /// Digits, '.', '-', '+', 'e', 'x', '%' and space, each glyph 3x5 pixels times `scale`.
  void text(int x, int y, const std::string& s, int scale, Rgb c = {0, 0, 0});
  static int text_width(const std::string& s, int scale) { return int(s.size()) * 4 * scale; }
  /// PNG bytes (8-bit RGB).
  std::string encode_png() const;
  /// Writes the PNG atomically.
  void write_png(const std::filesystem::path& path) const;

 private:
  int w_, h_;
  std::vector<Rgb> px_;
};

}  // namespace tessera::demo
