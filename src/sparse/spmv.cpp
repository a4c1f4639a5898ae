#include "sparse/spmv.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "core/error.hpp"

namespace tessera::sparse {

namespace {

template <class X, class Y>
void check_sizes(const char* format, size64 rows, size64 cols, std::span<const X> x,
                 std::span<Y> y) {
  if (static_cast<size64>(x.size()) != cols || static_cast<size64>(y.size()) != rows)
    throw Error(fmt::format("{} SpMV: the matrix is {} x {} but x has {} and y has {} entries",
                            format, rows, cols, x.size(), y.size()));
}

template <class Y>
void zero(std::span<Y> y) {
  std::fill(y.begin(), y.end(), Y(0));
}

/// One CSR row, shared by the sequential and the OpenMP SpMV.
template <class Y, class T, class X>
Y csr_row(const Csr<T>& a, std::span<const X> x, size64 i) {
  Y acc(0);
  for (index_t p = a.row_ptr[i]; p < a.row_ptr[i + 1]; ++p) acc = madd(acc, a.val[p], x[a.col[p]]);
  return acc;
}

/// In-block row i of the blocks [first, last) of a BCSR-like matrix, added to acc.
template <class Y, class M, class X>
Y block_row(const M& a, index_t first, index_t last, int i, std::span<const X> x, Y acc) {
  const size64 bs = a.block.size();
  for (index_t b = first; b < last; ++b)
    for (int j = 0; j < a.block.c; ++j) {
      const size64 col = static_cast<size64>(a.col[b]) * a.block.c + j;
      if (col < a.cols) acc = madd(acc, a.val[b * bs + a.block.offset(i, j)], x[col]);
    }
  return acc;
}

/// y rows of block row br from the blocks [first, last).
template <class Y, class M, class X>
void block_rows_into(const M& a, size64 br, index_t first, index_t last, std::span<const X> x,
                     std::span<Y> y) {
  for (int i = 0; i < a.block.r && br * a.block.r + i < a.rows; ++i)
    y[br * a.block.r + i] = block_row(a, first, last, i, x, Y(0));
}

/// f(i) for i in [0, n): in order, or spread over OpenMP threads. The
/// sequential and the OpenMP SpMV of a format are this one loop (a row is
/// always summed by one thread, so both give the same bits).
template <class F>
void each_row(size64 n, bool parallel, F&& f) {
#pragma omp parallel for schedule(static) if (parallel)
  for (size64 i = 0; i < n; ++i) f(i);
}

template <class T, class X, class Y>
void into(const Csr<T>& a, std::span<const X> x, std::span<Y> y, bool parallel) {
  check_sizes("CSR", a.rows, a.cols, x, y);
  each_row(a.rows, parallel, [&](size64 i) { y[i] = csr_row<Y>(a, x, i); });
}

/// One DIA row, shared by the sequential and the OpenMP SpMV.
template <class Y, class T, class X>
Y dia_row(const Dia<T>& a, std::span<const X> x, size64 i) {
  Y acc(0);
  for (size64 d = 0; d < a.diagonals(); ++d) {
    const size64 j = i + a.offsets[d];
    if (j >= 0 && j < a.cols) acc = madd(acc, a.data[d * a.rows + i], x[j]);
  }
  return acc;
}

/// One stored ELL row.
template <class Y, class T, class X>
Y ell_row(const Ell<T>& a, std::span<const X> x, size64 s) {
  Y acc(0);
  for (size64 k = 0; k < a.width; ++k) acc = madd(acc, a.val[a.at(s, k)], x[a.col[a.at(s, k)]]);
  return acc;
}

template <class T, class X, class Y>
void into(const Dia<T>& a, std::span<const X> x, std::span<Y> y, bool parallel) {
  check_sizes("DIA", a.rows, a.cols, x, y);
  each_row(a.rows, parallel, [&](size64 i) { y[i] = dia_row<Y>(a, x, i); });
}

template <class T, class X, class Y>
void into(const Ell<T>& a, std::span<const X> x, std::span<Y> y, bool parallel) {
  check_sizes("ELL", a.rows, a.cols, x, y);
  zero(y);  // rows the ELL does not store (TRACE's ghost rows)
  each_row(a.stored_rows, parallel,
           [&](size64 s) { y[mapped_row(a.row_map, s)] = ell_row<Y>(a, x, s); });
}

/// y[row] += each COO entry in storage order, in parallel over rows: the
/// entries are bucketed by row keeping their order (a stable counting sort of
/// their positions), so every row adds the same terms in the same order as the
/// sequential loop, whatever the COO's order.
template <class T, class X, class Y>
void coo_add_omp(const Coo<T>& a, std::span<const X> x, std::span<Y> y) {
  const size64 rows = a.rows, nnz = a.nnz();
  std::vector<size64> start(static_cast<std::size_t>(rows) + 1, 0),
      order(static_cast<std::size_t>(nnz));
  for (size64 k = 0; k < nnz; ++k) ++start[static_cast<std::size_t>(a.row[k]) + 1];
  for (size64 r = 0; r < rows; ++r) start[r + 1] += start[r];
  std::vector<size64> fill(start.begin(), start.end() - 1);
  for (size64 k = 0; k < nnz; ++k) order[fill[static_cast<std::size_t>(a.row[k])]++] = k;
#pragma omp parallel for schedule(static)
  for (size64 r = 0; r < rows; ++r)
    for (size64 p = start[r]; p < start[r + 1]; ++p) {
      const size64 k = order[p];
      y[r] = madd(y[r], a.val[k], x[a.col[k]]);
    }
}

/// y[row] += each COO entry in storage order: in one loop, or through
/// coo_add_omp (the same sums).
template <class T, class X, class Y>
void coo_add(const Coo<T>& a, std::span<const X> x, std::span<Y> y, bool parallel) {
  if (parallel) return coo_add_omp(a, x, y);
  for (size64 k = 0; k < a.nnz(); ++k) y[a.row[k]] = madd(y[a.row[k]], a.val[k], x[a.col[k]]);
}

template <class T, class X, class Y>
void into(const Coo<T>& a, std::span<const X> x, std::span<Y> y, bool parallel) {
  check_sizes("COO", a.rows, a.cols, x, y);
  zero(y);
  coo_add(a, x, y, parallel);
}

template <class T, class X, class Y>
void into(const Hyb<T>& a, std::span<const X> x, std::span<Y> y, bool parallel) {
  into(a.ell, x, y, parallel);
  check_sizes("HYB (COO part)", a.coo.rows, a.coo.cols, x, std::span<const Y>(y));
  coo_add(a.coo, x, y, parallel);
}

}  // namespace

/// F(Format, args...) for the formats with an OpenMP SpMV (spmv.hpp).
// clang-format off
#define TESSERA_SPMV_FOR_EACH_OMP_FORMAT(F, ...) \
  F(Coo, __VA_ARGS__) F(Csr, __VA_ARGS__) F(Dia, __VA_ARGS__) F(Ell, __VA_ARGS__) F(Hyb, __VA_ARGS__)
// clang-format on

/// spmv and spmv_omp of a format with an OpenMP form: one into(), run in
/// order or over threads.
#define TESSERA_SPMV_PAIR(M, ...)                                                    \
  template <Scalar T, Scalar X>                                                      \
  void spmv(const M<T>& a, std::span<const X> x, std::span<product_t<T, X>> y) {     \
    into(a, x, y, false);                                                            \
  }                                                                                  \
  template <Scalar T, Scalar X>                                                      \
  void spmv_omp(const M<T>& a, std::span<const X> x, std::span<product_t<T, X>> y) { \
    into(a, x, y, true);                                                             \
  }
TESSERA_SPMV_FOR_EACH_OMP_FORMAT(TESSERA_SPMV_PAIR)
#undef TESSERA_SPMV_PAIR

template <Scalar T, Scalar X>
void spmv(const Bcsr<T>& a, std::span<const X> x, std::span<product_t<T, X>> y) {
  check_sizes("BCSR", a.rows, a.cols, x, y);
  zero(y);
  for (size64 sb = 0; sb < a.stored_block_rows(); ++sb)
    block_rows_into(a, mapped_row(a.block_row_map, sb), a.row_ptr[sb], a.row_ptr[sb + 1], x, y);
}

template <Scalar T, Scalar X>
void spmv(const GappedBcsr<T>& a, std::span<const X> x, std::span<product_t<T, X>> y) {
  check_sizes("gapped BCSR", a.rows, a.cols, x, y);
  zero(y);
  for (size64 br = 0; br < a.block_rows(); ++br) {
    if (a.row_ptr[br] == kGhostRow) continue;
    size64 next = br + 1;
    while (a.row_ptr[next] == kGhostRow) ++next;
    block_rows_into(a, br, a.row_ptr[br], a.row_ptr[next], x, y);
  }
}

template <Scalar T, Scalar X>
void spmv(const Bell<T>& a, std::span<const X> x, std::span<product_t<T, X>> y) {
  check_sizes("BELL", a.rows, a.cols, x, y);
  zero(y);
  const int r = a.block.r, c = a.block.c;
  for (size64 sb = 0; sb < a.stored_block_rows; ++sb) {
    const size64 br = mapped_row(a.block_row_map, sb);
    for (int i = 0; i < r && br * r + i < a.rows; ++i) {
      product_t<T, X> acc(0);
      for (size64 k = 0; k < a.width; ++k) {
        // The index each kernel reads: per scalar row (BELL) or per block row (BELL V2).
        const size64 first = a.index == BellIndex::scalar_row
                                 ? static_cast<size64>(a.col[k * a.stored_rows() + sb * r + i])
                                 : static_cast<size64>(a.col[k * a.stored_block_rows + sb]) * c;
        for (int j = 0; j < c; ++j)
          if (first + j < a.cols) acc = madd(acc, a.val[a.at(sb, k, i, j)], x[first + j]);
      }
      y[br * r + i] = acc;
    }
  }
}

template <Scalar T, Scalar X>
void spmv(const Sell<T>& a, std::span<const X> x, std::span<product_t<T, X>> y) {
  check_sizes("SELL", a.rows, a.cols, x, y);
  zero(y);
  const size64 C = a.slice_height;
  for (size64 s = 0; s < a.slices(); ++s)
    for (size64 q = 0; q < C && s * C + q < a.rows; ++q) {
      product_t<T, X> acc(0);
      for (size64 k = 0; k < a.slice_width(s); ++k) {
        const size64 at = a.slice_ptr[s] + k * C + q;
        acc = madd(acc, a.val[at], x[a.col[at]]);
      }
      y[mapped_row(a.row_map, s * C + q)] = acc;
    }
}

#define TESSERA_INSTANTIATE_SPMV(Format, T, X) \
  template void spmv(const Format<T>&, std::span<const X>, std::span<product_t<T, X>>);
#define TESSERA_INSTANTIATE_SPMV_OMP(Format, T, X) \
  template void spmv_omp(const Format<T>&, std::span<const X>, std::span<product_t<T, X>>);
#define TESSERA_INSTANTIATE(T, X)                                \
  TESSERA_SPARSE_FOR_EACH_FORMAT(TESSERA_INSTANTIATE_SPMV, T, X) \
  TESSERA_SPMV_FOR_EACH_OMP_FORMAT(TESSERA_INSTANTIATE_SPMV_OMP, T, X)
TESSERA_SPARSE_FOR_EACH_SPMV_PAIR(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE
#undef TESSERA_INSTANTIATE_SPMV_OMP
#undef TESSERA_INSTANTIATE_SPMV
#undef TESSERA_SPMV_FOR_EACH_OMP_FORMAT

}  // namespace tessera::sparse
