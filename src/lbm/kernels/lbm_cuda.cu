// CUDA launchers of the lattice Boltzmann kernels: one thread per cell of an
// (nx/b, ny, nz) grid of blocks of b cells along x (KernelVariant::group_x());
// the mathematics is in lbm_point.h (one template instance per variant).

#include "backends/cuda/cuda_check.hpp"
#include "backends/cuda/cuda_device.hpp"
#include "lbm/kernels/lbm_kernels.hpp"
#include "lbm/kernels/lbm_params.hpp"
#include "lbm/kernels/lbm_point.hpp"
#include "core/error.hpp"

#include <map>
#include <mutex>

namespace tessera::lbm::kernels {

namespace {

template <class V>
__device__ __forceinline__ void stream_collide_body(long nx, long ny, long nz, int odd,
                                                    typename V::store* __restrict__ f,
                                                    const unsigned char* __restrict__ flags,
                                                    typename V::params& p) {
  const long x = long(blockIdx.x) * blockDim.x + threadIdx.x;
  if (x >= nx) return;
  V::stream_collide_by_parity(f, flags, x, long(blockIdx.y), long(blockIdx.z), nx, ny, nz, odd, &p);
}
template <class V>
__global__ void stream_collide_k(long nx, long ny, long nz, int odd,
                                 typename V::store* __restrict__ f,
                                 const unsigned char* __restrict__ flags, typename V::params p) {
  stream_collide_body<V>(nx, ny, nz, odd, f, flags, p);
}
// The same with at most R registers per thread (KernelVariant::max_registers:
// more resident warps against a few spilled values): D3Q19 FP16S only
template <class V, int R>
__global__ void __maxnreg__(R)
    stream_collide_capped_k(long nx, long ny, long nz, int odd, typename V::store* __restrict__ f,
                            const unsigned char* __restrict__ flags, typename V::params p) {
  stream_collide_body<V>(nx, ny, nz, odd, f, flags, p);
}
// The caps KernelVariant::max_registers picks are compiled for the D3Q19
// FP16S kernel only; every other kernel runs uncapped (docs/lbm-history.md).
template <class V>
constexpr bool has_capped = V::q == 19 && V::store_bits == 16;
template <class V>
__global__ void initialize_k(long nx, long ny, long nz, typename V::store* f,
                             const unsigned char* flags, const typename V::real* fields,
                             typename V::real rho0, typename V::real ux0, typename V::real uy0,
                             typename V::real uz0) {
  const long x = long(blockIdx.x) * blockDim.x + threadIdx.x;
  if (x >= nx) return;
  const long y = blockIdx.y, z = blockIdx.z, n = x + nx * (y + ny * z), N = nx * ny * nz;
  if (fields)
    V::init(f, flags, x, y, z, nx, ny, nz, fields[n], fields[N + n], fields[2 * N + n],
            fields[3 * N + n]);
  else
    V::init(f, flags, x, y, z, nx, ny, nz, rho0, ux0, uy0, uz0);
}

template <class V>
__global__ void moments_k(long nx, long ny, long nz, int odd,
                          const typename V::store* __restrict__ f,
                          const unsigned char* __restrict__ flags, typename V::params p,
                          typename V::real* fields) {
  const long x = long(blockIdx.x) * blockDim.x + threadIdx.x;
  if (x >= nx) return;
  V::moments(f, flags, x, long(blockIdx.y), long(blockIdx.z), nx, ny, nz, odd, &p, fields);
}

template <class V>
__global__ void stream_collide_pull_k(long nx, long ny, long z0, long sy, long sz, long cs,
                                      long origin, const typename V::store* __restrict__ src,
                                      typename V::store* __restrict__ dst,
                                      const unsigned char* __restrict__ flags,
                                      typename V::params p) {
  const long x = long(blockIdx.x) * blockDim.x + threadIdx.x;
  if (x >= nx) return;
  V::stream_collide_pull(src, dst, flags, x, long(blockIdx.y), z0 + long(blockIdx.z), nx, ny, sy,
                         sz, cs, origin, &p);
}

template <class T>
T* ptr(const Bytes& b) {
  return cuda::ptr<T>(b.handle());
}

struct Launch {
  dim3 grid, block;
  cudaStream_t stream;
};
// Peak DRAM bandwidth of a device in GB/s (double data rate x bus width),
// which picks the FP16S register cap (KernelVariant::max_registers). Queried
// once per device: the clock attribute costs the driver about as long as a
// 256^3 step takes (docs/lbm-history.md).
double peak_gbps(int ordinal) {
  static std::mutex m;
  static std::map<int, double> known;
  const std::lock_guard<std::mutex> lock(m);
  if (auto it = known.find(ordinal); it != known.end()) return it->second;
  int khz = 0, bits = 0;
  cuda::cuda_check(cudaDeviceGetAttribute(&khz, cudaDevAttrMemoryClockRate, ordinal),
                   "cudaDeviceGetAttribute", "peak memory clock");
  cuda::cuda_check(cudaDeviceGetAttribute(&bits, cudaDevAttrGlobalMemoryBusWidth, ordinal),
                   "cudaDeviceGetAttribute", "memory bus width");
  return known[ordinal] = 2.0 * khz * 1e3 * (bits / 8.0) / 1e9;
}

Launch launch_of(Queue& q, const KernelVariant& v, const Grid& g) {
  const unsigned b = v.group_x();
  return {dim3(unsigned((g.nx + b - 1) / b), unsigned(g.ny), unsigned(g.nz)), dim3(b, 1, 1),
          cuda::queue_of(q).native()};
}

}  // namespace

void stream_collide(CudaTag, Queue& q, const KernelVariant& v, const Grid& g, Bytes& f,
                    const Bytes& flags, long t, const StepParams& sp) {
  cuda::DeviceGuard guard(cuda::queue_of(q).ordinal());
  const Launch l = launch_of(q, v, g);
  // 32-bit offsets where they fit (fewer registers: D3Q19 FP32 56 -> 48)
  const unsigned cap = v.max_registers(peak_gbps(cuda::queue_of(q).ordinal()));
  point::with_variant_idx32(v.q, v.store_bits, v.fits_idx32(g), [&](auto var) {
    using V = decltype(var);
    auto* fp = ptr<typename V::store>(f);
    auto* flp = ptr<unsigned char>(flags);
    const auto pp = to_point_params<V>(sp);
    const int odd = int(t & 1);
    if constexpr (has_capped<V>) {
      static_assert(KernelVariant::kCapFp16sWideMemory == 40 && KernelVariant::kCapFp16s == 48,
                    "compiled caps");
      if (cap == 40)
        return stream_collide_capped_k<V, 40>
            <<<l.grid, l.block, 0, l.stream>>>(g.nx, g.ny, g.nz, odd, fp, flp, pp);
      if (cap == 48)
        return stream_collide_capped_k<V, 48>
            <<<l.grid, l.block, 0, l.stream>>>(g.nx, g.ny, g.nz, odd, fp, flp, pp);
    }
    stream_collide_k<V><<<l.grid, l.block, 0, l.stream>>>(g.nx, g.ny, g.nz, odd, fp, flp, pp);
  });
  cuda::check_launch("lbm stream_collide");
}

void initialize(CudaTag, Queue& q, const KernelVariant& v, const Grid& g, Bytes& f,
                const Bytes& flags, const Bytes* fields, double rho0, const double u0[3]) {
  cuda::DeviceGuard guard(cuda::queue_of(q).ordinal());
  const Launch l = launch_of(q, v, g);
  point::with_variant(v.q, v.store_bits, [&](auto var) {
    using V = decltype(var);
    using R = typename V::real;
    initialize_k<V><<<l.grid, l.block, 0, l.stream>>>(
        g.nx, g.ny, g.nz, ptr<typename V::store>(f), ptr<unsigned char>(flags),
        fields ? ptr<R>(*fields) : nullptr, R(rho0), R(u0[0]), R(u0[1]), R(u0[2]));
  });
  cuda::check_launch("lbm initialize");
}

void moments(CudaTag, Queue& q, const KernelVariant& v, const Grid& g, const Bytes& f,
             const Bytes& flags, long t, const StepParams& sp, Bytes& fields) {
  cuda::DeviceGuard guard(cuda::queue_of(q).ordinal());
  const Launch l = launch_of(q, v, g);
  point::with_variant(v.q, v.store_bits, [&](auto var) {
    using V = decltype(var);
    moments_k<V><<<l.grid, l.block, 0, l.stream>>>(
        g.nx, g.ny, g.nz, int(t & 1), ptr<typename V::store>(f), ptr<unsigned char>(flags),
        to_point_params<V>(sp), ptr<typename V::real>(fields));
  });
  cuda::check_launch("lbm moments");
}

void stream_collide_pull(CudaTag, Device&, Queue& q, const KernelVariant& v, const PartGeometry& g,
                         long z0, long z1, const void* src, void* dst, const void* flags,
                         const StepParams& sp) {
  if (z1 <= z0) return;
  auto& cq = cuda::queue_of(q);
  cuda::DeviceGuard guard(cq.ordinal());
  const unsigned b = v.group_x();
  const dim3 grid(unsigned((g.nx + b - 1) / b), unsigned(g.ny), unsigned(z1 - z0));
  point::with_variant(v.q, v.store_bits, [&](auto var) {
    using V = decltype(var);
    using S = typename V::store;
    stream_collide_pull_k<V><<<grid, b, 0, cq.native()>>>(
        g.nx, g.ny, z0, g.sy, g.sz, g.cs, g.origin, static_cast<const S*>(src),
        static_cast<S*>(dst), static_cast<const unsigned char*>(flags), to_point_params<V>(sp));
  });
  cuda::check_launch("lbm stream_collide_pull");
}

}  // namespace tessera::lbm::kernels
