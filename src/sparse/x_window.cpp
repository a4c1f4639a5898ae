#include "sparse/x_window.hpp"

#include <algorithm>

#include "core/error.hpp"

namespace tessera::sparse {

template <Scalar T>
std::vector<XWindow> x_windows(const Bcsr<T>& a, size64 group_rows) {
  if (group_rows < 1) throw Error("x window: the group must have at least one row");
  const size64 r = a.block.r, c = a.block.c;
  const size64 stored_rows = a.stored_block_rows() * r;
  std::vector<XWindow> out(static_cast<std::size_t>(ceil_div(stored_rows, group_rows)));
  for (size64 sb = 0; sb < a.stored_block_rows(); ++sb) {
    if (a.row_ptr[sb] == a.row_ptr[sb + 1]) continue;
    // Columns are sorted within a block row: its first and last block bound it.
    const size64 lo = a.col[a.row_ptr[sb]], hi = a.col[a.row_ptr[sb + 1] - 1];
    for (size64 g = sb * r / group_rows; g <= (sb * r + r - 1) / group_rows; ++g) {
      XWindow& w = out[g];
      w.lo_block = w.lo_block < 0 ? lo : std::min(w.lo_block, lo);
      w.hi_block = std::max(w.hi_block, hi);
    }
  }
  for (XWindow& w : out) {
    if (w.lo_block < 0) continue;
    w.first = w.lo_block * c;
    w.last = std::min(w.hi_block * c + c - 1, a.cols - 1);
    w.per_item = ceil_div(w.size(), group_rows);
  }
  return out;
}

XWindowSummary summarize(const std::vector<XWindow>& w, int block_cols) {
  XWindowSummary s;
  s.groups = static_cast<size64>(w.size());
  for (const XWindow& x : w) {
    if (x.lo_block < 0) continue;
    s.max_window = std::max(s.max_window, x.size());
    s.max_index_span = std::max(s.max_index_span, (x.hi_block - x.lo_block) * block_cols);
  }
  return s;
}

#define TESSERA_INSTANTIATE(T) template std::vector<XWindow> x_windows(const Bcsr<T>&, size64);
TESSERA_SPARSE_FOR_EACH_SCALAR(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera::sparse
