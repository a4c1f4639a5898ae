// CPU launchers of the SpMV kernels: OpenMP over rows (block rows), each
// kernel summing in exactly the order its GPU twin does (lanes of csr-vector,
// subsections of ELL and bell-sub, per-block partial sums of BCSR V1-V3, lane
// groups of bcsr-warp), so the GPU kernels can be compared with these bitwise.
// The arithmetic is spmv_point.h.
#include <algorithm>

#include "sparse/kernels/spmv_kernels.hpp"
#include "sparse/kernels/spmv_point.hpp"

namespace tessera::sparse::kernels {

namespace {

using namespace point;

long row_of(const index_t* map, bool mapped, long i) { return mapped ? map[i] : i; }

}  // namespace

int csr_vector_lanes(size64 rows, size64 nnz) {
  const double mean = rows > 0 ? static_cast<double>(nnz) / static_cast<double>(rows) : 0.0;
  int lanes = 1;
  while (lanes < TS_SPMV_WARP && 2.0 * lanes <= mean * 1.5) lanes *= 2;
  return lanes;
}

template <class V>
void fill_zero(CpuTag, Queue&, Buffer<V>& y) {
  std::fill(static_cast<V*>(y.handle()), static_cast<V*>(y.handle()) + y.size(), V(0));
}

template <class V>
void csr(CpuTag, Queue&, const DeviceCsr<V>& a, Kernel k, const Buffer<V>& xb, Buffer<V>& yb) {
  using K = kernel_value_t<V>;
  const index_t *rp = idx(a.row_ptr), *col = idx(a.col);
  const K *val = in(a.val), *x = in(xb);
  K* y = out(yb);
  const int lanes = k == Kernel::csr_vector ? a.lanes : 1;
#pragma omp parallel for schedule(static)
  for (long i = 0; i < a.rows; ++i) {
    K part[TS_SPMV_WARP];
    part[0] = K{};  // lanes >= 1 fills it; this tells the compiler so
    for (int t = 0; t < lanes; ++t)
      part[t] = ts_spmv_gather(K{}, col, val, x, rp[i] + t, rp[i + 1], lanes);
    for (int h = lanes / 2; h > 0; h /= 2)
      for (int t = 0; t < h; ++t) part[t] = ts_spmv_add(part[t], part[t + h]);
    y[i] = part[0];
  }
}

template <class V>
void ell(CpuTag, Queue&, const DeviceEll<V>& a, Kernel k, const Buffer<V>& xb, Buffer<V>& yb) {
  using K = kernel_value_t<V>;
  const index_t *col = idx(a.col), *map = idx(a.row_map);
  const K *val = in(a.val), *x = in(xb);
  K* y = out(yb);
  const long n = a.stored_rows, end = a.width * n;
  const long L = k == Kernel::ell ? a.subsection : a.width;
#pragma omp parallel for schedule(static)
  for (long s = 0; s < n; ++s) {
    K acc{};
    if (k == Kernel::ell_v2) {
      acc = ts_spmv_gather(acc, col, val, x, s, end, n);
    } else {  // partial sums per subsection, then their sum (the reduction kernel)
      for (long q = 0; q < a.subsections(); ++q)
        acc = ts_spmv_add(acc, ts_spmv_gather(K{}, col, val, x, q * L * n + s,
                                              std::min(end, (q + 1) * L * n), n));
    }
    y[row_of(map, a.mapped, s)] = acc;
  }
}

template <class V>
void sell(CpuTag, Queue&, const DeviceSell<V>& a, Kernel, const Buffer<V>& xb, Buffer<V>& yb) {
  using K = kernel_value_t<V>;
  const index_t *sp = idx(a.slice_ptr), *col = idx(a.col), *map = idx(a.row_map);
  const K *val = in(a.val), *x = in(xb);
  K* y = out(yb);
  const long C = a.slice_height;
#pragma omp parallel for schedule(static)
  for (long p = 0; p < a.slices * C; ++p) {
    const long s = p / C;
    if (p < a.rows)
      y[row_of(map, a.mapped, p)] = ts_spmv_gather(K{}, col, val, x, sp[s] + p % C, sp[s + 1], C);
  }
}

template <class V>
void bcsr(CpuTag, Queue&, const DeviceBcsr<V>& a, Kernel k, const Buffer<V>& xb, Buffer<V>& yb) {
  using K = kernel_value_t<V>;
  const index_t *rp = idx(a.row_ptr), *col = idx(a.col), *map = idx(a.block_row_map);
  const K *val = in(a.val), *x = in(xb);
  K* y = out(yb);
  const int r = a.block.r, c = a.block.c;
  const long bs = a.block.size();
  const bool row_major = a.block.layout == BlockLayout::row_major;
  const long si = row_major ? c : 1, sj = row_major ? 1 : r;  // in-block row / column strides
  const int bs_int = r * c,
            bps = TS_SPMV_WARP / std::max(1, bs_int);  // bcsr-warp: blocks per warp step
#pragma omp parallel for schedule(static)
  for (long sb = 0; sb < a.stored_block_rows; ++sb) {
    const long first_row = row_of(map, a.mapped, sb) * r;
    K part[TS_SPMV_WARP];
    if (k == Kernel::bcsr_warp)
      for (int lane = 0; lane < bps * bs_int; ++lane)
        part[lane] = ts_spmv_bcsr_lane(K{}, col, val, x, rp[sb], rp[sb + 1], lane / bs_int, bps,
                                       lane % bs_int, r, c, a.cols);
    for (int i = 0; i < r && first_row + i < a.rows; ++i) {
      K acc{};
      if (k == Kernel::bcsr_warp) {
        for (int s = 0; s < bps; ++s)  // lanes of row i in lane order
          for (int j = 0; j < c; ++j) acc = ts_spmv_add(acc, part[s * bs_int + j * r + i]);
      } else {  // one partial sum per block (V1: per block thread; V2/V3: per row thread), then their sum
        for (long b = rp[sb]; b < rp[sb + 1]; ++b) {
          const long first = static_cast<long>(col[b]) * c;
          acc = ts_spmv_add(acc, ts_spmv_block_row(K{}, val + b * bs + i * si, sj, x, first,
                                                   TS_SPMV_BLOCK_COLS(first, c, a.cols)));
        }
      }
      y[first_row + i] = acc;
    }
  }
}

template <class V>
void bell(CpuTag, Queue&, const DeviceBell<V>& a, Kernel k, const Buffer<V>& xb, Buffer<V>& yb) {
  using K = kernel_value_t<V>;
  const index_t *col = idx(a.col), *map = idx(a.block_row_map),
                *len = a.lengths.size() ? idx(a.lengths) : nullptr;
  const K *val = in(a.val), *x = in(xb);
  K* y = out(yb);
  const int r = a.block.r, c = a.block.c;
  const long n = a.stored_rows(), nb = a.stored_block_rows;
#pragma omp parallel for schedule(static)
  for (long sb = 0; sb < nb; ++sb) {
    const long first_row = row_of(map, a.mapped, sb) * r;
    K acc[TS_SPMV_MAX_BLOCK];
    if (k == Kernel::bell_v2) {  // block-row index, r accumulators, block by block
      for (int i = 0; i < r; ++i) acc[i] = K{};
      for (long s = 0; s < a.width; ++s) {
        const long first = static_cast<long>(col[s * nb + sb]) * c;
        for (int i = 0; i < r; ++i)
          acc[i] = ts_spmv_block_row(acc[i], val + s * c * n + sb * r + i, n, x, first,
                                     TS_SPMV_BLOCK_COLS(first, c, a.cols));
      }
    }
    for (int i = 0; i < r && first_row + i < a.rows; ++i) {
      const long row = sb * r + i;
      K v{};
      if (k == Kernel::bell_v2) {
        v = acc[i];
      } else if (k == Kernel::bell_sub) {
        for (long q = 0; q < a.subsections(); ++q)
          v = ts_spmv_add(
              v, ts_spmv_bell_row(K{}, col, val, x, row, n, q * a.sub_slots,
                                  std::min<long>(a.width, (q + 1) * a.sub_slots), c, a.cols));
      } else {  // BELL, BELL V3 (same sums; the window only moves x), BELL V4, bell-bi (another index)
        const long k1 = len ? static_cast<long>(len[sb]) : static_cast<long>(a.width);
        v = ts_spmv_bell_row_ix(v, col, val, x, row, n, a.index_rows(), a.index_scale(), 0, k1, c,
                                a.cols);
      }
      y[first_row + i] = v;
    }
  }
}

#define TS_INSTANTIATE(V)                                                                          \
  template void fill_zero<V>(CpuTag, Queue&, Buffer<V>&);                                          \
  template void csr<V>(CpuTag, Queue&, const DeviceCsr<V>&, Kernel, const Buffer<V>&, Buffer<V>&); \
  template void ell<V>(CpuTag, Queue&, const DeviceEll<V>&, Kernel, const Buffer<V>&, Buffer<V>&); \
  template void sell<V>(CpuTag, Queue&, const DeviceSell<V>&, Kernel, const Buffer<V>&,            \
                        Buffer<V>&);                                                               \
  template void bcsr<V>(CpuTag, Queue&, const DeviceBcsr<V>&, Kernel, const Buffer<V>&,            \
                        Buffer<V>&);                                                               \
  template void bell<V>(CpuTag, Queue&, const DeviceBell<V>&, Kernel, const Buffer<V>&, Buffer<V>&);
TESSERA_SPARSE_FOR_EACH_SCALAR(TS_INSTANTIATE)
#undef TS_INSTANTIATE

}  // namespace tessera::sparse::kernels
