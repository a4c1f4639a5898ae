// Decomposition, layouts and the inner/outer split: remainders explicit,
// every cell owned exactly once, halos only on decomposed axes.
#include <gtest/gtest.h>

#include "core/error.hpp"
#include "skeleton/decomposition.hpp"
#include "skeleton/halo_exchange.hpp"
#include "skeleton/layout.hpp"

namespace tessera::skeleton {
namespace {

TEST(SkeletonDecomposition, RemaindersGoToTheFirstBlocks) {
  // 10 planes over 4 parts: 3, 3, 2, 2
  Decomposition d(extents_3d(5, 4, 10), 4);
  EXPECT_EQ(d.grid(), (std::array<int, 3>{1, 1, 4}));
  const index_t expect[4][2] = {{0, 3}, {3, 6}, {6, 8}, {8, 10}};
  for (int p = 0; p < 4; ++p) {
    EXPECT_EQ(d.owned(p).lo[2], expect[p][0]);
    EXPECT_EQ(d.owned(p).hi[2], expect[p][1]);
    EXPECT_EQ(d.owned(p).extent(0), 5);
  }
  EXPECT_TRUE(d.decomposed(2));
  EXPECT_FALSE(d.decomposed(0));
}

TEST(SkeletonDecomposition, DefaultAxisIsTheSlowestOfTheContainer) {
  EXPECT_EQ(Decomposition(extents_1d(100), 3).grid(), (std::array<int, 3>{3, 1, 1}));
  EXPECT_EQ(Decomposition(extents_2d(7, 9), 2).grid(), (std::array<int, 3>{1, 2, 1}));
}

TEST(SkeletonDecomposition, EveryCellOwnedOnceOnAnyGrid) {
  const Extents e = extents_3d(7, 5, 6);
  for (auto grid :
       {std::array<int, 3>{2, 3, 1}, std::array<int, 3>{1, 1, 6}, std::array<int, 3>{7, 1, 2}}) {
    Decomposition d(e, grid[0] * grid[1] * grid[2], grid);
    std::vector<int> owner(static_cast<std::size_t>(e.volume()), -1);
    for (int p = 0; p < d.parts(); ++p) {
      const Box b = d.owned(p);
      EXPECT_FALSE(b.empty());
      for (index_t z = b.lo[2]; z < b.hi[2]; ++z)
        for (index_t y = b.lo[1]; y < b.hi[1]; ++y)
          for (index_t x = b.lo[0]; x < b.hi[0]; ++x) {
            auto& o = owner[static_cast<std::size_t>((z * 5 + y) * 7 + x)];
            EXPECT_EQ(o, -1);
            o = p;
          }
    }
    for (int o : owner) EXPECT_GE(o, 0);
  }
}

TEST(SkeletonDecomposition, BadRequestsAreUsageErrors) {
  EXPECT_THROW(Decomposition(extents_3d(4, 4, 4), 4, {2, 1, 1}),
               UsageError);                                                 // 2 blocks for 4 parts
  EXPECT_THROW(Decomposition(extents_3d(4, 4, 3), 4), UsageError);          // 4 blocks of 3 planes
  EXPECT_THROW(Decomposition(extents_2d(4, 4), 2, {1, 1, 2}), UsageError);  // z of a 2-D container
}

TEST(SkeletonDecomposition, NeighboursWrapOnlyWhenPeriodic) {
  Decomposition d(extents_3d(4, 4, 9), 3);
  EXPECT_EQ(d.neighbour(0, 2, -1, false), -1);
  EXPECT_EQ(d.neighbour(0, 2, -1, true), 2);
  EXPECT_EQ(d.neighbour(2, 2, +1, true), 0);
  EXPECT_EQ(d.neighbour(1, 2, +1, false), 2);
  Decomposition one(extents_3d(4, 4, 9), 1);
  EXPECT_EQ(one.neighbour(0, 2, +1, true), 0);  // wraps onto itself
}

TEST(SkeletonLayout, SplitCoversThePartOnceWithAnInteriorThatNeedsNoHalo) {
  PartLayout L;
  L.owned.hi = {9, 7, 5};
  for (Index3 r : {Index3{1, 1, 1}, Index3{2, 0, 3}, Index3{5, 4, 3}}) {
    const InnerOuter s = L.split(r);
    index_t covered = s.inner.volume();
    for (int i = 0; i < s.outer_count; ++i) covered += s.outer[i].volume();
    EXPECT_EQ(covered, 9 * 7 * 5);
    for (int a = 0; a < 3; ++a)
      if (!s.inner.empty()) {
        EXPECT_GE(s.inner.lo[a], r[a]);
        EXPECT_LE(s.inner.hi[a], L.owned.hi[a] - r[a]);
      }
  }
}

TEST(SkeletonLayout, EveryAxisGetsItsWidthHalosAndGhostLayersAlike) {
  Team team = Team::open("cpu", 2);
  Decomposition d(extents_3d(6, 5, 8), 2);  // two parts along z: 6 x 5 x 4 each
  auto L = detail::make_layouts(d, team, 3, {1, 2, 2});
  EXPECT_EQ(L[1].halo, (Index3{1, 2, 2}));
  EXPECT_EQ(L[1].padded, (Index3{8, 9, 8}));
  EXPECT_EQ(L[1].component_stride, 8 * 9 * 8);
  EXPECT_EQ(L[1].offset(-1, -2, -2, 1), 8 * 9 * 8);  // the halo starts each component's block
}

TEST(SkeletonLayout, TheShellCoversThePaddedBoxLessTheOwnedOneExactlyOnce) {
  Team team = Team::open("cpu", 2);
  Decomposition d(extents_3d(6, 5, 8), 2);
  for (const Index3 w : {Index3{1, 2, 2}, Index3{0, 1, 3}, Index3{0, 0, 0}}) {
    const auto L = detail::make_layouts(d, team, 1, w)[0];
    const InnerOuter s = L.shell();
    std::vector<int> hits(static_cast<std::size_t>(L.component_stride), 0);
    for (int i = 0; i < s.outer_count; ++i)
      for (index_t z = s.outer[i].lo[2]; z < s.outer[i].hi[2]; ++z)
        for (index_t y = s.outer[i].lo[1]; y < s.outer[i].hi[1]; ++y)
          for (index_t x = s.outer[i].lo[0]; x < s.outer[i].hi[0]; ++x)
            ++hits[static_cast<std::size_t>(L.offset(x, y, z))];
    for (index_t z = -w[2]; z < L.extent(2) + w[2]; ++z)
      for (index_t y = -w[1]; y < L.extent(1) + w[1]; ++y)
        for (index_t x = -w[0]; x < L.extent(0) + w[0]; ++x) {
          const bool owned =
              x >= 0 && x < L.extent(0) && y >= 0 && y < L.extent(1) && z >= 0 && z < L.extent(2);
          EXPECT_EQ(hits[static_cast<std::size_t>(L.offset(x, y, z))], owned ? 0 : 1)
              << x << " " << y << " " << z;
        }
  }
}

}  // namespace
}  // namespace tessera::skeleton
