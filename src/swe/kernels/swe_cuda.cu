// CUDA launchers of the shallow-water kernels; the mathematics is in
// swe_point.h / swe_hll_point.h, the tiles in swe_tiles.h, the strip update
// in swe_strip.h. threadIdx.x runs along j (contiguous): a thesis "A×B"
// work-group is blockDim (B, A), as in swe.cl.
#include <algorithm>
#include <cmath>
#include <cstdlib>

#include <string>

#include "backends/cuda/cuda_check.hpp"
#include "core/kernels/ieee_check.h"  // before the namespaces: shared, guarded
#include "backends/cuda/cuda_device.hpp"
#include "core/error.hpp"
#include "swe/kernels/swe_kernels.hpp"
#include "swe/kernels/swe_point.hpp"
#include "swe/thesis.hpp"

#include "core/kernels/portable.h"  // at file scope: before each_precision.h

namespace tessera::swe::tiles {
#define TS_POINT_HEADER "swe/kernels/swe_tiles.h"
#define TS_POINT_HEADER2 "swe/kernels/swe_strip.h"
#define TS_POINT_HEADER3 "swe/kernels/swe_thesis_strip.h"
#include "core/kernels/each_precision.h"
}  // namespace tessera::swe::tiles

namespace tessera::swe::kernels {

namespace {

using namespace point;

template <class T>
T* p(const Buffer<T>& b) {
  return static_cast<T*>(b.handle());
}

cudaStream_t stream(Queue& q) { return dynamic_cast<cuda::CudaQueue&>(q).native(); }
int ordinal(Queue& q) { return dynamic_cast<cuda::CudaQueue&>(q).ordinal(); }

unsigned blocks(long n, long b) { return static_cast<unsigned>((n + b - 1) / b); }

struct ThesisArgs {
  long nx, ny, w;
};

// Walls: the walled stencil (ts_swe_thesis_at_walls) instead of the plain one.
template <class T, bool Walls>
__global__ void thesis_k(ThesisArgs a, T k, const T* Zs, const T* Xs, const T* Ys, T* Zd, T* Xd,
                         T* Yd) {
  const long j = long(blockIdx.x) * blockDim.x + threadIdx.x + 1;
  const long i = long(blockIdx.y) * blockDim.y + threadIdx.y + 1;
  if (i > a.nx || j > a.ny) return;
  const long c = i * a.w + j;
  T z, qx, qy;
  if constexpr (Walls)
    ts_swe_thesis_at_walls(Zs, Xs, Ys, i, j, a.nx, a.ny, a.w, k, &z, &qx, &qy);
  else
    ts_swe_thesis_at(Zs, Xs, Ys, c, a.w, k, &z, &qx, &qy);
  Zd[c] = z;
  Xd[c] = qx;
  Yd[c] = qy;
}

template <class T, bool Halo>
__global__ void thesis_tile_k(ThesisArgs a, T k, const T* Zs, const T* Xs, const T* Ys, T* Zd,
                              T* Xd, T* Yd) {
  extern __shared__ __align__(16) unsigned char smem[];
  const int l0 = blockDim.y, l1 = blockDim.x;
  const int tile = Halo ? (l0 + 2) * (l1 + 2) : l0 * l1;
  T* tz = reinterpret_cast<T*>(smem);
  const long gj = long(blockIdx.x) * l1 + threadIdx.x, gi = long(blockIdx.y) * l0 + threadIdx.y;
  if (Halo)
    tiles::ts_swe_thesis_tile_halo(Zs, Xs, Ys, Zd, Xd, Yd, a.nx, a.ny, a.w, k, gi, gj, threadIdx.y,
                                   threadIdx.x, l0, l1, tz, tz + tile, tz + 2 * tile);
  else
    tiles::ts_swe_thesis_tile_edge(Zs, Xs, Ys, Zd, Xd, Yd, a.nx, a.ny, a.w, k, gi, gj, threadIdx.y,
                                   threadIdx.x, l0, l1, tz, tz + tile, tz + 2 * tile);
}

// strip-walls: blocks of TS_SWE_BLOCK threads overlapping by two columns
template <class T>
__global__ void __launch_bounds__(TS_SWE_BLOCK)
    thesis_strip_k(ThesisArgs a, T k, const T* __restrict__ Zs, const T* __restrict__ Xs,
                   const T* __restrict__ Ys, T* __restrict__ Zd, T* __restrict__ Xd,
                   T* __restrict__ Yd, long strip) {
  __shared__ T xch[2 * 5 * TS_SWE_BLOCK];
  const int t = int(threadIdx.x);
  const long j = long(blockIdx.x) * (TS_SWE_BLOCK - 2) + t, i0 = 1 + long(blockIdx.y) * strip;
  tiles::ts_swe_thesis_strip(Zs, Xs, Ys, Zd, Xd, Yd, a.nx, a.ny, a.w, k, j, i0,
                             min(i0 + strip, a.nx + 1), t, TS_SWE_BLOCK, xch);
}

template <class T>
__global__ void thesis_rows_k(ThesisArgs a, T k, const T* Zs, const T* Xs, const T* Ys, T* Zd,
                              T* Xd, T* Yd, long items) {
  const long t = long(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t < items) tiles::ts_swe_thesis_rows(Zs, Xs, Ys, Zd, Xd, Yd, a.nx, a.ny, a.w, k, t, items);
}

// 4 values at p (16-byte float4; two 16-byte double2 in double) to r
template <class T>
__device__ void load4(const T* p, T* r) {
  if constexpr (std::is_same_v<T, float>) {
    const float4 v = *reinterpret_cast<const float4*>(p);
    r[0] = v.x, r[1] = v.y, r[2] = v.z, r[3] = v.w;
  } else {
    for (int h = 0; h < 2; ++h) {
      const double2 v = reinterpret_cast<const double2*>(p)[h];
      r[2 * h] = v.x, r[2 * h + 1] = v.y;
    }
  }
}
// Lanes l of v with bit l of mask set to p: all four as one vector store
// (V6's interior vectors, V1f4's rows), else lane by lane (V6's edges).
template <class T>
__device__ void store4(T* p, const T* v, int mask = 15) {
  if (mask != 15) {
    for (int l = 0; l < 4; ++l)
      if (mask & (1 << l)) p[l] = v[l];
  } else if constexpr (std::is_same_v<T, float>) {
    *reinterpret_cast<float4*>(p) = make_float4(v[0], v[1], v[2], v[3]);
  } else {
    reinterpret_cast<double2*>(p)[0] = make_double2(v[0], v[1]);
    reinterpret_cast<double2*>(p)[1] = make_double2(v[2], v[3]);
  }
}
// V1f4 (see swe.cl): thread q copies columns 4q..4q+3 of both ghost rows as
// 4-vectors, then thesis_ghost_cols_k.
template <class T>
__device__ void copy4(const T* src, T* dst, bool negate) {
  T v[4];
  load4(src, v);
  if (negate)
    for (T& e : v) e = -e;
  store4(dst, v);
}
// V6, the thesis's float4 SIMD stencil (swe.cl's thesis_simd4): thread
// (q, i) computes cells 4q .. 4q+3 of row i from 4-vector loads.
template <class T>
__global__ void thesis_simd4_k(ThesisArgs a, T k, const T* Zs, const T* Xs, const T* Ys, T* Zd,
                               T* Xd, T* Yd) {
  const long q = long(blockIdx.x) * blockDim.x + threadIdx.x,
             i = long(blockIdx.y) * blockDim.y + threadIdx.y + 1;
  if (i > a.nx || 4 * q > a.ny) return;
  const long c = i * a.w + 4 * q;
  T zr[12], xr[12], yr[12], zn[4], xn[4], yn[4], zs[4], xs[4], ys[4], z4[4], x4[4], y4[4];
  for (int v = 0; v < 3; ++v) {
    load4(Zs + c + 4 * (v - 1), zr + 4 * v);
    load4(Xs + c + 4 * (v - 1), xr + 4 * v);
    load4(Ys + c + 4 * (v - 1), yr + 4 * v);
  }
  load4(Zs + c + a.w, zn);
  load4(Xs + c + a.w, xn);
  load4(Ys + c + a.w, yn);
  load4(Zs + c - a.w, zs);
  load4(Xs + c - a.w, xs);
  load4(Ys + c - a.w, ys);
  const int mask =
      ts_swe_thesis_simd4(k, zr, xr, yr, zn, xn, yn, zs, xs, ys, 4 * q, a.ny, z4, x4, y4);
  store4(Zd + c, z4, mask);
  store4(Xd + c, x4, mask);
  store4(Yd + c, y4, mask);
}
template <class T>
__global__ void thesis_ghost_rows4_k(ThesisArgs a, T* Z, T* X, T* Y) {
  const long q = long(blockIdx.x) * blockDim.x + threadIdx.x;
  if (q >= a.w / 4) return;
  const long lo = 4 * q, hi = (a.nx + 1) * a.w + 4 * q;
  copy4(Z + lo + a.w, Z + lo, false);
  copy4(Z + hi - a.w, Z + hi, false);
  copy4(X + lo + a.w, X + lo, true);
  copy4(X + hi - a.w, X + hi, true);
  copy4(Y + lo + a.w, Y + lo, false);
  copy4(Y + hi - a.w, Y + hi, false);
}
template <class T>
__global__ void thesis_ghost_cols_k(ThesisArgs a, T* Z, T* X, T* Y) {
  const long t = long(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t < a.nx) ts_swe_thesis_ghost_col(Z, X, Y, a.ny, a.w, t + 1);
}

// The thesis's row and column copies fused into one launch (see swe.cl).
template <class T>
__global__ void thesis_ghosts_k(ThesisArgs a, T* Z, T* X, T* Y) {
  const long t = long(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t < a.ny) ts_swe_thesis_ghost_row(Z, X, Y, a.nx, a.w, t + 1);
  if (t < a.nx) ts_swe_thesis_ghost_col(Z, X, Y, a.ny, a.w, t + 1);
}

// ---- physical model ----

template <class T>
struct Phys {
  long nx, ny, w;
  PhysParams<T> p;
};

template <class T>
__global__ void phys_ghosts_k(Phys<T> a, int bookkeeping, const T* Z, T* H, T* HU, T* HV, T* sc,
                              unsigned* fl) {
  const long t = long(blockIdx.x) * blockDim.x + threadIdx.x;
  const PhysParams<T>& p = a.p;
  if (t < a.ny)
    ts_swe_ghosts_x(p.bc[0], p.bc[1], p.bc_value[0], p.bc_value[1], H, HU, HV, Z, a.nx, a.w, t);
  if (t < a.nx)
    ts_swe_ghosts_y(p.bc[2], p.bc[3], p.bc_value[2], p.bc_value[3], H, HU, HV, Z, a.ny, a.w, t);
  if (t == 0 && bookkeeping) ts_swe_bookkeeping(sc, fl, p.cfl, p.fixed_dt);
}

// Block maximum of the rate bits and minimum of the bad cell (warp shuffles,
// then shared memory), one atomic each per block; order-independent.
template <int Block = TS_SWE_BLOCK>
__device__ void block_fold(unsigned rmax, unsigned bad, bool rate, unsigned* fl) {
  __shared__ unsigned rm[Block / 32], bd[Block / 32];
  for (int o = 16; o > 0; o >>= 1) {
    rmax = max(rmax, __shfl_down_sync(0xffffffffu, rmax, o));
    bad = min(bad, __shfl_down_sync(0xffffffffu, bad, o));
  }
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) {
    rm[warp] = rmax;
    bd[warp] = bad;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int k = 1; k < Block / 32; ++k) {
      rmax = max(rmax, rm[k]);
      bad = min(bad, bd[k]);
    }
    if (rate) atomicMax(&fl[fl[TS_SWE_STEPS] & 1u], rmax);
    if (bad != TS_SWE_NONE && fl[TS_SWE_BAD_STEP] == TS_SWE_NONE)
      atomicMin(&fl[TS_SWE_BAD_CELL], bad);
  }
}

