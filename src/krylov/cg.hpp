// Preconditioned CG (Hermitian positive definite A and M) and BiCGStab (van
// der Vorst 1992, preconditioned as in Saad's Algorithm 7.7 with M applied to
// the search directions), written once against a Space (space.hpp). Scalars
// (alpha, beta, omega) are formed on the host in the working precision.
#pragma once
#include "krylov/gmres.hpp"

namespace tessera::krylov::detail {

// The bookkeeping CG and BiCGStab share in every mode: the stopping tests,
// the residual history and the breakdown checks. Each test that stops sets
// res.status and returns true.
struct Recurrence {
  const Options& o;
  Result& res;
  double bnorm;
  double best = 0;  // the best residual so far and its iteration: stagnation
  int best_at = 0;
  long rows = 0;  // of the system (this part's, distributed)

  Recurrence(const Options& opt, Result& r, double bn, double rn0, long n)
      : o(opt), res(r), bnorm(bn), best(rn0), rows(n) {
    res.status = Status::max_iters;
  }
  /// At the loop's top: converged, or out of iterations (status max_iters).
  bool done(double rn) {
    if (!o.fixed_iterations && rn <= o.tol * bnorm) {
      res.status = Status::converged;
      return true;
    }
    return res.iterations >= o.max_iters;
  }
  /// The residual norm after an iteration into the history; stops when it is not finite.
  bool record(double rn) {
    res.history.push_back(rn / bnorm);
    if (o.progress) o.progress(res.iterations, res.history.back());
    if (std::isfinite(rn)) return false;
    res.status = Status::not_finite;
    return true;
  }
  /// Stops when the residual has not improved by the stagnation factor for
  /// the stagnation window (Options::stagnation_window: automatic, N, or
  /// off), or has grown 1e12 above the best so far (not in the
  /// fixed-iteration mode, once converged, or with the test off). The growth test catches CG
  /// on a singular, inconsistent system: <p, A p> comes out near zero
  /// rather than zero, so no breakdown is seen and the iterates run to inf
  /// (1e12 is above any growth an SPD residual shows, at most sqrt(cond)).
  bool stagnates(double rn) {
    if (o.fixed_iterations || o.stagnation_window == 0 || rn <= o.tol * bnorm) return false;
    if (rn > 1e12 * best) {
      res.status = Status::stagnated;
      return true;
    }
    if (rn < o.stagnation_factor * best) {
      best = rn;
      best_at = res.iterations;
    }
    const long wait = o.stagnation_window > 0 ? long(o.stagnation_window)
                                              : std::max({200L, long(best_at), 20 * rows});
    if (res.iterations - best_at <= wait) return false;
    res.status = Status::stagnated;
    return true;
  }
  /// A scalar that is not finite stops the iteration.
  template <class V>
  bool not_finite(V d) {
    if (std::isfinite(std::abs(wide_t<V>(d)))) return false;
    res.status = Status::not_finite;
    return true;
  }
  /// A divisor that is zero (breakdown) or not finite stops the iteration.
  template <class V>
  bool breaks_down(V d) {
    if (not_finite(d)) return true;
    if (std::abs(wide_t<V>(d)) != 0) return false;
    res.status = Status::breakdown;
    return true;
  }
};

/// <a, c> by one dots call, its time counted as orthogonalisation.
template <class V, class Space, class Vec>
V timed_dot(Space& s, const Vec& a, const Vec& c) {
  V d{};
  s.timed(&TimeSplit::ortho, [&] { s.dots(a, 0, 1, c, 0, &d); });
  return d;
}

/// CG's next search direction: p = z + beta p with beta = rz_new / rz; rz
/// becomes rz_new.
template <class Space, class Vec, class V>
void next_direction(Space& s, Vec& p, const Vec& z, V& rz, V rz_new) {
  const V one(1), beta = rz_new / rz;
  rz = rz_new;
  s.combine(p, 0, beta, &p, 0, &z, 0, 1, &one);  // p = z + beta p
}

/// The frame of CG and BiCGStab in every mode: b and x from the device, the
/// start (r = b - A x0, w scratch); unless the start ends it,
/// iterate(x, res, rn, rec) and then the true residual (w and r scratch) and
/// x back to the device.
template <class Space, class V, class Iterate>
Result short_recurrence(Space& s, const Buffer<V>& b_dev, Buffer<V>& x_dev, const Options& o,
                        typename Space::Vec& w, typename Space::Vec& r, Iterate&& iterate) {
  Result res;
  typename Space::Vec b = s.from_device(b_dev), x = s.from_device(x_dev);
  double bnorm = 0, rn = 0;
  if (!start<Space, V>(s, b, x, x_dev, w, r, res, bnorm, rn)) return res;
  Recurrence rec(o, res, bnorm, rn, static_cast<long>(b_dev.size()));
  iterate(x, res, rn, rec);
  res.true_relres = residual<Space, V>(s, b, x, w, r) / bnorm;
  s.to_device(x, x_dev);
  return res;
}

/// BiCGStab's vectors before the first iteration: rhat = r, p = v = 0.
template <class Space, class Vec>
void bicgstab_start(Space& s, const Vec& r, Vec& rhat, Vec& p, Vec& v) {
  using V = typename Vec::value_type;
  s.combine(rhat, 0, V(1), &r, 0, nullptr, 0, 0, nullptr);
  s.combine(p, 0, V(0), nullptr, 0, nullptr, 0, 0, nullptr);
  s.combine(v, 0, V(0), nullptr, 0, nullptr, 0, 0, nullptr);
}

template <class Space, class V>
Result cg(Space& s, const Buffer<V>& b_dev, Buffer<V>& x_dev, const Options& o, TimeSplit&) {
  using Vec = typename Space::Vec;
  Vec r = s.make(), z = s.make(), p = s.make(), q = s.make();
  const V one(1);
  return short_recurrence<Space, V>(s, b_dev, x_dev, o, q, r,
                                    [&](Vec& x, Result& res, double& rn, Recurrence& rec) {
                                      s.precond(r, z);
                                      s.combine(p, 0, one, &z, 0, nullptr, 0, 0, nullptr);
                                      V rz = timed_dot<V>(s, r, z);
                                      while (!rec.done(rn)) {
                                        s.apply_a(p, q);
                                        const V pq = timed_dot<V>(s, p, q);
                                        if (rec.breaks_down(pq)) break;
                                        const V alpha = rz / pq, minus_alpha = -alpha;
                                        s.combine(x, 0, one, &x, 0, &p, 0, 1, &alpha);
                                        s.combine(r, 0, one, &r, 0, &q, 0, 1, &minus_alpha);
                                        ++res.iterations;
                                        rn = norm<Space, V>(s, r);
                                        if (rec.record(rn) || rec.stagnates(rn)) break;
                                        s.precond(r, z);
                                        next_direction(s, p, z, rz, timed_dot<V>(s, r, z));
                                      }
                                    });
}

template <class Space, class V>
Result bicgstab(Space& s, const Buffer<V>& b_dev, Buffer<V>& x_dev, const Options& o, TimeSplit&) {
  using Vec = typename Space::Vec;
  Vec r = s.make(), rhat = s.make(), p = s.make(), v = s.make(), ph = s.make(), sv = s.make(),
      sh = s.make(), tv = s.make();
  const V one(1);
  return short_recurrence<Space, V>(
      s, b_dev, x_dev, o, v, r, [&](Vec& x, Result& res, double& rn, Recurrence& rec) {
        bicgstab_start(s, r, rhat, p, v);
        V rho(1), alpha(1), omega(1);
        while (!rec.done(rn)) {
          const V rho_new = timed_dot<V>(s, rhat, r);
          if (rec.breaks_down(rho_new)) break;
          const V beta = (rho_new / rho) * (alpha / omega), mbo = -beta * omega;
          s.combine(p, 0, beta, &p, 0, &v, 0, 1, &mbo);  // p = beta (p - omega v)
          s.combine(p, 0, one, &p, 0, &r, 0, 1, &one);   //     + r
          s.precond(p, ph);
          s.apply_a(ph, v);
          const V rv = timed_dot<V>(s, rhat, v);
          if (rec.breaks_down(rv)) break;
          alpha = rho_new / rv;
          const V malpha = -alpha;
          s.combine(sv, 0, one, &r, 0, &v, 0, 1, &malpha);  // s = r - alpha v
          ++res.iterations;
          const double sn = norm<Space, V>(s, sv);
          if (!o.fixed_iterations && sn <= o.tol * rec.bnorm) {
            s.combine(x, 0, one, &x, 0, &ph, 0, 1, &alpha);
            rn = sn;
            rec.record(rn);
            continue;  // converged at the loop's top
          }
          s.precond(sv, sh);
          s.apply_a(sh, tv);
          const V ts = timed_dot<V>(s, tv, sv), tt = timed_dot<V>(s, tv, tv);
          if (rec.not_finite(ts) || rec.breaks_down(tt)) break;
          omega = ts / tt;
          s.combine(x, 0, one, &x, 0, &ph, 0, 1, &alpha);
          s.combine(x, 0, one, &x, 0, &sh, 0, 1, &omega);
          const V momega = -omega;
          s.combine(r, 0, one, &sv, 0, &tv, 0, 1, &momega);  // r = s - omega t
          rho = rho_new;
          rn = norm<Space, V>(s, r);
          if (rec.record(rn) || rec.breaks_down(omega) || rec.stagnates(rn)) break;
        }
      });
}

}  // namespace tessera::krylov::detail
