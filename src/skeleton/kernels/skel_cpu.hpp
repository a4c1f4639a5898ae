// CPU launchers of the skeleton operations (header-only: the user's functor
// is compiled into the caller): each box through the one launcher's
// launch::cpu_for_cells, as the GPUs run it (BoxRuns); the fold as the plain
// loop of its canonical order (the oracle of skel_fold.h).
#pragma once
#include "core/launch/launch_cpu.hpp"
#include "skeleton/kernels/skel_ops.hpp"

namespace tessera::skeleton::kernels {

template <class Op>
void cpu_for_boxes(const BoxList& boxes, const Op& op) {
  for (int i = 0; i < boxes.count; ++i) {
    if (boxes.box[i].empty()) continue;
    const BoxRuns<Op> runs{op, boxes.box[i]};
    launch::cpu_for_cells(runs.cells(), runs);
  }
}

/// The canonical order of one chunk of n <= TS_REDUCE_CHUNK elements at
/// e[0], e[1], ...: "thread" t < min(n, 256) folds e[t], e[t+256], ... in
/// sequence; then a halving tree over the valid prefix of partial values.
template <class F, class T>
T reduce_chunk(const F& f, const T* e, index_t n) {
  T s[TS_REDUCE_THREADS];
  const int m0 = n < TS_REDUCE_THREADS ? static_cast<int>(n) : TS_REDUCE_THREADS;
  for (int t = 0; t < m0; ++t) {
    T acc = e[t];
    for (index_t j = t + TS_REDUCE_THREADS; j < n; j += TS_REDUCE_THREADS) acc = f(acc, e[j]);
    s[t] = acc;
  }
  int m = m0;
  for (int h = TS_REDUCE_THREADS / 2; h >= 1; h /= 2) {
    for (int t = 0; t < h; ++t)
      if (t + h < m) s[t] = f(s[t], s[t + h]);
    m = m < h ? m : h;
  }
  return s[0];
}

template <class F, class T>
void cpu_reduce_rows(const RowsReduce<F, T>& op, index_t rows) {
#pragma omp parallel for schedule(static) if (rows * op.len > 16384)
  for (index_t r = 0; r < rows; ++r)
    for (index_t k = 0; k < op.chunks; ++k) {
      const index_t begin = k * TS_REDUCE_CHUNK;
      const index_t n = op.len - begin < TS_REDUCE_CHUNK ? op.len - begin : TS_REDUCE_CHUNK;
      op.out[r * op.chunks + k] = reduce_chunk(op.f, op.row(r) + begin, n);
    }
}

}  // namespace tessera::skeleton::kernels
