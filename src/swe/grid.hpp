// Grids, fields and launch shapes of the shallow-water module.
#pragma once
#include <cstddef>
#include <cstdint>

#include "core/buffer.hpp"

namespace tessera::swe {

/// Work-group (OpenCL) / thread-block (CUDA) shape in the thesis's notation
/// "A×B": l0 along i (rows, x, stride w), l1 along j (contiguous, y).
/// 0×0 is the thesis's NULL (the runtime chooses; CUDA uses 8×32).
struct WorkGroup {
  int l0 = 0, l1 = 0;
  bool is_default() const { return l0 == 0 || l1 == 0; }
};

/// Which thesis kernel computes the interior.
enum class ThesisKernel {
  global,     ///< Alg. 4.1: one work-item per interior cell, neighbours from global memory
  tile_edge,  ///< V2a: local tile, edge neighbours from global memory
  tile_halo,  ///< V2b (Listing 4.1): local tile with a one-cell halo
  rows,       ///< V7: one work-item per compute unit, each a slice of rows
  walls,      ///< global kernel applying the walls itself: no ghost frame, one launch per step
  strip,      ///< walls as `walls`; a work-item marches a column, dividing once per cell
  simd4,      ///< V6 (§4.5.5): a work-item computes 4 consecutive cells of a row from 4-vectors
};

/// The thesis layout: (nx+2) rows of w >= ny+2 values, one-cell ghost frame.
struct ThesisGrid {
  long nx = 0, ny = 0, w = 0;
  std::size_t size() const { return static_cast<std::size_t>((nx + 2) * w); }
  long at(long i, long j) const { return i * w + j; }  ///< i, j include the frame (1..n interior)
};

/// The three conserved fields: thesis (Z, Qx, Qy) or physical (h, hu, hv).
template <class T>
struct Fields {
  Buffer<T> z, qx, qy;
};

/// Physical model layout: (nx+4) rows of w >= ny+4 values, two ghost layers
/// (for the MUSCL stencil). Interior cell (i, j), 0-based, at (i+2)*w + j+2.
/// w is a multiple of 32 (aligned rows; the paired update's vector loads).
struct PhysGrid {
  long nx = 0, ny = 0, w = 0;
  static constexpr long ghosts = 2;
  std::size_t size() const { return static_cast<std::size_t>((nx + 2 * ghosts) * w); }
  long at(long i, long j) const { return (i + ghosts) * w + j + ghosts; }
};

/// Boundary conditions per side (values match swe_hll_consts.h).
/// `exchange` marks an internal face of a distributed grid (swe/distributed.hpp):
/// the ghost kernel leaves it to the halo exchange.
enum class Bc : int {
  wall = 0,
  transmissive = 1,
  periodic = 2,
  level = 3,
  discharge = 4,
  exchange = 5,
  normal_depth = 6
};

/// Sides in the order of PhysParams::bc: x_lo (i = 0), x_hi, y_lo (j = 0), y_hi.
enum Side : int { x_lo = 0, x_hi = 1, y_lo = 2, y_hi = 3 };

/// Parameters the physical kernels read (by value).
template <class T>
struct PhysParams {
  T dx = 1, dy = 1;
  T g = T(9.81);
  T manning = 0;    ///< Manning n [s m^-1/3]; 0: no friction
  T cfl = T(0.45);  ///< dt = cfl / max((|u|+c)/dx + (|v|+c)/dy)
  T fixed_dt = 0;   ///< > 0: this dt instead of the CFL rule
  T max_dt = 0;     ///< > 0: no longer step (the sources' bound, Forcing::max_dt)
  /// a floor of the step's rate: the discharge ghosts' (discharge_rate_floor)
  T min_rate = 0;
  T h_dry = 0;  ///< depths at or below this are dry (no velocity)
  int bc[4] = {0, 0, 0, 0};
  T bc_value[4] = {0, 0, 0, 0};  ///< level: water surface elevation; discharge: q into the domain
  /// one segment per side [seg_lo, seg_hi) of cells along it (x sides:
  /// columns; y sides: rows of this grid) of kind seg_bc, value seg_value +
  /// seg_slope (t - seg_ta); empty (lo = hi = 0): none
  long seg_lo[4] = {0, 0, 0, 0}, seg_hi[4] = {0, 0, 0, 0};
  int seg_bc[4] = {0, 0, 0, 0};
  T seg_value[4] = {0, 0, 0, 0}, seg_slope[4] = {0, 0, 0, 0}, seg_ta[4] = {0, 0, 0, 0};
  bool timed = false;     ///< a segment's value changes in time
  bool skip_dry = false;  ///< the shared-face update skips dry tiles (PhysSolver's tiles)
  int columns = 3;        ///< GPU first-order update kernel (PhysOptions::columns; same values)
};

/// Slots of the device-side scalar buffers of the physical model.
namespace slot {
constexpr int dt = 0, time = 1, target = 2, nscalars = 3;  // Buffer<T>
constexpr int rate0 = 0, rate1 = 1, steps = 2, bad_cell = 3, bad_step = 4,
              nflags = 5;  // Buffer<uint32>
constexpr std::uint32_t none = 0xffffffffu;
}  // namespace slot

}  // namespace tessera::swe
