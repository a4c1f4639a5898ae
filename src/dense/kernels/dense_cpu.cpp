// CPU launchers of the dense kernels. Element-wise: the generated OpenMP loop.
// Reductions: the canonical order of portable.h followed exactly, chunk by
// chunk, so that the CPU matches the GPUs bitwise (the oracle of the group
// kernels), and a device order of one contiguous block per group.
#include <array>
#include <type_traits>

#include "core/launch/launch_cpu.hpp"
#include "dense/kernels/dense_kernels.hpp"

namespace tessera::dense::kernels {

using namespace point;
TS_DENSE_KERNELS(TS_CPU_KERNEL)

namespace {

// Calls f with the term and combine as compile-time constants, so that the
// per-element switch of ts_term / ts_combine folds away.
template <class F>
void with_constants(int term, int combine, F&& f) {
  auto c = [&](auto t) {
    switch (combine) {
      case TS_COMBINE_SUM:
        return f(t, std::integral_constant<int, TS_COMBINE_SUM>{});
      case TS_COMBINE_MIN:
        return f(t, std::integral_constant<int, TS_COMBINE_MIN>{});
      default:
        return f(t, std::integral_constant<int, TS_COMBINE_MAX>{});
    }
  };
  switch (term) {
    case TS_TERM_DOT:
      return c(std::integral_constant<int, TS_TERM_DOT>{});
    case TS_TERM_SUMSQ:
      return c(std::integral_constant<int, TS_TERM_SUMSQ>{});
    default:
      return c(std::integral_constant<int, TS_TERM_VALUE>{});
  }
}

// One chunk in canonical order: THREADS strided accumulators, then the tree.
template <class T, int Term, int Comb>
T fold_chunk(std::size_t begin, std::size_t n, const T* x, const T* y) {
  std::array<T, TS_REDUCE_THREADS> s;
  for (std::size_t t = 0; t < TS_REDUCE_THREADS; ++t) {
    T acc = ts_combine_identity(T(0), Comb);
    for (std::size_t k = 0; k < TS_REDUCE_PER_THREAD; ++k) {
      std::size_t i = begin + k * TS_REDUCE_THREADS + t;
      if (i < n) acc = ts_combine(Comb, acc, ts_term(Term, x[i], y[i]));
    }
    s[t] = acc;
  }
  for (std::size_t h = TS_REDUCE_THREADS / 2; h > 0; h >>= 1)
    for (std::size_t t = 0; t < h; ++t) s[t] = ts_combine(Comb, s[t], s[t + h]);
  return s[0];
}

// A CPU reduction: body(x, y, out, term, combine) with the arrays and the
// fold's term and combine as compile-time constants.
template <class T, class Body>
void cpu_fold(const ts_fold_params<T>& p, const launch::In<T>& x, const launch::In<T>& y,
              const launch::Out<T>& out, Body body) {
  const T* xp = launch::device_arg(x);
  const T* yp = launch::device_arg(y);
  T* o = launch::device_arg(out);
  with_constants(p.term, p.combine, [&](auto t, auto c) { body(xp, yp, o, t, c); });
}

}  // namespace

template <class ts_value>
TS_LAUNCHER_SIGNATURE(CpuTag, group, reduce_chunks) {
  const auto groups = static_cast<std::ptrdiff_t>(ts_shape.count);
  cpu_fold(p, x, y, out, [&](const ts_value* xp, const ts_value* yp, ts_value* o, auto t, auto c) {
#pragma omp parallel for schedule(static)
    for (std::ptrdiff_t g = 0; g < groups; ++g)
      o[g] = fold_chunk<ts_value, t(), c()>(std::size_t(g) * TS_REDUCE_CHUNK, p.n, xp, yp);
  });
}
TS_INSTANTIATE_LAUNCHER(CpuTag, group, reduce_chunks)

// Device order on the CPU: group g folds the g-th contiguous block.
template <class ts_value>
TS_LAUNCHER_SIGNATURE(CpuTag, group, reduce_device) {
  const auto groups = static_cast<std::ptrdiff_t>(ts_shape.count);
  const std::size_t n = p.n, per = (n + ts_shape.count - 1) / ts_shape.count;
  cpu_fold(p, x, y, out, [&](const ts_value* xp, const ts_value* yp, ts_value* o, auto t, auto c) {
#pragma omp parallel for schedule(static)
    for (std::ptrdiff_t g = 0; g < groups; ++g) {
      const std::size_t b = std::min<std::size_t>(n, g * per),
                        e = std::min<std::size_t>(n, b + per);
      ts_value acc = ts_combine_identity(ts_value(0), c());
      for (std::size_t i = b; i < e; ++i) acc = ts_combine(c(), acc, ts_term(t(), xp[i], yp[i]));
      o[g] = acc;
    }
  });
}
TS_INSTANTIATE_LAUNCHER(CpuTag, group, reduce_device)

// Vector add: a CPU has no programmer-managed local memory (its caches stage
// every access by themselves), so the three stagings run one loop.
#define TS_VECADD_CPU(kind, K)                                                \
  template <class ts_value>                                                   \
  TS_LAUNCHER_SIGNATURE(CpuTag, kind, K) {                                    \
    launch::cpu_for_each(                                                     \
        n,                                                                    \
        [](ts_size i, const ts_value* ap, const ts_value* bp, ts_value* cp) { \
          cp[i] = ts_ew_add(ts_value(0), ap[i], bp[i]);                       \
        },                                                                    \
        launch::device_arg(a), launch::device_arg(b), launch::device_arg(c)); \
  }                                                                           \
  TS_INSTANTIATE_LAUNCHER(CpuTag, kind, K)
TS_VECADD_CPU(group, vecadd_global)
TS_VECADD_CPU(group, vecadd_local_static)
TS_VECADD_CPU(group_dynamic, vecadd_local_dynamic)
#undef TS_VECADD_CPU

}  // namespace tessera::dense::kernels
