// CG and BiCGStab in the fused mode (Mode::fused): the algorithms of cg.hpp
// with their vector operations joined into DeviceVectorOps::update passes
// (each vector read once per pass, the dot products of the new vector formed
// while it is written) and point Jacobi applied inside those passes. Every
// value keeps the bits of the separate kernels in the same order, so the
// iterates equal the resident mode's exactly (tested); only the passes over
// memory change (docs/krylov.md, "Fused CG and BiCGStab").
#pragma once
#include <optional>

#include "krylov/cg.hpp"

namespace tessera::krylov::detail {

// Vector passes per iteration (n values each, SpMV excluded), no
// preconditioner / point Jacobi; resident (cg.hpp) in brackets:
//   q = A p; <p, q>                                  2        [2]
//   r -= alpha q, x += alpha p, (z = D r), <r,r>(, <r,z>)  6 (8)  [3+3+1+2 (3)+2]
//   p = z + beta p                                   3        [3]
// 11 (13) against 16 (17).
template <class Space, class V>
Result cg_fused(Space& s, const Buffer<V>& b_dev, Buffer<V>& x_dev, const Options& o, TimeSplit&) {
  using Vec = typename Space::Vec;
  using Lin = typename Space::Lin;
  Vec r = s.make(), q = s.make(), p = s.make();
  const Buffer<V>* d = s.point_diagonal();
  const bool general = s.preconditioned() && !d;  // applied as an operator between the passes
  std::optional<Vec> zbuf;                        // without a preconditioner z is r
  if (s.preconditioned()) zbuf.emplace(s.make());
  Vec& zr = zbuf ? *zbuf : r;
  const V one(1);
  return short_recurrence<Space, V>(
      s, b_dev, x_dev, o, q, r, [&](Vec& x, Result& res, double& rn, Recurrence& rec) {
        if (s.preconditioned()) s.precond(r, zr);
        V rz = timed_dot<V>(s, r, zr);
        s.combine(p, 0, one, &zr, 0, nullptr, 0, 0, nullptr);
        while (!rec.done(rn)) {
          s.apply_a(p, q);
          const V pq = timed_dot<V>(s, p, q);
          if (rec.breaks_down(pq)) break;
          const V alpha = rz / pq;
          V prod[2]{};  // <r, r>, <r, z>
          s.timed(&TimeSplit::ortho, [&] {
            s.update(r, Lin{&r, one, &q, -alpha}, &x, Lin{&x, one, &p, alpha}, d, d ? &zr : nullptr,
                     {true, d != nullptr, nullptr}, prod);
          });
          ++res.iterations;
          rn = std::sqrt(static_cast<double>(std::real(prod[0])));
          if (rec.record(rn) || rec.stagnates(rn)) break;
          V rz_new = d ? prod[1] : prod[0];
          if (general) {
            s.precond(r, zr);
            rz_new = timed_dot<V>(s, r, zr);
          }
          next_direction(s, p, zr, rz, rz_new);
        }
      });
}

// Vector passes per iteration without a preconditioner (resident in brackets,
// M = I there copies p and s):
//   p = beta p - beta omega v + r                    4        [3+3+2]
//   v = A p^; <rhat, v>                              2        [2]
//   s = r - alpha v, <s, s>                          3        [3+1]
//   t = A s^; <t, s>, <t, t> in one pass             2        [2+2+2]
//   x += alpha p^ + omega s^, r = s - omega t,
//     <r, r>, <rhat, r>                              8        [3+3+3+1+2]
// 19 against 32; point Jacobi adds a read and a write to the first and third
// (p^ = D p, s^ = D s) instead of two separate passes of three.
template <class Space, class V>
Result bicgstab_fused(Space& s, const Buffer<V>& b_dev, Buffer<V>& x_dev, const Options& o,
                      TimeSplit&) {
  using Vec = typename Space::Vec;
  using Lin = typename Space::Lin;
  const Buffer<V>* d = s.point_diagonal();
  const bool general = s.preconditioned() && !d;
  Vec r = s.make(), rhat = s.make(), p = s.make(), v = s.make(), sv = s.make(), tv = s.make();
  // p^ = M p and s^ = M s: separate vectors with a preconditioner, else p and s
  std::optional<Vec> phb, shb;
  if (s.preconditioned()) phb.emplace(s.make()), shb.emplace(s.make());
  Vec& php = phb ? *phb : p;
  Vec& shs = shb ? *shb : sv;
  const V one(1);
  return short_recurrence<Space, V>(
      s, b_dev, x_dev, o, v, r, [&](Vec& x, Result& res, double& rn, Recurrence& rec) {
        bicgstab_start(s, r, rhat, p, v);
        V rho(1), alpha(1), omega(1), rho_new{};
        auto timed_update = [&](Vec& y, const Lin& lin, Vec* y2, const Lin& lin2, Vec* z,
                                const typename Space::Products& want, V* out) {
          s.timed(&TimeSplit::ortho,
                  [&] { s.update(y, lin, y2, lin2, z ? d : nullptr, z, want, out); });
        };
        rho_new = timed_dot<V>(s, rhat, r);
        while (!rec.done(rn)) {
          if (rec.breaks_down(rho_new)) break;
          const V beta = (rho_new / rho) * (alpha / omega);
          // p = beta p - beta omega v + r (p^ = D p with point Jacobi)
          timed_update(p, Lin{&p, beta, &v, -beta * omega, &r, one}, nullptr, {},
                       d ? &php : nullptr, {}, nullptr);
          if (general) s.precond(p, php);
          s.apply_a(php, v);
          const V rv = timed_dot<V>(s, rhat, v);
          if (rec.breaks_down(rv)) break;
          alpha = rho_new / rv;
          V ss{};
          timed_update(sv, Lin{&r, one, &v, -alpha}, nullptr, {}, d ? &shs : nullptr,
                       {true, false, nullptr}, &ss);
          ++res.iterations;
          const double sn = std::sqrt(static_cast<double>(std::real(ss)));
          if (!o.fixed_iterations && sn <= o.tol * rec.bnorm) {
            s.combine(x, 0, one, &x, 0, &php, 0, 1, &alpha);
            rn = sn;
            rec.record(rn);
            continue;  // converged at the loop's top
          }
          if (general) s.precond(sv, shs);
          s.apply_a(shs, tv);
          V ts{}, tt{};
          s.timed(&TimeSplit::ortho, [&] { s.dots2(tv, 0, 1, sv, 0, &tv, 0, &ts, &tt); });
          if (rec.not_finite(ts) || rec.breaks_down(tt)) break;
          omega = ts / tt;
          // r = s - omega t, x += alpha p^ + omega s^; <r, r> and <rhat, r> (the next rho)
          V prod[2]{};
          timed_update(r, Lin{&sv, one, &tv, -omega}, &x, Lin{&x, one, &php, alpha, &shs, omega},
                       nullptr, {true, false, &rhat}, prod);
          rho = rho_new;
          rho_new = prod[1];
          rn = std::sqrt(static_cast<double>(std::real(prod[0])));
          if (rec.record(rn) || rec.breaks_down(omega) || rec.stagnates(rn)) break;
        }
      });
}

}  // namespace tessera::krylov::detail
