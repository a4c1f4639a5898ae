// mapStencil's description: radius per axis and boundary mode per axis.
#pragma once
#include <array>

#include "skeleton/extents.hpp"
#include "skeleton/kernels/skel_ops.hpp"

namespace tessera::skeleton {

using kernels::BoundaryMode;
using kernels::NoBoundaryFunction;

/// What a stencil reads: `radius[a]` cells on both sides along axis a, and
/// what a read outside the domain returns along each axis:
///   neutral  - the neutral value given to mapStencil (Muesli's only mode);
///   periodic - the opposite end of the domain;
///   clamp    - the nearest domain cell (edge repeated);
///   mirror   - reflected at the edge cell, which is not repeated (-1 -> 1);
///   user     - the user boundary function f(x, y, z, neutral) at the
///              (outside) global coordinates.
struct Stencil {
  Index3 radius{1, 1, 1};
  std::array<BoundaryMode, 3> mode{BoundaryMode::neutral, BoundaryMode::neutral,
                                   BoundaryMode::neutral};

  static Stencil uniform(index_t r, BoundaryMode m, int dims = 3) {
    Stencil s;
    for (int a = 0; a < 3; ++a) {
      s.radius[a] = a < dims ? r : 0;
      s.mode[a] = m;
    }
    return s;
  }
};

}  // namespace tessera::skeleton
