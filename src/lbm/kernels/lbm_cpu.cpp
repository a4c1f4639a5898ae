// CPU (OpenMP) launchers of the lattice Boltzmann kernels: loops over cells;
// the mathematics is in lbm_point.h. Esoteric pull makes the in-place update
// race-free, so the cells of a step can run in any order.
#include "backends/cpu/cpu_device.hpp"
#include "lbm/kernels/lbm_kernels.hpp"
#include "lbm/kernels/lbm_params.hpp"
#include "lbm/kernels/lbm_point.hpp"

namespace tessera::lbm::kernels {

namespace {

template <class T>
T* p(const Bytes& b) {
  return cpu::ptr<T>(b.handle());
}

// Below this many cells a step costs less than waking the threads (and far
// less than spinning at the barrier when the cores are shared).
constexpr long kParallelCells = 1 << 16;

template <class F>
void for_each_cell(const Grid& g, F f) {
#pragma omp parallel for collapse(2) schedule(static) if (g.cells() >= kParallelCells)
  for (long z = 0; z < g.nz; ++z)
    for (long y = 0; y < g.ny; ++y)
      for (long x = 0; x < g.nx; ++x) f(x, y, z);
}

}  // namespace

void stream_collide(CpuTag, Queue&, const KernelVariant& v, const Grid& g, Bytes& f,
                    const Bytes& flags, long t, const StepParams& sp) {
  point::with_variant(v.q, v.store_bits, [&](auto var) {
    using V = decltype(var);
    const auto prm = to_point_params<V>(sp);
    auto* fp = p<typename V::store>(f);
    const auto* fl = p<unsigned char>(flags);
    const int odd = int(t & 1);
    for_each_cell(g, [&](long x, long y, long z) {
      V::stream_collide(fp, fl, x, y, z, g.nx, g.ny, g.nz, odd, &prm);
    });
  });
}

void initialize(CpuTag, Queue&, const KernelVariant& v, const Grid& g, Bytes& f, const Bytes& flags,
                const Bytes* fields, double rho0, const double u0[3]) {
  point::with_variant(v.q, v.store_bits, [&](auto var) {
    using V = decltype(var);
    using R = typename V::real;
    auto* fp = p<typename V::store>(f);
    const auto* fl = p<unsigned char>(flags);
    const R* in = fields ? p<R>(*fields) : nullptr;
    const long N = g.cells();
    for_each_cell(g, [&](long x, long y, long z) {
      const long n = x + g.nx * (y + g.ny * z);
      if (in)
        V::init(fp, fl, x, y, z, g.nx, g.ny, g.nz, in[n], in[N + n], in[2 * N + n], in[3 * N + n]);
      else
        V::init(fp, fl, x, y, z, g.nx, g.ny, g.nz, R(rho0), R(u0[0]), R(u0[1]), R(u0[2]));
    });
  });
}

void moments(CpuTag, Queue&, const KernelVariant& v, const Grid& g, const Bytes& f,
             const Bytes& flags, long t, const StepParams& sp, Bytes& fields) {
  point::with_variant(v.q, v.store_bits, [&](auto var) {
    using V = decltype(var);
    const auto prm = to_point_params<V>(sp);
    const auto* fp = p<typename V::store>(f);
    const auto* fl = p<unsigned char>(flags);
    auto* out = p<typename V::real>(fields);
    const int odd = int(t & 1);
    for_each_cell(g, [&](long x, long y, long z) {
      V::moments(fp, fl, x, y, z, g.nx, g.ny, g.nz, odd, &prm, out);
    });
  });
}

void stream_collide_pull(CpuTag, Device&, Queue&, const KernelVariant& v, const PartGeometry& g,
                         long z0, long z1, const void* src, void* dst, const void* flags,
                         const StepParams& sp) {
  point::with_variant(v.q, v.store_bits, [&](auto var) {
    using V = decltype(var);
    const auto prm = to_point_params<V>(sp);
    const auto* s = static_cast<const typename V::store*>(src);
    auto* d = static_cast<typename V::store*>(dst);
    const auto* fl = static_cast<const unsigned char*>(flags);
    const long cells = g.nx * g.ny * (z1 - z0);
#pragma omp parallel for collapse(2) schedule(static) if (cells >= kParallelCells)
    for (long z = z0; z < z1; ++z)
      for (long y = 0; y < g.ny; ++y)
        for (long x = 0; x < g.nx; ++x)
          V::stream_collide_pull(s, d, fl, x, y, z, g.nx, g.ny, g.sy, g.sz, g.cs, g.origin, &prm);
  });
}

}  // namespace tessera::lbm::kernels
