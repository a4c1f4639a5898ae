// The CPU loops of the Krylov kernels on plain host pointers: the CPU
// backend's launchers and the thesis mode's host-side operations both run
// these, so the two modes compute the same numbers in the same order.
// Arguments as in krylov_kernels.hpp (pointers already offset; w2, y2 null:
// no second right-hand side / output).
#pragma once
#include <cstddef>

#include "krylov/kernels/krylov_kernels.hpp"

namespace tessera::krylov::host {

// S: the storage of the basis operands (R, or point::compressed_t<R> for a
// compressed basis: v, w, x2, y2 and y unless y_real).
template <class R, class S = R>
void dots(int nc, std::size_t n, int k, const S* v, std::size_t ld, const S* w, const R* w2,
          R* partials);
template <class R>
void sum_chunks(std::size_t chunks, int count, const R* partials, R* out);
/// s-step GMRES's block operations (krylov_kernels.hpp's dots_block and combine_block)
template <class R>
void dots_block(int nc, std::size_t n, int k, const R* v, int t, const R* y, std::size_t ld,
                R* partials);
template <class R>
void combine_block(int nc, std::size_t n, int t, const R* coef, int k, const R* v, R* y,
                   std::size_t ld);
template <class R, class S = R>
void combine(int nc, std::size_t n, int k, const R* coef, const R* x, const S* v, std::size_t ld,
             S* y, int y_real = 0, int k2 = 0, const R* coef2 = nullptr, const S* x2 = nullptr,
             S* y2 = nullptr);
template <class R>
void update(int nc, std::size_t n, const R* coef, const kernels::UpdateOperands& op, R* partials);
template <class R>
void block_diag(int nc, std::size_t n, int bs, const R* d, const R* x, R* y);
/// Groups of `group` consecutive rows (groups[t] * group .. , rows < n), each
/// group's rows in order (backward: descending), groups in parallel.
template <class R>
void tri_group(int nc, std::size_t count, const int* groups, int group, std::size_t n,
               bool backward, const int* ptr, const int* col, const R* val, const R* inv_d,
               const R* b, R* x);

}  // namespace tessera::krylov::host
