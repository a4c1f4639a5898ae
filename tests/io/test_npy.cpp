#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/error.hpp"
#include "io/npy.hpp"
#include "test_support.hpp"

namespace tessera::io {
namespace {

std::filesystem::path tmp(const std::string& name) {
  return std::filesystem::temp_directory_path() / ("tessera_npy_" + name);
}

TEST(Npy, RoundTripFloatAndDouble) {
  auto d = test::random_vector<double>(35, 1);
  write_npy(tmp("d.npy"), {5, 7}, d);
  auto a = read_npy(tmp("d.npy"));
  EXPECT_EQ(a.shape, (std::vector<std::int64_t>{5, 7}));
  EXPECT_EQ(a.dtype, "<f8");
  EXPECT_EQ(a.data, d);
  auto f = test::random_vector<float>(6, 2);
  write_npy(tmp("f.npy"), {6}, f);
  auto b = read_npy(tmp("f.npy"));
  ASSERT_EQ(b.data.size(), 6u);
  for (std::size_t i = 0; i < 6; ++i) EXPECT_EQ(static_cast<float>(b.data[i]), f[i]);
}

TEST(Npy, MalformedFilesAreRejectedWithReasons) {
  auto d = test::random_vector<double>(12, 3);
  write_npy(tmp("ok.npy"), {3, 4}, d);
  std::ifstream in(tmp("ok.npy"), std::ios::binary);
  std::string good((std::istreambuf_iterator<char>(in)), {});
  auto expect_error = [&](const std::string& bytes, const std::string& reason) {
    { std::ofstream(tmp("bad.npy"), std::ios::binary) << bytes; }
    try {
      read_npy(tmp("bad.npy"));
      FAIL() << "accepted: " << reason;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(reason), std::string::npos) << e.what();
    }
  };
  expect_error("garbage", "magic");
  expect_error(good.substr(0, good.size() - 5), "truncated");
  std::string fortran = good;
  fortran.replace(fortran.find("False"), 5, "True ");
  expect_error(fortran, "Fortran");
  std::string ints = good;
  ints.replace(ints.find("<f8"), 3, "<i8");
  expect_error(ints, "dtype");
  EXPECT_THROW(read_npy(tmp("does-not-exist.npy")), Error);
}

}  // namespace
}  // namespace tessera::io
