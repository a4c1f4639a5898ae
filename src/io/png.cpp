#include "io/png.hpp"

#include "core/atomic_file.hpp"
#include "core/error.hpp"

#if TESSERA_HAVE_PNG
#include <png.h>
#endif

namespace tessera::io {

namespace {

constexpr const char* kNotBuiltIn =
    "PNG output is not built in (libpng was not found at configure time)";

#if TESSERA_HAVE_PNG
void append(png_structp p, png_bytep data, png_size_t n) {
  static_cast<std::string*>(png_get_io_ptr(p))->append(reinterpret_cast<const char*>(data), n);
}
#endif

}  // namespace

bool png_available() { return TESSERA_HAVE_PNG != 0; }

std::string encode_png(int width, int height, int channels, const std::uint8_t* pixels) {
  if (width <= 0 || height <= 0) throw Error("PNG image: width and height must be positive");
  if (channels != 3 && channels != 4) throw Error("PNG image: 3 (RGB) or 4 (RGBA) channels");
#if TESSERA_HAVE_PNG
  std::string out;
  png_structp p = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
  png_infop info = p ? png_create_info_struct(p) : nullptr;
  if (!p || !info) {
    png_destroy_write_struct(&p, info ? &info : nullptr);
    throw Error("libpng: cannot create a PNG writer");
  }
  if (setjmp(png_jmpbuf(p))) {
    png_destroy_write_struct(&p, &info);
    throw Error("libpng: encoding a PNG image failed");
  }
  png_set_write_fn(p, &out, append, nullptr);
  png_set_IHDR(p, info, static_cast<png_uint_32>(width), static_cast<png_uint_32>(height), 8,
               channels == 4 ? PNG_COLOR_TYPE_RGB_ALPHA : PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info(p, info);
  const std::size_t row = static_cast<std::size_t>(width) * static_cast<std::size_t>(channels);
  for (int y = 0; y < height; ++y) png_write_row(p, pixels + static_cast<std::size_t>(y) * row);
  png_write_end(p, nullptr);
  png_destroy_write_struct(&p, &info);
  return out;
#else
  (void)pixels;
  throw UsageError(kNotBuiltIn);
#endif
}

void write_png(const std::filesystem::path& path, int width, int height, int channels,
               const std::uint8_t* pixels) {
  if (!png_available()) throw UsageError(path.string() + ": " + kNotBuiltIn);
  write_file_atomic(path, encode_png(width, height, channels, pixels));
}

}  // namespace tessera::io
