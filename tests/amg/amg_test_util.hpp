// Small test systems and dense references for the AMG tests.
#pragma once
#include <cmath>
#include <complex>
#include <random>
#include <vector>

#include "krylov/krylov_test_util.hpp"
#include "sparse/formats.hpp"
#include "sparse/types.hpp"

namespace tessera::amg::test_util {

using sparse::Csr;
using sparse::index_t;

/// re + i im as V (im dropped for real V): the Krylov tests' val with im 0 by default
template <class V>
V value(double re, double im = 0) {
  return krylov::test_util::val<V>(re, im);
}

/// Dense row-major copy of a (rows x cols).
template <class V>
std::vector<std::complex<double>> dense(const Csr<V>& a) {
  std::vector<std::complex<double>> d(static_cast<std::size_t>(a.rows * a.cols));
  for (sparse::size64 i = 0; i < a.rows; ++i)
    for (index_t p = a.row_ptr[i]; p < a.row_ptr[i + 1]; ++p)
      d[static_cast<std::size_t>(i * a.cols + a.col[p])] += std::complex<double>(a.val[p]);
  return d;
}

/// Rows of (column, value) pairs to CSR (columns must ascend).
template <class V>
Csr<V> from_rows(std::size_t cols, const std::vector<std::vector<std::pair<index_t, V>>>& rows) {
  Csr<V> a;
  a.rows = static_cast<sparse::size64>(rows.size());
  a.cols = static_cast<sparse::size64>(cols);
  for (const auto& r : rows) {
    for (const auto& [c, v] : r) {
      a.col.push_back(c);
      a.val.push_back(v);
    }
    a.row_ptr.push_back(static_cast<index_t>(a.col.size()));
  }
  return a;
}

/// The 1D Laplacian tridiag(-1, 2, -1) of n rows (Dirichlet ends).
template <class V>
Csr<V> laplacian1d(int n) {
  std::vector<std::vector<std::pair<index_t, V>>> rows(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    auto& r = rows[static_cast<std::size_t>(i)];
    if (i > 0) r.push_back({i - 1, V(-1)});
    r.push_back({i, V(2)});
    if (i + 1 < n) r.push_back({i + 1, V(-1)});
  }
  return from_rows<V>(static_cast<std::size_t>(n), rows);
}

/// The 5-point Laplacian of an nx x ny grid with complex couplings
/// a_ij = -e^{i phase} for j > i and their conjugates below (Hermitian;
/// phase 0 and real V: the plain Laplacian) plus `shift` on the diagonal:
/// positive definite by Gershgorin (strictly at the Dirichlet border).
template <class V>
Csr<V> laplacian2d(int nx, int ny, double shift = 0, double phase = 0) {
  std::vector<std::vector<std::pair<index_t, V>>> rows(static_cast<std::size_t>(nx * ny));
  for (int y = 0; y < ny; ++y)
    for (int x = 0; x < nx; ++x) {
      const int i = y * nx + x;
      auto& r = rows[static_cast<std::size_t>(i)];
      auto coupling = [&](int j) {
        const double phi = j > i ? phase : -phase;
        return value<V>(-std::cos(phi), -std::sin(phi));
      };
      if (y > 0) r.push_back({i - nx, coupling(i - nx)});
      if (x > 0) r.push_back({i - 1, coupling(i - 1)});
      r.push_back({i, value<V>(4 + shift)});
      if (x + 1 < nx) r.push_back({i + 1, coupling(i + 1)});
      if (y + 1 < ny) r.push_back({i + nx, coupling(i + nx)});
    }
  return from_rows<V>(static_cast<std::size_t>(nx * ny), rows);
}

/// kron(L, M): the grid Laplacian's entries times an SPD b x b block M
/// (block matrices whose blocks are dense and coupled).
template <class V>
Csr<V> block_laplacian(int nx, int ny, const std::vector<double>& m, int b) {
  const Csr<V> l = laplacian2d<V>(nx, ny);
  std::vector<std::vector<std::pair<index_t, V>>> rows(static_cast<std::size_t>(l.rows * b));
  for (sparse::size64 i = 0; i < l.rows; ++i)
    for (int r = 0; r < b; ++r)
      for (index_t p = l.row_ptr[i]; p < l.row_ptr[i + 1]; ++p)
        for (int c = 0; c < b; ++c)
          rows[static_cast<std::size_t>(i * b + r)].push_back(
              {l.col[p] * b + c, l.val[p] * value<V>(m[static_cast<std::size_t>(r * b + c)])});
  return from_rows<V>(static_cast<std::size_t>(l.rows * b), rows);
}

/// Upwind convection-diffusion on an n x n grid: 4 + peclet h (|wx| + |wy|)
/// on the diagonal, -1 - (upwind part) on the couplings (nonsymmetric).
template <class V>
Csr<V> convection_diffusion(int n, double peclet, double angle) {
  const double h = 1.0 / (n + 1), wx = peclet * std::cos(angle), wy = peclet * std::sin(angle);
  std::vector<std::vector<std::pair<index_t, V>>> rows(static_cast<std::size_t>(n * n));
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x) {
      const int i = y * n + x;
      auto& r = rows[static_cast<std::size_t>(i)];
      const double ex = h * std::abs(wx), ey = h * std::abs(wy);
      if (y > 0) r.push_back({i - n, value<V>(-1 - (wy > 0 ? ey : 0))});
      if (x > 0) r.push_back({i - 1, value<V>(-1 - (wx > 0 ? ex : 0))});
      r.push_back({i, value<V>(4 + ex + ey)});
      if (x + 1 < n) r.push_back({i + 1, value<V>(-1 - (wx < 0 ? ex : 0))});
      if (y + 1 < n) r.push_back({i + n, value<V>(-1 - (wy < 0 ? ey : 0))});
    }
  return from_rows<V>(static_cast<std::size_t>(n * n), rows);
}

// random complex (or real) values, never all zero: the Krylov tests' generator
using krylov::test_util::random_values;

}  // namespace tessera::amg::test_util
