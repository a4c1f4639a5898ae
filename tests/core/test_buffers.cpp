#include <gtest/gtest.h>

#include "core/buffer.hpp"
#include "test_support.hpp"

namespace tessera {
namespace {

class BufferTest : public ::testing::TestWithParam<std::string> {};

TEST_P(BufferTest, RoundTripAndDeviceCopy) {
  auto dev = open_device(GetParam());
  for (std::size_t n : {1u, 7u, 1000u, 65537u}) {
    auto h = test::random_vector<double>(n, n);
    Buffer<double> a(dev, n), b(dev, n);
    a.copy_from_host(h);
    b.copy_from(a);
    EXPECT_EQ(b.to_vector(), h) << n;
  }
}

TEST_P(BufferTest, PinnedAsyncTransfers) {
  auto dev = open_device(GetParam());
  const std::size_t n = 4099;
  auto h = test::random_vector<float>(n, 3);
  PinnedBuffer<float> up(dev, n), down(dev, n);
  std::copy(h.begin(), h.end(), up.data());
  std::fill(down.data(), down.data() + n, test::poison<float>());
  Buffer<float> d(dev, n);
  auto q = dev->create_queue();
  d.write_async(up, *q);
  d.read_async(down, *q);
  q->synchronize();
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(down[i], h[i]) << i;
}

TEST_P(BufferTest, CrossDeviceCopyGoesThroughHost) {
  auto dev = open_device(GetParam());
  auto cpu = open_device("cpu");
  auto h = test::random_vector<float>(333, 5);
  Buffer<float> a(cpu, 333), b(dev, 333);
  a.copy_from_host(h);
  b.copy_from(a);
  EXPECT_EQ(b.to_vector(), h);
}

TEST_P(BufferTest, SizeMismatchIsAnError) {
  auto dev = open_device(GetParam());
  Buffer<float> a(dev, 10);
  std::vector<float> h(11);
  EXPECT_THROW(a.copy_from_host(h), Error);
  EXPECT_THROW(a.copy_to_host(h), Error);
}

TEST_P(BufferTest, TooLargeAllocationSaysHowMuch) {
  auto dev = open_device(GetParam());
  const std::size_t n = static_cast<std::size_t>(dev->info().global_mem_bytes / sizeof(float)) * 2;
  try {
    Buffer<float> huge(dev, n);
    FAIL() << "allocation of twice the device memory succeeded";
  } catch (const OutOfMemory& e) {
    EXPECT_EQ(e.requested(), n * sizeof(float));
    EXPECT_NE(std::string(e.what()).find("needed"), std::string::npos);
  }
}

TEST_P(BufferTest, EventsMeasureNonNegativeTime) {
  auto dev = open_device(GetParam());
  Buffer<float> a(dev, 1 << 20), b(dev, 1 << 20);
  a.copy_from_host(
      std::vector<float>(a.size(), 1.5f));  // defined source (copy reads its first argument)
  auto start = dev->queue().record();
  dev->queue().copy(a.handle(), 0, b.handle(), 0, a.bytes());
  auto stop = dev->queue().record();
  EXPECT_GE(stop->ms_since(*start), 0.0);
}

TEST_P(BufferTest, MoveTransfersOwnership) {
  auto dev = open_device(GetParam());
  Buffer<int> a(dev, 5);
  void* h = a.handle();
  Buffer<int> b(std::move(a));
  EXPECT_EQ(b.handle(), h);
  EXPECT_EQ(a.handle(), nullptr);
  EXPECT_EQ(a.size(), 0u);
}

INSTANTIATE_TEST_SUITE_P(AllDevices, BufferTest, ::testing::ValuesIn(test::device_ids()),
                         test::id_name);

}  // namespace
}  // namespace tessera
