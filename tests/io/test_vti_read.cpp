// Reading .vti arrays (io/vti_read.hpp) from files VTK itself wrote in each
// of its layouts (tests/data/vti/make_fixtures.py: ascii, binary and
// appended, raw or base64, with and without zlib, UInt32 and UInt64
// headers, cell and point data), from tessera's own writer, and bad files
// refused with the file and the reason. Expected values come from the
// fixtures' formulas, not from the files.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "core/error.hpp"
#include "io/vti.hpp"
#include "io/vti_read.hpp"

namespace tessera::io {
namespace {

namespace fs = std::filesystem;
const fs::path kData = fs::path(TESSERA_TEST_DATA) / "vti";

void expect_fixture(const fs::path& p, bool cells) {
  SCOPED_TRACE(p.filename().string());
  const VtiField solid = read_vti_array(p, "solid");
  EXPECT_EQ(solid.cell_data, cells);
  EXPECT_EQ(solid.type, "UInt8");
  ASSERT_EQ(solid.dims, (std::array<long, 3>{5, 4, 3}));
  ASSERT_EQ(solid.values.size(), 60u);
  const VtiField value = read_vti_array(p, "value");
  const VtiField vel = read_vti_array(p, "velocity");
  ASSERT_EQ(vel.components, 3);
  ASSERT_EQ(vel.values.size(), 180u);
  for (long z = 0; z < 3; ++z)
    for (long y = 0; y < 4; ++y)
      for (long x = 0; x < 5; ++x) {
        const std::size_t n = std::size_t(x + 5 * (y + 4 * z));
        EXPECT_EQ(solid.values[n], (x + 2 * y + 3 * z) % 4 == 0 ? 1.0 : 0.0) << n;
        EXPECT_EQ(value.values[n], double(x + 10 * y + 100 * z) + 0.25) << n;
        EXPECT_EQ(vel.values[3 * n], double(x));
        EXPECT_EQ(vel.values[3 * n + 1], double(y));
        EXPECT_EQ(vel.values[3 * n + 2], double(z));
      }
}

TEST(VtiRead, EveryLayoutVtkWrites) {
  if (!vti_reading_available()) GTEST_SKIP() << "built without expat";
  for (const char* f : {"cells_ascii.vti", "cells_binary_zlib.vti", "cells_binary_u32.vti",
                        "cells_appended_base64_zlib.vti", "cells_appended_raw.vti",
                        "cells_appended_raw_zlib_u32.vti"})
    expect_fixture(kData / f, true);
  expect_fixture(kData / "points_appended_base64.vti", false);
}

fs::path scratch(const std::string& name) {
  const fs::path d = fs::temp_directory_path() / ("tessera_vti_read_" + std::to_string(::getpid()));
  fs::create_directories(d);
  return d / name;
}

TEST(VtiRead, TesserasOwnFilesReadBack) {
  if (!vti_reading_available()) GTEST_SKIP() << "built without expat";
  VtiImage im;
  im.extent = {3, 2, 1};
  im.cell_data = true;
  VtiArray a;
  a.name = "solid";
  a.f32 = {0, 1, 1, 0, 1, 0};
  VtiArray b;
  b.name = "rho";
  b.f64 = {1.5, 2.5, 3.5, 4.5, 5.5, 6.5};
  im.arrays = {a, b};
  const fs::path p = scratch("own.vti");
  write_vti(p, im);
  const VtiField s = read_vti_array(p, "solid"), r = read_vti_array(p, "rho");
  EXPECT_EQ(s.values, (std::vector<double>{0, 1, 1, 0, 1, 0}));
  EXPECT_EQ(r.values, (std::vector<double>{1.5, 2.5, 3.5, 4.5, 5.5, 6.5}));
  EXPECT_EQ(s.dims, (std::array<long, 3>{3, 2, 1}));
}

void expect_refused(const std::string& text, const std::string& name, const std::string& why) {
  const fs::path p = scratch("bad.vti");
  std::ofstream(p, std::ios::binary) << text;
  try {
    read_vti_array(p, name);
    ADD_FAILURE() << "accepted: " << why;
  } catch (const Error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find(p.string()), std::string::npos) << m;
    EXPECT_NE(m.find(why), std::string::npos) << m;
  }
}

std::string file_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(VtiRead, BadFilesAreRefusedWithTheReason) {
  if (!vti_reading_available()) GTEST_SKIP() << "built without expat";
  const std::string good = file_text(kData / "cells_binary_zlib.vti");
  const std::string raw = file_text(kData / "cells_appended_raw.vti");
  auto replaced = [](const std::string& s, const std::string& a, const std::string& b) {
    const auto at = s.find(a);
    EXPECT_NE(at, std::string::npos) << a;
    if (at == std::string::npos) return s;
    return s.substr(0, at) + b + s.substr(at + a.size());
  };
  expect_refused("not xml at all", "", "not a VTK XML file");
  expect_refused(replaced(good, "type=\"ImageData\"", "type=\"PolyData\""), "solid",
                 "of type 'PolyData', not ImageData");
  expect_refused(replaced(good, "LittleEndian", "BigEndian"), "solid", "byte_order BigEndian");
  expect_refused(replaced(good, "vtkZLibDataCompressor", "vtkLZ4DataCompressor"), "solid",
                 "compressor vtkLZ4DataCompressor");
  expect_refused(good, "pressure", "no array 'pressure' (the file has: solid, value, velocity)");
  expect_refused(replaced(good, "Name=\"solid\"", "Name=\"mask\""), "",
                 "3 arrays (mask, value, velocity): name the one to read");
  EXPECT_EQ(read_vti_array(kData / "cells_binary_zlib.vti").name, "solid") << "the default";
  expect_refused(
      replaced(good, "AQAAAAAAAABAAAAAAAAAADwAAAAAAAAAFwAAAAAAAAA=eF5jZGBgYIQhJIoBwWNAl4OxAAIkABE=",
               "AQAAAAAAAABAAAAAAAAAADwAAAAAAAAAFwAAAAAAAAA=eF5jZGBgYIQhJIoBwWNAl4OxAAIkABA="),
      "solid", "compressed block 1 of 1 is corrupt");
  expect_refused(replaced(good, "WholeExtent=\"0 5 0 4 0 3\"", "WholeExtent=\"0 5 0 4 0 4\""),
                 "solid", "the piece's Extent is not the WholeExtent");
  expect_refused(
      replaced(replaced(good, "WholeExtent=\"0 5 0 4 0 3\"", "WholeExtent=\"0 5 0 4 0 4\""),
               "Extent=\"0 5 0 4 0 3\"", "Extent=\"0 5 0 4 0 4\""),
      "solid", "the array holds 60 bytes, the extent needs 80");
  expect_refused(raw.substr(0, raw.size() - 200), "velocity", "truncated");
  // 2^30 x 2^30 x 16 points: the count would wrap a 64-bit product
  expect_refused(
      replaced(replaced(file_text(kData / "cells_ascii.vti"), "WholeExtent=\"0 5 0 4 0 3\"",
                        "WholeExtent=\"0 1073741823 0 1073741823 0 15\""),
               "Extent=\"0 5 0 4 0 3\"", "Extent=\"0 1073741823 0 1073741823 0 15\""),
      "value", "more than 2^40 values");
  expect_refused(replaced(file_text(kData / "cells_ascii.vti"), "1.25 2.25", "1.25 2.x5"), "value",
                 "is not a number");
  expect_refused(
      replaced(good, "Direction=\"1 0 0 0 1 0 0 0 1\"", "Direction=\"0 1 0 1 0 0 0 0 1\""), "solid",
      "a rotated image");
}

}  // namespace
}  // namespace tessera::io
