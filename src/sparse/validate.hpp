// Invariant checks for every format (what formats.hpp promises): array
// lengths, index ranges, sorted columns, row maps, padding that is readable.
// Each throws Error naming the format and the first broken invariant. Tests run
// them after every conversion; GPU code may run them on matrices it is handed.
#pragma once
#include "sparse/formats.hpp"

namespace tessera::sparse {

template <Scalar T>
void validate(const Coo<T>& a);
template <Scalar T>
void validate(const Csr<T>& a);
template <Scalar T>
void validate(const Dia<T>& a);
template <Scalar T>
void validate(const Bcsr<T>& a);
template <Scalar T>
void validate(const GappedBcsr<T>& a);
template <Scalar T>
void validate(const Ell<T>& a);
template <Scalar T>
void validate(const Bell<T>& a);
template <Scalar T>
void validate(const Sell<T>& a);
template <Scalar T>
void validate(const Hyb<T>& a);

}  // namespace tessera::sparse