template <class T>
__global__ void __launch_bounds__(TS_SWE_BLOCK)
    phys_update_k(Phys<T> a, const T* __restrict__ Z, const T* __restrict__ H,
                  const T* __restrict__ HU, const T* __restrict__ HV, T* __restrict__ Hd,
                  T* __restrict__ HUd, T* __restrict__ HVd, const T* sc, unsigned* fl, long strip) {
  const long j = long(blockIdx.x) * TS_SWE_BLOCK + threadIdx.x, i0 = long(blockIdx.y) * strip;
  const long i1 = min(i0 + strip, a.nx);
  unsigned rmax = 0u, bad = TS_SWE_NONE;
  const PhysParams<T>& p = a.p;
  if (j < a.ny)
    tiles::ts_swe_strip1(p.g, p.h_dry, p.dx, p.dy, p.manning, sc[0], H, HU, HV, Z, Hd, HUd, HVd,
                         a.nx, a.ny, a.w, j, i0, i1, &rmax, &bad);
  block_fold(rmax, bad, true, fl);
}

// One column per thread, y-faces handed over in shared memory; blocks
// overlap by two columns (their edge threads own no cell). MinBlocks: the
// blocks per SM the register allocation must allow (see shared_min_blocks).
// No __restrict__: it turns the loads into the non-coherent path
// (LDG.CONSTANT), and NVIDIA's OpenCL build of the same code, with plain
// loads, ran this kernel 4% faster on an H100 (FP32, 86.0% against 82.3% of
// copy in the same run).
// threads per block of the shared-face update (swe_hll_consts.h)
template <class T>
constexpr int shared_block =
    std::is_same_v<T, float> ? TS_SWE_SHARED_BLOCK_F : TS_SWE_SHARED_BLOCK_D;

