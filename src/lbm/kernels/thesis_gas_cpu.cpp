// CPU (OpenMP) launchers of the thesis's gas simulation kernels.
#include "backends/cpu/cpu_device.hpp"
#include "lbm/kernels/thesis_gas_kernels.hpp"
#include "lbm/kernels/thesis_gas_point.hpp"

namespace tessera::lbm::kernels {

using namespace thesis_point;

namespace {
constexpr long kParallelCells = 1 << 16;  // smaller lattices: serial (see lbm_cpu.cpp)
}  // namespace

void thesis_update(CpuTag, Queue&, const Grid& g, const Buffer<float>& src, Buffer<float>& dst, float omega) {
  const float* s = cpu::ptr<float>(src.handle());
  float* d = cpu::ptr<float>(dst.handle());
#pragma omp parallel for collapse(2) schedule(static) if (g.cells() >= kParallelCells)
  for (long z = 0; z < g.nz; ++z)
    for (long y = 0; y < g.ny; ++y)
      for (long x = 0; x < g.nx; ++x) ts_thesis_update(s, d, x, y, z, g.nx, g.ny, g.nz, omega);
}

void thesis_generate(CpuTag, Queue&, const Grid& g, Buffer<float>& dst) {
  float* d = cpu::ptr<float>(dst.handle());
#pragma omp parallel for collapse(2) schedule(static) if (g.cells() >= kParallelCells)
  for (long z = 0; z < g.nz; ++z)
    for (long y = 0; y < g.ny; ++y)
      for (long x = 0; x < g.nx; ++x) ts_thesis_generate(d, x, y, z, g.nx, g.ny, g.nz);
}

}  // namespace tessera::lbm::kernels
