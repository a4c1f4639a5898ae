// CPU launchers of the SpMV kernels. Those over items (one per row, block or
// subsection) run spmv_point.h's item functions in OpenMP loops, generated
// from the kernel list. The work-group kernels are written here as the loops
// they stand for, summing in exactly the order of their GPU tiling (lanes of
// csr-vector, lane groups of bcsr-warp, subsections of bell-sub), so the GPU
// kernels can be compared with these bitwise.
#include <algorithm>

#include "core/launch/launch_cpu.hpp"
#include "sparse/kernels/spmv_kernels.hpp"

namespace tessera::sparse::kernels {

using namespace point;

#undef TS_LAUNCH_TYPES
#define TS_LAUNCH_TYPES TS_REAL_AND_COMPLEX_TYPES
TS_SPMV_KERNELS(TS_CPU_KERNEL)

int csr_vector_lanes(size64 rows, size64 nnz) {
  const double mean = rows > 0 ? static_cast<double>(nnz) / static_cast<double>(rows) : 0.0;
  int lanes = 1;
  while (lanes < TS_SPMV_WARP && 2.0 * lanes <= mean * 1.5) lanes *= 2;
  return lanes;
}

namespace {

/// f(i) for i in [0, n), split statically over the threads.
template <class F>
void cpu_rows(long n, F f) {
#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; ++i) f(i);
}

/// Stored scalar row R of a BELL matrix: the row it writes (or -1 past the
/// matrix's last row).
inline long bell_row_of(const ts_spmv_params &p, const int *map, long R) {
  const long row = ts_spmv_row_of(map, p.mapped, R / p.r) * p.r + R % p.r;
  return row < static_cast<long>(p.rows) ? row : -1;
}

}  // namespace

// csr-vector: each row's lanes chains, then the halving tree over them.
template <class ts_value>
TS_LAUNCHER_SIGNATURE(CpuTag, group, spmv_csr_vector) {
  using K = launch::device_value_t<ts_value>;
  const auto [R, C, A, X, Y] = launch::device_args(rp, col, val, x, y);
  const int lanes = p.lanes;
  cpu_rows(static_cast<long>(p.rows), [&](long i) {
    K part[TS_SPMV_WARP];
    part[0] = K{};  // lanes >= 1 fills it; this tells the compiler so
    for (int t = 0; t < lanes; ++t)
      part[t] = ts_spmv_gather(K{}, C, A, X, R[i] + t, R[i + 1], lanes);
    for (int h = lanes / 2; h > 0; h /= 2)
      for (int t = 0; t < h; ++t) part[t] = ts_spmv_add(part[t], part[t + h]);
    Y[i] = part[0];
  });
}
TS_INSTANTIATE_LAUNCHER(CpuTag, group, spmv_csr_vector)

// csr-merge: each tile as its work-group runs it, the work-items one after
// the other: the staged row ends and products, each share's sums, the
// scan's levels (ts_spmv_merge_scan's, each level from the one before), the
// rows that end in a share after its first, then its first row.
template <class ts_value>
TS_LAUNCHER_SIGNATURE(CpuTag, group, spmv_csr_merge) {
  using K = launch::device_value_t<ts_value>;
  const auto [T, R, C, A, X, Y, W] = launch::device_args(tile_row, rp, col, val, x, y, carry);
  constexpr int threads = TS_SPMV_MERGE_THREADS, tile = TS_SPMV_MERGE_TILE;
  const long total = TS_SPMV_MERGE_TOTAL(p);
  cpu_rows(static_cast<long>(ts_shape.count), [&](long k) {
    const long d0 = k * tile, d1 = std::min(d0 + tile, total);
    const long x0 = T[k], y0 = d0 - x0;
    const int rows = static_cast<int>(T[k + 1] - x0), nnz = static_cast<int>(d1 - d0) - rows;
    const int items = rows + nnz;
    int ends[tile + 1];
    K prod[tile];
    for (int i = 0; i < rows; ++i) ends[i] = static_cast<int>(R[x0 + 1 + i] - y0);
    ends[rows] = nnz;
    for (int j = 0; j < nnz; ++j) prod[j] = ts_spmv_mul(A[y0 + j], X[C[y0 + j]]);
    int key[threads], start[threads], has_first[threads];
    K v[2][threads], first[threads];
    for (int t = 0; t < threads; ++t) {
      const int d = std::min(t * TS_SPMV_MERGE_ITEMS, items);
      start[t] = ts_spmv_merge_search(ends, d, rows, nnz);
      first[t] = K{};
      v[0][t] = ts_spmv_merge_share(ends, prod, start[t], d - start[t], items - d, x0, Y, &first[t],
                                    &has_first[t], &key[t]);
    }
    int from = 0;
    for (int h = 1; h < threads; h *= 2, from ^= 1)
      for (int t = 0; t < threads; ++t)
        v[from ^ 1][t] = ts_spmv_merge_scan_step(key, v[from], t, h);
    for (int t = 0; t < threads; ++t)
      if (has_first[t]) Y[x0 + start[t]] = ts_spmv_add(t > 0 ? v[from][t - 1] : K{}, first[t]);
    W[k] = v[from][threads - 1];
  });
}
TS_INSTANTIATE_LAUNCHER(CpuTag, group, spmv_csr_merge)

// csr-merge's carries scanned by row within blocks of tiles, the levels of
// ts_spmv_merge_scan.
template <class ts_value>
TS_LAUNCHER_SIGNATURE(CpuTag, group, spmv_merge_scan) {
  using K = launch::device_value_t<ts_value>;
  const auto [T, W, S] = launch::device_args(tile_row, carry, scan);
  constexpr int threads = TS_SPMV_MERGE_SCAN;
  const long tiles = static_cast<long>(p.n);
  cpu_rows(static_cast<long>(ts_shape.count), [&](long b) {
    int key[threads];
    K v[2][threads];
    for (int t = 0; t < threads; ++t) {
      const long k = b * threads + t;
      key[t] = k < tiles ? T[k + 1] : -1;
      v[0][t] = k < tiles ? W[k] : K{};
    }
    int from = 0;
    for (int h = 1; h < threads; h *= 2, from ^= 1)
      for (int t = 0; t < threads; ++t)
        v[from ^ 1][t] = ts_spmv_merge_scan_step(key, v[from], t, h);
    for (int t = 0; t < threads && b * threads + t < tiles; ++t) S[b * threads + t] = v[from][t];
  });
}
TS_INSTANTIATE_LAUNCHER(CpuTag, group, spmv_merge_scan)

// bcsr-warp: each block row's lanes, then each in-block row's lanes in lane order.
template <class ts_value>
TS_LAUNCHER_SIGNATURE(CpuTag, group, spmv_bcsr_warp) {
  using K = launch::device_value_t<ts_value>;
  const auto [M, R, C, A, X, Y] = launch::device_args(map, rp, col, val, x, y);
  const int r = p.r, c = p.c, bs = r * c, bps = TS_SPMV_WARP / bs;
  cpu_rows(static_cast<long>(p.n), [&](long sb) {
    const long first_row = ts_spmv_row_of(M, p.mapped, sb) * r;
    K part[TS_SPMV_WARP];
    for (int lane = 0; lane < bps * bs; ++lane)
      part[lane] = ts_spmv_bcsr_lane(K{}, C, A, X, R[sb], R[sb + 1], lane / bs, bps, lane % bs, r,
                                     c, static_cast<long>(p.cols));
    for (int i = 0; i < r && first_row + i < static_cast<long>(p.rows); ++i) {
      K acc{};
      for (int s = 0; s < bps; ++s)
        for (int j = 0; j < c; ++j) acc = ts_spmv_add(acc, part[s * bs + j * r + i]);
      Y[first_row + i] = acc;
    }
  });
}
TS_INSTANTIATE_LAUNCHER(CpuTag, group, spmv_bcsr_warp)

// BELL, V4 and bell-bi: one stored scalar row at a time (the variant only
// makes the block shape a constant on the GPUs).
template <class ts_value>
TS_LAUNCHER_SIGNATURE(CpuTag, group, spmv_bell_row) {
  using K = launch::device_value_t<ts_value>;
  const auto [M, L, C, A, X, Y] = launch::device_args(map, len, col, val, x, y);
  const long n = static_cast<long>(p.n);
  cpu_rows(n, [&](long R) {
    const long row = bell_row_of(p, M, R);
    const long k1 = p.has_len ? static_cast<long>(L[R / p.r]) : static_cast<long>(p.width);
    if (row >= 0)
      Y[row] = ts_spmv_bell_row_ix(K{}, C, A, X, R, n, p.ir, p.iscale, 0, k1, p.c,
                                   static_cast<long>(p.cols));
  });
}
TS_INSTANTIATE_LAUNCHER(CpuTag, group, spmv_bell_row)

// BELL V3: the sums of BELL (the window only moves x closer on a GPU).
template <class ts_value>
TS_LAUNCHER_SIGNATURE(CpuTag, group_sized, spmv_bell_window) {
  using K = launch::device_value_t<ts_value>;
  (void)win;  // the windows only move x closer on a GPU
  const auto [M, C, A, X, Y] = launch::device_args(map, col, val, x, y);
  const long n = static_cast<long>(p.n);
  cpu_rows(n, [&](long R) {
    const long row = bell_row_of(p, M, R);
    if (row >= 0)
      Y[row] = ts_spmv_bell_row(K{}, C, A, X, R, n, 0, static_cast<long>(p.width), p.c,
                                static_cast<long>(p.cols));
  });
}
TS_INSTANTIATE_LAUNCHER(CpuTag, group_sized, spmv_bell_window)

// bell-sub: each subsection's sum, then their sum in subsection order.
template <class ts_value>
TS_LAUNCHER_SIGNATURE(CpuTag, group_sized, spmv_bell_sub) {
  using K = launch::device_value_t<ts_value>;
  const auto [M, C, A, X, Y] = launch::device_args(map, col, val, x, y);
  const long n = static_cast<long>(p.n), slots = static_cast<long>(p.sub);
  const long width = static_cast<long>(p.width), nsub = ts_shape.threads / TS_SPMV_WARP;
  cpu_rows(n, [&](long R) {
    const long row = bell_row_of(p, M, R);
    if (row < 0) return;
    K v{};
    for (long q = 0; q < nsub; ++q)
      v = ts_spmv_add(
          v, ts_spmv_bell_row(K{}, C, A, X, R, n, q * slots, std::min(width, (q + 1) * slots), p.c,
                              static_cast<long>(p.cols)));
    Y[row] = v;
  });
}
TS_INSTANTIATE_LAUNCHER(CpuTag, group_sized, spmv_bell_sub)

}  // namespace tessera::sparse::kernels
