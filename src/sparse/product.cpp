// Conjugate transpose and Gustavson's sparse product (product.hpp).
#include "sparse/product.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <complex>
#include <numeric>

#include <omp.h>

#include "core/error.hpp"
#include "core/parallel_errors.hpp"

namespace tessera::sparse {

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
      t.val[q] = conj_value(a.val[p]);
    }
  return t;
}

template <Scalar T>
Csr<T> product_shape(const Csr<T>& a, const Csr<T>& b) {
  if (a.cols != b.rows)
    throw Error(
        fmt::format("sparse product: A is {} x {}, B is {} x {} (A's columns must be B's rows)",
                    a.rows, a.cols, b.rows, b.cols));
  Csr<T> c;
  c.rows = a.rows;
  c.cols = b.cols;
  return c;
}

template <Scalar T>
Csr<T> multiply(const Csr<T>& a, const Csr<T>& b) {
  Csr<T> c = product_shape(a, b);
  const auto rows = static_cast<std::size_t>(a.rows);
  // Row i in one pass: its products a_ik b_kj in the order of A's entries,
  // each added to its column's sum (the first one assigned, so a sum is
  // exactly the stable sort's: -0 stays -0), the columns found through a
  // hash table of twice the row's products (scratch per thread: the longest
  // row's products, not B's columns; a dense accumulator per thread took
  // 24 B x columns x threads: 49 GB for 16 M columns on 128 threads), then
  // only the row's distinct columns sorted. Rows go to per-thread buffers
  // (so C is held twice until the copy; a C past the 32-bit index range is
  // refused only after it was formed) and are copied into place once their
  // offsets are known; rows are
  // independent, so the result does not depend on the threads. (An earlier
  // form sorted every product, twice: AMG's Galerkin products took 3x as
  // long.)
  struct Part {
    std::vector<index_t> col;
    std::vector<T> val;
  };
  std::vector<size64> count(rows + 1, 0), at(rows, 0);
  std::vector<int> owner(rows, 0);
  std::vector<Part> parts;
  ParallelErrors errors;
#pragma omp parallel
  {
#pragma omp single
    parts.resize(static_cast<std::size_t>(omp_get_num_threads()));
    Part& mine = parts[static_cast<std::size_t>(omp_get_thread_num())];
    std::vector<index_t> table, cols, order;
    std::vector<std::size_t> used;  // the slots a row took, emptied after it
    std::vector<T> sums;
#pragma omp for schedule(dynamic, 256)
    for (std::size_t i = 0; i < rows; ++i)
      errors.run([&] {
        std::size_t products = 0;
        for (index_t p = a.row_ptr[i]; p < a.row_ptr[i + 1]; ++p)
          products += static_cast<std::size_t>(b.row_ptr[a.col[p] + 1] - b.row_ptr[a.col[p]]);
        std::size_t size = 16;
        while (size < 2 * products) size *= 2;
        if (table.size() < size) table.assign(size, -1);
        cols.clear();
        sums.clear();
        used.clear();
        for (index_t p = a.row_ptr[i]; p < a.row_ptr[i + 1]; ++p)
          for (index_t q = b.row_ptr[a.col[p]]; q < b.row_ptr[a.col[p] + 1]; ++q) {
            const index_t j = b.col[q];
            std::size_t h = (static_cast<std::size_t>(j) * 0x9e3779b1u) & (size - 1);
            while (table[h] >= 0 && cols[static_cast<std::size_t>(table[h])] != j)
              h = (h + 1) & (size - 1);
            if (table[h] < 0) {
              table[h] = static_cast<index_t>(cols.size());
              used.push_back(h);
              cols.push_back(j);
              sums.push_back(a.val[p] * b.val[q]);
            } else {
              sums[static_cast<std::size_t>(table[h])] += a.val[p] * b.val[q];
            }
          }
        for (const std::size_t h : used) table[h] = -1;
        order.resize(cols.size());
        std::iota(order.begin(), order.end(), index_t(0));
        std::sort(order.begin(), order.end(), [&](index_t x, index_t y) {
          return cols[static_cast<std::size_t>(x)] < cols[static_cast<std::size_t>(y)];
        });
        owner[i] = omp_get_thread_num();
        at[i] = mine.col.size();
        count[i + 1] = cols.size();
        for (const index_t k : order) {
          mine.col.push_back(cols[static_cast<std::size_t>(k)]);
          mine.val.push_back(sums[static_cast<std::size_t>(k)]);
        }
      });
  }
  errors.rethrow();
  for (std::size_t i = 0; i < rows; ++i) count[i + 1] += count[i];
  to_index(count[rows], "entries of a sparse product");
  c.row_ptr.resize(rows + 1);
  for (std::size_t i = 0; i <= rows; ++i) c.row_ptr[i] = static_cast<index_t>(count[i]);
  c.col.resize(static_cast<std::size_t>(count[rows]));
  c.val.resize(static_cast<std::size_t>(count[rows]));
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < rows; ++i) {
    const Part& from = parts[static_cast<std::size_t>(owner[i])];
    const auto n = static_cast<std::ptrdiff_t>(count[i + 1] - count[i]);
    const auto src = static_cast<std::ptrdiff_t>(at[i]),
               dst = static_cast<std::ptrdiff_t>(count[i]);
    std::copy(from.col.begin() + src, from.col.begin() + src + n, c.col.begin() + dst);
    std::copy(from.val.begin() + src, from.val.begin() + src + n, c.val.begin() + dst);
  }
  return c;
}

#define TESSERA_INSTANTIATE(T)                                 \
  template Csr<T> conj_transpose(const Csr<T>&);               \
  template Csr<T> product_shape(const Csr<T>&, const Csr<T>&); \
  template Csr<T> multiply(const Csr<T>&, const Csr<T>&);
TESSERA_SPARSE_FOR_EACH_SCALAR(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera::sparse
