// Sparse products on the host: the conjugate transpose and C = A B (CSR,
// Gustavson's row-by-row product). AMG's setup forms its prolongators and
// Galerkin operators with them; they are its oracle for device products.
#pragma once
#include "sparse/formats.hpp"

namespace tessera::sparse {

/// A^H (A^T for real values): cols x rows, columns ascending in each row.
template <Scalar T>
Csr<T> conj_transpose(const Csr<T>& a);

/// C's shape for A B: A's rows, B's columns, no entries yet (row_ptr
/// empty). Error unless A's columns are B's rows.
template <Scalar T>
Csr<T> product_shape(const Csr<T>& a, const Csr<T>& b);

/// C = A B (A's columns = B's rows, Error otherwise). Row i of C sums
/// a_ik b_kj over A's entries of row i in column order, so every backend
/// that follows the same order gets the same bits. Entries that cancel to
/// zero are kept (the pattern is the symbolic product's). Error when C would
/// exceed the 32-bit index range.
template <Scalar T>
Csr<T> multiply(const Csr<T>& a, const Csr<T>& b);

}  // namespace tessera::sparse
