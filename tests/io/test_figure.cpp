// io/figure.hpp: ticks on a 1-2-5 step labelled by their step (never an
// endless loop on a span of a few ulps), and a field drawn with its scale:
// every cell in the colour its value gives, located through io::Figure.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "io/figure.hpp"

namespace tessera::io {
namespace {

TEST(Figures, TicksAreNiceAndLabelledByTheirStep) {
  double step = 0;
  EXPECT_EQ(nice_ticks(0, 1, 5, &step), (std::vector<double>{0, 0.2, 0.4, 0.6, 0.8, 1.0}));
  EXPECT_DOUBLE_EQ(step, 0.2);
  EXPECT_EQ(nice_ticks(100, 146, 4), (std::vector<double>{100, 120, 140}));
  EXPECT_EQ(nice_ticks(-3, 3, 3), (std::vector<double>{-2, 0, 2}));
  EXPECT_TRUE(nice_ticks(0, NAN, 5).empty());
  EXPECT_EQ(tick_label(0.4, 0.2), "0.4");
  EXPECT_EQ(tick_label(1500, 500), "1500");
  EXPECT_EQ(tick_label(2.5e-6, 5e-7), "2.5e-06");
  EXPECT_EQ(tick_label(4649500, 100), "4649500") << "UTM northings stay whole numbers";
  EXPECT_EQ(tick_label(500200, 200), "500200");
  // a span of a few ulps: a few ticks, never an endless loop
  const auto tiny = nice_ticks(0.4999999999999998, 0.5000000000000002, 12);
  EXPECT_LE(tiny.size(), 14u);
  EXPECT_LE(nice_ticks(1e20, 1e20 + 1e5, 10).size(), 12u);
}

// A 4 x 3 field: every cell's colour where its value puts it, the masked
// cell grey, the frame larger than the field (axes, title, colour bar).
TEST(Figures, FieldsAreDrawnWithTheirScale) {
  FieldPlot p;
  p.nx = 4, p.ny = 3, p.x1 = 4, p.y1 = 3, p.lo = 0, p.hi = 23;
  p.title = "value, t = 1 s", p.x_label = "x (m)", p.y_label = "y (m)", p.value_label = "v (m)";
  p.value = [](long i, long j) { return i == 1 && j == 1 ? double(NAN) : double(i + 10 * j); };
  p.masked = {1, 2, 3};
  const Figure f = draw_field(p);
  const Image& im = f.image;
  EXPECT_EQ(f.field.w, 256);
  EXPECT_EQ(f.field.h, 192);
  EXPECT_GT(im.width(), f.field.x + 256 + f.bar.w);
  EXPECT_GT(im.height(), f.field.y + 192);
  const Rgb c = im.at(f.field.x + 2 * 64 + 5, f.field.y + 64 + 5);  // cell (2, 1): row 1 of 3
  EXPECT_EQ(c.r, viridis(12.0 / 23).r);
  EXPECT_EQ(c.b, viridis(12.0 / 23).b);
  auto count = [&](Rgb c) {
    int n = 0;
    for (int y = 0; y < im.height(); ++y)
      for (int x = 0; x < im.width(); ++x) {
        const Rgb q = im.at(x, y);
        n += q.r == c.r && q.g == c.g && q.b == c.b;
      }
    return n;
  };
  const int cell = 64 * 64;  // 256 pixels over 4 cells
  EXPECT_EQ(count({1, 2, 3}), cell) << "the masked cell";
  EXPECT_GE(count(viridis(12.0 / 23)), cell) << "cell (2, 1)";
  EXPECT_GE(count(viridis(23.0 / 23)), cell) << "cell (3, 2), and the bar's top";
}

}  // namespace
}  // namespace tessera::io
