#include "sparse/analysis.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <numeric>
#include <vector>

#include "core/error.hpp"
#include "sparse/convert.hpp"
#include "sparse/product.hpp"
#include "sparse/storage.hpp"

namespace tessera::sparse {

template <Scalar T>
RowStats row_stats(const Csr<T>& a) {
  RowStats s;
  s.rows = a.rows;
  s.cols = a.cols;
  s.entries = a.nnz();
  s.explicit_zeros = std::count(a.val.begin(), a.val.end(), T(0));
  s.min_length = a.rows > 0 ? a.nnz() : 0;
  double sum = 0, sum2 = 0;
  for (size64 i = 0; i < a.rows; ++i) {
    const size64 n = a.row_ptr[i + 1] - a.row_ptr[i];
    s.empty_rows += n == 0;
    s.min_length = std::min(s.min_length, n);
    s.max_length = std::max(s.max_length, n);
    sum += static_cast<double>(n);
    sum2 += static_cast<double>(n) * static_cast<double>(n);
    for (index_t p = a.row_ptr[i]; p < a.row_ptr[i + 1]; ++p)
      s.bandwidth = std::max<size64>(s.bandwidth, std::abs(static_cast<size64>(a.col[p]) - i));
  }
  if (a.rows > 0) {
    s.mean_length = sum / static_cast<double>(a.rows);
    s.stddev_length = std::sqrt(
        std::max(0.0, sum2 / static_cast<double>(a.rows) - s.mean_length * s.mean_length));
  }
  s.diagonals = count_diagonals(a);
  return s;
}

template <Scalar T>
Coo<T> sorted_unique(const Coo<T>& a) {
  std::vector<std::size_t> order(a.val.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
    return a.row[x] != a.row[y] ? a.row[x] < a.row[y] : a.col[x] < a.col[y];
  });
  auto out = same_shape<Coo<T>>(a);
  for (std::size_t k = 0; k < order.size(); ++k) {
    const std::size_t e = order[k];
    if (k > 0 && a.row[e] == out.row.back() && a.col[e] == out.col.back()) {
      out.val.back() += a.val[e];
      continue;
    }
    out.row.push_back(a.row[e]);
    out.col.push_back(a.col[e]);
    out.val.push_back(a.val[e]);
  }
  return out;
}

template <Scalar T>
RowStats row_stats(const Coo<T>& coo) {
  const Coo<T> a = sorted_unique(coo);
  RowStats s;
  s.rows = a.rows;
  s.cols = a.cols;
  s.entries = a.nnz();
  s.explicit_zeros = std::count(a.val.begin(), a.val.end(), T(0));
  size64 nonempty = 0, min_nonempty = 0;
  double sum = 0, sum2 = 0;
  std::vector<size64> offsets(a.val.size());
  for (size64 k = 0; k < a.nnz();) {
    size64 e = k;
    while (e < a.nnz() && a.row[e] == a.row[k]) ++e;
    const size64 n = e - k;
    min_nonempty = nonempty == 0 ? n : std::min(min_nonempty, n);
    ++nonempty;
    s.max_length = std::max(s.max_length, n);
    sum += static_cast<double>(n);
    sum2 += static_cast<double>(n) * static_cast<double>(n);
    k = e;
  }
  for (size64 k = 0; k < a.nnz(); ++k) {
    offsets[k] = static_cast<size64>(a.col[k]) - a.row[k];
    s.bandwidth = std::max<size64>(s.bandwidth, std::abs(offsets[k]));
  }
  std::sort(offsets.begin(), offsets.end());
  s.diagonals = std::unique(offsets.begin(), offsets.end()) - offsets.begin();
  s.empty_rows = a.rows - nonempty;
  s.min_length = s.empty_rows > 0 ? 0 : min_nonempty;
  if (a.rows > 0) {
    s.mean_length = sum / static_cast<double>(a.rows);
    s.stddev_length = std::sqrt(
        std::max(0.0, sum2 / static_cast<double>(a.rows) - s.mean_length * s.mean_length));
  }
  return s;
}

