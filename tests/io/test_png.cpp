// io/png.hpp and io/raster.hpp: RGB and RGBA images read back with libpng,
// the one 3x5 label font, the colour map's ends and its non-finite inputs.
#include <gtest/gtest.h>
#include <png.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "io/png.hpp"
#include "io/raster.hpp"

namespace tessera::io {
namespace {

// The pixels of a PNG (libpng's simplified reader), `channels` per pixel.
std::vector<std::uint8_t> decode(const std::string& png, int channels, unsigned& w, unsigned& h) {
  png_image im;
  std::memset(&im, 0, sizeof im);
  im.version = PNG_IMAGE_VERSION;
  EXPECT_TRUE(png_image_begin_read_from_memory(&im, png.data(), png.size()));
  im.format = channels == 4 ? PNG_FORMAT_RGBA : PNG_FORMAT_RGB;
  std::vector<std::uint8_t> px(PNG_IMAGE_SIZE(im));
  EXPECT_TRUE(png_image_finish_read(&im, nullptr, px.data(), 0, nullptr));
  w = im.width, h = im.height;
  return px;
}

bool same(Rgb a, Rgb b) { return a.r == b.r && a.g == b.g && a.b == b.b; }

TEST(Png, RgbaAndRgbRoundTrip) {
  ASSERT_TRUE(png_available());
  for (int channels : {3, 4}) {
    std::vector<std::uint8_t> px(5 * 3 * static_cast<std::size_t>(channels));
    for (std::size_t i = 0; i < px.size(); ++i) px[i] = static_cast<std::uint8_t>(i * 37 + 11);
    unsigned w = 0, h = 0;
    EXPECT_EQ(decode(encode_png(5, 3, channels, px.data()), channels, w, h), px)
        << channels << " channels";
    EXPECT_EQ(w, 5u);
    EXPECT_EQ(h, 3u);
  }
  const std::uint8_t one[3] = {1, 2, 3};
  EXPECT_THROW(encode_png(1, 1, 2, one), Error);
  EXPECT_THROW(encode_png(0, 1, 3, one), Error);
}

TEST(Png, WrittenAtomically) {
  const auto path = std::filesystem::temp_directory_path() / "tessera_png_test.png";
  Image im(3, 2, {9, 8, 7});
  im.write_png(path);
  std::string bytes(static_cast<std::size_t>(std::filesystem::file_size(path)), '\0');
  std::FILE* f = std::fopen(path.c_str(), "rb");
  ASSERT_NE(f, nullptr);
  ASSERT_EQ(std::fread(bytes.data(), 1, bytes.size(), f), bytes.size());
  std::fclose(f);
  EXPECT_EQ(bytes, im.encode_png());
  std::filesystem::remove(path);
  EXPECT_THROW(im.write_png(path / "under_a_missing_folder.png"), Error);
}

TEST(Raster, TextUsesTheOne3x5Font) {
  Image im(8, 5, {255, 255, 255});
  im.text(0, 0, "e1", 1, {0, 0, 0});
  // 'e': rows 111 100 111 100 111; '1' from x = 4: 010 110 010 010 111
  const char* want[5] = {"111 010 ", "100 110 ", "111 010 ", "100 010 ", "111 111 "};
  for (int y = 0; y < 5; ++y)
    for (int x = 0; x < 8; ++x)
      EXPECT_EQ(im.at(x, y).r == 0, want[y][x] == '1') << "x " << x << " y " << y;
  Image big(8, 10);
  big.text(0, 0, "-", 2, {1, 1, 1});  // scale 2: row 2 of the glyph is pixel rows 4 and 5
  EXPECT_TRUE(same(big.at(5, 5), {1, 1, 1}));
  EXPECT_TRUE(same(big.at(5, 3), {255, 255, 255}));
  EXPECT_EQ(Image::text_width("1.5e-3", 2), 48);
}

TEST(Raster, ViridisEndsAndNonFiniteValues) {
  EXPECT_TRUE(same(viridis(0), {68, 1, 84}));
  EXPECT_TRUE(same(viridis(1), {253, 231, 37}));
  EXPECT_TRUE(same(viridis(0.5), {33, 145, 140}));
  EXPECT_TRUE(same(viridis(-3), viridis(0)));
  EXPECT_TRUE(same(viridis(7), viridis(1)));
  EXPECT_TRUE(same(viridis(-INFINITY), viridis(0)));
  EXPECT_TRUE(same(viridis(INFINITY), viridis(1)));
  EXPECT_TRUE(same(viridis(NAN), viridis(0)));
}

}  // namespace
}  // namespace tessera::io
