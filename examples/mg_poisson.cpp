// Geometric multigrid: solve the unscaled 2D Poisson system 4u - (neighbours) = b
// on 255 x 255 unknowns to a relative residual of 1e-8 with V(1,1) cycles.
// Usage: mg_poisson [DEVICE]   (cpu, opencl:P:D, cuda:N, best; default cpu)
#include <cstdio>

#include "core/registry.hpp"
#include "mg/problems.hpp"
#include "mg/solver.hpp"

int main(int argc, char** argv) {
  using namespace tessera;
  auto device = open_device(argc > 1 ? argv[1] : "cpu");
  const mg::Dims d{255, 255, 1, 2};
  mg::Options o;  // V(1,1), red-black Gauss-Seidel, tol 1e-8
  mg::Solver<double> solver(device, d, o);
  solver.set_rhs(mg::random_problem<double>(d, 1).b);
  const mg::SolveReport r = solver.solve();
  std::printf("mg on %s: %s after %d cycles, relative residual %.2e, factor %.3f\n",
              device->id().c_str(), mg::to_string(r.status).c_str(), r.cycles,
              r.relative_residual(), r.asymptotic_factor());
  return r.status == mg::Status::converged ? 0 : 1;
}
