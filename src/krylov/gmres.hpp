// Restarted GMRES(m) written once against a Space (space.hpp): Arnoldi with
// MGS, CGS or CGS2, the (m+1) x m Hessenberg least-squares problem by Givens
// rotations (on the host, in double), right preconditioning or FGMRES.
#pragma once
#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <vector>

#include "core/error.hpp"
#include "krylov/space.hpp"

namespace tessera::krylov::detail {

template <class V> struct wide { using type = double; };
template <class R> struct wide<std::complex<R>> { using type = std::complex<double>; };
template <class V> using wide_t = typename wide<V>::type;

template <class V, class W>
V narrow(W w) {
  if constexpr (sparse::is_complex_v<V>) return V(static_cast<typename V::value_type>(std::real(w)),
                                                 static_cast<typename V::value_type>(std::imag(w)));
  else return static_cast<V>(w);
}
template <class W> W conj_of(W w) {
  if constexpr (sparse::is_complex_v<W>) return std::conj(w);
  else return w;
}

template <class Space, class V>
double norm(Space& s, const typename Space::Vec& v, std::size_t slot = 0) {
  V d{};
  s.dots(v, slot, 1, v, slot, &d);
  return std::sqrt(static_cast<double>(std::real(d)));
}

/// r = b - A x (w: scratch), returns ||r||.
template <class Space, class V>
double residual(Space& s, const typename Space::Vec& b, const typename Space::Vec& x,
                typename Space::Vec& w, typename Space::Vec& r) {
  s.apply_a(x, w);
  const V minus_one(-1);
  s.combine(r, 0, V(1), &b, 0, &w, 0, 1, &minus_one);
  return norm<Space, V>(s, r);
}

// The start every method shares: ||b|| (NaN/Inf in b is an Error); a zero
// b is solved by x = 0 (written back, `res` converged: returns false); else
// r = b - A x0 (w: scratch; a non-finite residual is an Error) and the first
// history entry. bnorm and rn receive ||b|| and ||r||.
template <class Space, class V>
bool start(Space& s, const typename Space::Vec& b, typename Space::Vec& x, Buffer<V>& x_dev,
           typename Space::Vec& w, typename Space::Vec& r, Result& res, double& bnorm, double& rn) {
  bnorm = norm<Space, V>(s, b);
  if (!std::isfinite(bnorm)) throw Error("krylov: the right-hand side b contains NaN or infinite values");
  if (bnorm == 0) {
    s.combine(x, 0, V(0), nullptr, 0, nullptr, 0, 0, nullptr);
    s.to_device(x, x_dev);
    res.status = Status::converged;
    res.history = {0.0};
    return false;
  }
  rn = residual<Space, V>(s, b, x, w, r);
  if (!std::isfinite(rn)) throw Error("krylov: the initial residual b - A x0 is not finite (NaN or Inf in A or x0)");
  res.history.push_back(rn / bnorm);
  return true;
}

template <class Space, class V>
Result gmres(Space& s, const Buffer<V>& b_dev, Buffer<V>& x_dev, const Options& o, bool has_m,
             bool flexible, TimeSplit&) {
  using Vec = typename Space::Vec;
  using W = wide_t<V>;
  using R = sparse::real_t<V>;
  const int m = o.fixed_iterations ? o.max_iters : o.restart;
  if (m < 1) throw UsageError("krylov: GMRES restart length must be >= 1 (got " + std::to_string(m) + ")");
  Result res;
  Vec b = s.from_device(b_dev), x = s.from_device(x_dev);
  Vec basis = s.make(std::size_t(m) + 1), zbasis = s.make(flexible ? std::size_t(m) : 0);
  Vec w = s.make(), vj = s.make(), z = s.make(), r = s.make();

  double bnorm = 0, beta = 0;
  if (!start<Space, V>(s, b, x, x_dev, w, r, res, bnorm, beta)) return res;

  const auto M = static_cast<std::size_t>(m);
  std::vector<W> H((M + 1) * M), g(M + 1), sn(M), y(M);
  std::vector<double> cs(M);
  std::vector<V> h(M + 1), h2(M + 1), coef(M + 1);
  auto Hij = [&](std::size_t i, std::size_t j) -> W& { return H[i + j * (M + 1)]; };
  const double eps = std::numeric_limits<R>::epsilon();
  const double happy_factor = std::max(16.0, std::sqrt(static_cast<double>(s.n())));
  const V one(1);

  while (true) {
    if (beta == 0 || (!o.fixed_iterations && beta <= o.tol * bnorm)) {
      res.status = Status::converged;
      break;
    }
    if (res.iterations >= o.max_iters) {
      res.status = o.fixed_iterations && beta <= o.tol * bnorm ? Status::converged : Status::max_iters;
      break;
    }
    s.combine(basis, 0, narrow<V>(1.0 / beta), &r, 0, nullptr, 0, 0, nullptr);
    std::fill(g.begin(), g.end(), W(0));
    g[0] = beta;
    std::size_t k = 0;
    bool happy = false, finite = true;
    for (std::size_t j = 0; j < M && res.iterations < o.max_iters; ++j) {
      s.combine(vj, 0, one, &basis, j, nullptr, 0, 0, nullptr);
      const Vec* zin = &vj;
      if (has_m) {
        s.precond(vj, z);
        zin = &z;
        if (flexible) s.combine(zbasis, j, one, &z, 0, nullptr, 0, 0, nullptr);
      }
      s.apply_a(*zin, w);
      double hn = 0;
      s.timed(&TimeSplit::ortho, [&] {
        const int kk = static_cast<int>(j + 1);
        if (o.ortho == Ortho::mgs) {
          for (std::size_t i = 0; i <= j; ++i) {
            s.dots(basis, i, 1, w, 0, &h[i]);
            const V c = -h[i];
            s.combine(w, 0, one, &w, 0, &basis, i, 1, &c);
          }
        } else {
          for (int pass = 0; pass < (o.ortho == Ortho::cgs2 ? 2 : 1); ++pass) {
            V* hp = pass == 0 ? h.data() : h2.data();
            s.dots(basis, 0, kk, w, 0, hp);
            for (std::size_t i = 0; i <= j; ++i) coef[i] = -hp[i];
            s.combine(w, 0, one, &w, 0, &basis, 0, kk, coef.data());
            if (pass == 1)
              for (std::size_t i = 0; i <= j; ++i) h[i] = h[i] + h2[i];
          }
        }
        hn = norm<Space, V>(s, w);
      });
      double colsq = hn * hn;
      for (std::size_t i = 0; i <= j; ++i) {
        Hij(i, j) = W(h[i]);
        colsq += std::norm(W(h[i]));
      }
      if (!std::isfinite(hn) || !std::isfinite(colsq)) {
        finite = false;
        break;
      }
      // Earlier rotations, then the one that annihilates h_{j+1,j}.
      for (std::size_t i = 0; i < j; ++i) {
        const W a = Hij(i, j), bb = Hij(i + 1, j);
        Hij(i, j) = cs[i] * a + sn[i] * bb;
        Hij(i + 1, j) = -conj_of(sn[i]) * a + cs[i] * bb;
      }
      const W a = Hij(j, j);
      const double aa = std::abs(a), rr = std::hypot(aa, hn);
      if (rr == 0) {
        cs[j] = 1;
        sn[j] = 0;
      } else if (aa == 0) {
        cs[j] = 0;
        sn[j] = W(1);
        Hij(j, j) = W(hn);
      } else {
        const W phase = a / aa;
        cs[j] = aa / rr;
        sn[j] = phase * (hn / rr);  // conj(h_{j+1,j}) = h_{j+1,j}: real
        Hij(j, j) = phase * rr;
      }
      g[j + 1] = -conj_of(sn[j]) * g[j];
      g[j] = cs[j] * g[j];
      ++res.iterations;
      k = j + 1;
      const double est = std::abs(g[j + 1]);
      res.history.push_back(est / bnorm);
      // The Krylov space is (numerically) invariant: w vanished to round-off
      // (whose size grows like sqrt(n) eps ||A z|| over the projection sums).
      if (hn <= happy_factor * eps * std::sqrt(colsq)) {
        happy = true;
        break;
      }
      s.combine(basis, j + 1, narrow<V>(1.0 / hn), &w, 0, nullptr, 0, 0, nullptr);
      if (!o.fixed_iterations && est <= o.tol * bnorm) break;
    }
    if (!finite) {
      res.status = Status::not_finite;
      break;
    }
    if (happy) res.happy_breakdown = true;
    if (o.measure_orthogonality) {
      const std::size_t kb = happy ? k : k + 1;
      std::vector<V> row(kb);
      for (std::size_t i = 0; i < kb; ++i) {
        s.dots(basis, 0, static_cast<int>(kb), basis, i, row.data());
        for (std::size_t l = 0; l < kb; ++l)
          res.orthogonality_loss = std::max(res.orthogonality_loss,
                                            std::abs(static_cast<double>(l == i) - wide_t<V>(row[l])));
      }
    }
    // y = R^{-1} g by back substitution (a zero pivot: A z = 0, singular A).
    for (std::size_t ii = k; ii-- > 0;) {
      W acc = g[ii];
      for (std::size_t l = ii + 1; l < k; ++l) acc -= Hij(ii, l) * y[l];
      y[ii] = std::abs(Hij(ii, ii)) == 0 ? W(0) : acc / Hij(ii, ii);
    }
    for (std::size_t i = 0; i < k; ++i) coef[i] = narrow<V>(y[i]);
    const int ki = static_cast<int>(k);
    if (!has_m) {
      s.combine(x, 0, one, &x, 0, &basis, 0, ki, coef.data());
    } else if (flexible) {
      s.combine(x, 0, one, &x, 0, &zbasis, 0, ki, coef.data());
    } else {
      s.combine(vj, 0, V(0), nullptr, 0, &basis, 0, ki, coef.data());
      s.precond(vj, z);
      s.combine(x, 0, one, &x, 0, &z, 0, 1, &one);
    }
    const double before = beta;
    beta = residual<Space, V>(s, b, x, w, r);
    ++res.restarts;
    if (!std::isfinite(beta)) {
      res.status = Status::not_finite;
      break;
    }
    if (!o.fixed_iterations && beta > o.tol * bnorm && beta > o.stagnation_factor * before) {
      res.status = Status::stagnated;
      break;
    }
  }
  res.true_relres = beta / bnorm;
  s.to_device(x, x_dev);
  return res;
}

}  // namespace tessera::krylov::detail