template <Scalar T>
BlockStats block_stats(const Csr<T>& a, int r, int c) {
  const Bcsr<T> b = to_bcsr(a, {r, c});
  BlockStats s;
  s.r = r;
  s.c = c;
  s.block_rows = b.block_rows();
  s.blocks = b.nblocks();
  size64 nonempty = 0;
  s.min_per_row = b.nblocks();
  for (size64 br = 0; br < b.stored_block_rows(); ++br) {
    const size64 n = b.row_ptr[br + 1] - b.row_ptr[br];
    if (n == 0) {
      ++s.empty_block_rows;
      continue;
    }
    ++nonempty;
    s.min_per_row = std::min(s.min_per_row, n);
    s.max_per_row = std::max(s.max_per_row, n);
  }
  if (nonempty == 0) s.min_per_row = 0;
  s.mean_per_row =
      nonempty > 0 ? static_cast<double>(b.nblocks()) / static_cast<double>(nonempty) : 0.0;
  const Storage st = storage(b);
  s.slots = st.slots;
  s.zero_slots = st.zero_slots;
  return s;
}

template <Scalar T>
double hermitian_defect(const Csr<T>& a) {
  if (a.rows != a.cols)
    throw Error("sparse::hermitian_defect: a " + std::to_string(a.rows) + " x " +
                std::to_string(a.cols) + " matrix is not square");
  const auto rows = static_cast<std::ptrdiff_t>(a.rows);
  // A^H has ascending columns; A has them too where it is a valid CSR, else
  // (a hand-made one) A again through a second transpose
  const Csr<T> h = conj_transpose(a);
  bool ascending = true;
#pragma omp parallel for schedule(static) reduction(&& : ascending)
  for (std::ptrdiff_t i = 0; i < rows; ++i)
    for (index_t p = a.row_ptr[i] + 1; p < a.row_ptr[i + 1]; ++p)
      ascending = ascending && a.col[p - 1] < a.col[p];
  const Csr<T> sorted = ascending ? Csr<T>{} : conj_transpose(h);
  const Csr<T>& s = ascending ? a : sorted;
  double worst = 0, largest = 0;
#pragma omp parallel for schedule(dynamic, 1024) reduction(max : worst, largest)
  for (std::ptrdiff_t i = 0; i < rows; ++i) {
    // row i of A and of A^H merged by column, duplicates summed
    size64 p = s.row_ptr[i], q = h.row_ptr[i];
    const size64 pe = s.row_ptr[i + 1], qe = h.row_ptr[i + 1];
    while (p < pe || q < qe) {
      const index_t cs = p < pe ? s.col[p] : std::numeric_limits<index_t>::max();
      const index_t ch = q < qe ? h.col[q] : std::numeric_limits<index_t>::max();
      const index_t c = std::min(cs, ch);
      T vs{}, vh{};  // a_ic and conj(a_ci)
      for (; p < pe && s.col[p] == c; ++p) vs += s.val[p];
      for (; q < qe && h.col[q] == c; ++q) vh += h.val[q];
      largest = std::max(largest, static_cast<double>(magnitude(vs)));
      worst = std::max(worst, static_cast<double>(magnitude(vs - vh)));
    }
  }
  return largest > 0 ? worst / largest : 0.0;
}

#define TESSERA_INSTANTIATE(T)                     \
  template double hermitian_defect(const Csr<T>&); \
  template RowStats row_stats(const Csr<T>&);      \
  template RowStats row_stats(const Coo<T>&);      \
  template Coo<T> sorted_unique(const Coo<T>&);    \
  template BlockStats block_stats(const Csr<T>&, int, int);
TESSERA_SPARSE_FOR_EACH_SCALAR(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera::sparse