// Blocks per SM of the shared-face update's bound: every other measured slower (docs/swe-history.md)
constexpr int kSharedMinBlocks = 4;

template <class T>
__global__ void __launch_bounds__(shared_block<T>, kSharedMinBlocks)
    phys_update_shared_k(Phys<T> a, const T* Z, const T* H, const T* HU, const T* HV, T* Hd, T* HUd,
                         T* HVd, const T* sc, unsigned* fl, long strip, int pf) {
  constexpr int nt = shared_block<T>;
  __shared__ __align__(16) T xch[2 * 8 * nt];
  const long j = long(blockIdx.x) * (nt - 2) + threadIdx.x - 1, i0 = long(blockIdx.y) * strip;
  const long i1 = min(i0 + strip, a.nx);
  unsigned rmax = 0u, bad = TS_SWE_NONE;
  const PhysParams<T>& p = a.p;
  tiles::ts_swe_strip_shared(p.g, p.h_dry, p.dx, p.dy, p.manning, sc[0], H, HU, HV, Z, Hd, HUd, HVd,
                             a.nx, a.ny, a.w, j, i0, i1, int(threadIdx.x), nt, pf, xch, &rmax,
                             &bad);
  block_fold<nt>(rmax, bad, true, fl);
}

template <class T>
__global__ void __launch_bounds__(TS_SWE_BLOCK)
    phys_stage_k(Phys<T> a, int stage, const T* Z, const T* BH, const T* BHU, const T* BHV,
                 const T* H, const T* HU, const T* HV, T* Hd, T* HUd, T* HVd, const T* sc,
                 unsigned* fl) {
  const long j = long(blockIdx.x) * TS_SWE_BLOCK + threadIdx.x, i = blockIdx.y;
  unsigned rmax = 0u, bad = TS_SWE_NONE;
  const PhysParams<T>& p = a.p;
  if (j < a.ny) {
    const long c = (i + 2) * a.w + j + 2;
    T h, hu, hv;
    if (ts_swe_stage(p.g, p.h_dry, p.dx, p.dy, p.manning, sc[0], stage, BH, BHU, BHV, H, HU, HV, Z,
                     c, a.w, &h, &hu, &hv))
      bad = static_cast<unsigned>(i * a.ny + j);
    Hd[c] = h;
    HUd[c] = hu;
    HVd[c] = hv;
    rmax = ts_swe_rate_bits(ts_swe_rate(p.g, p.h_dry, p.dx, p.dy, h, hu, hv));
  }
  block_fold(rmax, bad, stage == 1, fl);
}

