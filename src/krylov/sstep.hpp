// s-step GMRES (Ortho::bcgs2; docs/krylov.md, "s-step GMRES"): the Krylov
// basis grows by blocks of s vectors from s operator applications (a Newton
// basis), each block orthogonalised against the basis by block CGS2 (two
// projections, each one pass over the basis for its products and one for
// its update, with s right-hand sides or outputs) and inside itself by
// Cholesky QR after each projection; the Hessenberg matrix is recovered
// from the change of basis. A block step reads the basis 4 times for s
// Arnoldi steps, against CGS2's 4 (DCGS2's 2) per step.
#pragma once
#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <vector>

#include "krylov/gmres_common.hpp"
#include "krylov/small_dense.hpp"

namespace tessera::krylov::detail {

/// The Newton basis's shifts theta_i (Leja-ordered Ritz values; real parts
/// for real systems) and scale sigma (a power of two, so 1 / sigma is exact),
/// found after the first s steps of a solve and kept for its later blocks.
template <class W>
struct NewtonShifts {
  std::vector<W> theta;  ///< empty: the first s steps (blocks of one, theta = 0)
  double sigma = 0;      ///< 0: not yet known
};

inline double power_of_two_near(double x) { return std::exp2(std::round(std::log2(x))); }

/// One restart cycle of s-step Arnoldi with q_0 in basis slot 0.
/// apply_to_slot(j): w = A M basis[j]; column(j, h, h_{j+1,j}) takes each
/// column of H (unrotated, also recorded in Hraw), returning 0, 1 (not
/// finite) or 2 (happy breakdown). Returns the last column's code.
template <class Space, class V, class Apply, class Column>
int sstep_cycle(Space& s, typename Space::Vec& basis, typename Space::Vec& w, std::size_t M,
                const Options& o, Result& res, Apply&& apply_to_slot, Column&& column,
                const std::vector<wide_t<V>>& Hraw, NewtonShifts<wide_t<V>>& shifts) {
  using W = wide_t<V>;
  using R = sparse::real_t<V>;
  const double eps = std::numeric_limits<R>::epsilon();
  // a pivot whose remainder is within the rounding of the Gram matrix
  // (sums of the block's raw square norms: about log2(n) eps of them, the
  // chunked sums) cannot be trusted
  const double pivot_tol = 64 * eps;
  auto hraw = [&](std::size_t r, std::size_t c) { return Hraw[r + c * (M + 1)]; };
  std::size_t k = 0;  // q_0 .. q_k are in slots 0..k; columns 0..k-1 of H are final
  while (k < M && res.iterations < o.max_iters) {
    int t = static_cast<int>(std::min<std::size_t>(
        {std::size_t(o.block_size), M - k, std::size_t(o.max_iters - res.iterations)}));
    // Until the shifts are known (the first s steps of a solve) blocks of
    // one vector: plain Arnoldi with CGS2. A monomial block there, where the
    // residual is largest, costs the final residual a factor of 5 (s = 4)
    // to 40 (s = 8) in complex single on TRACE (the relation A Y = Y B is
    // only as exact as the block is well conditioned).
    if (shifts.theta.empty()) t = 1;
    // 1. The block: slot k+i = (A M slot[k+i-1] - theta_i slot[k+i-1]) / sigma,
    //    so that A M y_{i-1} = sigma y_i + theta_i y_{i-1} (B below).
    std::vector<W> theta(std::size_t(t), W(0));
    for (int i = 1; i <= t; ++i) {
      apply_to_slot(k + std::size_t(i) - 1);
      if (shifts.sigma == 0) {  // the first step of the solve: scaled by ||A M q_0||
        const double an = norm<Space, V>(s, w);
        if (!std::isfinite(an)) return 1;
        shifts.sigma = an > 0 ? power_of_two_near(an) : 1.0;
      }
      if (!shifts.theta.empty())
        theta[std::size_t(i - 1)] = shifts.theta[std::size_t(i - 1) % shifts.theta.size()];
      // the coefficient rounded to V is the shift the basis really has
      const V c = narrow<V>(-theta[std::size_t(i - 1)] / shifts.sigma);
      theta[std::size_t(i - 1)] = -W(c) * shifts.sigma;
      s.timed(&TimeSplit::ortho, [&] {
        s.combine(basis, k + std::size_t(i), narrow<V>(1.0 / shifts.sigma), &w, 0, &basis,
                  k + std::size_t(i) - 1, 1, &c);
      });
    }
    // 2. Block CGS2 against Q = slots 0..k, each projection one pass for the
    //    products and one for the update, with Cholesky QR inside the block
    //    (BCGS-PIP2): the pass over [Q, Y] against Y gives C_p = Q^H Y and
    //    Y^H Y at once, the projected block's Gram matrix is then
    //    Y^H Y - C_p^H C_p (Pythagoras, Q orthonormal), and one update forms
    //    (Y - Q C_p) R_p^{-1}. Y = Q C + Q_new R with C = C1 + C2 R1, R = R2 R1.
    const std::size_t kq = k + 1, y0 = k + 1;
    auto identity = [](int n) {
      std::vector<W> m(std::size_t(n) * n, W(0));
      for (int i = 0; i < n; ++i) m[std::size_t(i) * (n + 1)] = W(1);
      return m;
    };
    std::vector<W> Cm(kq * std::size_t(t), W(0)), Rm = identity(t), Rpass;
    std::vector<V> prod, coef, a;
    bool zero_block = false;
    int passes = 2;
    for (int pass = 0; pass < passes && !zero_block; ++pass) {
      const std::size_t kt = kq + std::size_t(t);
      std::vector<W> Cp(kq * std::size_t(t)), g(std::size_t(t) * t);
      std::vector<double> raw(static_cast<std::size_t>(t));
      s.timed(&TimeSplit::ortho, [&] {
        prod.resize(kt * std::size_t(t));
        s.dots_block(basis, 0, static_cast<int>(kt), y0, t,
                     prod.data());  // prod[r kt + i] = <slot_i, y_r>
      });
      for (const V& v : prod) {
        const std::complex<double> z{W(v)};
        if (!std::isfinite(z.real()) || !std::isfinite(z.imag())) return 1;
      }
      for (int r = 0; r < t; ++r) {
        for (std::size_t i = 0; i < kq; ++i)
          Cp[i + std::size_t(r) * kq] = W(prod[std::size_t(r) * kt + i]);
        raw[std::size_t(r)] = std::real(W(prod[std::size_t(r) * kt + kq + std::size_t(r)]));
      }
      for (int r = 0; r < t; ++r)
        for (int l = 0; l < t; ++l) {
          W acc = W(prod[std::size_t(r) * kt + kq + std::size_t(l)]);
          for (std::size_t i = 0; i < kq; ++i)
            acc -= conj_of(Cp[i + std::size_t(l) * kq]) * Cp[i + std::size_t(r) * kq];
          g[std::size_t(l) + std::size_t(r) * t] = acc;
        }
      int p = cholesky_upper(g, t, pivot_tol, Rpass, raw);
      if (pass == 0 && p < t) {
        // Pythagoras lost a column's part outside span(Q) in cancellation,
        // or the block is nearly dependent: this pass only projects
        // (Y -= Q C1, nothing normalised) and two more passes decide on the
        // projected block, whose Gram matrix is well determined
        Rpass = identity(t);
        p = t;
        passes = 3;
        ++res.sstep_reprojected;
      }
      if (p == 0) zero_block = true;  // y_0 has nothing outside span(Q): no new direction
      const int tp = std::max(p, 1);
      // C += Cp Rm and Rm <- Rpass Rm (Rm: the earlier passes' R, identity at first)
      for (int c = 0; c < tp; ++c)
        for (std::size_t i = 0; i < kq; ++i) {
          W acc = 0;
          for (int l = 0; l <= c; ++l)
            acc += Cp[i + std::size_t(l) * kq] * Rm[std::size_t(l) + std::size_t(c) * t];
          Cm[i + std::size_t(c) * kq] += acc;
        }
      {
        std::vector<W> prodR(std::size_t(t) * t, W(0));
        for (int c = 0; c < tp; ++c)
          for (int r = 0; r <= c; ++r) {
            W acc = 0;
            for (int l = r; l <= c; ++l)
              acc += Rpass[std::size_t(r) + std::size_t(l) * t] *
                     Rm[std::size_t(l) + std::size_t(c) * t];
            prodR[std::size_t(r) + std::size_t(c) * t] = acc;
          }
        Rm.swap(prodR);
      }
      if (zero_block) break;
      if (p <
          t) {  // the block ends before column p (the vectors after it stay in their slots, unused)
        ++res.sstep_short_blocks;
        auto leading = [&](std::vector<W>& m) {
          std::vector<W> out(std::size_t(p) * p);
          for (int c = 0; c < p; ++c)
            for (int r = 0; r < p; ++r)
              out[std::size_t(r) + std::size_t(c) * p] = m[std::size_t(r) + std::size_t(c) * t];
          m.swap(out);
        };
        leading(Rm);
        leading(Rpass);
        Cm.resize(kq * std::size_t(p));
        t = p;
      }
      // Y <- (Y - Q Cp) Rpass^{-1}: y_r = sum_l (Rpass^{-1})_{l r} y_l - sum_i (Cp Rpass^{-1})_{i r} q_i
      const std::vector<W> inv = upper_inverse(Rpass, t);
      a.assign(std::size_t(t) * t, V(0));
      coef.assign(kq * std::size_t(t), V(0));
      for (int r = 0; r < t; ++r) {
        for (int l = 0; l <= r; ++l)
          a[std::size_t(r) * t + l] = narrow<V>(inv[std::size_t(l) + std::size_t(r) * t]);
        for (std::size_t i = 0; i < kq; ++i) {
          W acc = 0;
          for (int l = 0; l <= r; ++l)
            acc += Cp[i + std::size_t(l) * kq] * inv[std::size_t(l) + std::size_t(r) * t];
          coef[std::size_t(r) * kq + i] = narrow<V>(-acc);
        }
      }
      s.timed(&TimeSplit::ortho, [&] {
        s.combine_block(basis, y0, t, a.data(), 0, static_cast<int>(kq), coef.data());
      });
    }
    if (zero_block) {
      Rm.assign(1, W(0));
      t = 1;
    }
    // 3. H's columns k..k+t-1 from the change of basis (Hoemmen's recovery):
    //    [y_0 .. y_t] = [Q_{k+1}, Q_new] Rf with y_0 = q_k, Rf's column 0 = e_k
    //    and column c+1 = [C_c; R_c]; A M [y_0 .. y_{t-1}] = [y_0 .. y_t] B;
    //    A M [q_k .. q_{k+t-1}] = (Rf B - [H_{k+1,k} Rf_top; 0]) Rb^{-1}
    //    with Rb = Rf's rows k..k+t-1 (upper triangular, Rb_00 = 1).
    const std::size_t rows = k + 1 + std::size_t(t);
    auto rf = [&](std::size_t r, int c) -> W {
      if (c == 0) return r == k ? W(1) : W(0);
      if (r <= k) return Cm[r + std::size_t(c - 1) * kq];
      const std::size_t rr = r - k - 1;
      return rr < std::size_t(t) ? (zero_block ? W(0) : Rm[rr + std::size_t(c - 1) * t]) : W(0);
    };
    std::vector<W> X(rows * std::size_t(t), W(0));
    for (int c = 0; c < t; ++c)
      for (std::size_t r = 0; r < rows; ++r) {
        W x = theta[std::size_t(c)] * rf(r, c) + W(shifts.sigma) * rf(r, c + 1);
        if (r <= k)
          for (std::size_t l = 0; l < k; ++l) x -= hraw(r, l) * rf(l, c);
        X[r + std::size_t(c) * rows] = x;
      }
    std::vector<W> Hn(rows * std::size_t(t), W(0));
    for (int c = 0; c < t; ++c) {
      const W rcc = rf(k + std::size_t(c), c);
      for (std::size_t r = 0; r < rows; ++r) {
        W x = X[r + std::size_t(c) * rows];
        for (int l = 0; l < c; ++l) x -= Hn[r + std::size_t(l) * rows] * rf(k + std::size_t(l), c);
        Hn[r + std::size_t(c) * rows] = x / rcc;
      }
    }
    for (int c = 0; c < t; ++c) {
      const std::size_t j = k + std::size_t(c);
      const int st =
          column(j, Hn.data() + std::size_t(c) * rows, std::abs(Hn[j + 1 + std::size_t(c) * rows]));
      if (st != 0) return st;
      if (res.iterations >= o.max_iters || (!o.fixed_iterations && res.history.back() <= o.tol))
        return 0;
    }
    // The Newton shifts: the Ritz values of H's leading s x s part, once the
    // first s steps have run, Leja-ordered.
    if (shifts.theta.empty() && k + std::size_t(t) >= std::min(M, std::size_t(o.block_size))) {
      const int kk = int(k) + t;
      std::vector<std::complex<double>> h(std::size_t(kk) * kk);
      for (int c = 0; c < kk; ++c)
        for (int r = 0; r < kk; ++r)
          h[std::size_t(r) + std::size_t(c) * kk] =
              r <= c + 1 ? std::complex<double>(hraw(r, c)) : 0.0;
      std::vector<std::complex<double>> ritz = hessenberg_eigenvalues(h, kk);
      if constexpr (!sparse::is_complex_v<V>)
        for (auto& z : ritz) z = std::real(z);
      ritz = leja_order(ritz);
      double radius = 0;
      for (const auto& z : ritz) radius = std::max(radius, std::abs(z - ritz[0]));
      for (const auto& z : ritz) {
        if (!std::isfinite(std::abs(z))) return 1;
        if constexpr (sparse::is_complex_v<V>)
          shifts.theta.push_back(W(z));
        else
          shifts.theta.push_back(std::real(z));
      }
      // scale by the Ritz values' spread (a power of two; else ||A M q_0||'s)
      if (radius > 0) shifts.sigma = power_of_two_near(radius / 2);
    }
    k += std::size_t(t);
  }
  return 0;
}

}  // namespace tessera::krylov::detail
