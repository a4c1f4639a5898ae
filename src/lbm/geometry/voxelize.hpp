// Triangulated surface -> solid mask on the lattice: a cell is solid where
// its centre is inside the surface, decided by the parity of the crossings
// of a ray along +x (kernels/voxel_point.h: exact, watertight decisions on
// the cross-section, the crossing positions in double, the same bits on
// every backend). The host bins the triangles by their (y, z) bounding box
// into tiles of rays, so a ray tests only its tile's triangles.
//
// A mesh that is not closed can give a ray an odd number of crossings.
// Those rays' cells are decided again by rays along y and z through them:
// each axis whose ray is even votes, an odd one abstains, the majority wins;
// a tie or no vote leaves the cell undecided, and any undecided cell is an
// Error (how many rays, one of them, the mesh is not closed). A mesh open
// in a way that every ray crosses its holes an even number of times is not
// detected.
//
// Vertices are rounded to 2^-10 cells across the rays (the exact tests'
// integers), so the mask is exactly that of a surface within 7e-4 cells of
// the mesh. A centre on that surface is decided as the point
// (x + d, y + e^2, z + e), d >> e > 0 infinitesimal, would be: an
// axis-aligned box holds the centres lo <= c < hi on every axis.
#pragma once
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "core/buffer.hpp"
#include "lbm/geometry/placement.hpp"
#include "lbm/kernels/lbm_kernels.hpp"

namespace tessera::lbm::geometry {

/// What a voxelization met (added to the caller's counts): rays along x
/// with an odd number of crossings (0 for a closed mesh) and the cells that
/// rays along y and z decided.
struct VoxelReport {
  long odd_rays = 0;
  long resolved_cells = 0;
};

/// grid.cells() bytes, x fastest (n = x + nx * (y + ny * z), as the lbm
/// flags): 1 where the cell's centre is inside `mesh` (lattice
/// coordinates, placement.hpp), else 0. Computed on `device`. UsageError
/// for an empty mesh or grid; Error for a non-finite vertex, a vertex
/// farther than 2^19 cells from the origin along an axis, or cells an
/// open mesh leaves undecided.
std::vector<std::uint8_t> voxelize(const Triangles& mesh, const Grid& grid,
                                   const std::shared_ptr<Device>& device,
                                   VoxelReport* report = nullptr);

/// Several bodies: each decided by its own parity, the union of their
/// masks (overlapping bodies stay solid, where one mesh holding both would
/// leave the overlap empty).
std::vector<std::uint8_t> voxelize(std::span<const Triangles> bodies, const Grid& grid,
                                   const std::shared_ptr<Device>& device,
                                   VoxelReport* report = nullptr);

/// The ray pass along x alone, on the buffers' device: `mask`
/// (grid.cells() bytes, every one written) gets the parity of the crossings
/// left of each centre, `counts` (ny * nz) each ray's crossings, an odd
/// count where the mesh is open. Checks as voxelize().
void cast_rays_x(const Triangles& mesh, const Grid& grid, Buffer<std::uint8_t>& mask,
                 Buffer<int>& counts);

}  // namespace tessera::lbm::geometry
