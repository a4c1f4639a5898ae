// PNG images (libpng): 8-bit RGB or RGBA pixels encoded in memory and written
// atomically (core/atomic_file.hpp), so the per-kind fault point write_png
// (core/fault_injection.hpp) covers every PNG that tessera writes. Used by the
// lbm slices, the swe quick-looks and the demo's plots through io/raster.hpp.
#pragma once
#include <cstdint>
#include <filesystem>
#include <string>

namespace tessera::io {

/// Whether PNG output is built in (libpng found at configure time).
bool png_available();

/// The PNG bytes of a `width` x `height` image of 8-bit samples, `channels`
/// per pixel (3: RGB, 4: RGBA), rows top to bottom, no padding between rows.
/// Throws UsageError when libpng is not built in, Error when libpng fails.
std::string encode_png(int width, int height, int channels, const std::uint8_t* pixels);

/// encode_png() written atomically to `path`; a failure leaves any previous
/// file intact and throws Error naming the path.
void write_png(const std::filesystem::path& path, int width, int height, int channels,
               const std::uint8_t* pixels);

}  // namespace tessera::io
