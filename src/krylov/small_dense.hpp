// Small dense kernels on the host, in double (complex<double>), for s-step
// GMRES: matrices of at most a block's size (TS_KRY_BLOCK_MAX), column-major.
#pragma once
#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <type_traits>
#include <vector>

namespace tessera::krylov::detail {

/// conj(w) for complex w, w itself for real w.
template <class W>
W conj_of(W w) {
  if constexpr (std::is_floating_point_v<W>)
    return w;
  else
    return std::conj(w);
}

/// Upper Cholesky factor R (G = R^H R) of the t x t Hermitian G (column-major),
/// into r (t x t, zero below the diagonal). Returns the number of pivots that
/// succeeded: pivot p fails when its remainder d_p = G_pp - sum_{l<p} |R_lp|^2
/// is not finite or not above rel_tol * ref[p], ref[p] the square norm whose
/// rounding G carries (for a Gram matrix formed from sums of about ref[p],
/// about eps ref[p] per entry). Columns 0..p-1 of r are then the factor of
/// G's leading p x p part; the rest is zero.
template <class W>
int cholesky_upper(const std::vector<W>& g, int t, double rel_tol, std::vector<W>& r,
                   const std::vector<double>& ref) {
  r.assign(std::size_t(t) * t, W(0));
  auto G = [&](int i, int j) { return g[std::size_t(i) + std::size_t(j) * t]; };
  auto Rr = [&](int i, int j) -> W& { return r[std::size_t(i) + std::size_t(j) * t]; };
  for (int p = 0; p < t; ++p) {
    double d = std::real(G(p, p));
    for (int l = 0; l < p; ++l) d -= std::norm(Rr(l, p));
    if (!std::isfinite(d) || !(d > 0) || !(d > rel_tol * ref[std::size_t(p)])) {
      for (int c = p; c < t; ++c)
        for (int l = 0; l < t; ++l) Rr(l, c) = W(0);
      return p;
    }
    const double rpp = std::sqrt(d);
    Rr(p, p) = W(rpp);
    for (int c = p + 1; c < t; ++c) {  // R_pc = (G_pc - sum_l conj(R_lp) R_lc) / R_pp
      W acc = G(p, c);
      for (int l = 0; l < p; ++l) acc -= conj_of(Rr(l, p)) * Rr(l, c);
      Rr(p, c) = acc / rpp;
    }
  }
  return t;
}

/// The inverse of the t x t upper triangular r (nonzero diagonal), column-major.
template <class W>
std::vector<W> upper_inverse(const std::vector<W>& r, int t) {
  std::vector<W> x(std::size_t(t) * t, W(0));
  auto R = [&](int i, int j) { return r[std::size_t(i) + std::size_t(j) * t]; };
  auto X = [&](int i, int j) -> W& { return x[std::size_t(i) + std::size_t(j) * t]; };
  for (int c = 0; c < t; ++c) {
    X(c, c) = W(1) / R(c, c);
    for (int i = c - 1; i >= 0; --i) {
      W acc = 0;
      for (int l = i + 1; l <= c; ++l) acc += R(i, l) * X(l, c);
      X(i, c) = -acc / R(i, i);
    }
  }
  return x;
}

/// Eigenvalues of the n x n upper Hessenberg matrix a (column-major) by the
/// shifted QR algorithm (Wilkinson shifts, an exceptional shift every 11
/// iterations, deflation at negligible subdiagonals). Meant for the few
/// Ritz values of s-step GMRES's Newton basis (n <= a block): no balancing,
/// and a block that does not converge in 60 n iterations gives its diagonal.
inline std::vector<std::complex<double>> hessenberg_eigenvalues(std::vector<std::complex<double>> a,
                                                                int n) {
  using C = std::complex<double>;
  auto A = [&](int i, int j) -> C& { return a[std::size_t(i) + std::size_t(j) * n]; };
  std::vector<C> ev;
  int hi = n - 1, iter = 0;
  const double eps = std::numeric_limits<double>::epsilon();
  while (hi >= 0) {
    int lo = hi;
    while (lo > 0 &&
           std::abs(A(lo, lo - 1)) > eps * (std::abs(A(lo, lo)) + std::abs(A(lo - 1, lo - 1))))
      --lo;
    if (lo == hi) {
      ev.push_back(A(hi, hi));
      --hi;
      iter = 0;
      continue;
    }
    if (++iter > 60 * n) {
      for (int i = lo; i <= hi; ++i) ev.push_back(A(i, i));
      hi = lo - 1;
      iter = 0;
      continue;
    }
    // the eigenvalue of the trailing 2 x 2 block nearer its last diagonal entry
    const C a11 = A(hi - 1, hi - 1), a12 = A(hi - 1, hi), a21 = A(hi, hi - 1), a22 = A(hi, hi);
    const C half = (a11 + a22) / 2.0, disc = std::sqrt(half * half - (a11 * a22 - a12 * a21));
    C mu = std::abs(half + disc - a22) < std::abs(half - disc - a22) ? half + disc : half - disc;
    if (iter % 11 == 10) mu += std::abs(A(hi, hi - 1));
    // A - mu I = Q R by Givens rotations G_i (rows i, i+1), then R Q + mu I
    std::vector<double> cs(std::size_t(hi - lo));
    std::vector<C> sn(std::size_t(hi - lo));
    for (int i = lo; i <= hi; ++i) A(i, i) -= mu;
    for (int i = lo; i < hi; ++i) {
      const C x = A(i, i), y = A(i + 1, i);
      const double ax = std::abs(x), r = std::hypot(ax, std::abs(y));
      double c = 1;
      C s = 0;
      if (r > 0) {
        c = ax / r;
        s = ax > 0 ? (x / ax) * std::conj(y) / r : C(1);
        if (ax == 0) c = 0;
      }
      cs[std::size_t(i - lo)] = c;
      sn[std::size_t(i - lo)] = s;
      for (int j = i; j <= hi;
           ++j) {  // [row i; row i+1] <- [[c, s], [-conj(s), c]] [row i; row i+1]
        const C u = A(i, j), v = A(i + 1, j);
        A(i, j) = c * u + s * v;
        A(i + 1, j) = -std::conj(s) * u + c * v;
      }
    }
    for (int i = lo; i < hi; ++i) {  // columns i, i+1 times G_i^H
      const double c = cs[std::size_t(i - lo)];
      const C s = sn[std::size_t(i - lo)];
      for (int row = lo; row <= std::min(i + 1, hi); ++row) {
        const C u = A(row, i), v = A(row, i + 1);
        A(row, i) = c * u + std::conj(s) * v;
        A(row, i + 1) = -s * u + c * v;
      }
    }
    for (int i = lo; i <= hi; ++i) A(i, i) += mu;
  }
  return ev;
}

/// The points z in Leja order: the largest in modulus first, then each the
/// one whose product of distances to those already taken is largest (sums of
/// logarithms; equal points, whose product is 0, come last).
inline std::vector<std::complex<double>> leja_order(std::vector<std::complex<double>> z) {
  std::vector<std::complex<double>> out;
  while (!z.empty()) {
    std::size_t best = 0;
    double best_score = -std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < z.size(); ++i) {
      double score = 0;
      if (out.empty()) {
        score = std::abs(z[i]);
      } else {
        for (const auto& o : out)
          score += std::log(std::abs(z[i] - o));  // -inf for a repeated point
      }
      if (score > best_score) {
        best_score = score;
        best = i;
      }
    }
    out.push_back(z[best]);
    z.erase(z.begin() + static_cast<std::ptrdiff_t>(best));
  }
  return out;
}

}  // namespace tessera::krylov::detail
