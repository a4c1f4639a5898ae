// The x ranges a group of consecutive rows reads: the preprocessing of the
// thesis's kernel BELL V3, which stages x[min..max] of each work-group in local
// (shared) memory. For each group of `group_rows` consecutive stored scalar
// rows it gives the lowest and highest x index the group's blocks touch and how
// many values each work-item copies; the thesis computes the same triple from
// the compressed row pointer and the block row index (section 6.9.1).
#pragma once
#include <vector>

#include "sparse/formats.hpp"

namespace tessera::sparse {

struct XWindow {
  size64 lo_block = -1, hi_block = -1;  ///< lowest / highest block column read (-1: none)
  size64 first = 0, last = -1;          ///< x indices [first, last] to stage
  size64 per_item = 0;                  ///< values each of the group's work-items copies
  size64 size() const { return last - first + 1; }
};

/// One window per group of `group_rows` stored scalar rows (the last group may
/// be shorter), for a BCSR matrix with or without a block row map.
template <Scalar T>
std::vector<XWindow> x_windows(const Bcsr<T>& a, size64 group_rows);

struct XWindowSummary {
  size64 groups = 0;
  size64 max_window = 0;  ///< largest size(): local memory needed per work-group
  /// Largest (hi_block - lo_block) * c: the difference of the stored column
  /// indices of the blocks, which is what Table 6.10 of the thesis reports
  /// (one block width less than the window actually read).
  size64 max_index_span = 0;
};
XWindowSummary summarize(const std::vector<XWindow>& w, int block_cols);

}  // namespace tessera::sparse