template <class T>
__global__ void ieee_check_k(std::uint64_t first, std::uint64_t count, unsigned* out) {
  unsigned c[4] = {0, 0, 0, 0};
  for (std::uint64_t s = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; s < count;
       s += std::uint64_t(gridDim.x) * blockDim.x) {
    if constexpr (std::is_same_v<T, float>)
      ts_ieee_check_f(ts_ieee_sample_f(first + s), c);
    else
      ts_ieee_check_d(ts_ieee_sample_d(first + s), c);
  }
  for (int k = 0; k < 4; ++k) atomicAdd(&out[k], c[k]);
}

}  // namespace

template <class T>
void ieee_check(CudaTag, Queue& q, std::uint64_t first, std::uint64_t count,
                Buffer<std::uint32_t>& counts) {
  const cuda::DeviceGuard guard(ordinal(q));
  ieee_check_k<T>
      <<<1024, 256, 0, stream(q)>>>(first, count, static_cast<unsigned*>(counts.handle()));
  cuda::check_launch("swe ieee_check");
}

template <class T>
void thesis_update(CudaTag, Queue& q, const ThesisGrid& g, ThesisKernel kind, WorkGroup wg, T k,
                   const Fields<T>& src, Fields<T>& dst) {
  const cuda::DeviceGuard guard(ordinal(q));  // the queue's GPU is current
  const ThesisArgs a{g.nx, g.ny, g.w};
  if (kind == ThesisKernel::rows) {  // V7: one thread per SM
    const long items = std::max(1, src.z.device().info().compute_units);
    const int b = wg.is_default() ? 1 : wg.l1;
    thesis_rows_k<T><<<blocks(items, b), b, 0, stream(q)>>>(a, k, p(src.z), p(src.qx), p(src.qy),
                                                            p(dst.z), p(dst.qx), p(dst.qy), items);
    return cuda::check_launch("swe thesis_rows");
  }
  if (kind == ThesisKernel::strip) {
    const long strip = thesis_strip_rows(g);
    const dim3 grid(blocks(g.ny, TS_SWE_BLOCK - 2), blocks(g.nx, strip));
    thesis_strip_k<T><<<grid, TS_SWE_BLOCK, 0, stream(q)>>>(a, k, p(src.z), p(src.qx), p(src.qy),
                                                            p(dst.z), p(dst.qx), p(dst.qy), strip);
    return cuda::check_launch("swe thesis_strip");
  }
  if (wg.is_default()) wg = {8, 32};
  if (wg.l0 * wg.l1 > 1024)
    throw UsageError("block " + std::to_string(wg.l0) + "x" + std::to_string(wg.l1) +
                     " exceeds CUDA's 1024 threads");
  const dim3 block(wg.l1, wg.l0);
  if (kind == ThesisKernel::global) {
    thesis_k<T, false><<<dim3(blocks(g.ny, wg.l1), blocks(g.nx, wg.l0)), block, 0, stream(q)>>>(
        a, k, p(src.z), p(src.qx), p(src.qy), p(dst.z), p(dst.qx), p(dst.qy));
    return cuda::check_launch("swe thesis_global");
  }
  if (kind == ThesisKernel::simd4) {
    // its 12-value windows take 66 (FP32) / 128 (FP64) registers: "max" (1024) does not fit
    static const cudaFuncAttributes fa = [] {  // asked once (every GPU here runs the sm_90 build)
      cudaFuncAttributes f{};
      cuda::cuda_check(cudaFuncGetAttributes(&f, thesis_simd4_k<T>), "cudaFuncGetAttributes",
                       "swe thesis_simd4");
      return f;
    }();
    if (wg.l0 * wg.l1 > fa.maxThreadsPerBlock)
      throw UsageError("block " + std::to_string(wg.l0) + "x" + std::to_string(wg.l1) +
                       " exceeds the " + std::to_string(fa.maxThreadsPerBlock) +
                       " threads thesis_simd4 can run (" + std::to_string(fa.numRegs) +
                       " registers each)");
    thesis_simd4_k<T>
        <<<dim3(blocks(g.ny / 4 + 1, wg.l1), blocks(g.nx, wg.l0)), block, 0, stream(q)>>>(
            a, k, p(src.z), p(src.qx), p(src.qy), p(dst.z), p(dst.qx), p(dst.qy));
    return cuda::check_launch("swe thesis_simd4");
  }
  if (kind == ThesisKernel::walls) {
    thesis_k<T, true><<<dim3(blocks(g.ny, wg.l1), blocks(g.nx, wg.l0)), block, 0, stream(q)>>>(
        a, k, p(src.z), p(src.qx), p(src.qy), p(dst.z), p(dst.qx), p(dst.qy));
    return cuda::check_launch("swe thesis_walls");
  }
  const dim3 grid(static_cast<unsigned>(thesis_round_global(g.ny, wg.l1) / wg.l1),
                  static_cast<unsigned>(thesis_round_global(g.nx, wg.l0) / wg.l0));
  const bool halo = kind == ThesisKernel::tile_halo;
  const std::size_t shared = 3 * sizeof(T) * (wg.l0 + (halo ? 2 : 0)) * (wg.l1 + (halo ? 2 : 0));
  if (shared > 48 * 1024)
    throw UsageError("block " + std::to_string(wg.l0) + "x" + std::to_string(wg.l1) + " needs " +
                     std::to_string(shared) + " B of shared memory (limit 48 KiB)");
  if (halo)
    thesis_tile_k<T, true><<<grid, block, shared, stream(q)>>>(a, k, p(src.z), p(src.qx), p(src.qy),
                                                               p(dst.z), p(dst.qx), p(dst.qy));
  else
    thesis_tile_k<T, false><<<grid, block, shared, stream(q)>>>(
        a, k, p(src.z), p(src.qx), p(src.qy), p(dst.z), p(dst.qx), p(dst.qy));
  cuda::check_launch(halo ? "swe thesis_tile_halo" : "swe thesis_tile_edge");
}

