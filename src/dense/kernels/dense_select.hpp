// Maps the run-time operation enums onto the compile-time per-point functors,
// for the launchers written in C++ (CPU) and CUDA.
#pragma once
#include "dense/kernels/dense_kernels.hpp"
#include "dense/kernels/dense_point.hpp"

namespace tessera::dense::kernels {

template <class F>
decltype(auto) select_elementwise(Elementwise op, F&& f) {
  using namespace point;
  switch (op) {
    case Elementwise::fill: return f(ElementwiseFn<0>{});
    case Elementwise::copy: return f(ElementwiseFn<1>{});
    case Elementwise::scale: return f(ElementwiseFn<2>{});
    case Elementwise::axpy: return f(ElementwiseFn<3>{});
    case Elementwise::add: return f(ElementwiseFn<4>{});
    case Elementwise::triad: break;
  }
  return f(ElementwiseFn<5>{});
}

template <class F>
decltype(auto) select_term(Term t, F&& f) {
  switch (t) {
    case Term::dot: return f(point::TermFn<0>{});
    case Term::sumsq: return f(point::TermFn<1>{});
    case Term::value: break;
  }
  return f(point::TermFn<2>{});
}

template <class F>
decltype(auto) select_combine(Combine c, F&& f) {
  switch (c) {
    case Combine::sum: return f(point::CombineFn<0>{});
    case Combine::min: return f(point::CombineFn<1>{});
    case Combine::max: break;
  }
  return f(point::CombineFn<2>{});
}

/// Whether the per-point function of `op` reads x / z (launchers pass a null
/// pointer otherwise, and the byte models count only what is read).
constexpr bool reads_x(Elementwise op) { return op != Elementwise::fill; }
constexpr bool reads_z(Elementwise op) {
  return op == Elementwise::axpy || op == Elementwise::add || op == Elementwise::triad;
}

}  // namespace tessera::dense::kernels
