// A small RGB raster for tessera's pictures (lbm slices, swe quick-looks, the
// demo's plots): pixels, rectangles, lines, anti-aliased text in the
// system's sans-serif face, the viridis-like colour map of the field images,
// and PNG output through io/png.hpp. Figures with axes: io/figure.hpp.
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
  /// Where a text's x lies: its start, its centre or its end.
  enum class Align { left, centre, right };
  /// UTF-8 text in the system's sans-serif face (fontconfig, FreeType),
  /// anti-aliased, `size` pixels per em, the line's top at y. Without a
  /// font (FreeType or fontconfig absent at build time, or no font
  /// installed: Debian's fonts-dejavu-core) nothing is drawn; has_font()
  /// says which.
  void text(int x, int y, const std::string& s, int size, Rgb c = {0, 0, 0},
            Align align = Align::left);
  /// The width `text` draws s in, in pixels (0 without a font).
  static int text_width(const std::string& s, int size);
  static bool has_font();
  /// PNG bytes (8-bit RGB).
  std::string encode_png() const;
  /// Writes the PNG atomically (io::write_png).
  void write_png(const std::filesystem::path& path) const;

 private:
  int w_, h_;
  std::vector<Rgb> px_;
};

}  // namespace tessera::io