template <class T>
void thesis_ghosts(CudaTag, Queue& q, const ThesisGrid& g, Fields<T>& f, bool vector_rows) {
  const cuda::DeviceGuard guard(ordinal(q));  // the queue's GPU is current
  const ThesisArgs a{g.nx, g.ny, g.w};
  if (vector_rows) {  // V1f4: rows as 4-vectors, then the columns (two launches, in order)
    thesis_ghost_rows4_k<T>
        <<<blocks(g.w / 4, 128), 128, 0, stream(q)>>>(a, p(f.z), p(f.qx), p(f.qy));
    cuda::check_launch("swe thesis_ghost_rows4");
    thesis_ghost_cols_k<T><<<blocks(g.nx, 128), 128, 0, stream(q)>>>(a, p(f.z), p(f.qx), p(f.qy));
    return cuda::check_launch("swe thesis_ghost_cols");
  }
  thesis_ghosts_k<T>
      <<<blocks(std::max(g.nx, g.ny), 128), 128, 0, stream(q)>>>(a, p(f.z), p(f.qx), p(f.qy));
  cuda::check_launch("swe thesis_ghosts");
}

WorkGroup max_work_group(CudaTag, Device& d) {
  const cudaDeviceProp& pr = dynamic_cast<cuda::CudaDevice&>(d).properties();
  int a = static_cast<int>(std::sqrt(double(pr.maxThreadsDim[1])));
  int b = static_cast<int>(std::sqrt(double(pr.maxThreadsDim[0])));
  while (a * b > pr.maxThreadsPerBlock) (a > b ? a : b) -= 1;
  return {std::max(a, 1), std::max(b, 1)};
}

