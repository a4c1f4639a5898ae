// The benchmark's hand-written baselines (skeleton/kernels/native_stencil.hpp)
// against the sequential mapStencil reference with a neutral-0 boundary, on
// the CPU and on CUDA (OpenCL has no hand-written baseline): both walks, odd
// extents (a partial run of z cells, a partial marching column), poisoned
// output, float and double. The benchmark compares the skeleton against these
// kernels, so a wrong baseline would make its ratio meaningless.
#include "skeleton/kernels/native_stencil.hpp"
#include "skeleton_test_support.hpp"

namespace tessera::skeleton {
namespace {

namespace ex = examples;
using kernels::NativeWalk;

std::vector<std::string> baseline_ids() {
  std::vector<std::string> ids;
  for (const auto& id : tessera::test::device_ids())
    if (id.rfind("opencl", 0) != 0) ids.push_back(id);
  return ids;
}

class NativeStencil : public ::testing::TestWithParam<std::string> {};

template <class T, class F>
void check(const std::string& id, int points, NativeWalk walk, const F& f, index_t n) {
  SCOPED_TRACE(fmt::format("{} points, {} walk, n = {}, {}", points,
                           walk == NativeWalk::march ? "march" : "runs", n,
                           sizeof(T) == 4 ? "float" : "double"));
  const Extents e = extents_3d(n, n, n);
  const auto in =
      tessera::test::random_vector<T>(static_cast<std::size_t>(e.volume()), 31 + points);
  const index_t p = n + 2;
  std::vector<T> padded(static_cast<std::size_t>(p * p * p), T(0)), poisoned;
  for (index_t z = 0; z < n; ++z)
    for (index_t y = 0; y < n; ++y)
      for (index_t x = 0; x < n; ++x)
        padded[static_cast<std::size_t>(((z + 1) * p + y + 1) * p + x + 1)] =
            in[static_cast<std::size_t>((z * n + y) * n + x)];
  poisoned = padded;
  for (index_t z = 1; z <= n; ++z)
    for (index_t y = 1; y <= n; ++y)
      for (index_t x = 1; x <= n; ++x)
        poisoned[static_cast<std::size_t>((z * p + y) * p + x)] = tessera::test::poison<T>();
  auto dev = open_device(id);
  Buffer<T> a(dev, padded.size()), b(dev, padded.size());
  a.copy_from_host(padded);
  b.copy_from_host(poisoned);
  dispatch(*dev,
           [&](auto tag) { kernels::native_stencil(tag, dev->queue(), points, a, b, n, walk); });
  const auto got_padded = b.to_vector();
  std::vector<T> got(in.size());
  for (index_t z = 0; z < n; ++z)
    for (index_t y = 0; y < n; ++y)
      for (index_t x = 0; x < n; ++x)
        got[static_cast<std::size_t>((z * n + y) * n + x)] =
            got_padded[static_cast<std::size_t>(((z + 1) * p + y + 1) * p + x + 1)];
  const Stencil st = Stencil::uniform(1, BoundaryMode::neutral);
  EXPECT_TRUE(test::same_bits(got, test::reference_stencil(in, e, st, f, T(0))));
}

TEST_P(NativeStencil, EveryWalkEqualsTheReferenceBitwise) {
  // 37 = 9 runs of 4 + 1 and one marching column of 32 + 5; 8 is whole runs.
  for (const index_t n : {index_t(37), index_t(8)}) {
    check<float>(GetParam(), 7, NativeWalk::runs, ex::Heat7{}, n);
    check<float>(GetParam(), 7, NativeWalk::march, ex::Heat7{}, n);
    check<float>(GetParam(), 27, NativeWalk::runs, ex::Blur27{}, n);
    check<double>(GetParam(), 7, NativeWalk::runs, ex::Heat7{}, n);
    check<double>(GetParam(), 7, NativeWalk::march, ex::Heat7{}, n);
    check<double>(GetParam(), 27, NativeWalk::runs, ex::Blur27{}, n);
  }
}

TEST_P(NativeStencil, TheMarchOfA27PointStencilIsAUsageError) {
  auto dev = open_device(GetParam());
  Buffer<float> a(dev, 27), b(dev, 27);
  EXPECT_THROW(dispatch(*dev,
                        [&](auto tag) {
                          kernels::native_stencil(tag, dev->queue(), 27, a, b, 1,
                                                  NativeWalk::march);
                        }),
               UsageError);
}

INSTANTIATE_TEST_SUITE_P(Devices, NativeStencil, ::testing::ValuesIn(baseline_ids()),
                         tessera::test::id_name);

}  // namespace
}  // namespace tessera::skeleton
