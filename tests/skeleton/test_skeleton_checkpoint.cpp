// Skeleton field checkpoints: a blur run interrupted on one part (or several),
// saved, restored on another part count or the CPU, and continued ends bit
// for bit where the straight run ends; the format round-trips and rejects
// corrupt files and files of another field with what differs.
#include <filesystem>
#include <fstream>

#include "core/atomic_file.hpp"
#include "io/checkpoint_container.hpp"
#include "skeleton_test_support.hpp"

namespace tessera::skeleton {
namespace {

namespace ex = examples;
using test::same_bits;

std::filesystem::path temp_file(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / "tessera-skel-ckpt";
  std::filesystem::create_directories(dir);
  return dir /
         (name + "-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + ".ckpt");
}

std::string read_all(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

const Extents kE = extents_3d(11, 7, 9);  // a side that no part count here divides

std::vector<double> initial() {
  return tessera::test::random_vector<double>(static_cast<std::size_t>(kE.volume()), 5);
}

// `steps` 27-point blur steps (mirror boundaries) on `parts` parts of `id`, from `start`.
std::vector<double> blur(const std::string& id, int parts, const std::vector<double>& start,
                         int steps, const std::filesystem::path& save_at_end = {},
                         std::uint64_t step0 = 0) {
  Team team = Team::open(id, parts);
  DC<double> c(team, kE.n[0], kE.n[1], kE.n[2]);
  c.scatter(start);
  const auto f = portable(ex::Blur27{}, ex::cl_stencil("ts_skel_blur27"));
  for (int s = 0; s < steps; ++s)
    c.mapStencilInPlace(f, Stencil::uniform(1, BoundaryMode::mirror), 0.0);
  if (!save_at_end.empty())
    save_checkpoint(c, save_at_end, step0 + static_cast<std::uint64_t>(steps));
  return c.gather();
}

class SkeletonCheckpoint : public ::testing::TestWithParam<std::string> {};

TEST_P(SkeletonCheckpoint, RestartOnAnotherPartCountContinuesBitwise) {
  const auto start = initial();
  const int parts = std::min(3, test::max_parts(GetParam()));
  const std::vector<double> straight = blur(GetParam(), 1, start, 7);
  for (int saved_on : {1, parts})
    for (int restored_on : {1, parts}) {
      SCOPED_TRACE(fmt::format("saved on {} part(s), restored on {}", saved_on, restored_on));
      const auto file = temp_file("blur");
      blur(GetParam(), saved_on, start, 3, file);
      Team team = Team::open(GetParam(), restored_on);
      DC<double> c(team, kE.n[0], kE.n[1], kE.n[2], tessera::test::poison<double>());
      ASSERT_EQ(load_checkpoint(c, file), 3u);
      const auto f = portable(ex::Blur27{}, ex::cl_stencil("ts_skel_blur27"));
      for (int s = 3; s < 7; ++s)
        c.mapStencilInPlace(f, Stencil::uniform(1, BoundaryMode::mirror), 0.0);
      EXPECT_TRUE(same_bits(c.gather(), straight));
    }
}

TEST_P(SkeletonCheckpoint, ACheckpointOfADeviceRestoresOnTheCpu) {
  const auto file = temp_file("device-to-cpu");
  const std::vector<double> saved = blur(GetParam(), 1, initial(), 2, file, 40);
  Team cpu = Team::open("cpu", 2);
  DC<double> c(cpu, kE.n[0], kE.n[1], kE.n[2]);
  EXPECT_EQ(load_checkpoint(c, file), 42u);
  EXPECT_TRUE(same_bits(c.gather(), saved));
}

INSTANTIATE_TEST_SUITE_P(Devices, SkeletonCheckpoint,
                         ::testing::ValuesIn(tessera::test::device_ids()), tessera::test::id_name);

TEST(SkeletonCheckpointFormat, RoundTripsEveryContainerAndElement) {
  Team team = Team::open("cpu", 2);
  DA<int> a(team, 13);
  a.scatter(std::vector<int>{3, -1, 4, 1, -5, 9, 2, -6, 5, 3, 5, 8, -9});
  const auto fa = temp_file("da");
  save_checkpoint(a, fa, 17);
  DA<int> a2(team, 13, 0);
  EXPECT_EQ(load_checkpoint(a2, fa), 17u);
  EXPECT_EQ(a2.gather(), a.gather());
  const auto c = parse_field_checkpoint(read_all(fa), fa.string());
  EXPECT_EQ(c.header.element, "int32");
  EXPECT_EQ(c.header.extents.dims, 1);
  EXPECT_EQ(c.header.step, 17u);

  DM<float> m(team, 6, 5);
  m.scatter(tessera::test::random_vector<float>(30, 9));
  const auto fm = temp_file("dm");
  save_checkpoint(m, fm);
  DM<float> m2(Team::open("cpu", 3), 6, 5, 0.0f);
  EXPECT_EQ(load_checkpoint(m2, fm), 0u);
  EXPECT_TRUE(same_bits(m2.gather(), m.gather()));

  Field<double> f(team, extents_3d(4, 3, 5), 3);  // several components
  f.scatter(tessera::test::random_vector<double>(180, 4));
  const auto ff = temp_file("field3");
  save_checkpoint(f, ff, 5);
  Field<double> f2(Team::open("cpu", 1), extents_3d(4, 3, 5), 3);
  f2.fill(-1.0);
  EXPECT_EQ(load_checkpoint(f2, ff), 5u);
  EXPECT_TRUE(same_bits(f2.gather(), f.gather()));
}

// A checkpoint of another field is rejected with what differs, and the field keeps its values.
TEST(SkeletonCheckpointFormat, AnotherFieldIsRejectedWithWhatDiffers) {
  Team team = Team::open("cpu", 1);
  DC<float> c(team, 4, 3, 2, 1.5f);
  const auto file = temp_file("mismatch");
  save_checkpoint(c, file);
  auto expect_error = [&](auto& field, const std::string& what) {
    const auto before = field.gather();
    try {
      load_checkpoint(field, file);
      ADD_FAILURE() << "accepted: " << what;
    } catch (const UsageError& e) {  // the file is fine; the field asked for is another
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(file.string()), std::string::npos) << e.what();
    }
    EXPECT_TRUE(same_bits(field.gather(), before));
  };
  DC<float> other_size(team, 5, 3, 2, 2.0f);
  expect_error(other_size, "extents 4x3x2 in the file, 5x3x2 in the field");
  DC<double> other_type(team, 4, 3, 2, 2.0);
  expect_error(other_type,
               "elements 'float32' (4 bytes) in the file, 'float64' (8 bytes) in the field");
  DM<float> other_dims(team, 4, 3, 2.0f);
  expect_error(other_dims, "3-D in the file, 2-D in the field");
  Field<float> other_components(team, extents_3d(4, 3, 2), 2);
  other_components.fill(0.5f);
  expect_error(other_components, "1 components in the file, 2 in the field");
}

TEST(SkeletonCheckpointFormat, CorruptFilesAreRejected) {
  FieldCheckpointHeader h{extents_3d(3, 2, 2), 1, "float32", 4, 9};
  const std::vector<float> v = tessera::test::random_vector<float>(12, 3);
  const std::string good =
      format_field_checkpoint(h, {reinterpret_cast<const char*>(v.data()), v.size() * 4});
  const auto parsed = parse_field_checkpoint(good, "good");
  EXPECT_EQ(parsed.header, h);
  EXPECT_EQ(parsed.values.size(), 48u);
  auto rejects = [&](std::string bytes, const std::string& what) {
    try {
      parse_field_checkpoint(bytes, "f.ckpt");
      ADD_FAILURE() << "accepted: " << what;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("f.ckpt: not a valid skeleton checkpoint"),
                std::string::npos)
          << e.what();
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
    }
  };
  std::string flipped = good;
  flipped[flipped.size() - 20] ^= 0x10;  // a value bit: the checksum no longer matches
  rejects(flipped, "checksum");
  rejects(good.substr(0, good.size() - 9), "");
  rejects("TSLBMCK1" + good.substr(8), "");  // another checkpoint's magic
  // header fields: forged sizes never allocate, bad values are named
  auto with = [&](FieldCheckpointHeader x, std::string_view payload) {
    return format_field_checkpoint(x, payload);
  };
  const std::string_view payload = parsed.values;
  FieldCheckpointHeader big = h;
  big.extents = extents_3d(std::int64_t(1) << 40, std::int64_t(1) << 40, 1 << 20);
  rejects(with(big, payload), "too large");
  FieldCheckpointHeader wrong = h;
  wrong.extents = extents_3d(4, 2, 2);
  rejects(with(wrong, payload), "48 bytes of values, the header's field needs 64");
  // (the writer refuses these itself: forged through the container)
  nlohmann::json zero = {
      {"extents", {3, 2, 2}}, {"dims", 3},          {"components", 1}, {"element", "float32"},
      {"element_bytes", 0},   {"endian", "little"}, {"step", 9}};
  rejects(io::format_container("TSSKLCK1", zero, {payload}), "'element_bytes' is 0");
  nlohmann::json comps = zero;
  comps["element_bytes"] = 4;
  comps["components"] = 5000;
  rejects(io::format_container("TSSKLCK1", comps, {payload}), "'components' is 5000");
  nlohmann::json two = comps;  // io::header_integers3, shared with the LBM reader
  two["components"] = 1;
  two["extents"] = {3, 2};
  rejects(io::format_container("TSSKLCK1", two, {payload}),
          "'extents' is not an array of 3 integers");
  nlohmann::json real = two;
  real["extents"] = {3, 2.5, 2};
  rejects(io::format_container("TSSKLCK1", real, {payload}), "'extents' is not an integer");
  FieldCheckpointHeader flat = h;
  flat.extents.dims = 2;
  rejects(with(flat, payload), "a 2-D field with 2 cells along axis 2");
  // what the reader refuses is not written either
  FieldCheckpointHeader many = h;
  many.components = 5000;
  EXPECT_THROW(format_field_checkpoint(many, std::string(5000 * 48, '\0')), Error);
  FieldCheckpointHeader late = h;
  late.step = std::uint64_t(1) << 63;
  EXPECT_THROW(format_field_checkpoint(late, payload), Error);
}

}  // namespace
}  // namespace tessera::skeleton
