#include <gtest/gtest.h>

#include "core/error.hpp"
#include "core/registry.hpp"
#include "tessera/config.hpp"

namespace tessera {
namespace {

TEST(Devices, CpuAlwaysListedFirst) {
  auto all = list_devices();
  ASSERT_FALSE(all.empty());
  EXPECT_EQ(all.front().id, "cpu");
  EXPECT_GT(all.front().global_mem_bytes, 0u);
  EXPECT_GT(all.front().compute_units, 0);
}

TEST(Devices, IdsAreUniqueAndOpenable) {
  auto all = list_devices();
  for (std::size_t i = 0; i < all.size(); ++i) {
    for (std::size_t j = i + 1; j < all.size(); ++j) EXPECT_NE(all[i].id, all[j].id);
    auto d = open_device(all[i].id);
    EXPECT_EQ(d->id(), all[i].id);
    EXPECT_EQ(d->info().name, all[i].name);
  }
}

TEST(Devices, BestIsOpenable) {
  auto d = open_device("best");
  EXPECT_EQ(d->id(), best_device_id());
}

TEST(Devices, MalformedIdsAreUsageErrors) {
  for (const char* id : {"gpu", "cuda", "cuda:", "cuda:-1", "cuda:1x", "opencl:0", "opencl:a:b",
                         "opencl:0:0:0", "CPU"}) {
    try {
      open_device(id);
      FAIL() << id << " was accepted";
    } catch (const UsageError& e) {
      EXPECT_NE(std::string(e.what()).find(id), std::string::npos) << e.what();
    }
  }
}

TEST(Devices, AbsentDevicesAreUsageErrors) {
  EXPECT_THROW(open_device("cuda:99"), UsageError);
  EXPECT_THROW(open_device("opencl:99:0"), UsageError);
}

TEST(Devices, CudaPresence) {
  if (!TESSERA_HAVE_CUDA) GTEST_SKIP() << "CUDA backend not built: CUDA tests skipped";
  bool any = false;
  for (const auto& d : list_devices()) any = any || d.backend == Backend::cuda;
  if (!any)
    GTEST_SKIP() << "CUDA backend built but no CUDA device present: CUDA kernels are "
                    "compiled but their tests skip on this machine";
  SUCCEED();
}

}  // namespace
}  // namespace tessera
