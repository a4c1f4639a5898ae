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

// Text in the system's face (CI installs fonts-dejavu-core): black pixels
// where it is drawn, anti-aliased (grey levels), wider for longer text,
// centred and right-aligned text ending where asked.
TEST(Raster, TextIsDrawnInARealFace) {
  ASSERT_TRUE(Image::has_font()) << "no font: install fonts-dejavu-core (scripts/install-deps.sh)";
  const int w = Image::text_width("depth (m)", 14);
  EXPECT_GT(w, 40);
  EXPECT_LT(w, 120);
  EXPECT_GT(Image::text_width("depth (m), t = 600 s", 14), w);
  EXPECT_EQ(Image::text_width("", 14), 0);
  Image im(200, 40);
  im.text(100, 10, "depth (m)", 14, {0, 0, 0}, Image::Align::right);
  int dark = 0, grey = 0, right_of = 0;
  for (int y = 0; y < 40; ++y)
    for (int x = 0; x < 200; ++x) {
      const int v = im.at(x, y).r;
      dark += v < 64;
      grey += v >= 64 && v < 250;
      right_of += x > 101 && v < 250;
    }
  EXPECT_GT(dark, 30);
  EXPECT_GT(grey, 10) << "anti-aliased";
  EXPECT_EQ(right_of, 0) << "right-aligned text ends at x";
  Image bad(60, 20);
  bad.text(0, 0, std::string("\xff\xfe ok \xe2\x82"), 12);  // malformed UTF-8: no crash
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
