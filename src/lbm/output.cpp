#include "lbm/output.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include <fmt/format.h>

#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "io/vti.hpp"
#include "lbm/kernels/lbm_flags.h"

#if TESSERA_LBM_HAVE_PNG
#include <png.h>
#endif

namespace tessera::lbm {

void write_vti(const std::filesystem::path& path, const Fields& f) {
  const Grid& g = f.grid;
  const std::size_t N = f.rho.size();
  io::VtiArray rho{"density", 1, {}, std::vector<float>(N)}, u{"velocity", 3, {}, std::vector<float>(3 * N)};
  for (std::size_t n = 0; n < N; ++n) {
    rho.f32[n] = float(f.rho[n]);
    u.f32[3 * n] = float(f.ux[n]);
    u.f32[3 * n + 1] = float(f.uy[n]);
    u.f32[3 * n + 2] = float(f.uz[n]);
  }
  io::VtiImage im;
  im.extent = {g.nx - 1, g.ny - 1, g.nz - 1};  // one point per cell centre
  im.active_scalars = "density";
  im.active_vectors = "velocity";
  im.arrays.push_back(std::move(rho));
  im.arrays.push_back(std::move(u));
  io::write_vti(path, im);
}

void write_pvd(const std::filesystem::path& path, const std::vector<std::pair<double, std::string>>& entries) {
  io::write_pvd(path, entries);
}

SliceQuantity parse_slice_quantity(const std::string& s) {
  if (s == "speed") return SliceQuantity::speed;
  if (s == "density" || s == "rho") return SliceQuantity::density;
  if (s == "ux") return SliceQuantity::ux;
  if (s == "uy") return SliceQuantity::uy;
  if (s == "uz") return SliceQuantity::uz;
  throw UsageError("unknown slice quantity '" + s + "' (speed, density, ux, uy, uz)");
}

bool png_available() { return TESSERA_LBM_HAVE_PNG != 0; }

namespace {

struct Rgb {
  std::uint8_t r, g, b;
};
// A perceptually ordered blue-green-yellow map (piecewise linear, viridis-like).
Rgb colour(double t) {
  static const double stops[5][3] = {{68, 1, 84}, {59, 82, 139}, {33, 145, 140}, {94, 201, 98}, {253, 231, 37}};
  t = std::clamp(t, 0.0, 1.0) * 4.0;
  const int k = std::min(3, int(t));
  const double a = t - k;
  auto mix = [&](int c) { return std::uint8_t(std::lround(stops[k][c] * (1 - a) + stops[k + 1][c] * a)); };
  return {mix(0), mix(1), mix(2)};
}

// 3x5 pixel glyphs for the range labels: "0123456789.-e+"
const char* glyph(char c) {
  static const char* digits[] = {"111101101101111", "010110010010111", "111001111100111", "111001111001111",
                                 "101101111001001", "111100111001111", "111100111101111", "111001001001001",
                                 "111101111101111", "111101111001111"};
  if (c >= '0' && c <= '9') return digits[c - '0'];
  if (c == '.') return "000000000000010";
  if (c == '-') return "000000111000000";
  if (c == '+') return "000010111010000";
  if (c == 'e') return "000111111100111";
  return "000000000000000";
}

struct Image {
  int w, h;
  std::vector<std::uint8_t> px;
  void set(int x, int y, Rgb c) {
    if (x < 0 || y < 0 || x >= w || y >= h) return;
    std::uint8_t* p = &px[3 * (std::size_t(y) * w + x)];
    p[0] = c.r;
    p[1] = c.g;
    p[2] = c.b;
  }
  void text(int x, int y, const std::string& s, int scale) {
    for (char ch : s) {
      const char* gph = glyph(ch);
      for (int r = 0; r < 5; ++r)
        for (int c = 0; c < 3; ++c)
          if (gph[r * 3 + c] == '1')
            for (int a = 0; a < scale; ++a)
              for (int b = 0; b < scale; ++b) set(x + c * scale + b, y + r * scale + a, {255, 255, 255});
      x += 4 * scale;
    }
  }
};

}  // namespace

std::pair<double, double> write_png_slice(const std::filesystem::path& path, const Fields& f,
                                          const std::vector<std::uint8_t>& flags, long z, SliceQuantity q) {
#if TESSERA_LBM_HAVE_PNG
  const Grid& g = f.grid;
  z = std::clamp(z, 0L, g.nz - 1);
  auto value = [&](std::size_t n) {
    switch (q) {
      case SliceQuantity::density: return f.rho[n];
      case SliceQuantity::ux: return f.ux[n];
      case SliceQuantity::uy: return f.uy[n];
      case SliceQuantity::uz: return f.uz[n];
      default: return std::sqrt(f.ux[n] * f.ux[n] + f.uy[n] * f.uy[n] + f.uz[n] * f.uz[n]);
    }
  };
  auto wall = [&](std::size_t n) {
    const int t = flags[n] & TS_LBM_TYPE_MASK;
    return t == TS_LBM_WALL || t == TS_LBM_MOVING;
  };
  double lo = INFINITY, hi = -INFINITY;
  for (long y = 0; y < g.ny; ++y)
    for (long x = 0; x < g.nx; ++x) {
      const std::size_t n = std::size_t(x + g.nx * (y + g.ny * z));
      if (wall(n) || !std::isfinite(value(n))) continue;
      lo = std::min(lo, value(n));
      hi = std::max(hi, value(n));
    }
  if (!(lo <= hi)) lo = hi = 0;
  const double span = hi > lo ? hi - lo : 1.0;
  // scale small lattices up so that the labels fit
  const int scale = int(std::max<long>(1, 256 / std::max(g.nx, g.ny)));
  const int bar = 24 * std::max(1, scale / 2), pad = 8, label_h = 5 * 2 + 4;
  Image img{int(g.nx) * scale + pad + bar + pad, int(g.ny) * scale + 2 * label_h, {}};
  img.px.assign(std::size_t(img.w) * img.h * 3, 0);
  for (long y = 0; y < g.ny; ++y)
    for (long x = 0; x < g.nx; ++x) {
      const std::size_t n = std::size_t(x + g.nx * (y + g.ny * z));
      const Rgb c = wall(n) ? Rgb{128, 128, 128} : colour((value(n) - lo) / span);
      for (int a = 0; a < scale; ++a)
        for (int b = 0; b < scale; ++b)  // y up: row 0 at the bottom
          img.set(int(x) * scale + b, label_h + int(g.ny - 1 - y) * scale + a, c);
    }
  const int bx = int(g.nx) * scale + pad, bh = int(g.ny) * scale;
  for (int r = 0; r < bh; ++r)
    for (int c = 0; c < bar; ++c) img.set(bx + c, label_h + r, colour(1.0 - double(r) / std::max(1, bh - 1)));
  img.text(bx - 40, 2, fmt::format("{:.3e}", hi), 2);
  img.text(bx - 40, label_h + bh + 4, fmt::format("{:.3e}", lo), 2);

  std::string data;
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
  png_infop info = png ? png_create_info_struct(png) : nullptr;
  if (!png || !info || setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    throw Error(path.string() + ": PNG encoding failed");
  }
  png_set_write_fn(
      png, &data,
      [](png_structp p, png_bytep bytes, png_size_t n) {
        static_cast<std::string*>(png_get_io_ptr(p))->append(reinterpret_cast<const char*>(bytes), n);
      },
      nullptr);
  png_set_IHDR(png, info, png_uint_32(img.w), png_uint_32(img.h), 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  for (int r = 0; r < img.h; ++r) png_write_row(png, &img.px[3 * std::size_t(r) * img.w]);
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
  write_file_atomic(path, data);
  return {lo, hi};
#else
  (void)f, (void)flags, (void)z, (void)q;
  throw UsageError(path.string() + ": PNG output is not built in (libpng was not found at configure time)");
#endif
}

}  // namespace tessera::lbm
