// Gauss-Jordan inversion with partial pivoting of a small dense matrix: the
// diagonal blocks of (block) Jacobi and of AMG's smoothers, and AMG's
// coarsest level (up to 4096 rows). Written here because the sizes are
// small and LAPACK is not a dependency of the library.
#pragma once
#include <cmath>
#include <cstddef>
#include <utility>
#include <vector>

namespace tessera::krylov {

/// Replaces m (k x k, row-major) by the identity and writes its inverse to
/// inv. Returns k, or the column whose pivot vanished (|pivot| <= 1e-14
/// scale, or not finite): m is singular for the working precision then, and
/// inv incomplete. W is a real or complex floating type.
template <class W>
std::size_t gauss_jordan(std::vector<W>& m, std::vector<W>& inv, std::size_t k, double scale) {
  inv.assign(k * k, W(0));
  for (std::size_t i = 0; i < k; ++i) inv[i * k + i] = W(1);
  for (std::size_t c = 0; c < k; ++c) {
    std::size_t piv = c;
    for (std::size_t r = c + 1; r < k; ++r)
      if (std::abs(m[r * k + c]) > std::abs(m[piv * k + c])) piv = r;
    if (!(std::abs(m[piv * k + c]) > 1e-14 * scale) || !std::isfinite(std::abs(m[piv * k + c])))
      return c;
    if (piv != c)
      for (std::size_t j = 0; j < k; ++j) {
        std::swap(m[piv * k + j], m[c * k + j]);
        std::swap(inv[piv * k + j], inv[c * k + j]);
      }
    const W d = m[c * k + c];
    for (std::size_t j = 0; j < k; ++j) {
      m[c * k + j] /= d;
      inv[c * k + j] /= d;
    }
    // the rows are independent at each pivot (a coarse level of 4096 rows:
    // O(k^3))
#pragma omp parallel for schedule(static) if (k > 64)
    for (std::size_t r = 0; r < k; ++r) {
      if (r == c) continue;
      const W f = m[r * k + c];
      if (f == W(0)) continue;
      for (std::size_t j = 0; j < k; ++j) {
        m[r * k + j] -= f * m[c * k + j];
        inv[r * k + j] -= f * inv[c * k + j];
      }
    }
  }
  return k;
}

}  // namespace tessera::krylov
