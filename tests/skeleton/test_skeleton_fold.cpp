// fold: the canonical order gives the same bits on every backend and for
// every decomposition, also those that cut x-rows (off the chunk grid);
// close to a sequential sum; exact for integers on any decomposition.
#include <cmath>

#include "skeleton_test_support.hpp"

namespace tessera::skeleton {
namespace {

namespace ex = examples;

class SkeletonFold : public ::testing::TestWithParam<std::string> {};

template <class T, class Fn>
T fold_on(const std::string& id, int parts, std::array<int, 3> grid, const Extents& e,
          const std::vector<T>& v, const Fn& fn) {
  Team team = Team::open(id, parts);
  FieldOptions o;
  o.parts = grid;
  DC<T> a(team, e.n[0], e.n[1], e.n[2], o);
  a.scatter(v);
  return a.fold(fn);
}

TEST_P(SkeletonFold, SameBitsAsTheCpuForEveryDecomposition) {
  // rows of 5000 (two chunks of the 4096 grid) and of 7 (partial chunk), odd plane counts
  const auto add = portable(ex::Add{}, ex::cl_point("ts_skel_add"));
  for (const Extents e : {extents_3d(5000, 3, 5), extents_3d(7, 9, 11)}) {
    const auto v = tessera::test::random_vector<float>(static_cast<std::size_t>(e.volume()), 31);
    const float cpu = fold_on<float>("cpu", 1, {0, 0, 0}, e, v, add);
    double seq = 0;
    for (float x : v) seq += x;
    EXPECT_NEAR(cpu, seq, 1e-4 * static_cast<double>(v.size()) * 1e-2);
    const int most = std::min(4, test::max_parts(GetParam()));
    std::vector<std::array<int, 3>> grids{{0, 0, 0}};
    for (int parts = 2; parts <= most; ++parts)
      grids.push_back({parts, 1, 1});           // cuts x: chunks split
    if (most >= 3) grids.push_back({1, 3, 1});  // cuts y
    if (most >= 4) grids.push_back({2, 1, 2});  // cuts x and z
    for (int parts = 1; parts <= most; ++parts)
      for (const auto& grid : grids) {
        const int needed = grid[0] ? grid[0] * grid[1] * grid[2] : parts;
        if (needed != parts) continue;
        const float got = fold_on<float>(GetParam(), parts, grid, e, v, add);
        EXPECT_EQ(std::memcmp(&got, &cpu, sizeof got), 0)
            << parts << " parts, grid " << grid[0] << "x" << grid[1] << "x" << grid[2] << ": "
            << got << " vs " << cpu;
      }
  }
}

// DA is cut along its only axis: a fold over 1, 2 or 3 parts (cuts inside the
// 4096-element chunks) gives the one-part bits.
TEST_P(SkeletonFold, DistributedArrayFoldIsIndependentOfThePartCount) {
  const auto add = portable(ex::Add{}, ex::cl_point("ts_skel_add"));
  const auto v = tessera::test::random_vector<float>(10007, 33);
  float want = 0;
  for (int parts = 1; parts <= std::min(3, test::max_parts(GetParam())); ++parts) {
    DA<float> a(Team::open(GetParam(), parts), 10007);
    a.scatter(v);
    const float got = a.fold(add);
    if (parts == 1) want = got;
    EXPECT_EQ(std::memcmp(&got, &want, sizeof got), 0)
        << parts << " parts: " << got << " vs " << want;
  }
}

TEST_P(SkeletonFold, MaxAndDoubles) {
  const Extents e = extents_3d(33, 4, 6);
  auto v = tessera::test::random_vector<double>(static_cast<std::size_t>(e.volume()), 32);
  v[417] = 7.5;
  Team team = Team::open(GetParam(), std::min(2, test::max_parts(GetParam())));
  DC<double> a(team, 33, 4, 6);
  a.scatter(v);
  EXPECT_EQ(a.fold(portable(ex::Max{}, ex::cl_point("ts_skel_max"))), 7.5);
}

TEST_P(SkeletonFold, IntegersAreExactOnAnyDecomposition) {
  const Extents e = extents_3d(10, 6, 7);
  std::vector<std::int64_t> v(static_cast<std::size_t>(e.volume()));
  std::int64_t want = 0;
  for (std::size_t i = 0; i < v.size(); ++i)
    want += v[i] = static_cast<std::int64_t>(i * 2654435761u % 100000);
  const ClFunction add{"TS_FN ts_real add(ts_real a, ts_real b) { return a + b; }", "add"};
  const int n = std::min(4, test::max_parts(GetParam()));
  for (auto grid : {std::array<int, 3>{0, 0, 0}, std::array<int, 3>{n, 1, 1}})
    EXPECT_EQ(fold_on<std::int64_t>(GetParam(), n, grid, e, v, portable(ex::IntAdd{}, add)), want)
        << grid[0];
}

INSTANTIATE_TEST_SUITE_P(Devices, SkeletonFold, ::testing::ValuesIn(tessera::test::device_ids()),
                         tessera::test::id_name);

}  // namespace
}  // namespace tessera::skeleton
