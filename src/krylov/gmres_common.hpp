// Pieces GMRES's cycles share (gmres.hpp, sstep.hpp): the wide type the
// host keeps H in, conversions, norms, the residual and the common start.
#pragma once
#include <cmath>
#include <complex>
#include <vector>

#include "core/error.hpp"
#include "krylov/small_dense.hpp"
#include "krylov/space.hpp"

namespace tessera::krylov::detail {

template <class V>
struct wide {
  using type = double;
};
template <class R>
struct wide<std::complex<R>> {
  using type = std::complex<double>;
};
template <class V>
using wide_t = typename wide<V>::type;

template <class V, class W>
V narrow(W w) {
  if constexpr (sparse::is_complex_v<V>)
    return V(static_cast<typename V::value_type>(std::real(w)),
             static_cast<typename V::value_type>(std::imag(w)));
  else
    return static_cast<V>(w);
}

template <class Space, class V, class Vec>
double norm(Space& s, const Vec& v, std::size_t slot = 0) {
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
  if (!std::isfinite(bnorm))
    throw Error(
        "krylov: the right-hand side b contains NaN or infinite values, or its norm overflows "
        "(entries near 1e154 or above in double, 1e19 in single): scale the system");
  if (bnorm == 0) {
    s.combine(x, 0, V(0), nullptr, 0, nullptr, 0, 0, nullptr);
    s.to_device(x, x_dev);
    res.status = Status::converged;
    res.history = {0.0};
    return false;
  }
  rn = residual<Space, V>(s, b, x, w, r);
  if (!std::isfinite(rn))
    throw Error("krylov: the initial residual b - A x0 is not finite (NaN or Inf in A or x0)");
  res.history.push_back(rn / bnorm);
  return true;
}

// The value q of packed coefficient lists (nc reals each).
template <class V>
V packed_value(const std::vector<sparse::real_t<V>>& p, std::size_t q) {
  if constexpr (sparse::is_complex_v<V>)
    return V(p[2 * q], p[2 * q + 1]);
  else
    return p[q];
}

}  // namespace tessera::krylov::detail
