// Sparse: generate a small TRACE-like matrix (complex 5x5 blocks), upload it
// as BCSR and multiply by a vector on the device; compare with the host.
// Usage: sparse_trace [DEVICE]
#include <cmath>
#include <complex>
#include <cstdio>
#include <memory>
#include <vector>

#include "core/registry.hpp"
#include "sparse/convert.hpp"
#include "sparse/device_inputs.hpp"
#include "sparse/device_matrix.hpp"

int main(int argc, char** argv) {
  using namespace tessera;
  using V = std::complex<double>;
  auto device = open_device(argc > 1 ? argv[1] : "cpu");
  const auto hm = sparse::generate_matrix<V>("trace:4x8x4,blocks=2");
  const sparse::Csr<V> csr = sparse::to_csr(hm.block);
  const auto n = static_cast<std::size_t>(csr.rows);
  std::vector<V> hx(n);
  for (std::size_t i = 0; i < n; ++i) hx[i] = V(std::sin(double(i)), 1.0);
  sparse::DeviceMatrix<V> A(device, hm.block, sparse::default_kernel(sparse::Format::bcsr));
  Buffer<V> x(device, n), y(device, n);
  x.copy_from_host(hx);
  sparse::spmv(A, x, y);
  const auto hy = y.to_vector();
  double err = 0, norm = 0;
  for (std::size_t i = 0; i < n; ++i) {
    V ref = 0;
    for (auto p = csr.row_ptr[i]; p < csr.row_ptr[i + 1]; ++p)
      ref += csr.val[static_cast<std::size_t>(p)] *
             hx[static_cast<std::size_t>(csr.col[static_cast<std::size_t>(p)])];
    err = std::max(err, std::abs(hy[i] - ref));
    norm = std::max(norm, std::abs(ref));
  }
  std::printf("sparse on %s: %zu rows, %lld nonzeros, max |y - y_host| / max |y| = %.1e\n",
              device->id().c_str(), n, static_cast<long long>(A.nonzeros()), err / norm);
  return err <= 1e-12 * norm ? 0 : 1;
}
