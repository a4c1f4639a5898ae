// Conjugate transpose and Gustavson's sparse product (product.hpp).
#include "sparse/product.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <complex>
#include <numeric>

#include "core/error.hpp"

namespace tessera::sparse {

namespace {
template <class T>
T conj_of(T v) {
  if constexpr (is_complex_v<T>)
    return std::conj(v);
  else
    return v;
}
}  // namespace

template <Scalar T>
Csr<T> conj_transpose(const Csr<T>& a) {
  Csr<T> t;
  t.rows = a.cols;
  t.cols = a.rows;
  t.row_ptr.assign(static_cast<std::size_t>(a.cols) + 1, 0);
  for (const index_t c : a.col) ++t.row_ptr[static_cast<std::size_t>(c) + 1];
  std::partial_sum(t.row_ptr.begin(), t.row_ptr.end(), t.row_ptr.begin());
  t.col.resize(a.col.size());
  t.val.resize(a.val.size());
  std::vector<index_t> next(t.row_ptr.begin(), t.row_ptr.end() - 1);
  // rows in order, so each row of the transpose gets its columns ascending
  for (size64 i = 0; i < a.rows; ++i)
    for (index_t p = a.row_ptr[i]; p < a.row_ptr[i + 1]; ++p) {
      const index_t q = next[a.col[p]]++;
      t.col[q] = static_cast<index_t>(i);
      t.val[q] = conj_of(a.val[p]);
    }
  return t;
}

template <Scalar T>
Csr<T> multiply(const Csr<T>& a, const Csr<T>& b) {
  if (a.cols != b.rows)
    throw Error(
        fmt::format("sparse product: A is {} x {}, B is {} x {} (A's columns must be B's rows)",
                    a.rows, a.cols, b.rows, b.cols));
  Csr<T> c;
  c.rows = a.rows;
  c.cols = b.cols;
  c.row_ptr.assign(static_cast<std::size_t>(a.rows) + 1, 0);
  // A dense accumulator over B's columns, reset through the list of the row's
  // columns: O(flops) per row, and the row's columns sorted at the end.
  std::vector<T> acc(static_cast<std::size_t>(b.cols), T(0));
  std::vector<index_t> mark(static_cast<std::size_t>(b.cols), -1), cols;
  size64 total = 0;
  for (size64 i = 0; i < a.rows; ++i) {
    cols.clear();
    for (index_t p = a.row_ptr[i]; p < a.row_ptr[i + 1]; ++p) {
      const T av = a.val[p];
      const index_t k = a.col[p];
      for (index_t q = b.row_ptr[k]; q < b.row_ptr[k + 1]; ++q) {
        const index_t j = b.col[q];
        if (mark[j] != static_cast<index_t>(i)) {
          mark[j] = static_cast<index_t>(i);
          acc[j] = av * b.val[q];
          cols.push_back(j);
        } else {
          acc[j] += av * b.val[q];
        }
      }
    }
    std::sort(cols.begin(), cols.end());
    total += static_cast<size64>(cols.size());
    to_index(total, "entries of a sparse product");
    for (const index_t j : cols) {
      c.col.push_back(j);
      c.val.push_back(acc[j]);
    }
    c.row_ptr[static_cast<std::size_t>(i) + 1] = static_cast<index_t>(total);
  }
  return c;
}

#define TESSERA_INSTANTIATE(T)                   \
  template Csr<T> conj_transpose(const Csr<T>&); \
  template Csr<T> multiply(const Csr<T>&, const Csr<T>&);
TESSERA_SPARSE_FOR_EACH_SCALAR(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera::sparse
