// Reference SpMV y = A*x for every format: sequential, a fixed summation order
// (each row's stored entries in storage order, accumulated from 0 with madd()),
// no tricks. They are the test oracle for the GPU kernels, so they are written
// for obviousness, and they multiply padding slots like a kernel would.
//
// Every overload checks x.size() == cols and y.size() == rows (Error
// otherwise) and overwrites y; rows that no stored row writes become 0 (TRACE's
// ghost rows). Value pairs: T == X, or a real matrix with a complex vector of
// the same precision; y has type product_t<T, X>.
#pragma once
#include <span>
#include <vector>

#include "sparse/formats.hpp"

namespace tessera::sparse {

template <Scalar T, Scalar X>
void spmv(const Coo<T>& a, std::span<const X> x, std::span<product_t<T, X>> y);
template <Scalar T, Scalar X>
void spmv(const Csr<T>& a, std::span<const X> x, std::span<product_t<T, X>> y);
template <Scalar T, Scalar X>
void spmv(const Dia<T>& a, std::span<const X> x, std::span<product_t<T, X>> y);
template <Scalar T, Scalar X>
void spmv(const Bcsr<T>& a, std::span<const X> x, std::span<product_t<T, X>> y);
/// TRACE's CPU loop: placeholder rows are skipped, a row's end is found with a
/// while loop over the following placeholders.
template <Scalar T, Scalar X>
void spmv(const GappedBcsr<T>& a, std::span<const X> x, std::span<product_t<T, X>> y);
template <Scalar T, Scalar X>
void spmv(const Ell<T>& a, std::span<const X> x, std::span<product_t<T, X>> y);
template <Scalar T, Scalar X>
void spmv(const Bell<T>& a, std::span<const X> x, std::span<product_t<T, X>> y);
template <Scalar T, Scalar X>
void spmv(const Sell<T>& a, std::span<const X> x, std::span<product_t<T, X>> y);
/// ELL part first, then the COO part added row by row.
template <Scalar T, Scalar X>
void spmv(const Hyb<T>& a, std::span<const X> x, std::span<product_t<T, X>> y);

/// The host formats' SpMV parallelised over rows with OpenMP; each is bitwise
/// equal to its spmv() (one thread sums a row, in the same order). COO (and
/// HYB's COO part) first buckets the entries by row, keeping their order.
/// The device formats' OpenMP kernels are the CPU backend's (kernels/spmv_cpu).
template <Scalar T, Scalar X>
void spmv_omp(const Csr<T>& a, std::span<const X> x, std::span<product_t<T, X>> y);
template <Scalar T, Scalar X>
void spmv_omp(const Coo<T>& a, std::span<const X> x, std::span<product_t<T, X>> y);
template <Scalar T, Scalar X>
void spmv_omp(const Dia<T>& a, std::span<const X> x, std::span<product_t<T, X>> y);
template <Scalar T, Scalar X>
void spmv_omp(const Ell<T>& a, std::span<const X> x, std::span<product_t<T, X>> y);
template <Scalar T, Scalar X>
void spmv_omp(const Hyb<T>& a, std::span<const X> x, std::span<product_t<T, X>> y);

/// Rows of any format (Hyb keeps them in its ELL part).
template <class A>
size64 rows_of(const A& a) {
  return a.rows;
}
template <Scalar T>
size64 rows_of(const Hyb<T>& a) {
  return a.rows();
}

/// Convenience: y = A*x into a new vector, for any format above.
template <class A, Scalar X>
std::vector<product_t<typename A::value_type, X>> multiply(const A& a, const std::vector<X>& x) {
  std::vector<product_t<typename A::value_type, X>> y(static_cast<std::size_t>(rows_of(a)));
  spmv<typename A::value_type, X>(a, std::span<const X>(x), std::span(y));
  return y;
}

}  // namespace tessera::sparse
