// A small RGB raster for tessera's pictures (lbm slices, swe quick-looks, the
// demo's plots): pixels, rectangles, lines, numeric labels in one 3x5 pixel
// font, the viridis-like colour map of the field images, and PNG output
// through io/png.hpp.
#pragma once
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace tessera::io {

struct Rgb {
  std::uint8_t r, g, b;
};

/// A perceptually ordered blue-green-yellow map (piecewise linear through
/// five points of viridis): t = 0 is dark purple, t = 1 yellow; t is clamped
/// to [0, 1] and NaN is drawn as 0.
Rgb viridis(double t);

class Image {
 public:
  /// Throws Error unless both sides are positive.
  Image(int width, int height, Rgb background = {255, 255, 255});
  int width() const { return w_; }
  int height() const { return h_; }
  /// Pixels outside the image are ignored.
  void set(int x, int y, Rgb c);
  Rgb at(int x, int y) const { return px_[static_cast<std::size_t>(y) * w_ + x]; }
  /// Both corners included, in either order.
  void fill_rect(int x0, int y0, int x1, int y1, Rgb c);
  /// A line `thickness` pixels wide (Bresenham, square pen).
  void line(int x0, int y0, int x1, int y1, Rgb c, int thickness = 1);
  /// Digits, letters (lower case as capitals but 'e' and 'x'), '.', '-', '+',
  /// '%', '=', '<', '>', ':' and space (anything else is blank),
  /// each glyph 3x5 pixels times `scale`, its top left corner at (x, y), the
  /// next glyph 4 x `scale` pixels to the right.
  void text(int x, int y, const std::string& s, int scale, Rgb c = {0, 0, 0});
  static int text_width(const std::string& s, int scale) { return int(s.size()) * 4 * scale; }
  /// PNG bytes (8-bit RGB).
  std::string encode_png() const;
  /// Writes the PNG atomically (io::write_png).
  void write_png(const std::filesystem::path& path) const;

 private:
  int w_, h_;
  std::vector<Rgb> px_;
};

}  // namespace tessera::io
