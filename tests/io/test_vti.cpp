// The shared .vti/.pvd writer: header, extents, offsets and the appended raw
// arrays read back bitwise; an array of the wrong size is refused by name.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "core/error.hpp"
#include "io/vti.hpp"
#include "test_support.hpp"

namespace tessera::io {
namespace {

std::filesystem::path tmp(const std::string& name) {
  return std::filesystem::temp_directory_path() /
         ("tessera_vti_" + std::to_string(getpid()) + "_" + name);
}

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

TEST(Vti, PointAndCellArraysReadBackBitwise) {
  VtiImage im;
  im.extent = {3, 2, 1};  // 4 x 3 x 2 points
  im.origin = {0.5, -1, 2};
  im.spacing = {0.25, 0.5, 1};
  im.time = 1.5;
  const auto a = test::random_vector<double>(24, 3);
  const auto v = test::random_vector<float>(72, 4);
  im.arrays.push_back({"a", 1, a, {}});
  im.arrays.push_back({"v", 3, {}, v});
  im.active_scalars = "a";
  im.active_vectors = "v";
  const auto path = tmp("p.vti");
  write_vti(path, im);
  const std::string s = slurp(path);
  EXPECT_NE(s.find("WholeExtent=\"0 3 0 2 0 1\" Origin=\"0.5 -1 2\" Spacing=\"0.25 0.5 1\""),
            std::string::npos);
  EXPECT_NE(s.find("<PointData Scalars=\"a\" Vectors=\"v\">"), std::string::npos);
  EXPECT_NE(s.find("Name=\"TimeValue\" NumberOfTuples=\"1\" format=\"ascii\">1.5<"),
            std::string::npos);
  EXPECT_NE(s.find("type=\"Float64\" Name=\"a\" format=\"appended\" offset=\"0\""),
            std::string::npos);
  EXPECT_NE(
      s.find(
          "type=\"Float32\" Name=\"v\" NumberOfComponents=\"3\" format=\"appended\" offset=\"200\""),
      std::string::npos);  // 8 + 24 * 8
  const char* p = s.data() + s.find('_', s.find("<AppendedData")) + 1;
  std::uint64_t n = 0;
  std::memcpy(&n, p, 8);
  ASSERT_EQ(n, 24u * 8u);
  EXPECT_EQ(std::memcmp(p + 8, a.data(), n), 0);
  std::memcpy(&n, p + 200, 8);
  ASSERT_EQ(n, 72u * 4u);
  EXPECT_EQ(std::memcmp(p + 208, v.data(), n), 0);
  const std::string tail = "\n  </AppendedData>\n</VTKFile>\n";
  EXPECT_EQ(s.size(), std::size_t(p - s.data()) + 200 + 8 + 72 * 4 + tail.size());
  EXPECT_EQ(s.substr(s.size() - tail.size()), tail);

  VtiImage cells;
  cells.extent = {3, 2, 0};  // 3 x 2 cells of a 2D image
  cells.cell_data = true;
  cells.arrays.push_back({"h", 1, test::random_vector<double>(6, 5), {}});
  write_vti(tmp("c.vti"), cells);
  EXPECT_NE(slurp(tmp("c.vti")).find("<CellData>"), std::string::npos);
  cells.arrays[0].f64.pop_back();
  try {
    write_vti(tmp("bad.vti"), cells);
    ADD_FAILURE() << "an array of 5 values for 6 cells was written";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("array 'h'"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(std::filesystem::exists(tmp("bad.vti")));
  for (const char* f : {"p.vti", "c.vti"}) std::filesystem::remove(tmp(f));
}

TEST(Vti, PvdListsTheSeries) {
  write_pvd(tmp("s.pvd"), {{0.0, "a_0.vti"}, {0.1, "a_1.vti"}, {0.2, "r&d \"x\".vti"}});
  const std::string s = slurp(tmp("s.pvd"));
  EXPECT_NE(s.find("timestep=\"0\" part=\"0\" file=\"a_0.vti\""), std::string::npos);
  EXPECT_NE(s.find("timestep=\"0.1\" part=\"0\" file=\"a_1.vti\""), std::string::npos);
  EXPECT_NE(s.find("file=\"r&amp;d &quot;x&quot;.vti\""),
            std::string::npos);  // escaped: a user's file name
  std::filesystem::remove(tmp("s.pvd"));
}

}  // namespace
}  // namespace tessera::io
