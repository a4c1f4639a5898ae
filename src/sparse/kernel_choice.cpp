#include "sparse/kernel_choice.hpp"

#include <algorithm>
#include <vector>

#include <fmt/format.h>

namespace tessera::sparse {

namespace {

struct BlockCount {
  size64 blocks = 0, block_rows = 0;  ///< distinct blocks; block rows holding any
};

/// The b x b blocks holding a's entries: per block row, its entries' block
/// columns sorted and counted once; the block rows in parallel (a 16.6 M
/// row Laplacian and its coarse levels pass through here five times per
/// matrix in AMG's upload), no array the size of the columns.
template <Scalar T>
BlockCount blocks_of(const Csr<T>& a, int b) {
  const auto bs = static_cast<size64>(b);
  const auto block_rows = static_cast<std::ptrdiff_t>(ceil_div(a.rows, bs));
  size64 blocks = 0, used = 0;
#pragma omp parallel reduction(+ : blocks, used)
  {
    std::vector<index_t> cols;  // one block row's block columns, reused
#pragma omp for schedule(dynamic, 512)
    for (std::ptrdiff_t br = 0; br < block_rows; ++br) {
      const size64 first = static_cast<size64>(br) * bs, last = std::min(a.rows, first + bs);
      cols.clear();
      for (size64 i = first; i < last; ++i)
        for (index_t p = a.row_ptr[i]; p < a.row_ptr[i + 1]; ++p) cols.push_back(a.col[p] / b);
      if (cols.empty()) continue;
      ++used;
      std::sort(cols.begin(), cols.end());
      blocks += static_cast<size64>(std::unique(cols.begin(), cols.end()) - cols.begin());
    }
  }
  return {blocks, used};
}

/// At least as many b x b blocks as blocks_of counts, from the row lengths
/// alone: a row of len entries spans ceil(len / b) block columns or more,
/// so a block row spans at least its longest row's. O(rows).
template <Scalar T>
size64 fewest_blocks(const Csr<T>& a, int b) {
  const auto bs = static_cast<size64>(b);
  const auto block_rows = static_cast<std::ptrdiff_t>(ceil_div(a.rows, bs));
  size64 fewest = 0;
#pragma omp parallel for schedule(static) reduction(+ : fewest)
  for (std::ptrdiff_t br = 0; br < block_rows; ++br) {
    size64 most = 0;
    const size64 first = static_cast<size64>(br) * bs, last = std::min(a.rows, first + bs);
    for (size64 i = first; i < last; ++i)
      most = std::max(most, ceil_div(static_cast<size64>(a.row_ptr[i + 1] - a.row_ptr[i]), bs));
    fewest += most;
  }
  return fewest;
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
    // the fill's upper bound first: most matrices (a 7-point stencil's rows
    // of 7 reach 7/8 at best) skip the exact count, which sorts every
    // block row (the same decisions either way)
    if (static_cast<double>(nnz) < 0.9 * static_cast<double>(fewest_blocks(a, b) * b * b)) continue;
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
