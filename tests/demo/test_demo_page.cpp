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
#include "io/figure.hpp"
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

// Text in the system's face (CI installs fonts-dejavu-core): black pixels
// where it is drawn, anti-aliased (grey levels), wider for longer text,
// centred and right-aligned text ending where asked.
TEST(Figures, TextIsDrawnInARealFace) {
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

TEST(Figures, TicksAreNiceAndLabelledByTheirStep) {
  double step = 0;
  EXPECT_EQ(io::nice_ticks(0, 1, 5, &step), (std::vector<double>{0, 0.2, 0.4, 0.6, 0.8, 1.0}));
  EXPECT_DOUBLE_EQ(step, 0.2);
  EXPECT_EQ(io::nice_ticks(100, 146, 4), (std::vector<double>{100, 120, 140}));
  EXPECT_EQ(io::nice_ticks(-3, 3, 3), (std::vector<double>{-2, 0, 2}));
  EXPECT_TRUE(io::nice_ticks(0, NAN, 5).empty());
  EXPECT_EQ(io::tick_label(0.4, 0.2), "0.4");
  EXPECT_EQ(io::tick_label(1500, 500), "1500");
  EXPECT_EQ(io::tick_label(2.5e-6, 5e-7), "2.5e-06");
  EXPECT_EQ(io::tick_label(4649500, 100), "4649500") << "UTM northings stay whole numbers";
  EXPECT_EQ(io::tick_label(500200, 200), "500200");
  // a span of a few ulps: a few ticks, never an endless loop
  const auto tiny = io::nice_ticks(0.4999999999999998, 0.5000000000000002, 12);
  EXPECT_LE(tiny.size(), 14u);
  EXPECT_LE(io::nice_ticks(1e20, 1e20 + 1e5, 10).size(), 12u);
}

// A 4 x 3 field: every cell's colour where its value puts it, the masked
// cell grey, the frame larger than the field (axes, title, colour bar).
TEST(Figures, FieldsAreDrawnWithTheirScale) {
  io::FieldPlot p;
  p.nx = 4, p.ny = 3, p.x1 = 4, p.y1 = 3, p.lo = 0, p.hi = 23;
  p.title = "value, t = 1 s", p.x_label = "x (m)", p.y_label = "y (m)", p.value_label = "v (m)";
  p.value = [](long i, long j) { return i == 1 && j == 1 ? double(NAN) : double(i + 10 * j); };
  p.masked = {1, 2, 3};
  const io::Figure f = io::draw_field(p);
  const Image& im = f.image;
  EXPECT_EQ(f.field.w, 256);
  EXPECT_EQ(f.field.h, 192);
  EXPECT_GT(im.width(), f.field.x + 256 + f.bar.w);
  EXPECT_GT(im.height(), f.field.y + 192);
  const io::Rgb c = im.at(f.field.x + 2 * 64 + 5, f.field.y + 64 + 5);  // cell (2, 1): row 1 of 3
  EXPECT_EQ(c.r, io::viridis(12.0 / 23).r);
  EXPECT_EQ(c.b, io::viridis(12.0 / 23).b);
  auto count = [&](io::Rgb c) {
    int n = 0;
    for (int y = 0; y < im.height(); ++y)
      for (int x = 0; x < im.width(); ++x) {
        const io::Rgb q = im.at(x, y);
        n += q.r == c.r && q.g == c.g && q.b == c.b;
      }
    return n;
  };
  const int cell = 64 * 64;  // 256 pixels over 4 cells
  EXPECT_EQ(count({1, 2, 3}), cell) << "the masked cell";
  EXPECT_GE(count(io::viridis(12.0 / 23)), cell) << "cell (2, 1)";
  EXPECT_GE(count(io::viridis(23.0 / 23)), cell) << "cell (3, 2), and the bar's top";
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
