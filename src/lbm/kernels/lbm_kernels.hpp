// The lattice Boltzmann kernels, declared once per backend (CpuTag, OpenCLTag,
// CudaTag). Definitions: lbm_cpu.cpp, lbm_opencl.cpp (+ lbm.cl), lbm_cuda.cu;
// the mathematics is in lbm_point.h. Buffers are raw bytes: populations in the
// variant's storage type (Q*N values), flags one byte per cell, fields 4*N
// values of the arithmetic type (rho, ux, uy, uz, structure of arrays).
#pragma once
#include <cstddef>
#include <cstdint>

#include "core/buffer.hpp"
#include "core/dispatch.hpp"

namespace tessera::lbm {

/// nx * ny * nz cells, x fastest; every axis is periodic (walls are cells).
struct Grid {
  long nx = 1, ny = 1, nz = 1;
  long cells() const { return nx * ny * nz; }
};

/// Which compiled variant: lattice (Q = 9, 19, 27) and storage bits (16, 32, 64).
struct KernelVariant {
  int q = 19;
  int store_bits = 32;
  std::size_t store_bytes() const { return static_cast<std::size_t>(store_bits / 8); }
  std::size_t real_bytes() const { return store_bits == 64 ? 8 : 4; }
  /// Whether every population offset of a grid fits 32 bits (Q * cells < 2^31):
  /// the GPU launchers then use 32-bit offsets (fewer registers, same values).
  bool fits_idx32(const Grid& g) const { return long(q) * g.cells() < (1L << 31); }
  /// Threads (work-items) per GPU group along x, for CUDA and OpenCL, by storage.
  unsigned group_x() const;
  // the fastest of the D3Q19 256^3 group sweeps, H100 and H200 (docs/lbm-history.md)
  static constexpr unsigned kGroupFp16s = 128, kGroupFp32 = 512, kGroupFp64 = 256;
  /// Register cap per thread of the CUDA stream-collide kernel (0: the
  /// compiler's choice): a cap only for D3Q19 FP16S (64 registers uncapped),
  /// the lower one on devices of more peak memory bandwidth `peak_gbps` (GB/s).
  unsigned max_registers(double peak_gbps) const;
  // FP16S caps below / from 4 TB/s: the fastest on an H100 / an H200 (docs/lbm-history.md)
  static constexpr unsigned kCapFp16s = 48, kCapFp16sWideMemory = 40;
  static constexpr double kWideMemoryGbps = 4000;
};

/// Per-run constants of the step (converted to the arithmetic type).
struct StepParams {
  double omega_p = 1, omega_m = 1;  ///< BGK: omega_p; TRT: both
  bool trt = false;
  double force[3] = {0, 0, 0};
  double u_wall[3] = {0, 0, 0};
  double u_in[3] = {0, 0, 0};
  double rho_out = 1;
};

using Bytes = Buffer<std::uint8_t>;

/// One part of a distributed field (src/skeleton PartLayout): nx * ny * nz
/// owned cells, x and y periodic within the part, z reaching into one halo
/// layer on each side; strides in elements.
struct PartGeometry {
  long nx = 1, ny = 1, nz = 1;
  long sy = 1, sz = 1, cs = 1, origin = 0;
};

namespace kernels {

#define TS_LBM_DECLARE(Tag)                                                                        \
  /* one time step t (its parity selects the esoteric-pull slots), in place */                     \
  void stream_collide(Tag, Queue& q, const KernelVariant& v, const Grid& g, Bytes& f,              \
                      const Bytes& flags, long t, const StepParams& p);                            \
  /* equilibrium of `fields` (rho, u per cell), or of (rho0, u0) everywhere when fields is null */ \
  void initialize(Tag, Queue& q, const KernelVariant& v, const Grid& g, Bytes& f,                  \
                  const Bytes& flags, const Bytes* fields, double rho0, const double u0[3]);       \
  /* rho and u (with half the body force) at the start of step t */                                \
  void moments(Tag, Queue& q, const KernelVariant& v, const Grid& g, const Bytes& f,               \
               const Bytes& flags, long t, const StepParams& p, Bytes& fields);                    \
  /* two-lattice pull step of the owned layers z0 <= z < z1 of one part (device handles) */        \
  void stream_collide_pull(Tag, Device& d, Queue& q, const KernelVariant& v,                       \
                           const PartGeometry& g, long z0, long z1, const void* src, void* dst,    \
                           const void* flags, const StepParams& p);

TS_LBM_DECLARE(CpuTag)
TS_LBM_DECLARE(OpenCLTag)
TS_LBM_DECLARE(CudaTag)
#undef TS_LBM_DECLARE

}  // namespace kernels
}  // namespace tessera::lbm
