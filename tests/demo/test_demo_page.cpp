// The demo's page pieces: base64 against RFC 4648's vectors, HTML escaping,
// PNG encoding (signature, IHDR size, pixels read back with libpng), the
// residual plot (drawn, and refused without a positive value), and the page
// embedding every figure and marking each section.
#include <gtest/gtest.h>
#include <png.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "core/error.hpp"
#include "demo/html.hpp"
#include "demo/plot.hpp"
#include "io/raster.hpp"

namespace tessera::demo {
namespace {

std::filesystem::path temp_dir(const char* name) {
  auto d = std::filesystem::temp_directory_path() / name;
  std::filesystem::remove_all(d);
  std::filesystem::create_directories(d);
  return d;
}

std::uint32_t be32(const std::string& s, std::size_t at) {
  return std::uint32_t(static_cast<unsigned char>(s[at])) << 24 |
         std::uint32_t(static_cast<unsigned char>(s[at + 1])) << 16 |
         std::uint32_t(static_cast<unsigned char>(s[at + 2])) << 8 |
         std::uint32_t(static_cast<unsigned char>(s[at + 3]));
}

TEST(DemoPage, Base64MatchesRfc4648) {
  EXPECT_EQ(base64(""), "");
  EXPECT_EQ(base64("f"), "Zg==");
  EXPECT_EQ(base64("fo"), "Zm8=");
  EXPECT_EQ(base64("foo"), "Zm9v");
  EXPECT_EQ(base64("foob"), "Zm9vYg==");
  EXPECT_EQ(base64("fooba"), "Zm9vYmE=");
  EXPECT_EQ(base64("foobar"), "Zm9vYmFy");
  EXPECT_EQ(base64(std::string("\xff\xfe\x00", 3)), "//4A");
}

TEST(DemoPage, HtmlIsEscaped) {
  EXPECT_EQ(html_escape("a<b & \"c\">"), "a&lt;b &amp; &quot;c&quot;&gt;");
}

TEST(DemoPage, PngRoundTripsThroughLibpng) {
  Image im(37, 11, {1, 2, 3});
  im.set(36, 10, {250, 100, 7});
  im.line(0, 0, 36, 10, {9, 9, 9});
  const std::string png = im.encode_png();
  ASSERT_GT(png.size(), 33u);
  EXPECT_EQ(png.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
  EXPECT_EQ(png.substr(12, 4), "IHDR");
  EXPECT_EQ(be32(png, 16), 37u);
  EXPECT_EQ(be32(png, 20), 11u);
  png_image img;
  std::memset(&img, 0, sizeof img);
  img.version = PNG_IMAGE_VERSION;
  ASSERT_TRUE(png_image_begin_read_from_memory(&img, png.data(), png.size()));
  img.format = PNG_FORMAT_RGB;
  std::vector<unsigned char> px(PNG_IMAGE_SIZE(img));
  ASSERT_TRUE(png_image_finish_read(&img, nullptr, px.data(), 0, nullptr));
  auto at = [&](int x, int y) {
    return &px[(static_cast<std::size_t>(y) * 37 + static_cast<std::size_t>(x)) * 3];
  };
  EXPECT_EQ(at(5, 5)[0], 1);  // background
  EXPECT_EQ(at(5, 5)[2], 3);
  EXPECT_EQ(at(0, 0)[0], 9);  // the line's ends
  EXPECT_EQ(at(36, 10)[0], 9);
}

TEST(DemoPage, PlotDrawsAndRefusesNothingToPlot) {
  const auto dir = temp_dir("tessera_demo_plot_test");
  std::vector<double> y;
  for (int i = 0; i < 12; ++i) y.push_back(std::pow(10.0, -i));
  const PlotLabels labels{"title", "iteration", "residual", "target"};
  plot_log_history(dir / "p.png",
                   {{y, {200, 0, 0}, "first"}, {{1.0, NAN, 0.5, -1.0}, {0, 0, 200}, "second"}},
                   1e-8, labels);
  EXPECT_GT(std::filesystem::file_size(dir / "p.png"), 100u);
  EXPECT_THROW(plot_log_history(dir / "q.png", {{{0.0, -1.0, NAN}, {0, 0, 0}}}, 0, labels), Error);
  EXPECT_FALSE(std::filesystem::exists(dir / "q.png"));
}

TEST(DemoPage, PageEmbedsFiguresAndMarksSections) {
  const auto dir = temp_dir("tessera_demo_page_test");
  Image(4, 3).write_png(dir / "a.png");
  SectionResult ok{"mg", "Multigrid <2D>",        "solved", "residual 1e-9",
                   true, {{"a.png", "the plot"}}, {}};
  ok.tables.push_back({"caption", {"run", "time"}, {{"x", "1 ms"}}});
  SectionResult bad{"lbm", "LBM", "failed: no device", "did not complete", false, {}, {}};
  PageInfo info{"cpu (test)", {{"tessera", "0.1.0"}}, ""};
  const std::string page = render_page(info, {ok, bad}, dir);
  EXPECT_NE(page.find("src=\"data:image/png;base64," + base64(Image(4, 3).encode_png()) + "\""),
            std::string::npos);
  EXPECT_NE(page.find("Multigrid &lt;2D&gt;"), std::string::npos);
  EXPECT_NE(page.find("<td class=\"wrong\">wrong</td>"), std::string::npos);
  EXPECT_NE(page.find("<td class=\"correct\">correct</td>"), std::string::npos);
  EXPECT_NE(page.find("<td class=\"num\">1 ms</td>"), std::string::npos);
  SectionResult missing = ok;
  missing.figures = {{"absent.png", "gone"}};
  EXPECT_THROW(render_page(info, {missing}, dir), Error);
}

}  // namespace
}  // namespace tessera::demo
