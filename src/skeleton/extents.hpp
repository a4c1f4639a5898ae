// Index types, extents and boxes of the skeleton library. Every size and
// coordinate is 64-bit (Muesli's 32-bit indices failed at 1320^3).
// Axis 0 is x (fastest in memory), axis 2 is z (slowest): the linear index of
// a cell is (z * ny + y) * nx + x.
#pragma once
#include <array>
#include <cstdint>
#include <string>

#include "core/kernels/portable.h"

namespace tessera::skeleton {

using index_t = std::int64_t;
using Index3 = std::array<index_t, 3>;

/// Global extents of a container: DA uses x only, DM x and y, DC all three.
struct Extents {
  Index3 n{1, 1, 1};
  int dims = 3;  ///< 1 (DA), 2 (DM) or 3 (DC): the number of meaningful axes
  index_t volume() const { return n[0] * n[1] * n[2]; }
  bool operator==(const Extents&) const = default;
  std::string to_string() const;
};

inline Extents extents_1d(index_t nx) { return {{nx, 1, 1}, 1}; }
inline Extents extents_2d(index_t nx, index_t ny) { return {{nx, ny, 1}, 2}; }
inline Extents extents_3d(index_t nx, index_t ny, index_t nz) { return {{nx, ny, nz}, 3}; }

/// A half-open box [lo, hi) of cells (usable in device code: TS_FN).
struct Box {
  Index3 lo{0, 0, 0}, hi{0, 0, 0};
  TS_FN index_t extent(int a) const { return hi[a] > lo[a] ? hi[a] - lo[a] : 0; }
  TS_FN index_t volume() const { return extent(0) * extent(1) * extent(2); }
  TS_FN bool empty() const { return volume() == 0; }
  bool operator==(const Box&) const = default;
};

}  // namespace tessera::skeleton
