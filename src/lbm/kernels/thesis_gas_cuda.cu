// CUDA launchers of the thesis's gas simulation (thesis_gas_point.h): one
// thread per cell, blocks of kBlockX cells along x.
#include "backends/cuda/cuda_check.hpp"
#include "backends/cuda/cuda_device.hpp"
#include "lbm/kernels/thesis_gas_kernels.hpp"
#include "lbm/kernels/thesis_gas_point.hpp"

namespace tessera::lbm::kernels {

namespace {

constexpr unsigned kBlockX = 64;

// SOA: structure-of-arrays strides (cs = 1, ds = cells); else the thesis's
// AoS cells (cs = 19, ds = 1), both compile-time where they can be.
template <bool SOA>
__global__ void thesis_update_k(long nx, long ny, long nz, float omega,
                                const float* __restrict__ src, float* __restrict__ dst) {
  const long x = long(blockIdx.x) * kBlockX + threadIdx.x;
  if (x < nx)
    thesis_point::ts_thesis_update(src, dst, x, long(blockIdx.y), long(blockIdx.z), nx, ny, nz,
                                   SOA ? 1 : 19, SOA ? nx * ny * nz : 1, omega);
}

template <bool SOA>
__global__ void thesis_generate_k(long nx, long ny, long nz, float* dst) {
  const long x = long(blockIdx.x) * kBlockX + threadIdx.x;
  if (x < nx)
    thesis_point::ts_thesis_generate(dst, x, long(blockIdx.y), long(blockIdx.z), nx, ny, nz,
                                     SOA ? 1 : 19, SOA ? nx * ny * nz : 1);
}

__global__ void thesis_update_part_k(long nx, long ny, long nz, long pnx, long gz0, long sy,
                                     long sz, long origin, float omega,
                                     const float* __restrict__ src, float* __restrict__ dst) {
  const long x = long(blockIdx.x) * kBlockX + threadIdx.x;
  if (x < pnx)
    thesis_point::ts_thesis_update_part(src, dst, x, long(blockIdx.y), long(blockIdx.z), nx, ny, nz,
                                        gz0, sy, sz, origin, 19, 1, omega);
}

dim3 grid_of(const Grid& g) {
  return dim3(unsigned((g.nx + kBlockX - 1) / kBlockX), unsigned(g.ny), unsigned(g.nz));
}

}  // namespace

void thesis_update(CudaTag, Queue& q, const Grid& g, const Buffer<float>& src, Buffer<float>& dst,
                   float omega, ThesisLayout layout) {
  auto& cq = cuda::queue_of(q);
  cuda::DeviceGuard guard(cq.ordinal());
  auto k = layout == ThesisLayout::soa ? thesis_update_k<true> : thesis_update_k<false>;
  k<<<grid_of(g), kBlockX, 0, cq.native()>>>(
      g.nx, g.ny, g.nz, omega, cuda::ptr<float>(src.handle()), cuda::ptr<float>(dst.handle()));
  cuda::check_launch("lbm thesis_update");
}

void thesis_generate(CudaTag, Queue& q, const Grid& g, Buffer<float>& dst, ThesisLayout layout) {
  auto& cq = cuda::queue_of(q);
  cuda::DeviceGuard guard(cq.ordinal());
  auto k = layout == ThesisLayout::soa ? thesis_generate_k<true> : thesis_generate_k<false>;
  k<<<grid_of(g), kBlockX, 0, cq.native()>>>(g.nx, g.ny, g.nz, cuda::ptr<float>(dst.handle()));
  cuda::check_launch("lbm thesis_generate");
}

void thesis_update_part(CudaTag, Device&, Queue& q, const Grid& g, const PartGeometry& p, long gz0,
                        const void* src, void* dst, float omega) {
  auto& cq = cuda::queue_of(q);
  cuda::DeviceGuard guard(cq.ordinal());
  thesis_update_part_k<<<grid_of(Grid{p.nx, p.ny, p.nz}), kBlockX, 0, cq.native()>>>(
      g.nx, g.ny, g.nz, p.nx, gz0, p.sy, p.sz, p.origin, omega, static_cast<const float*>(src),
      static_cast<float*>(dst));
  cuda::check_launch("lbm thesis_update_part");
}

}  // namespace tessera::lbm::kernels
