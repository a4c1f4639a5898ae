// OpenCL run-time compilation: failures show the compiler log; the on-disk
// binary cache is used, and a corrupt entry is rebuilt rather than trusted.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "backends/opencl/cl_device.hpp"
#include "core/launch/launch_opencl.hpp"
#include "core/buffer.hpp"
#include "core/error.hpp"
#include "dense/dense.hpp"
#include "test_support.hpp"

namespace tessera {
namespace {

std::vector<std::string> opencl_ids() {
  std::vector<std::string> ids;
  for (const auto& d : list_devices())
    if (d.backend == Backend::opencl) ids.push_back(d.id);
  if (ids.empty()) ids.push_back("none");
  return ids;
}

class OpenCLProgramTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (GetParam() == "none") GTEST_SKIP() << "no OpenCL device present";
  }
};

// Builds dense.cl with a scalar type that names no type, which cannot
// compile, and expects the BuildError to contain each of `needles`.
void expect_broken_build(opencl::ClDevice& cl, const std::vector<std::string>& needles) {
  try {
    cl.kernel("dense/kernels/dense.cl", "ew", "-Dts_real=broken_type -Dts_pack=float4 -DTS_PACK=4");
    ADD_FAILURE() << "the build succeeded";
  } catch (const BuildError& e) {
    const std::string msg = e.what();
    for (const auto& n : needles)
      EXPECT_NE(msg.find(n), std::string::npos) << n << " not in: " << msg;
  }
}

TEST_P(OpenCLProgramTest, BuildFailureShowsCompilerLog) {
  auto dev = open_device(GetParam());
  expect_broken_build(opencl::device_of(*dev), {"dense/kernels/dense.cl", "broken_type"});
}

TEST_P(OpenCLProgramTest, CorruptCacheEntryIsRebuilt) {
  auto dir =
      std::filesystem::temp_directory_path() / ("tessera_clcache_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  ::setenv("TESSERA_CACHE_DIR", dir.c_str(), 1);
  auto run_copy = [&] {
    auto dev = open_device(GetParam());
    auto h = test::random_vector<float>(1001, 9);
    Buffer<float> x(dev, 1001), y(dev, 1001);
    x.copy_from_host(h);
    dense::copy(x, y);
    EXPECT_EQ(y.to_vector(), h);
  };
  run_copy();  // populates the cache
  std::vector<std::filesystem::path> entries;
  for (auto& e : std::filesystem::recursive_directory_iterator(dir))
    if (e.is_regular_file()) entries.push_back(e.path());
  if (entries.empty()) GTEST_SKIP() << "this OpenCL driver offers no program binaries to cache";
  for (auto& f : entries) {  // flip bytes in the middle of every entry
    std::fstream io(f, std::ios::in | std::ios::out | std::ios::binary);
    io.seekp(static_cast<std::streamoff>(std::filesystem::file_size(f) / 2));
    io.write("CORRUPT!", 8);
  }
  run_copy();                // must not trust the corrupt binaries
  for (auto& f : entries) {  // truncated entries too
    std::filesystem::resize_file(f, 10);
  }
  run_copy();
  ::unsetenv("TESSERA_CACHE_DIR");
  std::filesystem::remove_all(dir);
}

// TESSERA_CL_OPTIONS reaches every build (a failing build names it among its
// options); TESSERA_CL_BUILD_LOG=1 prints the log of a build that succeeds.
TEST_P(OpenCLProgramTest, DiagnosticOptionsAndBuildLogFromTheEnvironment) {
  const std::string probe = "-DTESSERA_ENV_PROBE=" + std::to_string(::getpid());
  ::setenv("TESSERA_CL_OPTIONS", probe.c_str(), 1);
  ::setenv("TESSERA_CL_CACHE", "off", 1);
  {
    auto dev = open_device(GetParam());
    auto& cl = opencl::device_of(*dev);
    expect_broken_build(cl, {probe});
    ::setenv("TESSERA_CL_BUILD_LOG", "1", 1);
    ::testing::internal::CaptureStderr();
    cl.kernel("dense/kernels/dense.cl", "ew", launch::precision_options<float>());
    const std::string err = ::testing::internal::GetCapturedStderr();
    EXPECT_NE(err.find("OpenCL build log of 'dense/kernels/dense.cl'"), std::string::npos) << err;
    EXPECT_NE(err.find(probe), std::string::npos) << err;
  }
  ::unsetenv("TESSERA_CL_BUILD_LOG");
  ::unsetenv("TESSERA_CL_CACHE");
  ::unsetenv("TESSERA_CL_OPTIONS");
}

INSTANTIATE_TEST_SUITE_P(OpenCLDevices, OpenCLProgramTest, ::testing::ValuesIn(opencl_ids()),
                         test::id_name);

}  // namespace
}  // namespace tessera
