// Conjugate transpose and Gustavson's sparse product (product.hpp).
#include "sparse/product.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <complex>
#include <numeric>

#include "core/error.hpp"
#include "core/parallel_errors.hpp"

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
  const auto rows = static_cast<std::size_t>(a.rows);
  // Row i's products (column, value) in the order of A's entries, then a
  // stable sort by column and the sum of each column's run in that order:
  // memory per thread is the longest row's products, not B's columns (a
  // dense accumulator per thread took 24 B x columns x threads: 49 GB for
  // 16 M columns on 128 threads). Two passes (the counts, then the values);
  // rows are independent, so the result does not depend on the threads.
  auto products = [&](std::size_t i, std::vector<std::pair<index_t, T>>& out) {
    out.clear();
    for (index_t p = a.row_ptr[i]; p < a.row_ptr[i + 1]; ++p)
      for (index_t q = b.row_ptr[a.col[p]]; q < b.row_ptr[a.col[p] + 1]; ++q)
        out.emplace_back(b.col[q], a.val[p] * b.val[q]);
    std::stable_sort(out.begin(), out.end(),
                     [](const auto& x, const auto& y) { return x.first < y.first; });
  };
  // each row's sorted products to fn(i, products), rows in parallel
  auto each_row = [&](auto&& fn) {
    ParallelErrors errors;
#pragma omp parallel
    {
      std::vector<std::pair<index_t, T>> prod;
#pragma omp for schedule(dynamic, 256)
      for (std::size_t i = 0; i < rows; ++i)
        errors.run([&] {
          products(i, prod);
          fn(i, prod);
        });
    }
    errors.rethrow();
  };
  std::vector<size64> count(rows + 1, 0);
  each_row([&](std::size_t i, const auto& prod) {
    size64 k = 0;
    for (std::size_t q = 0; q < prod.size(); ++q) k += q == 0 || prod[q].first != prod[q - 1].first;
    count[i + 1] = k;
  });
  for (std::size_t i = 0; i < rows; ++i) count[i + 1] += count[i];
  to_index(count[rows], "entries of a sparse product");
  c.row_ptr.resize(rows + 1);
  for (std::size_t i = 0; i <= rows; ++i) c.row_ptr[i] = static_cast<index_t>(count[i]);
  c.col.resize(static_cast<std::size_t>(count[rows]));
  c.val.resize(static_cast<std::size_t>(count[rows]));
  each_row([&](std::size_t i, const auto& prod) {
    auto at = static_cast<std::size_t>(c.row_ptr[i]);
    for (std::size_t q = 0; q < prod.size(); ++q) {
      if (q > 0 && prod[q].first == prod[q - 1].first) {
        c.val[at - 1] += prod[q].second;
      } else {
        c.col[at] = prod[q].first;
        c.val[at++] = prod[q].second;
      }
    }
  });
  return c;
}

#define TESSERA_INSTANTIATE(T)                   \
  template Csr<T> conj_transpose(const Csr<T>&); \
  template Csr<T> multiply(const Csr<T>&, const Csr<T>&);
TESSERA_SPARSE_FOR_EACH_SCALAR(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera::sparse
