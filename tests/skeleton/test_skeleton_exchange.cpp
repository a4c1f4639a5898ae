// Field::exchange as a native kernel uses it (the LBM pattern): only the
// requested components per face, periodic wrap, inner/outer hooks in order;
// host mirror round trip.
#include "skeleton_test_support.hpp"

namespace tessera::skeleton {
namespace {

class SkeletonExchange : public ::testing::TestWithParam<std::string> {};

// Value of global cell (x, y, z) of component c: unique and never zero.
float tagged(index_t x, index_t y, index_t z, int c) {
  return float(1 + x + 100 * y + 10000 * z) + 0.25f * c;
}

TEST_P(SkeletonExchange, OnlyRequestedComponentsCrossEachFace) {
  const int parts = std::min(3, test::max_parts(GetParam()));
  if (parts < 2) GTEST_SKIP() << "needs 2 devices";
  Team team = Team::open(GetParam(), parts);
  const Extents e = extents_3d(3, 2, 8);
  FieldOptions o;
  o.halo = {0, 0, 1};
  Field<float> f(team, e, 3, o);
  std::vector<float> g(static_cast<std::size_t>(e.volume() * 3));
  for (int c = 0; c < 3; ++c)
    for (index_t z = 0; z < 8; ++z)
      for (index_t y = 0; y < 2; ++y)
        for (index_t x = 0; x < 3; ++x)
          g[static_cast<std::size_t>(c * e.volume() + (z * 2 + y) * 3 + x)] = tagged(x, y, z, c);
  // poison the whole buffers (halos included), then set the owned cells
  for (int p = 0; p < f.parts(); ++p) {
    std::vector<float> nan(static_cast<std::size_t>(f.layout(p).elements()),
                           tessera::test::poison<float>());
    f.buffer(p).copy_from_host(nan);
  }
  f.scatter(g);
  ExchangeRequest r;
  r.per_face = true;
  r.to_upper[2] = {0, 2};
  r.to_lower[2] = {1};
  std::vector<std::string> order;
  f.exchange(
      r, [&](int p, Queue&) { order.push_back("inner" + std::to_string(p)); },
      [&](int p, Queue&) { order.push_back("outer" + std::to_string(p)); });
  ASSERT_EQ(order.size(), static_cast<std::size_t>(2 * parts));
  for (int p = 0; p < parts; ++p) {
    EXPECT_EQ(order[static_cast<std::size_t>(p)], "inner" + std::to_string(p));
    EXPECT_EQ(order[static_cast<std::size_t>(parts + p)], "outer" + std::to_string(p));
  }
  for (int p = 0; p < f.parts(); ++p) {
    const PartLayout& L = f.layout(p);
    const auto buf = f.buffer(p).to_vector();
    for (int c = 0; c < 3; ++c)
      for (index_t y = 0; y < 2; ++y)
        for (index_t x = 0; x < 3; ++x) {
          const float below = buf[static_cast<std::size_t>(L.offset(x, y, -1, c))];
          const float above = buf[static_cast<std::size_t>(L.offset(x, y, L.extent(2), c))];
          const bool has_below = L.owned.lo[2] > 0, has_above = L.owned.hi[2] < 8;
          // the lower halo receives what the lower neighbour sends up: 0 and 2
          if (has_below && c != 1)
            EXPECT_EQ(below, tagged(x, y, L.owned.lo[2] - 1, c));
          else
            EXPECT_TRUE(std::isnan(below)) << "part " << p << " c " << c;
          if (has_above && c == 1)
            EXPECT_EQ(above, tagged(x, y, L.owned.hi[2], c));
          else
            EXPECT_TRUE(std::isnan(above)) << "part " << p << " c " << c;
        }
  }
  EXPECT_GT(f.last_exchange().peer_bytes + f.last_exchange().local_bytes, 0u);
}

TEST_P(SkeletonExchange, PeriodicWrapsTheDomainEnds) {
  const int parts = std::min(2, test::max_parts(GetParam()));
  Team team = Team::open(GetParam(), parts);
  const Extents e = extents_3d(2, 2, 6);
  FieldOptions o;
  o.halo = {0, 0, 2};
  Field<float> f(team, e, 1, o);
  std::vector<float> g(static_cast<std::size_t>(e.volume()));
  for (index_t z = 0; z < 6; ++z)
    for (index_t i = 0; i < 4; ++i)
      g[static_cast<std::size_t>(z * 4 + i)] = tagged(i % 2, i / 2, z, 0);
  f.scatter(g);
  ExchangeRequest r;
  r.periodic = {false, false, true};
  f.exchange(r);
  const PartLayout& first = f.layout(0);
  const auto buf = f.buffer(0).to_vector();
  EXPECT_EQ(buf[static_cast<std::size_t>(first.offset(1, 1, -1))], tagged(1, 1, 5, 0));
  EXPECT_EQ(buf[static_cast<std::size_t>(first.offset(0, 1, -2))], tagged(0, 1, 4, 0));
}

TEST_P(SkeletonExchange, HostMirrorRoundTrip) {
  Team team = Team::open(GetParam(), std::min(2, test::max_parts(GetParam())));
  Field<double> f(team, extents_3d(5, 4, 3), 2, FieldOptions{{0, 0, 0}, {0, 0, 1}});
  f.fill(2.0);
  f.to_host();
  for (int p = 0; p < f.parts(); ++p)
    for (double& v : f.host(p)) v += p + 1;
  f.to_device();
  f.to_host();
  for (int p = 0; p < f.parts(); ++p)
    for (double v : f.host(p)) EXPECT_EQ(v, 3.0 + p);
  EXPECT_THROW(f.scatter(std::vector<double>(7)), Error);
}

INSTANTIATE_TEST_SUITE_P(Devices, SkeletonExchange,
                         ::testing::ValuesIn(tessera::test::device_ids()), tessera::test::id_name);

}  // namespace
}  // namespace tessera::skeleton
