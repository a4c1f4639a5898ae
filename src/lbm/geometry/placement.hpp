// Triangulated surfaces in lattice coordinates, and their placement: a
// mesh in its own units (an STL file's) rotated, scaled, centred and
// translated onto the lattice (cell (x, y, z) has its centre at (x, y, z),
// as src/lbm/cases.cpp lays out the flags). Everything in double.
#pragma once
#include <array>
#include <cstddef>
#include <optional>
#include <span>
#include <vector>

namespace tessera::lbm::geometry {

/// Triangles: triangle t has the vertices (xyz[9t], xyz[9t+1], xyz[9t+2]),
/// (xyz[9t+3] .. xyz[9t+5]) and (xyz[9t+6] .. xyz[9t+8]). Their orientation
/// does not matter (inside is decided by parity).
struct Triangles {
  std::vector<double> xyz;
  std::size_t size() const { return xyz.size() / 9; }
  bool empty() const { return xyz.empty(); }
  /// Appends another mesh's triangles (one mesh: parity over both).
  void append(const Triangles& other);
};

/// Triangles from 9 floats each (an STL reader's vertices), every value
/// converted exactly; Error where the count is not a multiple of 9 or a
/// value is not finite.
Triangles triangles_from(std::span<const float> xyz);

enum class Axis { x, y, z };
const char* to_string(Axis a);

/// The axis-aligned bounding box of a mesh (lo, hi per axis).
struct Box {
  std::array<double, 3> lo{0, 0, 0}, hi{0, 0, 0};
  double extent(Axis a) const { return hi[int(a)] - lo[int(a)]; }
  std::array<double, 3> centre() const;
};
/// Error for an empty mesh.
Box bounds(const Triangles& mesh);

/// A rotation by `degrees` about a coordinate axis through the origin,
/// right-handed (counterclockwise seen from the axis's positive side);
/// multiples of 90 degrees use exact sines and cosines (a permutation of
/// the coordinates with signs).
struct Rotation {
  Axis axis = Axis::z;
  double degrees = 0;
};

/// Scale so that the rotated mesh's bounding box spans `cells` along `axis`.
struct LengthAlong {
  Axis axis = Axis::x;
  double cells = 0;
};

/// Where a mesh goes, in this order:
///  1. `rotate`: each rotation in turn, about the mesh's own origin;
///  2. `scale` (a factor, e.g. cells per metre) or `length` (not both):
///     every coordinate multiplied by the factor;
///  3. `centre`: the bounding box's centre moved to this point (lattice
///     coordinates; without it the mesh stays where step 2 left it);
///  4. `translate`: then moved by this many cells.
struct Placement {
  std::vector<Rotation> rotate;
  std::optional<double> scale;
  std::optional<LengthAlong> length;
  std::optional<std::array<double, 3>> centre;
  std::array<double, 3> translate{0, 0, 0};
};

/// The mesh placed. UsageError naming the option and its value for a
/// non-finite number, a scale or length <= 0, both scale and length, a
/// length along an axis the mesh is flat in, an empty mesh; Error for a
/// non-finite vertex (naming the triangle) or a result that overflows.
Triangles place(const Triangles& mesh, const Placement& p);

}  // namespace tessera::lbm::geometry
