// `--kernel auto`: the SpMV kernel (and its format options) for a matrix,
// from its row-length statistics and block structure, with the reason in
// words. The rules, and the measurements they rest on: docs/sparse.md
// ("Choosing a kernel").
#pragma once
#include <string>

#include "sparse/device_matrix.hpp"

namespace tessera::sparse {

struct KernelChoice {
  Kernel kernel = Kernel::csr_vector;
  DeviceOptions options;  ///< the block size where the choice is a block kernel
  std::string reason;     ///< one sentence: the statistics that decided
};

/// On a GPU: dense square blocks (b = 2..6, at least 90% of their slots
/// nonzero, 2 or more a block row): bell-bi for b >= 3, bcsr-warp for 2 x 2,
/// with b x b blocks. Else csr-merge where most rows are empty; else sell
/// for rows of even length (max <= 2 mean + 16); else csr-merge, which
/// splits the work by nonzeros.
/// On the CPU: csr-scalar. O(nnz) passes, no copies. (The measurements
/// behind the rule: docs/sparse.md, "Choosing a kernel".)
template <Scalar T>
KernelChoice choose_kernel(const Csr<T>& a, Backend backend, const DeviceOptions& base = {});
/// The kernel a user named, with the options given; or for "auto" the
/// choice for this matrix on this backend (reason set).
template <Scalar T>
KernelChoice kernel_for(const std::string& name, const Csr<T>& a, Backend backend,
                        const DeviceOptions& given = {});

/// A matrix given as BCSR (TRACE's block systems): bell-bi on its blocks.
template <Scalar T>
KernelChoice choose_kernel(const Bcsr<T>& a, Backend backend, const DeviceOptions& base = {});

}  // namespace tessera::sparse
