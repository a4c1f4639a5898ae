// Streaming (out-of-core) thesis mode: tile geometry, the four transfer paths,
// and bitwise equality with the whole-grid thesis mode (CPU reference) for
// tiles that do not divide the grid, odd and even tile offsets at every edge
// and corner, nu odd and even, Q = 1..4, restriction depth 1..L-1, with and
// without cross-cycle fusion; a problem
// four times larger than the device budget; budgets too small for one tile.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>

#include "core/registry.hpp"
#include "mg/streaming.hpp"
#include "mg/streaming_plan.hpp"
#include "mg/thesis.hpp"
#include "test_support.hpp"

namespace tessera::mg {
namespace {

using stream::Span;
using stream::TransferPath;

// The coarse indices eqs. 2.5-2.8 read for fine index i along one axis.
std::vector<long> prolong_reads(long i) {
  return i % 2 ? std::vector<long>{i / 2} : std::vector<long>{i / 2 - 1, i / 2};
}

TEST(MgStreamingPlan, CoarseSpanCoversWhatTheProlongationReads) {
  for (long m : {1L, 3L, 7L, 15L, 31L}) {
    const long mc = m / 2;
    for (long b = 0; b < m; ++b)
      for (long e = b + 1; e <= m; ++e) {
        const Span c = stream::coarse_span(mc, {b, e});
        ASSERT_GE(c.b - 1, -1);
        ASSERT_LE(c.e, mc);
        for (long i = b; i < e; ++i)
          for (long I : prolong_reads(i)) {
            ASSERT_GE(I, c.b - 1) << m << " [" << b << "," << e << ")";
            ASSERT_LE(I, c.e) << m << " [" << b << "," << e << ")";
            if (I == c.e) {
              ASSERT_EQ(I, mc) << "ring index beyond the interior must be the zero halo";
            }
          }
      }
  }
}

TEST(MgStreamingPlan, SmoothingRegionsShrinkByOnePerStep) {
  const long m = 31;
  for (int nu : {1, 2, 5})
    for (long o = 0; o < m; o += 7) {
      const Span out{o, std::min(m, o + 7)};
      for (int s = 1; s < nu;
           ++s) {  // step s + 1 reads R_{s+1} +- 1: inside R_s or the domain's halo
        const Span r = stream::smoothing_region(m, out, nu, s),
                   n = stream::smoothing_region(m, out, nu, s + 1);
        EXPECT_TRUE(n.b - 1 >= r.b || n.b == 0);
        EXPECT_TRUE(n.e + 1 <= r.e || n.e == m);
      }
      const Span last = stream::smoothing_region(m, out, nu, nu);
      EXPECT_EQ(last.b, out.b);
      EXPECT_EQ(last.e, out.e);
    }
}

TEST(MgStreamingPlan, RestrictionTilesComputeWhatTheyNeedAndOwnEachPointOnce) {
  // levels 63 -> 31 -> 15 -> 7 (depth 3), coarsest tiles of 2 points
  const long mD = 7;
  const int depth = 3;
  for (long c : {1L, 2L, 3L, 7L}) {
    std::vector<std::vector<int>> owner(depth + 1);
    for (int s = 0; s <= depth; ++s)
      owner[s].assign(static_cast<std::size_t>(((mD + 1) << s) - 1), 0);
    for (long C0 = 0; C0 < mD; C0 += c) {
      const Span t{C0, std::min(mD, C0 + c)};
      for (int s = 0; s <= depth; ++s) {
        const long m = ((mD + 1) << s) - 1;
        const Span comp = stream::restriction_computed(t, s);
        ASSERT_GE(comp.b, 0);
        ASSERT_LE(comp.e, m);
        if (s > 0) {  // eq. 2.4 at coarse I reads fine 2I .. 2I + 2
          const Span coarser = stream::restriction_computed(t, s - 1);
          ASSERT_LE(comp.b, 2 * coarser.b);
          ASSERT_GE(comp.e, 2 * (coarser.e - 1) + 3);
        }
        const Span own = stream::restriction_owned(t, s, m, t.e == mD);
        ASSERT_GE(own.b, comp.b);
        ASSERT_LE(own.e, comp.e);
        for (long i = own.b; i < own.e; ++i) ++owner[s][static_cast<std::size_t>(i)];
      }
    }
    for (int s = 0; s <= depth; ++s)
      for (int n : owner[s]) ASSERT_EQ(n, 1) << "tile " << c << " level " << s;
  }
}

class MgStreamingDeviceTest : public ::testing::TestWithParam<std::string> {};

TEST_P(MgStreamingDeviceTest, TransferPathsRoundTripRectangles) {
  auto dev = open_device(GetParam());
  for (auto path :
       {TransferPath::rect, TransferPath::contiguous, TransferPath::pinned, TransferPath::staged}) {
    stream::Streamer<float> st(dev, 2, 400, path);
    stream::HostArray<float> src(dev, 23 * 17, path == TransferPath::pinned),
        dst(dev, 23 * 17, path == TransferPath::pinned);
    auto v = test::random_vector<float>(src.size(), 5);
    std::copy(v.begin(), v.end(), src.data());
    std::fill(dst.data(), dst.data() + dst.size(), test::poison<float>());
    // a 9 x 5 rectangle at (3, 2) of a 23-wide host array, device pitch 11
    stream::Rect r{2 * 23 + 3, 23, 13, 11, 9, 5};
    stream::Rect whole{0, 23, 0, 23, 23, 17};  // contiguous on both sides
    auto& s = st.next();
    st.upload(s, src.data(), r, 1);
    st.download(s, 1, r, dst.data());
    auto& s2 = st.next();
    st.upload(s2, src.data(), whole, 0);
    st.drain();
    for (long j = 0; j < 17; ++j)
      for (long i = 0; i < 23; ++i) {
        const std::size_t k = static_cast<std::size_t>(j * 23 + i);
        if (i >= 3 && i < 12 && j >= 2 && j < 7) {
          ASSERT_EQ(dst.data()[k], v[k]) << to_string(path);
        } else {
          ASSERT_TRUE(std::isnan(dst.data()[k]))
              << to_string(path) << " wrote outside the rectangle";
        }
      }
    EXPECT_EQ(st.counts().up_bytes, (45.0 + 23 * 17) * 4);
  }
}

struct Config {
  long w, h;
  int nu;
  long tw, th;
  int queues, depth;
  TransferPath path;
  bool fuse = true;        // cross-cycle fusion
  bool row_cache = false;  // the smoother with the thesis's local-memory row cache
};

std::string describe(const Config& c) {
  return std::to_string(c.w) + "x" + std::to_string(c.h) + " nu=" + std::to_string(c.nu) +
         " tile " + std::to_string(c.tw) + "x" + std::to_string(c.th) +
         " Q=" + std::to_string(c.queues) + " depth=" + std::to_string(c.depth) + " " +
         to_string(c.path) + (c.fuse ? " fused" : "") + (c.row_cache ? " row cache" : "");
}

// Three cycles and a smoother pass from a random start: streamed vs whole grid.
template <class T>
void expect_equal_to_whole_grid(const std::string& id, const Config& c) {
  auto b = test::random_vector<T>(static_cast<std::size_t>(c.w * c.h), 21);
  auto x0 = test::random_vector<T>(static_cast<std::size_t>(c.w * c.h), 22, -0.5, 0.5);
  ThesisMultigrid<T> ref(open_device("cpu"), c.w, c.h, c.nu);
  StreamingOptions o;
  o.budget_bytes = std::size_t(1) << 20;  // blocks of 21845 floats (Q = 4): every test tile fits
  o.queues = c.queues;
  o.tile_w = c.tw;
  o.tile_h = c.th;
  o.depth = c.depth;
  o.transfer = c.path;
  o.fuse_cycles = c.fuse;
  o.row_cache = c.row_cache;
  StreamingMultigrid<T> got(open_device(id), c.w, c.h, c.nu, o);
  ASSERT_EQ(got.fuses_cycles(), c.fuse && got.levels() > 1) << describe(c);
  if (c.depth) {
    ASSERT_EQ(got.depth(), std::min(c.depth, got.levels() - 1)) << describe(c);
  }
  ref.set_rhs(b);
  ref.set_solution(x0);
  got.set_rhs(b);
  got.set_solution(x0);
  for (int k = 0; k < 3; ++k) {  // the second and third use the fused restriction
    ref.cycle();
    got.cycle();
  }
  ref.smooth(c.nu + 1);
  got.smooth(c.nu + 1);
  auto r = ref.solution(), g = got.solution();
  for (std::size_t i = 0; i < r.size(); ++i)
    ASSERT_EQ(g[i], r[i]) << describe(c) << " element " << i << " (" << i % c.w << ", " << i / c.w
                          << ")";
}

TEST_P(MgStreamingDeviceTest, BitwiseEqualToWholeGrid) {
  const auto P = TransferPath::rect, C = TransferPath::contiguous, N = TransferPath::pinned,
             S = TransferPath::staged;
  // 63 x 31 has levels 63x31, 31x15, 15x7, 7x3, 3x1 (L = 5): tiles of 5, 7, 4,
  // 13 divide neither side and start at odd and even offsets; depth 1..4
  const std::vector<Config> configs = {
      {63, 31, 2, 5, 7, 1, 1, S},   {63, 31, 3, 7, 5, 2, 2, P},
      {63, 31, 1, 4, 4, 3, 3, C},   {63, 31, 2, 13, 4, 4, 4, N},
      {63, 31, 4, 6, 9, 4, 0, S},   {63, 31, 1, 3, 3, 2, 1, P, false},
      {63, 31, 2, 64, 32, 1, 2, C}, {31, 31, 3, 5, 5, 3, 4, S, false},
      {15, 15, 2, 1, 2, 2, 2, N},   {7, 63, 1, 2, 11, 4, 3, S},
      {1, 1, 2, 1, 1, 1, 0, S},     {3, 3, 1, 1, 1, 2, 1, C},
  };
  for (const Config& c : configs) expect_equal_to_whole_grid<float>(GetParam(), c);
  expect_equal_to_whole_grid<double>(GetParam(), {31, 15, 2, 6, 5, 3, 2, S});
  expect_equal_to_whole_grid<double>(GetParam(), {31, 15, 3, 4, 7, 2, 1, C, false});
}

// The smoother with the row cache (groups of 128 columns marching bands of
// 32 rows) gives the plain kernel's bits: smoothing regions of 150 + 2(nu-1)
// columns and 45 + 2(nu-1) rows leave a partial group and a partial band,
// small tiles a single partial group; float and double.
TEST_P(MgStreamingDeviceTest, RowCacheSmootherBitwiseEqualToWholeGrid) {
  const auto S = TransferPath::staged, P = TransferPath::pinned;
  for (const Config& c : {Config{255, 127, 3, 150, 45, 2, 2, S, true, true},
                          Config{63, 31, 2, 5, 7, 1, 1, P, false, true},
                          Config{127, 63, 1, 130, 33, 3, 0, S, true, true}})
    expect_equal_to_whole_grid<float>(GetParam(), c);
  expect_equal_to_whole_grid<double>(GetParam(), {31, 15, 2, 6, 5, 3, 2, S, true, true});
}

TEST_P(MgStreamingDeviceTest, SolvesAProblemFourTimesLargerThanItsBudget) {
  const long m = 127;
  std::size_t problem = 0;
  for (long k = m; k >= 1; k /= 2) problem += 3 * std::size_t((k + 2) * (k + 2)) * sizeof(float);
  StreamingOptions o;
  o.budget_bytes = problem / 4;
  o.queues = 4;
  StreamingMultigrid<float> got(open_device(GetParam()), m, m, 2, o);
  ASSERT_EQ(got.problem_bytes(), problem);
  ASSERT_LE(4 * got.device_bytes(), got.problem_bytes());
  ASSERT_LT(got.tile_w(), m);  // several tiles per side
  ThesisMultigrid<float> ref(open_device("cpu"), m, m, 2);
  auto b = test::random_vector<float>(std::size_t(m * m), 31);
  ref.set_rhs(b);
  got.set_rhs(b);
  const double r0 = got.residual_norm();
  for (int k = 0; k < 3; ++k) {
    ref.cycle();
    got.cycle();
  }
  EXPECT_EQ(got.solution(), ref.solution());
  EXPECT_LT(got.residual_norm(), 0.2 * r0);  // three thesis cycles reduce the residual well
  EXPECT_GT(got.transfers().up_bytes, 3.0 * double(m * m) * 4);
}

INSTANTIATE_TEST_SUITE_P(AllDevices, MgStreamingDeviceTest, ::testing::ValuesIn(test::device_ids()),
                         test::id_name);

TEST(MgStreaming, BudgetTooSmallForOneTileIsAClearError) {
  auto cpu = open_device("cpu");
  StreamingOptions o;
  o.budget_bytes = 200;
  try {
    StreamingMultigrid<float> m(cpu, 63, 63, 2, o);
    FAIL() << "no error";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("too small for even one tile"), std::string::npos)
        << e.what();
  }
  o.budget_bytes = 4 * 3 * 4 * 100;  // blocks of 100 floats: 8 x 8 arrays
  o.tile_w = 20;
  try {
    StreamingMultigrid<float> m(cpu, 63, 63, 2, o);
    FAIL() << "no error";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("smoothing tile"), std::string::npos) << e.what();
  }
  o.tile_w = 4;  // smoothing fits (6 + 2)^2 <= 100, but depth 4 restriction cannot
  o.depth = 4;
  EXPECT_THROW(StreamingMultigrid<float>(cpu, 63, 63, 2, o), UsageError);
  o.depth = 1;
  EXPECT_NO_THROW(StreamingMultigrid<float>(cpu, 63, 63, 2, o));
}

TEST(MgStreaming, RejectsUnsupportedSizesAndOptions) {
  auto cpu = open_device("cpu");
  EXPECT_THROW(StreamingMultigrid<float>(cpu, 64, 63, 2), UsageError);
  EXPECT_THROW(StreamingMultigrid<float>(cpu, 63, 63, 0), UsageError);
  StreamingOptions o;
  o.queues = 0;
  EXPECT_THROW(StreamingMultigrid<float>(cpu, 63, 63, 2, o), UsageError);
  EXPECT_THROW(stream::parse_transfer_path("dma"), UsageError);
}

}  // namespace
}  // namespace tessera::mg
