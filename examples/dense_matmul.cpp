// Dense: C = A*B with the naive and the tiled kernel of the OpenCL lecture;
// the two agree bit for bit on every backend.
// Usage: dense_matmul [DEVICE]
#include <cstdio>
#include <vector>

#include "core/buffer.hpp"
#include "core/registry.hpp"
#include "dense/matmul.hpp"

int main(int argc, char** argv) {
  using namespace tessera;
  auto device = open_device(argc > 1 ? argv[1] : "cpu");
  const std::size_t n = 129;
  std::vector<float> a(n * n), b(n * n);
  for (std::size_t i = 0; i < n * n; ++i) a[i] = float(i % 7) - 3, b[i] = float(i % 5) * 0.5f;
  Buffer<float> A(device, n * n), B(device, n * n), C1(device, n * n), C2(device, n * n);
  A.copy_from_host(a);
  B.copy_from_host(b);
  dense::matmul(A, B, C1, n, n, n, dense::MatmulVariant::naive);
  dense::matmul(A, B, C2, n, n, n, dense::MatmulVariant::tiled);
  const auto c1 = C1.to_vector(), c2 = C2.to_vector();
  // entry (0,0) by hand: sum_k a[k] b[k n]
  double ref = 0;
  for (std::size_t k = 0; k < n; ++k) ref += double(a[k]) * double(b[k * n]);
  std::printf("dense on %s: C[0][0] = %g (expected %g), naive == tiled: %s\n", device->id().c_str(),
              double(c1[0]), ref, c1 == c2 ? "yes" : "no");
  return c1 == c2 && double(c1[0]) == ref ? 0 : 1;
}
