// Helpers for the sparse tests: random matrices with awkward shapes, exact
// comparisons. Values are small integers (real and imaginary parts) unless a
// test says otherwise, so every summation order gives the same exact result and
// formats can be compared with ==.
#pragma once
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <random>
#include <string>
#include <vector>

#include "sparse/convert.hpp"
#include "sparse/formats.hpp"

namespace tessera::sparse::test {

using ValueTypes = ::testing::Types<float, double, std::complex<float>, std::complex<double>>;

/// A nonzero small integer value (both parts for complex types).
template <Scalar T>
T small_int(std::mt19937_64& rng) {
  std::uniform_int_distribution<int> d(1, 4), s(0, 1);
  auto one = [&] { return static_cast<real_t<T>>(s(rng) ? d(rng) : -d(rng)); };
  if constexpr (is_complex_v<T>)
    return T(one(), one());
  else
    return one();
}

/// Any value in [-1, 1) (both parts for complex types).
template <Scalar T>
T uniform(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  if constexpr (is_complex_v<T>)
    return T(static_cast<real_t<T>>(u(rng)), static_cast<real_t<T>>(u(rng)));
  else
    return static_cast<T>(u(rng));
}

/// A named test matrix in COO form.
template <Scalar T>
struct Case {
  std::string name;
  Coo<T> coo;
};

template <Scalar T>
void add(Coo<T>& a, size64 i, size64 j, T v) {
  a.row.push_back(static_cast<index_t>(i));
  a.col.push_back(static_cast<index_t>(j));
  a.val.push_back(v);
}

/// Random COO with the given density; rows in `empty_every` multiples stay empty.
template <Scalar T>
Coo<T> random_coo(size64 rows, size64 cols, double density, std::uint64_t seed,
                  size64 empty_every = 0, bool integers = true) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  Coo<T> a;
  a.rows = rows;
  a.cols = cols;
  for (size64 i = 0; i < rows; ++i) {
    if (empty_every > 0 && i % empty_every == 0) continue;
    for (size64 j = 0; j < cols; ++j)
      if (u(rng) < density) add(a, i, j, integers ? small_int<T>(rng) : uniform<T>(rng));
  }
  return a;
}

/// The awkward shapes every converter and SpMV must handle.
template <Scalar T>
std::vector<Case<T>> shapes() {
  std::vector<Case<T>> out;
  out.push_back({"random_37x29", random_coo<T>(37, 29, 0.15, 1)});
  out.push_back({"empty_rows", random_coo<T>(40, 40, 0.2, 2, 3)});
  {
    Coo<T> a = random_coo<T>(15, 40, 0.1, 3);
    std::mt19937_64 rng(4);
    for (size64 j = 0; j < 40; ++j)
      add(a, 3, j, small_int<T>(rng));  // one dense row (duplicates too)
    out.push_back({"dense_row", a});
  }
  {
    Coo<T> a;
    a.rows = a.cols = 1;
    add(a, 0, 0, T(3));
    out.push_back({"one_by_one", a});
  }
  out.push_back({"tall_53x7", random_coo<T>(53, 7, 0.3, 5)});
  out.push_back({"wide_6x45", random_coo<T>(6, 45, 0.3, 6)});
  {
    Coo<T> a = random_coo<T>(12, 12, 0.3, 7);
    std::mt19937_64 rng(8);
    for (int k = 0; k < 30; ++k) {  // duplicates, summed by to_csr
      const auto p = static_cast<std::size_t>(rng() % a.val.size());
      add(a, a.row[p], a.col[p], small_int<T>(rng));
    }
    out.push_back({"duplicates", a});
  }
  {
    Coo<T> a;
    a.rows = 4;
    a.cols = 6;
    out.push_back({"no_entries", a});
  }
  for (auto [r, c] : {std::pair<size64, size64>{0, 0}, {0, 5}, {5, 0}}) {
    Coo<T> a;
    a.rows = r;
    a.cols = c;
    out.push_back({fmt::format("empty_{}x{}", r, c), a});
  }
  out.push_back({"banded_64", [] {
                   Coo<T> a;
                   a.rows = a.cols = 64;
                   std::mt19937_64 rng(9);
                   for (size64 i = 0; i < 64; ++i)
                     for (size64 j = std::max<size64>(0, i - 2); j <= std::min<size64>(63, i + 3);
                          ++j)
                       add(a, i, j, small_int<T>(rng));
                   return a;
                 }()});
  return out;
}

template <Scalar T>
std::vector<T> random_vector(size64 n, std::uint64_t seed, bool integers = true) {
  std::mt19937_64 rng(seed);
  std::vector<T> v(static_cast<std::size_t>(n));
  for (auto& x : v) x = integers ? small_int<T>(rng) : uniform<T>(rng);
  return v;
}

/// Exact equality of two CSR matrices (sizes, structure, values).
template <Scalar T>
::testing::AssertionResult same_csr(const Csr<T>& a, const Csr<T>& b) {
  if (a.rows != b.rows || a.cols != b.cols)
    return ::testing::AssertionFailure()
           << "sizes " << a.rows << "x" << a.cols << " vs " << b.rows << "x" << b.cols;
  if (a.row_ptr != b.row_ptr) return ::testing::AssertionFailure() << "row pointers differ";
  if (a.col != b.col) return ::testing::AssertionFailure() << "column indices differ";
  for (std::size_t k = 0; k < a.val.size(); ++k)
    if (a.val[k] != b.val[k]) return ::testing::AssertionFailure() << "value " << k << " differs";
  return ::testing::AssertionSuccess();
}

/// Dense row-major copy of a CSR matrix (for small matrices in tests).
template <Scalar T>
std::vector<T> dense(const Csr<T>& a) {
  std::vector<T> d(static_cast<std::size_t>(a.rows * a.cols), T(0));
  for (size64 i = 0; i < a.rows; ++i)
    for (index_t p = a.row_ptr[i]; p < a.row_ptr[i + 1]; ++p) d[i * a.cols + a.col[p]] += a.val[p];
  return d;
}

}  // namespace tessera::sparse::test
