// Krylov: GMRES(30) with classical Gram-Schmidt twice on a TRACE-like system,
// every vector resident on the device; the true residual is recomputed.
// Usage: krylov_gmres [DEVICE]
#include <complex>
#include <cstdio>
#include <memory>
#include <vector>

#include "core/registry.hpp"
#include "krylov/operator.hpp"
#include "krylov/solver.hpp"
#include "sparse/convert.hpp"
#include "sparse/device_inputs.hpp"
#include "sparse/device_matrix.hpp"

int main(int argc, char** argv) {
  using namespace tessera;
  using V = std::complex<double>;
  auto device = open_device(argc > 1 ? argv[1] : "cpu");
  const auto hm = sparse::generate_matrix<V>("trace:4x8x4,blocks=2");
  auto A = std::make_shared<sparse::DeviceMatrix<V>>(device, hm.block,
                                                     sparse::default_kernel(sparse::Format::bcsr));
  krylov::MatrixOperator<V> op(A);
  const auto n = static_cast<std::size_t>(A->rows());
  // b = 1 in the rows that exist, 0 in the ghost cells' empty rows (a
  // consistent system)
  const sparse::Csr<V> csr = sparse::to_csr(hm.block);
  std::vector<V> hb(n, V(0));
  for (std::size_t i = 0; i < n; ++i)
    if (csr.row_ptr[i] != csr.row_ptr[i + 1]) hb[i] = V(1);
  Buffer<V> b(device, n), x(device, n);
  b.copy_from_host(hb);
  x.copy_from_host(std::vector<V>(n, V(0)));
  krylov::Options o;
  o.method = krylov::Method::gmres;
  o.restart = 30;
  o.ortho = krylov::Ortho::cgs2;
  o.tol = 1e-10;
  const krylov::Result r = krylov::solve<V>(op, nullptr, b, x, o);
  std::printf("krylov on %s: %s after %d iterations, true relative residual %.2e\n",
              device->id().c_str(), std::string(krylov::to_string(r.status)).c_str(), r.iterations,
              r.true_relres);
  return r.converged() && r.true_relres < 1e-9 ? 0 : 1;
}
