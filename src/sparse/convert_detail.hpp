// Internals shared by the converter translation units (not part of the API).
#pragma once
#include <algorithm>
#include <optional>
#include <string_view>

#include "sparse/convert.hpp"

namespace tessera::sparse::detail {

/// The column a padding slot of matrix row `row` points at (see formats.hpp):
/// the row's own index clamped into [0, cols-1], so it is always readable.
inline index_t padding_column(size64 row, size64 cols) {
  return static_cast<index_t>(std::clamp<size64>(row, 0, cols > 0 ? cols - 1 : 0));
}

/// Rounds n up to a multiple of m (m >= 1).
inline size64 round_up(size64 n, size64 m) { return ceil_div(n, m) * m; }

/// Length of an array of `n` elements of a format, checked against the 32-bit
/// position range (every format guarantees positions fit in index_t).
inline std::size_t checked_length(size64 n, std::string_view what) {
  return static_cast<std::size_t>(to_index(n, what));
}

/// CSR from entries produced by `visit(emit)`, where emit(i, j, v) adds one
/// entry; entries need no order and duplicates are summed (through COO).
template <Scalar T, class Visit>
Csr<T> csr_from_entries(size64 rows, size64 cols, Visit&& visit) {
  Coo<T> coo;
  coo.rows = rows;
  coo.cols = cols;
  visit([&](size64 i, size64 j, T v) {
    coo.row.push_back(static_cast<index_t>(i));
    coo.col.push_back(static_cast<index_t>(j));
    coo.val.push_back(v);
  });
  return to_csr(coo);
}

/// Row length of CSR row i.
template <Scalar T>
inline size64 row_length(const Csr<T>& a, size64 i) {
  return a.row_ptr[i + 1] - a.row_ptr[i];
}

/// ELL of the first min(length, width) entries of each row listed in `order`
/// (stored row -> matrix row; std::nullopt = all rows in order). Used by
/// to_ell and by HYB's ELL part.
template <Scalar T>
Ell<T> build_ell(const Csr<T>& a, std::optional<std::vector<index_t>> order, size64 width,
                 size64 subsection);

}  // namespace tessera::sparse::detail
