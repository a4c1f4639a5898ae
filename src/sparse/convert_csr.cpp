// COO <-> CSR and DIA converters.
#include <algorithm>
#include <numeric>

#include <fmt/format.h>

#include "core/error.hpp"
#include "sparse/convert_detail.hpp"
#include "sparse/host_memory.hpp"

namespace tessera::sparse {

template <Scalar T>
Csr<T> to_csr(const Coo<T>& a) {
  to_index(a.rows, "COO rows");
  to_index(a.cols, "COO columns");
  const size64 n = to_index(a.nnz(), "COO entries");
  if (a.row.size() != a.val.size() || a.col.size() != a.val.size())
    throw Error("COO arrays row/col/val differ in length");
  // The row pointers follow the declared rows, not the entries: a header that
  // declares 2^31 rows for one entry must not start a 32 GiB conversion.
  require_host_memory(
      csr_build_bytes(a.rows, n, sizeof(T)),
      fmt::format("row pointers and temporaries of a {}-row CSR matrix ({} entries)", a.rows, n),
      "COO to CSR", "the row count, not the entries, sets this size");
  // Counting sort by row; stable, so duplicates keep their COO order.
  std::vector<index_t> start(static_cast<std::size_t>(a.rows) + 1, 0);
  for (size64 k = 0; k < n; ++k) {
    if (a.row[k] < 0 || a.row[k] >= a.rows || a.col[k] < 0 || a.col[k] >= a.cols)
      throw Error(fmt::format("COO entry {} at ({}, {}) is outside the {} x {} matrix", k, a.row[k],
                              a.col[k], a.rows, a.cols));
    ++start[a.row[k] + 1];
  }
  std::partial_sum(start.begin(), start.end(), start.begin());
  std::vector<index_t> order(static_cast<std::size_t>(n));
  {
    std::vector<index_t> next(start.begin(), start.end() - 1);
    for (size64 k = 0; k < n; ++k) order[next[a.row[k]]++] = static_cast<index_t>(k);
  }
  // Per row: stable sort by column, count distinct columns.
  std::vector<index_t> unique(start.size(), 0);
#pragma omp parallel for schedule(dynamic, 1024)
  for (size64 i = 0; i < a.rows; ++i) {
    auto b = order.begin() + start[i], e = order.begin() + start[i + 1];
    std::stable_sort(b, e, [&](index_t x, index_t y) { return a.col[x] < a.col[y]; });
    index_t distinct = 0;
    for (auto it = b; it != e; ++it)
      if (it == b || a.col[*it] != a.col[*(it - 1)]) ++distinct;
    unique[i + 1] = distinct;
  }
  auto out = same_shape<Csr<T>>(a);
  out.row_ptr.resize(unique.size());
  std::partial_sum(unique.begin(), unique.end(), out.row_ptr.begin());
  out.col.resize(static_cast<std::size_t>(out.row_ptr.back()));
  out.val.resize(out.col.size());
#pragma omp parallel for schedule(dynamic, 1024)
  for (size64 i = 0; i < a.rows; ++i) {
    index_t p = out.row_ptr[i] - 1;
    for (index_t q = start[i]; q < start[i + 1]; ++q) {
      const index_t k = order[q];
      if (q == start[i] || a.col[k] != a.col[order[q - 1]]) {
        ++p;
        out.col[p] = a.col[k];
        out.val[p] = a.val[k];
      } else {
        out.val[p] += a.val[k];
      }
    }
  }
  return out;
}

template <Scalar T>
Coo<T> to_coo(const Csr<T>& a) {
  auto out = same_entries<Coo<T>>(a);
  out.row.resize(a.col.size());
  for (size64 i = 0; i < a.rows; ++i)
    std::fill(out.row.begin() + a.row_ptr[i], out.row.begin() + a.row_ptr[i + 1],
              static_cast<index_t>(i));
  return out;
}

template <Scalar T>
Csr<T> drop_zeros(const Csr<T>& a) {
  auto out = same_shape<Csr<T>>(a);
  out.row_ptr.assign(a.row_ptr.size(), 0);
  for (size64 i = 0; i < a.rows; ++i) {
    for (index_t p = a.row_ptr[i]; p < a.row_ptr[i + 1]; ++p)
      if (a.val[p] != T(0)) {
        out.col.push_back(a.col[p]);
        out.val.push_back(a.val[p]);
      }
    out.row_ptr[i + 1] = static_cast<index_t>(out.col.size());
  }
  return out;
}

namespace {
// Marks which of the rows + cols - 1 diagonals hold an entry; diagonal k is at
// position k + rows - 1.
template <Scalar T>
std::vector<char> diagonal_marks(const Csr<T>& a) {
  std::vector<char> used(static_cast<std::size_t>(std::max<size64>(a.rows + a.cols - 1, 0)), 0);
  for (size64 i = 0; i < a.rows; ++i)
    for (index_t p = a.row_ptr[i]; p < a.row_ptr[i + 1]; ++p) used[a.col[p] - i + a.rows - 1] = 1;
  return used;
}
}  // namespace

template <Scalar T>
size64 count_diagonals(const Csr<T>& a) {
  auto used = diagonal_marks(a);
  return std::count(used.begin(), used.end(), 1);
}

template <Scalar T>
Dia<T> to_dia(const Csr<T>& a, DiaOptions opt) {
  auto used = diagonal_marks(a);
  auto out = same_shape<Dia<T>>(a);
  for (size64 k = 0; k < static_cast<size64>(used.size()); ++k)
    if (used[k]) out.offsets.push_back(static_cast<index_t>(k - (a.rows - 1)));
  const size64 slots = checked_mul(a.rows, out.diagonals(), "DIA slots");
  if (opt.max_slots > 0 && slots > opt.max_slots)
    throw Error(
        fmt::format("DIA would store {} slots ({} diagonals x {} rows) for {} entries, "
                    "more than the limit of {}",
                    slots, out.diagonals(), a.rows, a.nnz(), opt.max_slots));
  out.data.assign(detail::checked_length(slots, "DIA slots"), T(0));
  // Slot of diagonal k: its rank among the used diagonals.
  std::vector<index_t> rank(used.size(), 0);
  for (size64 d = 0; d < out.diagonals(); ++d)
    rank[out.offsets[d] + a.rows - 1] = static_cast<index_t>(d);
  for (size64 i = 0; i < a.rows; ++i)
    for (index_t p = a.row_ptr[i]; p < a.row_ptr[i + 1]; ++p)
      out.data[rank[a.col[p] - i + a.rows - 1] * a.rows + i] = a.val[p];
  return out;
}

template <Scalar T>
Csr<T> to_csr(const Dia<T>& a) {
  return detail::csr_from_entries<T>(a.rows, a.cols, [&](auto emit) {
    for (size64 d = 0; d < a.diagonals(); ++d)
      for (size64 i = 0; i < a.rows; ++i) {
        const size64 j = i + a.offsets[d];
        const T v = a.data[d * a.rows + i];
        if (j >= 0 && j < a.cols && v != T(0)) emit(i, j, v);
      }
  });
}

#define TESSERA_INSTANTIATE(T)                       \
  template Csr<T> to_csr(const Coo<T>&);             \
  template Coo<T> to_coo(const Csr<T>&);             \
  template Csr<T> drop_zeros(const Csr<T>&);         \
  template size64 count_diagonals(const Csr<T>&);    \
  template Dia<T> to_dia(const Csr<T>&, DiaOptions); \
  template Csr<T> to_csr(const Dia<T>&);
TESSERA_SPARSE_FOR_EACH_SCALAR(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera::sparse
