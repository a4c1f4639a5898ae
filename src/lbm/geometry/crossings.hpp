// Where a body's surface crosses the lattice links that enter it: the
// distances interpolated bounce-back needs (lbm_point.h
// ts_lbm_interpolate_link, Solver::set_links). Host code, in double.
#pragma once
#include <array>
#include <functional>
#include <span>
#include <vector>

#include "lbm/geometry/placement.hpp"

namespace tessera::lbm::geometry {

/// The link from a fluid cell's centre `from` to the centre of its
/// neighbour from + c (c a lattice velocity, components in -1..1).
struct LinkSegment {
  std::array<double, 3> from{0, 0, 0};
  std::array<int, 3> c{0, 0, 0};
};

/// For each segment, the fraction t in [0, 1] of its first crossing of the
/// mesh (the crossing nearest `from`), or a NaN where it crosses none.
/// Triangles and segments meet in 4-cell bins: each triangle visits the
/// bins within a cell of its plane inside its bounding box (about its area
/// over 16 bins, whatever its orientation), each segment the bins its
/// bounding box touches.
std::vector<double> first_crossings(const Triangles& mesh, std::span<const LinkSegment> segments);

/// The fraction t in (0, 1] where `inside` first holds along the segment
/// (it must not hold at `from` and must hold at from + c), bisected to
/// 2^-40: the surface that decided the cells, whatever its shape.
double crossing_by_bisection(const std::function<bool(double, double, double)>& inside,
                             const LinkSegment& s);

}  // namespace tessera::lbm::geometry
