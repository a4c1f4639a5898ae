// Synthetic TRACE-like linear systems (the thesis's matrices are not public;
// its test cases exist only as CGNS inputs of DLR's TRACE). Each case is a set
// of grid blocks; each grid block is one GappedBcsr matrix with 5x5 blocks.
//
// Structure, and where each choice comes from (docs/sparse.md has the detail):
//  - A case has `grid_blocks` (8 in the thesis) identical grid blocks of
//    nx x ntheta x nr interior cells (Table 4.1 gives cells as x x theta x r).
//    Grid blocks are not coupled in the matrices: TRACE couples them through
//    inner ghost cells, which are not matrix rows, so every grid block is an
//    independent matrix (one per MPI rank in the thesis's CPU baseline).
//  - Every grid block carries a ghost layer `ghost` (2) cells wide on every
//    side of every axis. Ghost cells are numbered but have no rows
//    (placeholder block rows), and couplings to them are not stored, so cells
//    near the boundary have fewer than the stencil's blocks per row.
//  - Cell numbering: theta fastest, then x, then r (slowest). The thesis does
//    not state it; it is the only order that reproduces Table 6.10 (the
//    BELL V3 vector windows 12,415 / 13,375 / 13,555 / 13,735 for 80 / 160 /
//    320 / 480 rows of case 10x40x20), see tests/sparse/test_trace_generator.cpp.
//  - Stencils (thesis section 4.6): 3D Euler 13 points (centre, +-1, +-2 per
//    axis), 3D Navier-Stokes 25 (Manhattan distance <= 2), 2D Euler 9 and 2D
//    Navier-Stokes 13 in the (x, theta) plane without r ghosts.
//  - Zeros inside blocks: a fixed pattern per stencil direction (the same in
//    every cell, as a Jacobian's structural zeros would be): 4 of 25 entries in
//    each neighbour block, 7 of the 20 off-diagonal entries of the centre block,
//    i.e. 55 of 325 = 16.9% for an interior 3D Euler cell (the thesis's operation
//    counts imply about 17%).
//  - Values: uniform in [-1, 1) (real and imaginary part), from a counter-based
//    hash of (seed, grid block, cell, direction, entry), so they do not depend on
//    the order or thread count of generation. Diagonal entries are
//    `dominance` times the row's off-diagonal magnitude sum (times a phase of at
//    most 30 degrees for complex values): strictly row diagonally dominant with
//    all Gershgorin discs in the right half-plane, so GMRES converges.
//  - Optional periodic coupling in theta inside each grid block (the thesis's
//    quarter pipe is periodic towards the other quarters); off by default.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sparse/formats.hpp"

namespace tessera::sparse {

enum class Stencil { euler2d_9, ns2d_13, euler3d_13, ns3d_25 };
std::string_view to_string(Stencil s);

/// Cell offsets (dx, dtheta, dr) of a stencil, the centre first.
std::vector<std::array<int, 3>> stencil_offsets(Stencil s);

struct TraceCase {
  Stencil stencil = Stencil::euler3d_13;
  int nx = 10, ntheta = 40, nr = 20;  ///< interior cells per grid block (nr = 1 in 2D)
  int grid_blocks = 8;
  int ghost = 2;
  int vars = 5;  ///< block size: conservative variables per cell
  bool periodic_theta = false;
  std::uint64_t seed = 2011;
  double dominance = 1.5;
  bool three_d() const { return stencil == Stencil::euler3d_13 || stencil == Stencil::ns3d_25; }
  /// Canonical spec string, e.g. "trace:10x40x20" (parse_trace_case reads it back).
  std::string name() const;
};

/// Parses "KIND:DIMS[,key=value...]":
///   KIND  trace | euler3d (13 points), ns3d (25), euler2d (9), ns2d (13)
///   DIMS  NXxNTHETAxNR (3D) or NXxNTHETA (2D); or "trace:1".."trace:6" for
///         the thesis's cases of Table 4.1
///   keys  blocks=N, seed=S, ghost=G, dominance=D, periodic (theta)
/// Throws UsageError on anything else.
TraceCase parse_trace_case(std::string_view spec);

/// The six cases of the thesis's Table 4.1 (8 grid blocks each).
std::vector<TraceCase> thesis_cases();

/// Sizes of a case, computed from its geometry (no matrix built).
struct TraceSizes {
  size64 cells_per_block = 0;  ///< interior cells
  size64 slots_per_block = 0;  ///< cells incl. ghosts: the index space
  size64 rows_per_block = 0;   ///< scalar rows incl. ghosts (= columns)
  size64 stored_rows_per_block = 0;
  size64 blocks_per_block = 0;      ///< stored vars x vars blocks of one grid block
  size64 max_blocks_per_block = 0;  ///< stencil points x cells (Table 4.2's count)
  size64 total_blocks = 0;          ///< all grid blocks
};
TraceSizes trace_sizes(const TraceCase& c);

/// Grid block `index` (0-based) of a case.
template <Scalar T>
GappedBcsr<T> generate_trace_block(const TraceCase& c, int index);

/// Every grid block of a case.
template <Scalar T>
std::vector<GappedBcsr<T>> generate_trace(const TraceCase& c);

/// The grid blocks as one block-diagonal CSR matrix (grid block k's index
/// space follows block k-1's), e.g. to write one Matrix Market file.
template <Scalar T>
Csr<T> block_diagonal(const std::vector<GappedBcsr<T>>& blocks);

}  // namespace tessera::sparse
