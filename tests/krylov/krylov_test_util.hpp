// Generated test systems with known solutions for the Krylov tests.
#pragma once
#include <complex>
#include <random>
#include <vector>

#include "core/registry.hpp"
#include "krylov/solver.hpp"
#include "sparse/formats.hpp"
#include "sparse/types.hpp"

namespace tessera::krylov::test_util {

template <class V>
V val(double re, double im) {
  if constexpr (sparse::is_complex_v<V>)
    return V(static_cast<typename V::value_type>(re), static_cast<typename V::value_type>(im));
  else
    return static_cast<V>(re);
}

template <class V>
std::vector<V> random_values(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<V> v(n);
  for (auto& x : v) {
    const double re = u(rng), im = u(rng);
    x = val<V>(re, im);
  }
  return v;
}

/// Rows of (col, value) pairs -> CSR (columns ascending).
template <class V>
sparse::Csr<V> from_rows(std::size_t n,
                         const std::vector<std::vector<std::pair<std::size_t, V>>>& rows) {
  sparse::Csr<V> a;
  a.rows = a.cols = n;
  a.row_ptr.assign(1, 0);
  for (const auto& r : rows) {
    for (const auto& [c, v] : r) {
      a.col.push_back(static_cast<sparse::index_t>(c));
      a.val.push_back(v);
    }
    a.row_ptr.push_back(static_cast<sparse::index_t>(a.col.size()));
  }
  return a;
}

/// Non-symmetric (non-Hermitian), diagonally dominant: offsets -2,-1,0,+1,+3.
template <class V>
sparse::Csr<V> nonsymmetric(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<std::vector<std::pair<std::size_t, V>>> rows(n);
  for (std::size_t i = 0; i < n; ++i)
    for (long off : {-2L, -1L, 0L, 1L, 3L}) {
      const long c = static_cast<long>(i) + off;
      if (c < 0 || c >= static_cast<long>(n)) continue;
      const double re = u(rng), im = u(rng);
      rows[i].push_back(
          {static_cast<std::size_t>(c), off == 0 ? val<V>(6 + re, 2 + im) : val<V>(re, im)});
    }
  return from_rows(n, rows);
}

/// A banded nonsymmetric matrix, every offset in [-hb, hb] present (random
/// couplings, a diagonal dominating them): rows away from the ends have hb
/// entries in each triangle, so a group of g such rows stages g * hb.
template <class V>
sparse::Csr<V> band(std::size_t n, long hb, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<std::vector<std::pair<std::size_t, V>>> rows(n);
  for (std::size_t i = 0; i < n; ++i)
    for (long off = -hb; off <= hb; ++off) {
      const long c = static_cast<long>(i) + off;
      if (c < 0 || c >= static_cast<long>(n)) continue;
      const double re = u(rng), im = u(rng);
      rows[i].push_back({static_cast<std::size_t>(c),
                         off == 0 ? val<V>(2.0 * double(hb) + 2 + re, 1 + im) : val<V>(re, im)});
    }
  return from_rows(n, rows);
}

/// Hermitian positive definite: the 1D Laplacian stencil (2, -1) scaled,
/// plus a diagonal shift keeping it definite (2.2 > 2|c|), with antisymmetric imaginary couplings for
/// complex V ((i, j): -1 + 0.3i, (j, i): -1 - 0.3i).
template <class V>
sparse::Csr<V> hermitian_pd(std::size_t n) {
  std::vector<std::vector<std::pair<std::size_t, V>>> rows(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (i > 0) rows[i].push_back({i - 1, val<V>(-1, -0.3)});
    rows[i].push_back({i, val<V>(2.2, 0)});
    if (i + 1 < n) rows[i].push_back({i + 1, val<V>(-1, 0.3)});
  }
  return from_rows(n, rows);
}

/// Diagonal matrix with the given eigenvalues.
template <class V>
sparse::Csr<V> diagonal(const std::vector<double>& d) {
  std::vector<std::vector<std::pair<std::size_t, V>>> rows(d.size());
  for (std::size_t i = 0; i < d.size(); ++i) rows[i].push_back({i, val<V>(d[i], 0)});
  return from_rows(d.size(), rows);
}

/// Host y = A x in double.
template <class V>
std::vector<V> multiply(const sparse::Csr<V>& a, const std::vector<V>& x) {
  using W = std::conditional_t<sparse::is_complex_v<V>, std::complex<double>, double>;
  std::vector<V> y(static_cast<std::size_t>(a.rows));
  for (std::size_t i = 0; i < y.size(); ++i) {
    W acc = 0;
    for (auto p = a.row_ptr[i]; p < a.row_ptr[i + 1]; ++p)
      acc += W(a.val[p]) * W(x[static_cast<std::size_t>(a.col[p])]);
    if constexpr (sparse::is_complex_v<V>)
      y[i] = V(acc);
    else
      y[i] = static_cast<V>(acc);
  }
  return y;
}

// A nonsymmetric system with a known solution: b = A x* (the nonsymmetric matrix above,
// x* random).
template <class V>
struct Manufactured {
  sparse::Csr<V> a;
  std::vector<V> xs, b;
};
template <class V>
Manufactured<V> manufactured(std::size_t n, std::uint64_t seed) {
  Manufactured<V> m{nonsymmetric<V>(n, seed), random_values<V>(n, seed + 1), {}};
  m.b = multiply(m.a, m.xs);
  return m;
}

template <class V>
double rel_error(const std::vector<V>& x, const std::vector<V>& ref) {
  double num = 0, den = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    num += std::norm(std::complex<double>(x[i]) - std::complex<double>(ref[i]));
    den += std::norm(std::complex<double>(ref[i]));
  }
  return std::sqrt(num / den);
}

}  // namespace tessera::krylov::test_util
