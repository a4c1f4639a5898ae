#include "io/raster.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include <mutex>

#if TESSERA_HAVE_FREETYPE
#include <fontconfig/fontconfig.h>
#include <ft2build.h>
#include FT_FREETYPE_H
#endif

#include "core/error.hpp"
#include "io/png.hpp"

namespace tessera::io {

static_assert(sizeof(Rgb) == 3, "Image rows are handed to the PNG encoder as packed RGB bytes");

namespace {

// The text face: the system's sans-serif through fontconfig, rendered by
// FreeType (anti-aliased, any size, UTF-8). Written by hand is only the glue:
// no Debian library draws text into a plain RGB buffer without a graphics
// stack. Loaded once; FreeType faces are not thread-safe, so drawing is
// serialised.
class Face {
 public:
  static Face& get() {
    static Face f;
    return f;
  }
  bool ok() const { return face_ != nullptr; }
  std::mutex& mutex() { return mutex_; }
#if TESSERA_HAVE_FREETYPE
  ~Face() {
    if (face_) FT_Done_Face(face_);
    if (lib_) FT_Done_FreeType(lib_);
  }
  /// Lays out s at `px` pixels per em and hands each covered pixel to
  /// put(x, y, alpha) (x from the pen's start, y from the line's top);
  /// returns the width.
  template <class Put>
  int render(const std::string& s, int px, Put&& put) {
    if (!ok() || px <= 0) return 0;
    FT_Set_Pixel_Sizes(face_, 0, FT_UInt(px));
    const int ascender = int(face_->size->metrics.ascender >> 6);
    int pen = 0;
    for (std::size_t k = 0; k < s.size();) {
      const char32_t code = next_utf8(s, k);
      // outlines only: a face's embedded bitmap strikes may be 1-bit
      if (FT_Load_Char(face_, code, FT_LOAD_RENDER | FT_LOAD_NO_BITMAP) != 0) continue;
      const FT_GlyphSlot g = face_->glyph;
      pen += int(g->advance.x >> 6);
      if (g->bitmap.pixel_mode != FT_PIXEL_MODE_GRAY || g->bitmap.pitch <= 0) continue;
      const int start = pen - int(g->advance.x >> 6);
      for (unsigned r = 0; r < g->bitmap.rows; ++r)
        for (unsigned c = 0; c < g->bitmap.width; ++c) {
          const unsigned char a = g->bitmap.buffer[r * unsigned(g->bitmap.pitch) + c];
          if (a) put(start + g->bitmap_left + int(c), ascender - g->bitmap_top + int(r), a);
        }
    }
    return pen;
  }

 private:
  Face() {
    std::string file;
    int index = 0;
    if (FcInit()) {
      FcPattern* pat = FcNameParse(reinterpret_cast<const FcChar8*>("sans-serif"));
      FcConfigSubstitute(nullptr, pat, FcMatchPattern);
      FcDefaultSubstitute(pat);
      FcResult res;
      if (FcPattern* m = FcFontMatch(nullptr, pat, &res)) {
        FcChar8* f = nullptr;
        if (FcPatternGetString(m, FC_FILE, 0, &f) == FcResultMatch)
          file = reinterpret_cast<char*>(f);
        FcPatternGetInteger(m, FC_INDEX, 0, &index);  // a face of a collection (.ttc)
        FcPatternDestroy(m);
      }
      FcPatternDestroy(pat);
    }
    if (file.empty() || FT_Init_FreeType(&lib_) != 0) return;
    if (FT_New_Face(lib_, file.c_str(), index, &face_) != 0) face_ = nullptr;
  }
  // the code point at s[k] (a malformed sequence: '?', one byte), k moved on
  static char32_t next_utf8(const std::string& s, std::size_t& k) {
    const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(s[i]); };
    const unsigned char c = byte(k);
    const int n = c < 0x80 ? 0 : (c >> 5) == 6 ? 1 : (c >> 4) == 14 ? 2 : (c >> 3) == 30 ? 3 : -1;
    bool ok = n >= 0 && k + std::size_t(n) < s.size();
    for (int i = 1; ok && i <= n; ++i) ok = (byte(k + std::size_t(i)) >> 6) == 2;
    if (!ok) {
      ++k;
      return U'?';
    }
    char32_t v = n == 0 ? c : char32_t(c & (0x3f >> n));
    for (int i = 1; i <= n; ++i) v = (v << 6) | (byte(k + std::size_t(i)) & 0x3f);
    k += std::size_t(n) + 1;
    return v;
  }
  FT_Library lib_ = nullptr;
  FT_Face face_ = nullptr;
#else
  template <class Put>
  int render(const std::string&, int, Put&&) {
    return 0;
  }

 private:
  Face() = default;
  void* face_ = nullptr;
#endif
  std::mutex mutex_;
};

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

void Image::text(int x, int y, const std::string& s, int size, Rgb c, Align align) {
  Face& f = Face::get();
  std::lock_guard<std::mutex> lock(f.mutex());
  if (align != Align::left) {
    const int w = f.render(s, size, [](int, int, unsigned char) {});
    x -= align == Align::centre ? w / 2 : w;
  }
  f.render(s, size, [&](int gx, int gy, unsigned char a) {
    const int X = x + gx, Y = y + gy;
    if (X < 0 || Y < 0 || X >= w_ || Y >= h_) return;
    Rgb& p = px_[static_cast<std::size_t>(Y) * w_ + X];
    auto mix = [a](std::uint8_t bg, std::uint8_t fg) {
      return static_cast<std::uint8_t>((bg * (255 - a) + fg * a + 127) / 255);
    };
    p = {mix(p.r, c.r), mix(p.g, c.g), mix(p.b, c.b)};
  });
}

int Image::text_width(const std::string& s, int size) {
  Face& f = Face::get();
  std::lock_guard<std::mutex> lock(f.mutex());
  return f.render(s, size, [](int, int, unsigned char) {});
}

bool Image::has_font() { return Face::get().ok(); }

std::string Image::encode_png() const {
  return io::encode_png(w_, h_, 3, reinterpret_cast<const std::uint8_t*>(px_.data()));
}

void Image::write_png(const std::filesystem::path& path) const {
  io::write_png(path, w_, h_, 3, reinterpret_cast<const std::uint8_t*>(px_.data()));
}

}  // namespace tessera::io
