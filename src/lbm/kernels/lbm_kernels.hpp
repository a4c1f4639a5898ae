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
  /// Threads (work-items) per GPU group along x, for CUDA and OpenCL:
  /// TESSERA_LBM_BLOCK_X (32..512, a multiple of 32) when set; else 128 for
  /// FP16S, 512 for FP32 and 256 for FP64 storage (D3Q19 256^3: the group
  /// sweeps of bench/results/nvidia-h200/lbm-tuning-2026-11-26 and
  /// bench/results/nvidia-h100/2026-11-26-s5).
  unsigned group_x() const;
  /// Register cap per thread of the CUDA stream-collide kernel (D3Q19 FP32 and
  /// FP16S; the capped instances are compiled in): TESSERA_LBM_MAXREG (0 = the
  /// compiler's choice, 32, 40 or 48) when set; else 0 for FP32/FP64 and, for
  /// FP16S (two parity branches, 64 registers uncapped, 50% occupancy), a cap
  /// chosen by the device's peak memory bandwidth `peak_gbps` (GB/s): 48 below
  /// 4000 (H100, 3.35 TB/s: 4% faster than uncapped, while 40 spills and is 3%
  /// slower), 40 from 4000 up (H200, 4.8 TB/s: 40,362 against 39,855 MLUPS
  /// with 48). With more bytes per second per SM to cover, more warps in
  /// flight pay for the spills (bench/results/nvidia-h200/2026-11-27-s11).
  unsigned max_registers(double peak_gbps) const;
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

#define TS_LBM_DECLARE(Tag)                                                                                     \
  /* one time step t (its parity selects the esoteric-pull slots), in place */                                 \
  void stream_collide(Tag, Queue& q, const KernelVariant& v, const Grid& g, Bytes& f, const Bytes& flags,     \
                      long t, const StepParams& p);                                                            \
  /* equilibrium of `fields` (rho, u per cell), or of (rho0, u0) everywhere when fields is null */            \
  void initialize(Tag, Queue& q, const KernelVariant& v, const Grid& g, Bytes& f, const Bytes& flags,         \
                  const Bytes* fields, double rho0, const double u0[3]);                                      \
  /* rho and u (with half the body force) at the start of step t */                                           \
  void moments(Tag, Queue& q, const KernelVariant& v, const Grid& g, const Bytes& f, const Bytes& flags,      \
               long t, const StepParams& p, Bytes& fields);                                                 \
  /* two-lattice pull step of the owned layers z0 <= z < z1 of one part (device handles) */                   \
  void stream_collide_pull(Tag, Device& d, Queue& q, const KernelVariant& v, const PartGeometry& g, long z0,   \
                           long z1, const void* src, void* dst, const void* flags, const StepParams& p);

TS_LBM_DECLARE(CpuTag)
TS_LBM_DECLARE(OpenCLTag)
TS_LBM_DECLARE(CudaTag)
#undef TS_LBM_DECLARE

}  // namespace kernels
}  // namespace tessera::lbm
