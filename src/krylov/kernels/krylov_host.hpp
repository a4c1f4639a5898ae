// The CPU loops of the Krylov kernels on plain host pointers: the CPU
// backend's launchers and the thesis mode's host-side operations both run
// these, so the two modes compute the same numbers in the same order.
// Arguments as in krylov_kernels.hpp (pointers already offset; w2 null: no
// second right-hand side).
#pragma once
#include <cstddef>

#include "krylov/kernels/krylov_kernels.hpp"

namespace tessera::krylov::host {

// S: the storage of the basis operands v and w (R, or launch::narrow_t<R>).
template <class R, class S = R>
void dots(int nc, std::size_t n, int k, const S* v, std::size_t ld, const S* w, const R* w2,
          R* partials);
template <class R>
void sum_chunks(std::size_t chunks, int count, const R* partials, R* out);
/// y = a x + sum_{i < k} c_i v_i (coef = [a, c_0, ...]; x null: no a
/// term), and where y2 is given y2 = a2 x2 + sum_{i < k2} c2_i v_i in the
/// same pass (krylov_kernels.hpp's Combine)
template <class R>
void combine(int nc, std::size_t n, int k, const R* coef, const R* x, const R* v, std::size_t ld,
             R* y, int k2 = 0, const R* coef2 = nullptr, const R* x2 = nullptr, R* y2 = nullptr);
/// Groups of `group` consecutive rows (groups[t] * group .. , rows < n), each
/// group's rows in order (backward: descending), groups in parallel.
template <class R>
void tri_group(int nc, std::size_t count, const int* groups, int group, std::size_t n,
               bool backward, const int* ptr, const int* col, const R* val, const R* inv_d,
               const R* b, R* x);

}  // namespace tessera::krylov::host
