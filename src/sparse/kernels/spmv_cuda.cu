// CUDA SpMV kernels: the OpenCL kernels of spmv.cl with CUDA indexing, warp
// shuffles instead of local-memory trees where the order allows, and dynamic
// shared memory for BELL V3's x window. Arithmetic: spmv_point.h; summation
// orders: the CPU twins in spmv_cpu.cpp.
#include <complex>
#include <string>

#include "backends/cuda/cuda_check.hpp"
#include "backends/cuda/cuda_device.hpp"
#include "core/error.hpp"
#include "sparse/kernels/spmv_kernels.hpp"
#include "sparse/kernels/spmv_point.hpp"

namespace tessera::sparse::kernels {

namespace {

using namespace point;

__device__ long row_of(const int* map, int mapped, long i) { return mapped ? long(map[i]) : i; }
__device__ long global_id() { return long(blockIdx.x) * blockDim.x + threadIdx.x; }

// Warp shuffles of every value type (complex: both parts).
__device__ float shfl_down(float v, int d, int w) { return __shfl_down_sync(0xffffffffu, v, d, w); }
__device__ double shfl_down(double v, int d, int w) {
  return __shfl_down_sync(0xffffffffu, v, d, w);
}
__device__ float2 shfl_down(float2 v, int d, int w) {
  return {shfl_down(v.x, d, w), shfl_down(v.y, d, w)};
}
__device__ double2 shfl_down(double2 v, int d, int w) {
  return {shfl_down(v.x, d, w), shfl_down(v.y, d, w)};
}

template <class K>
__global__ void fill_zero_k(long n, K* y) {
  const long i = global_id();
  if (i < n) y[i] = K{};
}

template <class K>
__global__ void csr_scalar_k(long rows, const int* rp, const int* col, const K* __restrict__ val,
                             const K* __restrict__ x, K* y) {
  const long i = global_id();
  if (i < rows) y[i] = ts_spmv_gather(K{}, col, val, x, rp[i], rp[i + 1], 1);
}

// `lanes` chains per row; chain c sums entries c, c + lanes, ... in order,
// then a halving tree adds chain c + h into chain c, h = lanes/2 .. 1: the
// order of the CPU twin. C chains per thread (spmv.cl's TS_SPMV_CHAINS): each
// of the W = lanes / C threads of a row keeps chains t, t + W, ... in
// registers (C independent chains, ts_spmv_gather_chains) and does the first log2(C) tree
// levels there, the last log2(W) by shuffles. The same bits for every C.
// Whole warps stay in the loop.
template <class K, int C>
__global__ void csr_vector_k(long rows, int lanes, const int* rp, const int* col,
                             const K* __restrict__ val, const K* __restrict__ x, K* y) {
  const int w = lanes / C;
  const long g = global_id(), i = g / w;
  const int t = int(g % w);
  K acc = i < rows ? ts_spmv_gather_chains(C, col, val, x, rp[i] + t, rp[i + 1], w) : K{};
  for (int h = w / 2; h > 0; h /= 2) {
    const K other = shfl_down(acc, h, w);
    if (t < h) acc = ts_spmv_add(acc, other);
  }
  if (t == 0 && i < rows) y[i] = acc;
}

template <class K>
__global__ void ell_subsection_k(long n, long width, long L, long nsub, const int* col,
                                 const K* __restrict__ val, const K* __restrict__ x, K* partial) {
  const long g = global_id();
  if (g >= n * nsub) return;
  const long s = g % n, q = g / n;
  partial[g] = ts_spmv_gather(K{}, col, val, x, q * L * n + s, min((q + 1) * L, width) * n, n);
}

template <class K>
__global__ void ell_reduce_k(long n, long nsub, int mapped, const int* map, const K* partial,
                             K* y) {
  const long s = global_id();
  if (s < n) y[row_of(map, mapped, s)] = ts_spmv_sum(K{}, partial, s, nsub * n, n);
}

template <class K>
__global__ void ell_row_k(long n, long width, int mapped, const int* map, const int* col,
                          const K* __restrict__ val, const K* __restrict__ x, K* y) {
  const long s = global_id();
  if (s < n) y[row_of(map, mapped, s)] = ts_spmv_gather(K{}, col, val, x, s, width * n, n);
}

template <class K>
__global__ void sell_k(long rows, int C, int mapped, const int* map, const int* sp, const int* col,
                       const K* __restrict__ val, const K* __restrict__ x, K* y) {
  const long p = global_id();
  if (p >= rows) return;
  const long s = p / C;
  y[row_of(map, mapped, p)] = ts_spmv_gather(K{}, col, val, x, sp[s] + p % C, sp[s + 1], C);
}

template <class K>
__global__ void bcsr_block_k(long nblocks, int r, int c, long si, long sj, long cols,
                             const int* col, const K* __restrict__ val, const K* __restrict__ x,
                             K* partial) {
  const long b = global_id();
  if (b >= nblocks) return;
  const long first = long(col[b]) * c;
  for (int i = 0; i < r; ++i)
    partial[b * r + i] = ts_spmv_block_row(K{}, val + b * r * c + i * si, sj, x, first,
                                           TS_SPMV_BLOCK_COLS(first, c, cols));
}

template <class K>
__global__ void bcsr_block_row_k(long nblocks, int r, int c, long si, long sj, long cols,
                                 const int* col, const K* __restrict__ val, const K* __restrict__ x,
                                 K* partial) {
  const long g = global_id();
  if (g >= nblocks * r) return;
  const long b = g / r, i = g % r, first = long(col[b]) * c;
  partial[g] = ts_spmv_block_row(K{}, val + b * r * c + i * si, sj, x, first,
                                 TS_SPMV_BLOCK_COLS(first, c, cols));
}

template <class K>
__global__ void bcsr_reduce_k(long nbr, int r, long rows, int mapped, const int* map, const int* rp,
                              const K* partial, K* y) {
  const long g = global_id();
  if (g >= nbr * r) return;
  const long sb = g / r, i = g % r, row = row_of(map, mapped, sb) * r + i;
  if (row < rows)
    y[row] = ts_spmv_sum(K{}, partial, long(rp[sb]) * r + i, long(rp[sb + 1]) * r + i, r);
}

// One warp per block row (column-major blocks of at most 32 values); the
// lanes of each in-block row are reduced through shared memory in lane order.
template <class K>
__global__ void bcsr_warp_k(long nbr, int r, int c, long rows, long cols, int mapped,
                            const int* map, const int* rp, const int* col,
                            const K* __restrict__ val, const K* __restrict__ x, K* y) {
  __shared__ K part[TS_SPMV_GROUP];
  const int lid = threadIdx.x, lane = lid % TS_SPMV_WARP, bs = r * c, bps = TS_SPMV_WARP / bs;
  const long sb = global_id() / TS_SPMV_WARP;
  K acc{};
  if (sb < nbr && lane < bps * bs)
    acc = ts_spmv_bcsr_lane(acc, col, val, x, rp[sb], rp[sb + 1], lane / bs, bps, lane % bs, r, c,
                            cols);
  part[lid] = acc;
  __syncwarp();
  if (sb >= nbr || lane >= r) return;
  const long row = row_of(map, mapped, sb) * r + lane;
  if (row >= rows) return;
  K v{};
  for (int s = 0; s < bps; ++s)
    for (int j = 0; j < c; ++j) v = ts_spmv_add(v, part[lid - lane + s * bs + j * r + lane]);
  y[row] = v;
}

// BELL, BELL V4 (ir = iscale = 1: per-scalar-row index, every slot) and
// bell-bi (ir = r, iscale = c: block-row index; len: the real blocks of each
// stored block row, so the padding slots are not read); one thread per stored
// scalar row.
// RB > 0: bell-bi with compile-time RB x RB blocks (r = c = ir = iscale =
// RB): the divisions by r become multiplications and the loop over a block's
// columns unrolls, so several blocks' loads are in flight at once.
template <class K, int RB = 0>
__global__ void bell_row_k(long n, long width, int r_, int c_, long rows, long cols, int mapped,
                           const int* map, int ir_, int iscale_, const int* len, const int* col,
                           const K* __restrict__ val, const K* __restrict__ x, K* y) {
  const int r = RB ? RB : r_, c = RB ? RB : c_, ir = RB ? RB : ir_, iscale = RB ? RB : iscale_;
  const long R = global_id();
  if (R >= n) return;
  const long row = row_of(map, mapped, R / r) * r + R % r;
  const long k1 = len ? long(len[R / r]) : width;
  if (row < rows)
    y[row] = RB ? ts_spmv_bell_row_ix_ahead(K{}, col, val, x, R, n, ir, iscale, 0, k1, c, cols)
                : ts_spmv_bell_row_ix(K{}, col, val, x, R, n, ir, iscale, 0, k1, c, cols);
}

template <class K>
__global__ void bell_block_row_k(long nb, long width, int r, int c, long rows, long cols,
                                 int mapped, const int* map, const int* col,
                                 const K* __restrict__ val, const K* __restrict__ x, K* y) {
  const long sb = global_id();
  if (sb >= nb) return;
  const long n = nb * r;
  K acc[TS_SPMV_MAX_BLOCK];
  for (int i = 0; i < r; ++i) acc[i] = K{};
  for (long s = 0; s < width; ++s) {
    const long first = long(col[s * nb + sb]) * c;
    const int nc = TS_SPMV_BLOCK_COLS(first, c, cols);
    for (int i = 0; i < r; ++i)
      acc[i] = ts_spmv_block_row(acc[i], val + s * c * n + sb * r + i, n, x, first, nc);
  }
  const long base = row_of(map, mapped, sb) * r;
  for (int i = 0; i < r && base + i < rows; ++i) y[base + i] = acc[i];
}

template <class K>
__global__ void __launch_bounds__(1024)
    bell_window_k(long n, long width, int r, int c, long rows, long cols, int mapped,
                  const int* map, const int* win, const int* col, const K* __restrict__ val,
                  const K* __restrict__ x, K* y) {
  extern __shared__ __align__(16) unsigned char window_bytes[];
  K* xw = reinterpret_cast<K*>(window_bytes);
  const long R = global_id(), g = blockIdx.x;
  const long first = win[2 * g], size = win[2 * g + 1];
  for (long t = threadIdx.x; t < size; t += blockDim.x) xw[t] = x[first + t];
  __syncthreads();
  if (R >= n) return;
  const long row = row_of(map, mapped, R / r) * r + R % r;
  if (row < rows) y[row] = ts_spmv_bell_row_window(K{}, col, val, xw, first, R, n, width, c, cols);
}

template <class K>
__global__ void __launch_bounds__(TS_SPMV_WARP* TS_SPMV_WARP)
    bell_sub_k(long n, long width, int r, int c, long rows, long cols, int mapped, const int* map,
               long slots, const int* col, const K* __restrict__ val, const K* __restrict__ x,
               K* y) {
  __shared__ K part[TS_SPMV_WARP * TS_SPMV_WARP];
  const long R = long(blockIdx.x) * TS_SPMV_WARP + threadIdx.x;
  const int lr = threadIdx.x, q = threadIdx.y, nsub = blockDim.y;
  K acc{};
  if (R < n)
    acc = ts_spmv_bell_row(acc, col, val, x, R, n, q * slots, min((q + 1) * slots, width), c, cols);
  part[q * TS_SPMV_WARP + lr] = acc;
  __syncthreads();
  if (q != 0 || R >= n) return;
  const long row = row_of(map, mapped, R / r) * r + R % r;
  if (row >= rows) return;
  K v{};
  for (int p = 0; p < nsub; ++p) v = ts_spmv_add(v, part[p * TS_SPMV_WARP + lr]);
  y[row] = v;
}

/// Launches `kernel` over n threads in blocks of `group` (nothing when n is 0).
template <class F, class... Args>
void launch(Queue& q, const char* name, long n, int group, F kernel, Args... args) {
  if (n <= 0) return;
  auto& cq = cuda::queue_of(q);
  cuda::DeviceGuard guard(cq.ordinal());
  kernel<<<unsigned((n + group - 1) / group), group, 0, cq.native()>>>(args...);
  cuda::check_launch(name);
}

}  // namespace

template <class V>
void fill_zero(CudaTag, Queue& q, Buffer<V>& y) {
  using K = kernel_value_t<V>;
  launch(q, "sparse fill_zero", long(y.size()), TS_SPMV_GROUP, fill_zero_k<K>, long(y.size()),
         out(y));
}

template <class V>
void csr(CudaTag, Queue& q, const DeviceCsr<V>& a, Kernel k, const Buffer<V>& x, Buffer<V>& y) {
  using K = kernel_value_t<V>;
  if (k == Kernel::csr_scalar)
    launch(q, "spmv csr_scalar", a.rows, TS_SPMV_GROUP, csr_scalar_k<K>, long(a.rows),
           idx(a.row_ptr), idx(a.col), in(a.val), in(x), out(y));
  else {
    // lanes / chains threads per row, each with `chains` lane chains in registers
    const long items = a.rows * (a.lanes / a.chains);
    auto go = [&](auto kernel) {
      launch(q, "spmv csr_vector", items, TS_SPMV_GROUP, kernel, long(a.rows), a.lanes,
             idx(a.row_ptr), idx(a.col), in(a.val), in(x), out(y));
    };
    switch (a.chains) {
      case 1:
        go(csr_vector_k<K, 1>);
        break;
      case 2:
        go(csr_vector_k<K, 2>);
        break;
      case 4:
        go(csr_vector_k<K, 4>);
        break;
      case 8:
        go(csr_vector_k<K, 8>);
        break;
      case 16:
        go(csr_vector_k<K, 16>);
        break;
      case 32:
        go(csr_vector_k<K, 32>);
        break;
      default:
        throw Error("csr-vector: " + std::to_string(a.chains) +
                    " chains per thread are not compiled");
    }
  }
}

template <class V>
void ell(CudaTag, Queue& q, const DeviceEll<V>& a, Kernel k, const Buffer<V>& x, Buffer<V>& y) {
  using K = kernel_value_t<V>;
  const long n = a.stored_rows;
  if (k == Kernel::ell_v2) {
    launch(q, "spmv ell_row", n, TS_SPMV_GROUP, ell_row_k<K>, n, long(a.width), int(a.mapped),
           idx(a.row_map), idx(a.col), in(a.val), in(x), out(y));
    return;
  }
  const long nsub = a.subsections();
  launch(q, "spmv ell_subsection", n * nsub, TS_SPMV_GROUP, ell_subsection_k<K>, n, long(a.width),
         long(a.subsection), nsub, idx(a.col), in(a.val), in(x), out(a.partial));
  launch(q, "spmv ell_reduce", n, TS_SPMV_GROUP, ell_reduce_k<K>, n, nsub, int(a.mapped),
         idx(a.row_map), in(a.partial), out(y));
}

template <class V>
void sell(CudaTag, Queue& q, const DeviceSell<V>& a, Kernel, const Buffer<V>& x, Buffer<V>& y) {
  using K = kernel_value_t<V>;
  launch(q, "spmv sell", a.rows, TS_SPMV_GROUP, sell_k<K>, long(a.rows), a.slice_height,
         int(a.mapped), idx(a.row_map), idx(a.slice_ptr), idx(a.col), in(a.val), in(x), out(y));
}

template <class V>
void bcsr(CudaTag, Queue& q, const DeviceBcsr<V>& a, Kernel k, const Buffer<V>& x, Buffer<V>& y) {
  using K = kernel_value_t<V>;
  const int r = a.block.r, c = a.block.c;
  const long nbr = a.stored_block_rows;
  if (k == Kernel::bcsr_warp) {
    launch(q, "spmv bcsr_warp", nbr * TS_SPMV_WARP, TS_SPMV_GROUP, bcsr_warp_k<K>, nbr, r, c,
           long(a.rows), long(a.cols), int(a.mapped), idx(a.block_row_map), idx(a.row_ptr),
           idx(a.col), in(a.val), in(x), out(y));
    return;
  }
  const bool row_major = a.block.layout == BlockLayout::row_major;
  const long si = row_major ? c : 1, sj = row_major ? 1 : r;
  if (k == Kernel::bcsr_v1a || k == Kernel::bcsr_v1b)
    launch(q, "spmv bcsr_block", a.nblocks, TS_SPMV_GROUP, bcsr_block_k<K>, long(a.nblocks), r, c,
           si, sj, long(a.cols), idx(a.col), in(a.val), in(x), out(a.partial));
  else
    launch(q, "spmv bcsr_block_row", a.nblocks * r, TS_SPMV_GROUP, bcsr_block_row_k<K>,
           long(a.nblocks), r, c, si, sj, long(a.cols), idx(a.col), in(a.val), in(x),
           out(a.partial));
  launch(q, "spmv bcsr_reduce", nbr * r, TS_SPMV_GROUP, bcsr_reduce_k<K>, nbr, r, long(a.rows),
         int(a.mapped), idx(a.block_row_map), idx(a.row_ptr), in(a.partial), out(y));
}

template <class V>
void bell(CudaTag, Queue& q, const DeviceBell<V>& a, Kernel k, const Buffer<V>& x, Buffer<V>& y) {
  using K = kernel_value_t<V>;
  const int r = a.block.r, c = a.block.c;
  const long n = a.stored_rows();
  auto& cq = cuda::queue_of(q);
  cuda::DeviceGuard guard(cq.ordinal());
  if (k == Kernel::bell_v2) {
    launch(q, "spmv bell_block_row", a.stored_block_rows, TS_SPMV_GROUP, bell_block_row_k<K>,
           long(a.stored_block_rows), long(a.width), r, c, long(a.rows), long(a.cols),
           int(a.mapped), idx(a.block_row_map), idx(a.col), in(a.val), in(x), out(y));
  } else if (k == Kernel::bell_v3) {
    const std::size_t bytes = static_cast<std::size_t>(a.max_window) * sizeof(V);
    const auto& props = cuda::device_of(y.device()).properties();
    if (bytes > props.sharedMemPerBlockOptin)
      throw Error("BELL V3: the x window of " + std::to_string(a.max_window) + " values needs " +
                  format_bytes(bytes) + " of shared memory per block; " + y.device().id() +
                  " allows " + format_bytes(props.sharedMemPerBlockOptin));
    cuda::cuda_check(cudaFuncSetAttribute(bell_window_k<K>,
                                          cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes)),
                     "cudaFuncSetAttribute", "BELL V3 dynamic shared memory");
    bell_window_k<K>
        <<<unsigned((n + a.group_rows - 1) / a.group_rows), a.group_rows, bytes, cq.native()>>>(
            n, long(a.width), r, c, long(a.rows), long(a.cols), int(a.mapped), idx(a.block_row_map),
            idx(a.windows), idx(a.col), in(a.val), in(x), out(y));
    cuda::check_launch("spmv bell_window");
  } else if (k == Kernel::bell_sub) {
    const dim3 block(TS_SPMV_WARP, unsigned(a.subsections()));
    bell_sub_k<K><<<unsigned((n + TS_SPMV_WARP - 1) / TS_SPMV_WARP), block, 0, cq.native()>>>(
        n, long(a.width), r, c, long(a.rows), long(a.cols), int(a.mapped), idx(a.block_row_map),
        long(a.sub_slots), idx(a.col), in(a.val), in(x), out(y));
    cuda::check_launch("spmv bell_sub");
  } else {  // BELL and CUDA BELL V4 (the thesis's V4 is this kernel launched through CUDA), bell-bi
    auto kernel = bell_row_k<K>;
    if (a.index == BellIndex::block_row &&
        r == c) {  // bell-bi's common square blocks, compiled for their size
      switch (r) {
        case 2:
          kernel = bell_row_k<K, 2>;
          break;
        case 3:
          kernel = bell_row_k<K, 3>;
          break;
        case 4:
          kernel = bell_row_k<K, 4>;
          break;
        case 5:
          kernel = bell_row_k<K, 5>;
          break;
        case 6:
          kernel = bell_row_k<K, 6>;
          break;
        default:
          break;
      }
    }
    launch(q, "spmv bell_row", n, TS_SPMV_GROUP, kernel, n, long(a.width), r, c, long(a.rows),
           long(a.cols), int(a.mapped), idx(a.block_row_map), a.index_rows(), a.index_scale(),
           a.lengths.size() ? idx(a.lengths) : nullptr, idx(a.col), in(a.val), in(x), out(y));
  }
}

#define TS_INSTANTIATE(V)                                                                \
  template void fill_zero<V>(CudaTag, Queue&, Buffer<V>&);                               \
  template void csr<V>(CudaTag, Queue&, const DeviceCsr<V>&, Kernel, const Buffer<V>&,   \
                       Buffer<V>&);                                                      \
  template void ell<V>(CudaTag, Queue&, const DeviceEll<V>&, Kernel, const Buffer<V>&,   \
                       Buffer<V>&);                                                      \
  template void sell<V>(CudaTag, Queue&, const DeviceSell<V>&, Kernel, const Buffer<V>&, \
                        Buffer<V>&);                                                     \
  template void bcsr<V>(CudaTag, Queue&, const DeviceBcsr<V>&, Kernel, const Buffer<V>&, \
                        Buffer<V>&);                                                     \
  template void bell<V>(CudaTag, Queue&, const DeviceBell<V>&, Kernel, const Buffer<V>&, \
                        Buffer<V>&);
TESSERA_SPARSE_FOR_EACH_SCALAR(TS_INSTANTIATE)
#undef TS_INSTANTIATE

}  // namespace tessera::sparse::kernels
