// core/kernels/ieee_fast.h: the branch-free GPU sequences for 1/x and sqrt(x)
// must give the IEEE result wherever their guard admits the operand. The
// physical shallow-water kernels rely on it for their bitwise agreement with
// the CPU. Floats: all 2^32 inputs on GPUs (2^20 elsewhere, where the
// sequences are the plain operations). Doubles: 2^28 hashed inputs on GPUs
// (exponents over [-1020, 1020], a quarter with hard significands).
#include <array>
#include <cstdint>

#include "core/dispatch.hpp"
#include "swe/kernels/swe_kernels.hpp"
#include "test_support.hpp"

namespace tessera::swe {
namespace {

class SweIeeeFast : public ::testing::TestWithParam<std::string> {};

// The devices that run the fast sequences (CUDA, NVIDIA's OpenCL); elsewhere
// they are the plain operations and every sample is admitted.
bool fast_sequences(const Device& d) {
  return d.backend() == Backend::cuda || d.info().vendor.find("NVIDIA") != std::string::npos;
}

// counts[4] of ieee_check.h over samples start .. start + total - 1
template <class T>
std::array<std::uint64_t, 4> check(const std::shared_ptr<Device>& dev, std::uint64_t start,
                                   std::uint64_t total, std::uint64_t chunk) {
  std::array<std::uint64_t, 4> sum{};
  Buffer<std::uint32_t> counts(dev, 4);
  for (std::uint64_t first = start; first < start + total; first += chunk) {
    const std::uint32_t zero[4] = {0, 0, 0, 0};
    counts.copy_from_host(zero);
    dispatch(*dev, [&](auto tag) {
      kernels::ieee_check<T>(tag, dev->queue(), first, std::min(chunk, start + total - first),
                             counts);
    });
    const auto c = counts.to_vector();
    for (int k = 0; k < 4; ++k) sum[k] += c[k];
  }
  return sum;
}

TEST_P(SweIeeeFast, FloatSequencesAreCorrectlyRoundedInTheirRange) {
  const auto dev = open_device(GetParam());
  const bool gpu = fast_sequences(*dev);
  // GPUs: every float; elsewhere 2^20 patterns from 0.5 on
  const std::uint64_t start = gpu ? 0 : 0x3f000000u, total = gpu ? (1ull << 32) : (1ull << 20);
  const auto c = check<float>(dev, start, total, 1ull << 30);
  EXPECT_EQ(c[1], 0u) << c[1] << " of " << c[0] << " reciprocals differ from 1/x";
  EXPECT_EQ(c[3], 0u) << c[3] << " of " << c[2] << " roots differ from sqrt(x)";
  if (gpu) {
    // the guards' range: x in [2^-100, 2^125] (225 binades and 2^125)
    EXPECT_EQ(c[0], 225ull * (1u << 23) + 1);
    EXPECT_EQ(c[2], 225ull * (1u << 23) + 1);
  } else {  // the plain operations: no flag is ever cleared
    EXPECT_EQ(c[0], total);
    EXPECT_EQ(c[2], total);
  }
}

TEST_P(SweIeeeFast, DoubleSequencesAreCorrectlyRoundedInTheirRange) {
  const auto dev = open_device(GetParam());
  if (!dev->info().fp64) GTEST_SKIP() << "no fp64 on " << GetParam();
  const std::uint64_t total = fast_sequences(*dev) ? (1ull << 28) : (1ull << 16);
  const auto c = check<double>(dev, 0, total, 1ull << 28);
  EXPECT_EQ(c[1], 0u) << c[1] << " of " << c[0] << " reciprocals differ from 1/x";
  EXPECT_EQ(c[3], 0u) << c[3] << " of " << c[2] << " roots differ from sqrt(x)";
  if (fast_sequences(*dev)) {
    // half the samples are negative (outside the reciprocal's guard), 1/16
    // have a significand of all ones (flagged), exponents run over
    // [-1020, 1020] (the range is [-960, 1000]); the roots take |x|
    EXPECT_GT(c[0], total * 4 / 10);
    EXPECT_LT(c[0], total * 5 / 10);
    EXPECT_GT(c[2], total * 9 / 10);
  }
}

INSTANTIATE_TEST_SUITE_P(Devices, SweIeeeFast, ::testing::ValuesIn(test::device_ids()),
                         test::id_name);

}  // namespace
}  // namespace tessera::swe
