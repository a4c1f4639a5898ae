// More than 2^31 cells on the 64-bit path (Muesli's 32-bit indices failed at
// 1320^3). Needs ~4.3 GB of host memory: runs only with TESSERA_LARGE_TESTS=1.
#include <cstdlib>

#include "skeleton_test_support.hpp"

namespace tessera::skeleton {
namespace {

struct LowByte {  // v + (x mod 251): a value that depends on the 64-bit index
  TS_FN std::int8_t operator()(index_t x, std::int8_t v) const {
    return std::int8_t(v + std::int8_t(x % 251));
  }
};

TEST(SkeletonLarge, MoreThan2To31CellsOnTwoParts) {
  const char* on = std::getenv("TESSERA_LARGE_TESTS");
  if (!on || std::string(on) != "1") GTEST_SKIP() << "set TESSERA_LARGE_TESTS=1 (needs ~4.3 GB)";
  const index_t n = (index_t(1) << 31) + 7;
  Team team = Team::open("cpu", 2);
  DA<std::int8_t> a(team, n, std::int8_t(1));
  a.mapIndexInPlace(LowByte{});
  a.to_host();
  const auto& last = a.field().host(1);
  const index_t lo = a.field().layout(1).owned.lo[0];
  for (index_t x : {n - 1, n - 2, lo, lo + 251}) {
    const auto got = last[static_cast<std::size_t>(x - lo)];
    EXPECT_EQ(got, std::int8_t(1 + std::int8_t(x % 251))) << "cell " << x;
  }
  EXPECT_EQ(a.field().layout(1).owned.hi[0], n);
}

}  // namespace
}  // namespace tessera::skeleton
