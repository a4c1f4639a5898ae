// Block decomposition of a global box into parts: along the slowest axis of
// the container by default, along any set of axes on request. Along an axis
// cut into p blocks, n = q*p + r cells: the first r blocks get q+1 cells, the
// others q (remainders explicit, never dropped or given to a "CPU fraction").
// Global part ids run x-fastest over the grid of blocks: with the default
// split along the slowest axis, part p owns the p-th slab.
#pragma once
#include <array>

#include "skeleton/extents.hpp"

namespace tessera::skeleton {

class Decomposition {
 public:
  /// `parts_per_axis`: blocks along x, y, z (product = total_parts), or all
  /// zero for the default (every part along the slowest meaningful axis).
  /// The decomposed axes (those with more than one block, plus the slowest
  /// meaningful axis by default) carry halos even when cut into one block, so
  /// that a periodic exchange can wrap a part onto itself.
  Decomposition(const Extents& global, int total_parts,
                std::array<int, 3> parts_per_axis = {0, 0, 0});

  const Extents& global() const noexcept { return global_; }
  int parts() const noexcept { return parts_; }
  const std::array<int, 3>& grid() const noexcept { return grid_; }
  /// Whether axis a is cut (carries halos): grid > 1, or the default axis.
  bool decomposed(int a) const noexcept { return decomposed_[static_cast<std::size_t>(a)]; }
  std::array<int, 3> coords(int part) const;
  int part_at(std::array<int, 3> c) const;
  Box owned(int part) const;
  /// The neighbouring part along axis a in direction dir (-1 or +1); with
  /// `periodic` the grid wraps (possibly to `part` itself); -1 when none.
  int neighbour(int part, int axis, int dir, bool periodic) const;

  /// First cell of block i of p blocks over n cells.
  static index_t block_begin(index_t n, int p, int i) {
    const index_t q = n / p, r = n % p;
    return i * q + (i < r ? i : r);
  }

 private:
  Extents global_;
  int parts_;
  std::array<int, 3> grid_{1, 1, 1};
  std::array<bool, 3> decomposed_{false, false, false};
};

}  // namespace tessera::skeleton
