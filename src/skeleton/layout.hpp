// Where one part's cells live in its device buffer. Each part owns ONE
// contiguous buffer per field, [halo | owned | halo] along every decomposed
// axis, component-major (structure of arrays: component c of a Q-component
// field is the c-th of Q padded boxes). A native kernel gets the buffer
// pointer and this layout and addresses cell (x, y, z) of component c, in
// local owned coordinates (0 <= x < owned.extent(0); -halo[a] .. extent+halo[a]-1
// reaches into the halo), at
//     c * component_stride + origin() + z * sz + y * sy + x
// with no region branches (Muesli's PLCube had three separate regions).
#pragma once
#include <array>

#include "skeleton/extents.hpp"

namespace tessera::skeleton {

/// The inner/outer split of a part for communication hiding (waLBerla's
/// "simpleOverlap"): `inner` are the owned cells at least `radius` away from
/// every face of the part (they need no halo and no boundary handling);
/// `outer` is the frame of up to six disjoint boxes that covers the rest.
/// Local owned coordinates.
struct InnerOuter {
  Box inner;
  std::array<Box, 6> outer{};
  int outer_count = 0;
};

struct PartLayout {
  int global_part = 0;  ///< id in the decomposition
  int local_part = 0;   ///< index among this rank's parts (= its device)
  Box owned;            ///< global coordinates of the cells this part owns
  /// Width per axis, both sides alike: halos (filled by the exchange) on
  /// decomposed axes, ghost layers (filled from the boundary modes) on the
  /// others, as the stencils ask.
  Index3 halo{0, 0, 0};
  Index3 padded{1, 1, 1};  ///< owned extent + 2 * halo per axis
  index_t sy = 1, sz = 1;  ///< strides (elements) of y and z: padded[0], padded[0] * padded[1]
  index_t component_stride = 1;  ///< elements per component: the padded volume
  int components = 1;

  index_t extent(int a) const { return owned.extent(a); }
  /// Offset of local owned cell (0, 0, 0) within a component.
  index_t origin() const { return halo[2] * sz + halo[1] * sy + halo[0]; }
  /// Offset of local cell (x, y, z) of component c (coordinates may reach into the halo).
  index_t offset(index_t x, index_t y, index_t z, int c = 0) const {
    return c * component_stride + origin() + z * sz + y * sy + x;
  }
  /// Elements of the whole buffer (all components, halos included).
  index_t elements() const { return component_stride * components; }
  /// The inner/outer split for a stencil of `radius` cells per axis.
  InnerOuter split(const Index3& radius) const;
  /// The up to six boxes (local coordinates) of the halo/ghost shell around
  /// the owned box: the padded box less the owned one.
  InnerOuter shell() const;
};

}  // namespace tessera::skeleton