template <class T>
void phys_ghosts(CudaTag, Queue& q, const PhysGrid& g, const PhysParams<T>& prm,
                 const Buffer<T>& zb, Fields<T>& f, Buffer<T>& scalars,
                 Buffer<std::uint32_t>& flags, bool bookkeeping) {
  const cuda::DeviceGuard guard(ordinal(q));  // the queue's GPU is current
  const Phys<T> a{g.nx, g.ny, g.w, prm};
  phys_ghosts_k<T><<<blocks(std::max(g.nx, g.ny), 128), 128, 0, stream(q)>>>(
      a, bookkeeping, p(zb), p(f.z), p(f.qx), p(f.qy), p(scalars), p(flags));
  cuda::check_launch("swe phys_ghosts");
}

template <class T>
void phys_update(CudaTag, Queue& q, const PhysGrid& g, const PhysParams<T>& prm,
                 const Buffer<T>& zb, const Fields<T>& src, Fields<T>& dst, Buffer<T>& scalars,
                 Buffer<std::uint32_t>& flags) {
  const cuda::DeviceGuard guard(ordinal(q));  // the queue's GPU is current
  const Phys<T> a{g.nx, g.ny, g.w, prm};
  const long strip = phys_strip_rows(g);
  if (prm.columns == 3 && ts_swe_shared_fits(g.nx, g.w)) {
    const dim3 grid(blocks(g.ny, shared_block<T> - 2), blocks(g.nx, strip));
    phys_update_shared_k<T><<<grid, shared_block<T>, 0, stream(q)>>>(
        a, p(zb), p(src.z), p(src.qx), p(src.qy), p(dst.z), p(dst.qx), p(dst.qy), p(scalars),
        p(flags), strip, phys_prefetch_rows());
    return cuda::check_launch("swe phys_update_shared");
  }
  const dim3 grid(blocks(g.ny, TS_SWE_BLOCK), blocks(g.nx, strip));
  phys_update_k<T><<<grid, TS_SWE_BLOCK, 0, stream(q)>>>(a, p(zb), p(src.z), p(src.qx), p(src.qy),
                                                         p(dst.z), p(dst.qx), p(dst.qy), p(scalars),
                                                         p(flags), strip);
  cuda::check_launch("swe phys_update");
}

template <class T>
void phys_stage(CudaTag, Queue& q, const PhysGrid& g, const PhysParams<T>& prm, const Buffer<T>& zb,
                const Fields<T>& base, const Fields<T>& src, Fields<T>& dst, int stage,
                Buffer<T>& scalars, Buffer<std::uint32_t>& flags) {
  const cuda::DeviceGuard guard(ordinal(q));  // the queue's GPU is current
  const Phys<T> a{g.nx, g.ny, g.w, prm};
  const dim3 grid(blocks(g.ny, TS_SWE_BLOCK), static_cast<unsigned>(g.nx));
  phys_stage_k<T><<<grid, TS_SWE_BLOCK, 0, stream(q)>>>(
      a, stage, p(zb), p(base.z), p(base.qx), p(base.qy), p(src.z), p(src.qx), p(src.qy), p(dst.z),
      p(dst.qx), p(dst.qy), p(scalars), p(flags));
  cuda::check_launch("swe phys_stage");
}

TS_SWE_INSTANTIATE(CudaTag, float)
TS_SWE_INSTANTIATE(CudaTag, double)

}  // namespace tessera::swe::kernels
