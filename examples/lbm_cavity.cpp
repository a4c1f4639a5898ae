// Lattice Boltzmann: lid-driven cavity at Re 100 (D2Q9 TRT, FP32 storage),
// 49 x 49 cells, compared with Ghia, Ghia and Shin's centre-line profile.
// Usage: lbm_cavity [DEVICE]
#include <cstdio>

#include "core/registry.hpp"
#include "lbm/cases.hpp"
#include "lbm/solver.hpp"

int main(int argc, char** argv) {
  using namespace tessera;
  auto device = open_device(argc > 1 ? argv[1] : "cpu");
  lbm::Case c = lbm::cavity(lbm::Lattice::d2q9, 49, 100, 0.1);
  c.config.collision = lbm::Collision::trt;
  lbm::Solver s(device, c.config);
  c.apply(s);
  s.step(8000);
  const double dev = lbm::ghia_deviation(c, s.fields(), 100);
  std::printf("lbm on %s: %ld steps, largest deviation from Ghia et al. %.4f of the lid speed\n",
              device->id().c_str(), s.time(), dev);
  return dev < 0.04 ? 0 : 1;
}
