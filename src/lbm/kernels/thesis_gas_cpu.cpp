// CPU (OpenMP) launchers of the thesis's gas simulation kernels.
#include "backends/cpu/cpu_device.hpp"
#include "lbm/kernels/thesis_gas_kernels.hpp"
#include "lbm/kernels/thesis_gas_point.hpp"

namespace tessera::lbm::kernels {

using namespace thesis_point;

namespace {
constexpr long kParallelCells = 1 << 16;  // smaller lattices: serial (see lbm_cpu.cpp)
}  // namespace

void thesis_update(CpuTag, Queue&, const Grid& g, const Buffer<float>& src, Buffer<float>& dst,
                   float omega, ThesisLayout layout) {
  const float* s = cpu::ptr<float>(src.handle());
  float* d = cpu::ptr<float>(dst.handle());
  const long cs = thesis_cell_stride(layout), ds = thesis_dir_stride(layout, g);
#pragma omp parallel for collapse(2) schedule(static) if (g.cells() >= kParallelCells)
  for (long z = 0; z < g.nz; ++z)
    for (long y = 0; y < g.ny; ++y)
      for (long x = 0; x < g.nx; ++x)
        ts_thesis_update(s, d, x, y, z, g.nx, g.ny, g.nz, cs, ds, omega);
}

void thesis_generate(CpuTag, Queue&, const Grid& g, Buffer<float>& dst, ThesisLayout layout) {
  float* d = cpu::ptr<float>(dst.handle());
  const long cs = thesis_cell_stride(layout), ds = thesis_dir_stride(layout, g);
#pragma omp parallel for collapse(2) schedule(static) if (g.cells() >= kParallelCells)
  for (long z = 0; z < g.nz; ++z)
    for (long y = 0; y < g.ny; ++y)
      for (long x = 0; x < g.nx; ++x) ts_thesis_generate(d, x, y, z, g.nx, g.ny, g.nz, cs, ds);
}

void thesis_update_part(CpuTag, Device&, Queue&, const Grid& g, const PartGeometry& p, long gz0,
                        const void* src, void* dst, float omega) {
  const float* s = static_cast<const float*>(src);
  float* d = static_cast<float*>(dst);
#pragma omp parallel for collapse(2) schedule(static) if (p.nx * p.ny * p.nz >= kParallelCells)
  for (long z = 0; z < p.nz; ++z)
    for (long y = 0; y < p.ny; ++y)
      for (long x = 0; x < p.nx; ++x)
        ts_thesis_update_part(s, d, x, y, z, g.nx, g.ny, g.nz, gz0, p.sy, p.sz, p.origin,
                              thesis_cell_stride(ThesisLayout::aos), 1, omega);
}

}  // namespace tessera::lbm::kernels
