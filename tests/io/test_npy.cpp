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

using test::npy_v1;

std::filesystem::path put(const std::string& name, const std::string& bytes) {
  std::ofstream(tmp(name), std::ios::binary) << bytes;
  return tmp(name);
}

TEST(Npy, ReadsBoolMasks) {
  // np.array([[True, False, True], [False, False, True]]) as NumPy writes it
  const auto a = read_npy(put("mask_b1.npy", npy_v1("{'descr': '|b1', 'fortran_order': False, "
                                                    "'shape': (2, 3), }",
                                                    std::string("\x01\x00\x01\x00\x00\x01", 6))));
  EXPECT_EQ(a.dtype, "|b1");
  EXPECT_EQ(a.shape, (std::vector<std::int64_t>{2, 3}));
  EXPECT_EQ(a.data, (std::vector<double>{1, 0, 1, 0, 0, 1}));
  // a 3-D mask (nz, ny, nx) = (2, 2, 2), last index fastest
  const auto b =
      read_npy(put("mask3_b1.npy", npy_v1("{'descr': '|b1', 'fortran_order': False, "
                                          "'shape': (2, 2, 2), }",
                                          std::string("\x00\x00\x00\x01\x01\x00\x00\x00", 8))));
  EXPECT_EQ(b.shape, (std::vector<std::int64_t>{2, 2, 2}));
  EXPECT_EQ(b.data, (std::vector<double>{0, 0, 0, 1, 1, 0, 0, 0}));
}

TEST(Npy, ReadsUint8AndInt8) {
  const auto u = read_npy(put("u1.npy", npy_v1("{'descr': '|u1', 'fortran_order': False, "
                                               "'shape': (4,), }",
                                               std::string("\x00\x01\x7f\xff", 4))));
  EXPECT_EQ(u.dtype, "|u1");
  EXPECT_EQ(u.data, (std::vector<double>{0, 1, 127, 255}));
  const auto i = read_npy(put("i1.npy", npy_v1("{'descr': '|i1', 'fortran_order': False, "
                                               "'shape': (4,), }",
                                               std::string("\x00\x01\x7f\xff", 4))));
  EXPECT_EQ(i.dtype, "|i1");
  EXPECT_EQ(i.data, (std::vector<double>{0, 1, 127, -1}));
  // a scalar and an empty array
  EXPECT_EQ(read_npy(put("u1_scalar.npy", npy_v1("{'descr': '|u1', 'fortran_order': False, "
                                                 "'shape': (), }",
                                                 "\x2a")))
                .data,
            (std::vector<double>{42}));
  EXPECT_TRUE(read_npy(put("u1_empty.npy", npy_v1("{'descr': '|u1', 'fortran_order': False, "
                                                  "'shape': (0, 5), }",
                                                  "")))
                  .data.empty());
}

TEST(Npy, MaskErrorsNameTheFileAndTheProblem) {
  auto expect_error = [](const std::string& name, const std::string& bytes,
                         const std::string& reason) {
    const auto p = put(name, bytes);
    try {
      read_npy(p);
      ADD_FAILURE() << name << " accepted; expected: " << reason;
    } catch (const Error& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find(p.string()), std::string::npos) << what;
      EXPECT_NE(what.find(reason), std::string::npos) << what;
    }
  };
  expect_error(
      "b1_fortran.npy",
      npy_v1("{'descr': '|b1', 'fortran_order': True, 'shape': (2, 2), }", std::string(4, '\x01')),
      "Fortran order is not supported");
  expect_error("u1_short.npy",
               npy_v1("{'descr': '|u1', 'fortran_order': False, 'shape': (3, 4), }",
                      std::string(11, '\x01')),
               "data truncated (expected 12 values)");
  expect_error("b1_two.npy",
               npy_v1("{'descr': '|b1', 'fortran_order': False, 'shape': (3,), }",
                      std::string("\x01\x00\x02", 3)),
               "boolean value 2 at element 2");
  expect_error(
      "u2.npy",
      npy_v1("{'descr': '<u2', 'fortran_order': False, 'shape': (2,), }", std::string(4, '\x01')),
      "dtype '<u2' (supported: '<f4', '<f8', '|b1', '|u1', '|i1')");
  expect_error("u1_huge.npy",
               npy_v1("{'descr': '|u1', 'fortran_order': False, 'shape': (1048576, 1048576), }",
                      std::string(16, '\x01')),
               "data truncated");
}

}  // namespace
}  // namespace tessera::io
