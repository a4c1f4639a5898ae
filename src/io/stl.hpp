// Triangulated surfaces from STL files (binary and ASCII, also gzip- or
// bzip2-compressed: .stl.gz), the geometry input of `tessera lbm` (issue 43).
//
// Coordinates are kept as the file stores them: float32, x y z, in the file's
// own length unit (STL states none; the placement of a body decides what a unit
// is: metres, cells). The vertices of a triangle keep their order in the file;
// by the STL convention they run counter-clockwise seen from outside, so that
// (b - a) x (c - a) points out of the body. Facet normals and the binary
// attribute words are not kept (they are often missing or wrong; voxelizers
// use the vertices).
#pragma once
#include <array>
#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::io {

/// x, y, z.
using Vec3 = std::array<float, 3>;

/// One triangle: vertices a, b, c in file order (9 floats, no padding).
struct Triangle {
  Vec3 a, b, c;
  bool operator==(const Triangle&) const = default;
};

/// An axis-aligned box: lo = componentwise minimum, hi = maximum.
struct Box {
  Vec3 lo{}, hi{};
  Vec3 extent() const { return {hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]}; }
  /// The centre, computed in double and rounded once.
  Vec3 centre() const;
  /// Whether p lies in the box (boundary included).
  bool contains(const Vec3& p) const;
};

/// A triangle soup (no shared-vertex structure, as STL stores it).
struct Mesh {
  std::vector<Triangle> triangles;
  std::size_t size() const { return triangles.size(); }
  bool empty() const { return triangles.empty(); }
  /// The bounding box of every vertex; Error when the mesh is empty.
  Box bounds() const;
  /// The vertices as 9 * size() contiguous floats (a.x a.y a.z b.x ... c.z per
  /// triangle), ready to copy to a device.
  const float* data() const { return triangles.empty() ? nullptr : triangles.front().a.data(); }
};
static_assert(sizeof(Triangle) == 9 * sizeof(float), "Mesh::data() relies on packed triangles");

/// Whether the triangle has zero area: (b - a) x (c - a) is exactly zero,
/// computed in double from the float vertices (two vertices equal, or all three
/// on one line).
bool is_degenerate(const Triangle& t);

/// What read_stl found besides the triangles.
struct MeshStats {
  enum class Format { binary, ascii };
  Format format = Format::binary;
  bool compressed = false;         ///< the file was gzip or bzip2 data
  std::string name;                ///< ASCII: the first solid's name; binary: the
                                   ///< 80-byte header up to its first NUL, trimmed
  std::size_t solids = 0;          ///< ASCII: solid ... endsolid blocks (binary: 1)
  std::size_t triangles = 0;       ///< as returned
  std::size_t degenerate = 0;      ///< zero-area triangles (is_degenerate), kept
  std::size_t trailing_bytes = 0;  ///< binary: bytes after the last triangle (< 50)
};

/// Reads an STL file: binary or ASCII, decided from the contents (not the
/// name), gzip/bzip2 data decompressed first (io/file_bytes.hpp). A file is
/// binary when its size is 84 + 50 n (up to 49 bytes of padding allowed after
/// the triangles), n being the count at byte 80, even when its header starts
/// with "solid"; otherwise it is ASCII when it starts with "solid", binary when
/// not. Keywords of ASCII files are matched without regard to case; lines may
/// end in LF or CRLF; numbers are C locale decimal or scientific notation.
///
/// Throws Error naming the file (and, for ASCII, "file:line:") with what was
/// expected and what was found: empty file; truncated binary data (the count
/// says n triangles, the bytes are missing; the count is checked against the
/// size before anything is allocated); a missing vertex, endloop, endfacet or
/// endsolid; a facet with other than 3 vertices; a coordinate that is not a
/// number, not finite or outside the float range; no triangles at all.
/// Degenerate triangles are kept and counted in `stats`.
Mesh read_stl(const std::filesystem::path& path, MeshStats* stats = nullptr);

/// read_stl on bytes already in memory (uncompressed); `source` names them in
/// messages.
Mesh parse_stl(std::string_view bytes, const std::string& source, MeshStats* stats = nullptr);

}  // namespace tessera::io
