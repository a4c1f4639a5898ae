// C = A B on a device (the kernels of kernels/product_point.h): the host's
// Gustavson product (product.hpp) with the same bits on every backend.
#pragma once
#include <cstddef>
#include <memory>

#include "core/device.hpp"
#include "sparse/formats.hpp"

namespace tessera::sparse {

/// C = A B computed on `device` from host matrices, returned on the host;
/// bit for bit sparse::multiply(a, b) (the same order of every sum) for
/// finite values (a complex product that overflows to inf or NaN may differ:
/// the host's std::complex recovers infinities, the kernels do not). The
/// rows go in batches whose scratch (a slot and up to four hash-table
/// entries per product) fits `batch_products` products; 0: an eighth of
/// the device's memory, at most 1 GiB of scratch. Errors: the shapes
/// (as multiply's), a C past the 32-bit index range, OutOfMemory naming the
/// rows of the batch that did not fit and the bytes it needed.
template <Scalar T>
Csr<T> multiply(const std::shared_ptr<Device>& device, const Csr<T>& a, const Csr<T>& b,
                std::size_t batch_products = 0);

}  // namespace tessera::sparse
