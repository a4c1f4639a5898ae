// Restarted GMRES(m) written once against a Space (space.hpp): Arnoldi with
// MGS, CGS or CGS2, the (m+1) x m Hessenberg least-squares problem by Givens
// rotations (on the host, in double), right preconditioning or FGMRES.
#pragma once
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <vector>

#include "core/error.hpp"
#include "krylov/gmres_common.hpp"
#include "krylov/kernels/krylov_point.hpp"
#include "krylov/sstep.hpp"

namespace tessera::krylov::detail {

// One restart cycle of Arnoldi with DCGS2 (docs/krylov.md, "DCGS2"): A is
// applied to the once-projected candidate u_j in basis slot j, and the
// reduction of iteration j (one pass over slots 0..j, two right-hand sides)
// yields both u_j's reorthogonalisation (a = Q^H u_j, making column j-1 of H
// final, one iteration late) and A u_j's projection. `column(j, h, h_{j+1,j})`
// takes each final column; `Hraw` holds them unrotated. Leaves q_0..q_k in
// the basis (k = the columns taken) and returns column's code for the last
// one (0, 1 not finite, 2 happy breakdown). A candidate whose norm the
// Pythagorean formula could not give without cancellation is orthogonalised
// explicitly and ends the cycle early (GMRES restarts; rare).
//
// The update coefficients come from krylov_dcgs2.h, on the host or (the
// pipelined fused mode) on the device with the same bits. Pipelined, step j
// (application, reduction, coefficients, update) is on the device before the
// host looks at its sums, and step j + 1 is enqueued before the host waits
// for them: the device never waits for the host. The host's decisions come
// one step late and cost nothing: a stop after step j leaves slot j final
// (the stop's own update is step j's second output, the same bits), and
// step j + 1 only wrote slots j + 1 and j + 2, the scratch w and vj.
template <class Space, class V, class Basis, class Apply, class Column>
int dcgs2_cycle(Space& s, Basis& basis, typename Space::Vec& w, std::size_t M, const Options& o,
                Result& res, Apply&& apply_to_slot, Column&& column,
                const std::vector<wide_t<V>>& Hraw) {
  using W = wide_t<V>;
  using R = sparse::real_t<V>;
  constexpr int nc = sparse::is_complex_v<V> ? 2 : 1;
  const V one(1);
  auto hraw = [&](std::size_t r, std::size_t c) { return Hraw[r + c * (M + 1)]; };
  std::vector<V> au(M + 1), bw(M + 1), coef(M + 1), coef2(M + 1), hv(M + 1);
  std::vector<W> hprev(M + 1);
  std::vector<R> sums(4 * (M + 1)), packed(std::size_t(nc) * (2 * M + 3));
  double st[7] = {};  // alpha, z (re, im), explicit path, inv, g (krylov_dcgs2.h)
  bool pipelined = false;
  if constexpr (requires { s.dcgs2_step(basis, std::size_t{}, w); })
    pipelined = o.pipeline && s.fused() && s.device_coefficients();
  std::size_t queued = 1;  // pipelined: steps j < queued are on the device
  auto last_at = [&](std::size_t j, int taken) { return j == M || taken + 1 >= o.max_iters; };
  apply_to_slot(0);  // column 0's projection: u_1 = A q_0 - q_0 h', h' = q_0^H A q_0
  s.timed(&TimeSplit::ortho, [&] {
    s.dots(basis, 0, 1, w, 0, au.data());
    hprev[0] = W(au[0]);
    coef[0] = -au[0];
    s.combine(basis, 1, one, &w, 0, &basis, 0, 1, coef.data());
  });
  for (std::size_t j = 1;; ++j) {
    const bool last = last_at(j, res.iterations);
    const bool piped = pipelined && !last;
    const std::size_t k = j + 1;
    double alpha = 0;
    bool explicit_norm = false;
    if (piped) {
      if constexpr (requires { s.dcgs2_step(basis, std::size_t{}, w); }) {
        auto enqueue = [&](std::size_t t) {
          apply_to_slot(t);  // w = A M u_t
          s.timed(&TimeSplit::ortho, [&] { s.dcgs2_step(basis, t, w); });
          queued = t + 1;
        };
        if (queued == j) enqueue(j);
        if (queued == j + 1 && !last_at(j + 1, res.iterations + 1)) enqueue(j + 1);
        s.timed(&TimeSplit::ortho, [&] { s.dcgs2_sums(sums); });
      }
      pairs_to_values<V>(sums.data(), k,
                         au.data());  // krylov_dcgs2.h's layout: a at pair i, b at k + i
      pairs_to_values<V>(sums.data() + 2 * k, k, bw.data());
    } else {
      if (!last) apply_to_slot(j);  // w = A M u_j
      s.timed(&TimeSplit::ortho, [&] {
        const int kj = static_cast<int>(k);
        if (!last && s.fused()) {  // one pass over slots 0..j
          s.dots2(basis, 0, kj, basis, j, &w, 0, au.data(), bw.data());
        } else {
          s.dots(basis, 0, kj, basis, j, au.data());  // a = Q^H u_j, nu = u_j^H u_j
          if (!last)
            s.dots(basis, 0, kj, w, 0, bw.data());  // b = Q^H w, c = u_j^H w
          else
            std::fill(bw.begin(), bw.end(), V(0));  // (no next candidate)
        }
      });
      for (std::size_t i = 0; i <= j; ++i) {
        const V pair[2] = {au[i], bw[i]};
        for (int h = 0; h < 2; ++h) {
          sums[2 * (h * k + i)] = std::real(pair[h]);
          sums[2 * (h * k + i) + 1] = std::imag(pair[h]);
        }
      }
    }
    // pipelined: the device formed the lists; the host needs only the scalars
    if (piped)
      point::ts_kry_dcgs2_scalars(nc, static_cast<int>(j), sums.data(), st);
    else
      point::ts_kry_dcgs2_coef(nc, static_cast<int>(j), sums.data(), st, packed.data());
    explicit_norm = st[3] != 0;
    res.dcgs2_explicit += explicit_norm;
    alpha = st[0];
    if (explicit_norm) {  // u_j - Q a explicitly (pipelined: step j's update formed it), then its norm
      s.timed(&TimeSplit::ortho, [&] {
        if (!piped) {
          for (std::size_t i = 0; i < j; ++i) coef[i] = -au[i];
          s.combine(basis, j, one, &basis, j, &basis, 0, static_cast<int>(j), coef.data());
        }
        alpha = norm<Space, V, Basis>(s, basis, j);
      });
    }
    for (std::size_t i = 0; i < j; ++i) hv[i] = narrow<V>(hprev[i] + W(au[i]));
    const int stc = column(j - 1, hv.data(), alpha);
    const bool stop =
        stc != 0 || last || explicit_norm || (!o.fixed_iterations && res.history.back() <= o.tol);
    const W inv = W(1.0 / alpha);
    // the lists [inv, c_0..c_j] and [inv, c2_0..c2_{j-1}] as values
    auto list = [&](std::vector<V>& c, std::size_t first, std::size_t count) {
      for (std::size_t i = 0; i < count; ++i) c[i] = packed_value<V>(packed, first + 1 + i);
      return packed_value<V>(packed, first);
    };
    if (stop) {  // q_j for the orthogonality measurement (and a full basis); no next candidate
      if (stc == 0) {
        if (explicit_norm) {
          s.timed(&TimeSplit::ortho,
                  [&] { s.combine(basis, j, narrow<V>(inv), &basis, j, nullptr, 0, 0, nullptr); });
        } else if (!piped) {  // pipelined: step j's second output is this q_j
          const V a2 = list(coef2, k + 1, j);
          s.timed(&TimeSplit::ortho, [&] {
            s.combine(basis, j, a2, &basis, j, &basis, 0, static_cast<int>(j), coef2.data());
          });
        }
      }
      if constexpr (requires { s.dcgs2_drop(); })
        if (pipelined) s.dcgs2_drop();  // step j + 1, enqueued ahead: not used
      return stc;
    }
    // z = [b; (c - a^H b) / alpha] = Q_{j+1}^H w (z_j from krylov_dcgs2.h); the next
    // candidate u_{j+1} = (w - Q_{j+1} z) / alpha = (w - Q (b - a g) - u_j g) / alpha,
    // g = z_j / alpha, and A q_j's coefficients h = (z - H_j a) / alpha (H_j:
    // columns 0..j-1, unrotated).
    W zj;
    if constexpr (sparse::is_complex_v<V>)
      zj = W(st[1], st[2]);
    else
      zj = st[1];
    for (std::size_t r = 0; r <= j; ++r) {
      W ha = 0;
      for (std::size_t i = (r == 0 ? 0 : r - 1); i < j; ++i) ha += hraw(r, i) * W(au[i]);
      hprev[r] = ((r < j ? W(bw[r]) : zj) - ha) * inv;
    }
    if (piped) continue;  // step j's update is on the device already
    const V a1 = list(coef, 0, k), a2 = list(coef2, k + 1, j);
    s.timed(&TimeSplit::ortho, [&] {
      // u_{j+1} (reads the old u_j), then q_j = (u_j - Q a) / alpha
      const int kj = static_cast<int>(j);
      if (s.fused()) {  // one pass over slots 0..j
        s.combine2(basis, j + 1, a1, &w, 0, &basis, 0, kj + 1, coef.data(),
                   {&basis, j, a2, &basis, j, kj, coef2.data()});
      } else {
        s.combine(basis, j + 1, a1, &w, 0, &basis, 0, kj + 1, coef.data());
        s.combine(basis, j, a2, &basis, j, &basis, 0, kj, coef2.data());
      }
    });
  }
}

// GMRES with the basis `basis` (m + 1 slots): the space's vectors or a
// compressed block (CompressedBlock: the same calls, other overloads).
template <class Space, class V, class Basis>
Result gmres_on(Space& s, Basis& basis, int m, const Buffer<V>& b_dev, Buffer<V>& x_dev,
                const Options& o, bool has_m, bool flexible) {
  using Vec = typename Space::Vec;
  using W = wide_t<V>;
  using R = sparse::real_t<V>;
  Result res;
  Vec b = s.from_device(b_dev), x = s.from_device(x_dev);
  Vec zbasis = s.make(flexible ? std::size_t(m) : 0);
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
  if (o.ortho == Ortho::dcgs2 && flexible)
    throw UsageError(
        "krylov: dcgs2 applies the preconditioner to unnormalised candidates: only with a fixed "
        "preconditioner (gmres), not fgmres");
  if (o.ortho == Ortho::bcgs2 && flexible)
    throw UsageError(
        "krylov: s-step GMRES (bcgs2) builds its block from one fixed operator A M: gmres, not fgmres");
  // DCGS2 and s-step: H before the rotations
  std::vector<W> Hraw(o.ortho == Ortho::dcgs2 || o.ortho == Ortho::bcgs2 ? (M + 1) * M : 0);
  NewtonShifts<W> shifts;  // s-step: found in the first block, kept across restarts
  std::size_t k = 0;
  // Column j of H is complete (h[0..j], h_{j+1,j} = hn): rotate it, update
  // the residual estimate. Returns 1 when not finite, 2 on a happy breakdown.
  auto column = [&](std::size_t j, const auto* hc, double hn) -> int {
    double colsq = hn * hn;
    for (std::size_t i = 0; i <= j; ++i) {
      Hij(i, j) = W(hc[i]);
      colsq += std::norm(W(hc[i]));
    }
    if (!Hraw.empty()) {
      for (std::size_t i = 0; i <= j; ++i) Hraw[i + j * (M + 1)] = W(hc[i]);
      Hraw[j + 1 + j * (M + 1)] = W(hn);
    }
    if (!std::isfinite(hn) || !std::isfinite(colsq)) return 1;
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
    res.history.push_back(std::abs(g[j + 1]) / bnorm);
    if (o.progress) o.progress(res.iterations, res.history.back());
    // The Krylov space is (numerically) invariant: w vanished to round-off
    // (whose size grows like sqrt(n) eps ||A z|| over the projection sums).
    return hn <= happy_factor * eps * std::sqrt(colsq) ? 2 : 0;
  };
  // A half-precision basis also holds DCGS2's unnormalised candidates, whose
  // size follows ||A M||: beyond half's range (6e-5 .. 65504) they overflow
  // or vanish. The process then runs on A M / sigma, sigma a power of two
  // (exact) near ||A M r|| / ||r||; the solution update divides y by sigma.
  double sigma = 1;
  if constexpr (requires { typename Basis::Store; }) {
    if constexpr (std::is_same_v<typename Basis::Store, std::uint16_t>) {
      const Vec* zin = &r;
      if (has_m) {
        s.precond(r, z);
        zin = &z;
      }
      s.apply_a(*zin, w);
      const double grow = norm<Space, V>(s, w) / beta;
      if (std::isfinite(grow) && grow > 0) sigma = std::exp2(std::round(std::log2(grow)));
    }
  }
  const V inv_sigma = narrow<V>(1.0 / sigma);
  // w = A M basis[j] (M: the preconditioner, if any; z keeps M basis[j] for FGMRES)
  auto apply_to_slot = [&](std::size_t j) {
    s.combine(vj, 0, V(0), nullptr, 0, &basis, j, 1, &one);
    const Vec* zin = &vj;
    if (has_m) {
      s.precond(vj, z);
      zin = &z;
      if (flexible) s.combine(zbasis, j, one, &z, 0, nullptr, 0, 0, nullptr);
    }
    s.apply_a(*zin, w);
    if (sigma != 1) s.combine(w, 0, inv_sigma, &w, 0, nullptr, 0, 0, nullptr);
  };

  while (true) {
    if (beta == 0 || (!o.fixed_iterations && beta <= o.tol * bnorm)) {
      res.status = Status::converged;
      break;
    }
    if (res.iterations >= o.max_iters) {
      res.status =
          o.fixed_iterations && beta <= o.tol * bnorm ? Status::converged : Status::max_iters;
      break;
    }
    s.combine(basis, 0, narrow<V>(1.0 / beta), &r, 0, nullptr, 0, 0, nullptr);
    std::fill(g.begin(), g.end(), W(0));
    g[0] = beta;
    k = 0;
    bool happy = false, finite = true;
    if (o.ortho == Ortho::dcgs2) {
      const int st =
          dcgs2_cycle<Space, V, Basis>(s, basis, w, M, o, res, apply_to_slot, column, Hraw);
      finite = st != 1;
      happy = st == 2;
    } else if (o.ortho == Ortho::bcgs2) {
      if constexpr (std::is_same_v<Basis, Vec> &&
                    requires { s.dots_block(basis, 0, 1, 0, 1, nullptr); }) {
        const int st =
            sstep_cycle<Space, V>(s, basis, w, M, o, res, apply_to_slot, column, Hraw, shifts);
        finite = st != 1;
        happy = st == 2;
      } else {
        throw UsageError(
            "krylov: s-step GMRES (bcgs2) runs in the resident and fused modes with a full-precision "
            "basis");
      }
    } else {
      for (std::size_t j = 0; j < M && res.iterations < o.max_iters; ++j) {
        apply_to_slot(j);
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
        const int st = column(j, h.data(), hn);
        if (st == 1) finite = false;
        if (st == 2) happy = true;
        if (st != 0) break;
        s.combine(basis, j + 1, narrow<V>(1.0 / hn), &w, 0, nullptr, 0, 0, nullptr);
        if (!o.fixed_iterations && std::abs(g[j + 1]) <= o.tol * bnorm) break;
      }
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
          res.orthogonality_loss = std::max(
              res.orthogonality_loss, std::abs(static_cast<double>(l == i) - wide_t<V>(row[l])));
      }
    }
    // y = R^{-1} g by back substitution (a zero pivot: A z = 0, singular A).
    for (std::size_t ii = k; ii-- > 0;) {
      W acc = g[ii];
      for (std::size_t l = ii + 1; l < k; ++l) acc -= Hij(ii, l) * y[l];
      y[ii] = std::abs(Hij(ii, ii)) == 0 ? W(0) : acc / Hij(ii, ii);
    }
    for (std::size_t i = 0; i < k; ++i) coef[i] = narrow<V>(y[i] / sigma);
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
    if (!o.fixed_iterations && o.stagnation_window != 0 && beta > o.tol * bnorm &&
        beta > o.stagnation_factor * before) {
      res.status = Status::stagnated;
      break;
    }
  }
  res.true_relres = beta / bnorm;
  s.to_device(x, x_dev);
  return res;
}

template <class Space, class V>
Result gmres(Space& s, const Buffer<V>& b_dev, Buffer<V>& x_dev, const Options& o, bool has_m,
             bool flexible, TimeSplit&) {
  const int m = o.fixed_iterations ? o.max_iters : o.restart;
  if (m < 1)
    throw UsageError("krylov: GMRES restart length must be >= 1 (got " + std::to_string(m) + ")");
  if (o.compressed_basis) {
    if constexpr (requires { s.make_basis(std::size_t(1)); }) {
      auto basis = s.make_basis(std::size_t(m) + 1);
      return gmres_on<Space, V>(s, basis, m, b_dev, x_dev, o, has_m, flexible);
    } else {
      throw UsageError(
          "krylov: a compressed basis needs the resident or fused mode (the thesis mode keeps the "
          "basis on the host)");
    }
  }
  auto basis = s.make(std::size_t(m) + 1);
  return gmres_on<Space, V>(s, basis, m, b_dev, x_dev, o, has_m, flexible);
}

}  // namespace tessera::krylov::detail
