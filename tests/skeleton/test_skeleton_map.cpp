// map, mapIndex, zip, zipIndex and their InPlace variants on DA, DM and DC,
// on every device against the sequential loop, bitwise (same function, same
// operations, contraction off), on 1 and 3 parts (3 does not divide the sizes).
#include "skeleton_test_support.hpp"

namespace tessera::skeleton {
namespace {

namespace ex = examples;
using test::same_bits;

class SkeletonMap : public ::testing::TestWithParam<std::string> {};

template <class T>
void map_family_on(const std::string& id, int parts) {
  SCOPED_TRACE(id + " x" + std::to_string(parts) + (sizeof(T) == 4 ? " float" : " double"));
  Team team = Team::open(id, parts);
  const index_t nx = 13, ny = 7, nz = 5;
  const auto a0 = tessera::test::random_vector<T>(nx * ny * nz, 11);
  const auto b0 = tessera::test::random_vector<T>(nx * ny * nz, 12);
  DC<T> a(team, nx, ny, nz), b(team, nx, ny, nz), out(team, nx, ny, nz, tessera::test::poison<T>());
  a.scatter(a0);
  b.scatter(b0);
  auto at = [&](index_t i) { return std::array<index_t, 3>{i % nx, i / nx % ny, i / (nx * ny)}; };

  a.map(portable(ex::Affine{}, ex::cl_point("ts_skel_affine")), out);
  std::vector<T> want(a0.size());
  for (std::size_t i = 0; i < a0.size(); ++i) want[i] = ex::point::ts_skel_affine(a0[i]);
  EXPECT_TRUE(same_bits(out.gather(), want)) << "map";

  a.mapIndex(portable(ex::Wave{}, ex::cl_point("ts_skel_wave3")), out);
  for (std::size_t i = 0; i < a0.size(); ++i) {
    const auto c = at(static_cast<index_t>(i));
    want[i] = ex::point::ts_skel_wave3(c[0], c[1], c[2], a0[i]);
  }
  EXPECT_TRUE(same_bits(out.gather(), want)) << "mapIndex";

  a.zip(b, portable(ex::Axpy{}, ex::cl_point("ts_skel_axpy")), out);
  for (std::size_t i = 0; i < a0.size(); ++i) want[i] = ex::point::ts_skel_axpy(a0[i], b0[i]);
  EXPECT_TRUE(same_bits(out.gather(), want)) << "zip";

  a.zipIndex(b, portable(ex::AxpyAt{}, ex::cl_point("ts_skel_axpy_at")), out);
  for (std::size_t i = 0; i < a0.size(); ++i) {
    const auto c = at(static_cast<index_t>(i));
    want[i] = ex::point::ts_skel_axpy_at(c[0], c[1], c[2], a0[i], b0[i]);
  }
  EXPECT_TRUE(same_bits(out.gather(), want)) << "zipIndex";

  // In place: a <- affine(a) <- wave(a) <- axpy(a, b) <- axpy_at(a, b)
  a.mapInPlace(portable(ex::Affine{}, ex::cl_point("ts_skel_affine")));
  a.mapIndexInPlace(portable(ex::Wave{}, ex::cl_point("ts_skel_wave3")));
  a.zipInPlace(b, portable(ex::Axpy{}, ex::cl_point("ts_skel_axpy")));
  a.zipIndexInPlace(b, portable(ex::AxpyAt{}, ex::cl_point("ts_skel_axpy_at")));
  for (std::size_t i = 0; i < a0.size(); ++i) {
    const auto c = at(static_cast<index_t>(i));
    T v = ex::point::ts_skel_affine(a0[i]);
    v = ex::point::ts_skel_wave3(c[0], c[1], c[2], v);
    v = ex::point::ts_skel_axpy(v, b0[i]);
    want[i] = ex::point::ts_skel_axpy_at(c[0], c[1], c[2], v, b0[i]);
  }
  EXPECT_TRUE(same_bits(a.gather(), want)) << "in-place chain";
}

TEST_P(SkeletonMap, EverySkeletonOnDcMatchesTheSequentialLoop) {
  for (int parts : {1, 3}) {
    if (parts > test::max_parts(GetParam())) continue;
    map_family_on<float>(GetParam(), parts);
    map_family_on<double>(GetParam(), parts);
  }
}

TEST_P(SkeletonMap, IndexVariantsOfDaAndDmPassTheirCoordinates) {
  const int parts = std::min(2, test::max_parts(GetParam()));
  Team team = Team::open(GetParam(), parts);
  const auto v = tessera::test::random_vector<float>(11 * 6, 3);
  DM<float> m(team, 11, 6), mo(team, 11, 6);
  m.scatter(v);
  m.mapIndex(portable(ex::Wave{}, ex::cl_point("ts_skel_wave2")), mo);
  std::vector<float> want(v.size());
  for (std::size_t i = 0; i < v.size(); ++i)
    want[i] = ex::point::ts_skel_wave2(long(i % 11), long(i / 11), v[i]);
  EXPECT_TRUE(same_bits(mo.gather(), want));
  DA<float> d(team, 66), dout(team, 66);
  d.scatter(v);
  d.mapIndex(portable(ex::Wave{}, ex::cl_point("ts_skel_wave1")), dout);
  for (std::size_t i = 0; i < v.size(); ++i) want[i] = ex::point::ts_skel_wave1(long(i), v[i]);
  EXPECT_TRUE(same_bits(dout.gather(), want));
}

TEST_P(SkeletonMap, ThesisDaExample) {
  // Muesli listing 2.2: da1 = [3,3,3,3]; da1.mapIndex(sum, da2) -> [3,4,5,6];
  // da1.zipInPlace(da2, product) -> [9,12,15,18].
  Team team = Team::open(GetParam(), std::min(3, test::max_parts(GetParam())));
  DA<int> da1(team, 4, 3), da2(team, 4);
  da1.mapIndex(portable(ex::DaSum{}, ex::cl_da("ts_skel_da_sum")), da2);
  EXPECT_EQ(da2.gather(), (std::vector<int>{3, 4, 5, 6}));
  da1.zipInPlace(da2, portable(ex::DaProduct{}, ex::cl_da("ts_skel_da_product")));
  EXPECT_EQ(da1.gather(), (std::vector<int>{9, 12, 15, 18}));
}

template <class T>
void increment_on(Team& team) {
  std::vector<T> v(37);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = T(int(i * 7 % 100) - 50);
  DA<T> a(team, 37);
  a.scatter(v);
  a.mapInPlace(
      portable(ex::Increment{},
               ClFunction{"TS_FN ts_real inc(ts_real v) { return (ts_real)(v + 1); }", "inc"}));
  auto got = a.gather();
  for (std::size_t i = 0; i < v.size(); ++i)
    EXPECT_EQ(got[i], T(v[i] + T(1))) << sizeof(T) << "-byte element " << i;
}

TEST_P(SkeletonMap, ElementTypesOfDifferentSizes) {
  Team team = Team::open(GetParam(), std::min(2, test::max_parts(GetParam())));
  increment_on<std::int8_t>(team);
  increment_on<std::int16_t>(team);
  increment_on<int>(team);
  increment_on<std::int64_t>(team);
  increment_on<float>(team);
  increment_on<double>(team);
  if (team.device(0).backend() == Backend::opencl) return;  // structures: C++ backends
  std::vector<ex::Vec3> v(19);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = {float(i), float(2 * i), float(3 * i)};
  DA<ex::Vec3> a(team, 19);
  a.scatter(v);
  a.mapInPlace(ex::Vec3Rotate{});
  auto got = a.gather();
  for (std::size_t i = 0; i < v.size(); ++i) {
    EXPECT_EQ(got[i].x, v[i].y);
    EXPECT_EQ(got[i].y, v[i].z);
    EXPECT_EQ(got[i].z, v[i].x * 2.0f);
  }
}

TEST_P(SkeletonMap, MismatchedShapesInZipAreClearErrors) {
  Team team = Team::open(GetParam(), 1);
  DC<float> a(team, 4, 4, 4, 1.0f), b(team, 4, 4, 5, 1.0f);
  try {
    a.zipInPlace(b, portable(ex::Axpy{}, ex::cl_point("ts_skel_axpy")));
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("4x4x4"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("4x4x5"), std::string::npos) << e.what();
  }
}

TEST_P(SkeletonMap, AFunctorWithoutTheOtherBackendsFormIsAUsageError) {
  Team team = Team::open(GetParam(), 1);
  DA<float> a(team, 8, 1.0f);
  if (team.device(0).backend() == Backend::opencl)
    EXPECT_THROW(a.mapInPlace(ex::Affine{}), UsageError);
  else
    EXPECT_THROW(a.mapInPlace(ex::cl_point("ts_skel_affine")), UsageError);
}

INSTANTIATE_TEST_SUITE_P(Devices, SkeletonMap, ::testing::ValuesIn(tessera::test::device_ids()),
                         tessera::test::id_name);

}  // namespace
}  // namespace tessera::skeleton
