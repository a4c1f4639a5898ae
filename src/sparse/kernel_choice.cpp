#include "sparse/kernel_choice.hpp"

#include <algorithm>
#include <vector>

#include <fmt/format.h>

namespace tessera::sparse {

namespace {

struct BlockCount {
  size64 blocks = 0, block_rows = 0;  ///< distinct blocks; block rows holding any
};

/// The b x b blocks holding a's entries (one pass; a marker per block
/// column remembers the last block row that used it).
template <Scalar T>
BlockCount blocks_of(const Csr<T>& a, int b) {
  std::vector<size64> seen(static_cast<std::size_t>(ceil_div(a.cols, size64{b})), -1);
  BlockCount n;
  size64 last_row = -1;
  for (size64 i = 0; i < a.rows; ++i)
    for (index_t p = a.row_ptr[i]; p < a.row_ptr[i + 1]; ++p) {
      size64& s = seen[static_cast<std::size_t>(a.col[p] / b)];
      if (s != i / b) {
        s = i / b;
        ++n.blocks;
      }
      if (last_row != i / b) {
        last_row = i / b;
        ++n.block_rows;
      }
    }
  return n;
}

}  // namespace

template <Scalar T>
KernelChoice choose_kernel(const Csr<T>& a, Backend backend, const DeviceOptions& base) {
  KernelChoice c;
  c.options = base;
  const size64 nnz = a.nnz();
  if (backend == Backend::cpu) {
    c.kernel = Kernel::csr_scalar;
    c.reason =
        "the CPU: csr-scalar (its threads take rows; the GPU kernels' tilings only add work)";
    return c;
  }
  if (a.rows == 0 || nnz == 0) {
    c.kernel = Kernel::csr_vector;
    c.reason = "no entries: csr-vector (any kernel only zeroes y)";
    return c;
  }
  for (int b = 6; b >= 2; --b) {
    const BlockCount n = blocks_of(a, b);
    const double fill = static_cast<double>(nnz) / static_cast<double>(n.blocks * b * b);
    // over the block rows that hold any (TRACE's ghost rows hold none)
    const double per_row = static_cast<double>(n.blocks) / static_cast<double>(n.block_rows);
    if (fill >= 0.9 && per_row >= 2) {
      // one index per block (fem3's 3x3 at 10 M nonzeros and TRACE's 5x5:
      // bell-bi fastest); 2x2: a warp reads a block row's blocks contiguously
      // (docs/sparse.md)
      c.kernel = b <= 2 ? Kernel::bcsr_warp : Kernel::bell_bi;
      c.options.block_r = c.options.block_c = b;
      c.reason = fmt::format("{0}x{0} blocks {1:.0f}% full, {2:.1f} a block row: {3}", b,
                             100 * fill, per_row, to_string(c.kernel));
      return c;
    }
  }
  size64 longest = 0, empty = 0;
  for (size64 i = 0; i < a.rows; ++i) {
    const size64 len = a.row_ptr[i + 1] - a.row_ptr[i];
    longest = std::max(longest, len);
    empty += len == 0;
  }
  const double mean = static_cast<double>(nnz) / static_cast<double>(a.rows);
  const bool mostly_empty = 2 * empty > a.rows;
  const std::string stats =
      fmt::format("rows of up to {} entries, mean {:.1f}, {:.0f}% empty", longest, mean,
                  100.0 * static_cast<double>(empty) / static_cast<double>(a.rows));
  const bool even = static_cast<double>(longest) <= 2 * mean + 16;
  if (mostly_empty) {
    c.kernel = Kernel::csr_merge;
    c.reason = stats + ": mostly empty rows, csr-merge (its tiles skip them by the nonzeros)";
  } else if (even) {
    c.kernel = Kernel::sell;
    c.reason = stats + ": even rows, sell (little padding, coalesced slices)";
  } else {
    c.kernel = Kernel::csr_merge;
    c.reason = stats + ": uneven rows, csr-merge (the work split by nonzeros)";
  }
  return c;
}

template <Scalar T>
KernelChoice kernel_for(const std::string& name, const Csr<T>& a, Backend backend,
                        const DeviceOptions& given) {
  if (name == "auto") return choose_kernel(a, backend, given);
  KernelChoice c;
  c.kernel = parse_kernel(name);
  c.options = given;
  return c;
}

template <Scalar T>
KernelChoice choose_kernel(const Bcsr<T>& a, Backend, const DeviceOptions& base) {
  KernelChoice c;
  c.options = base;
  c.kernel = block_solver_kernel();
  c.reason = fmt::format("a {}x{} block matrix: {}", a.block.r, a.block.c, to_string(c.kernel));
  return c;
}

#define TS_INSTANTIATE(T)                                                                \
  template KernelChoice choose_kernel<T>(const Csr<T>&, Backend, const DeviceOptions&);  \
  template KernelChoice choose_kernel<T>(const Bcsr<T>&, Backend, const DeviceOptions&); \
  template KernelChoice kernel_for<T>(const std::string&, const Csr<T>&, Backend,        \
                                      const DeviceOptions&);
TESSERA_SPARSE_FOR_EACH_SCALAR(TS_INSTANTIATE)
#undef TS_INSTANTIATE

}  // namespace tessera::sparse
