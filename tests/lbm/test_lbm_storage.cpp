// FP16S storage: the software half conversion of the CPU backend gives the
// bits of IEEE round-to-nearest-even (the compiler's _Float16 conversion is
// the oracle), so the GPU's hardware conversion can agree with it bitwise.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <random>

#include "lbm/kernels/lbm_point.hpp"

namespace tessera::lbm {
namespace {

namespace h = point::f32::variant_1019;

TEST(LbmHalf, EveryHalfConvertsToTheSameFloat) {
  for (unsigned u = 0; u < 65536; ++u) {
    const auto bits = static_cast<std::uint16_t>(u);
    const float want = static_cast<float>(std::bit_cast<_Float16>(bits));
    const float got = ts_half_to_float_sw(bits);
    if (std::isnan(want)) {
      EXPECT_TRUE(std::isnan(got)) << u;
    } else {
      ASSERT_EQ(std::bit_cast<std::uint32_t>(got), std::bit_cast<std::uint32_t>(want))
          << "half bits " << u;
    }
  }
}

TEST(LbmHalf, FloatsRoundToNearestEven) {
  std::mt19937 rng(7);
  std::vector<float> cases = {0.f,
                              -0.f,
                              65504.f,
                              65519.99f,
                              65520.f,
                              1e9f,
                              -1e9f,
                              5.9604645e-8f,
                              2.9802322e-8f,
                              2.9802326e-8f,
                              6.1035156e-5f,
                              6.1035153e-5f,
                              1.0f + 1.0f / 2048,
                              1.0f + 3.0f / 2048};
  for (int k = 0; k < 400000; ++k) {
    const std::uint32_t b = rng();
    const float f = std::bit_cast<float>(b);
    if (!std::isnan(f)) cases.push_back(f);
    // many values in the range FP16S uses: |f - w| * 2^15 below ~2^14
    cases.push_back(std::ldexp(float(rng() % 0x1000000) / float(0x1000000), int(rng() % 40) - 26) *
                    ((rng() & 1) ? 1.f : -1.f));
  }
  for (float f : cases) {
    const auto want = std::bit_cast<std::uint16_t>(static_cast<_Float16>(f));
    ASSERT_EQ(ts_half_from_float_sw(f), want)
        << "float " << f << " bits " << std::bit_cast<std::uint32_t>(f);
  }
}

TEST(LbmHalf, ShiftedStorageIsExactScaling) {
  std::uint16_t slot = 0;
  for (float v : {0.001234f, -0.02f, 0.3f, 1e-6f}) {
    h::Variant::save(&slot, 0, v);
    const float back = h::Variant::load(&slot, 0);
    EXPECT_NEAR(back, v, std::fabs(v) * 1e-3 + 1e-9) << v;
    EXPECT_EQ(back * 32768.f, ts_half_to_float_sw(slot));
  }
}

}  // namespace
}  // namespace tessera::lbm
