// Interpolated bounce-back's links (lbm_point.h ts_lbm_interpolate_link):
// which links a solver keeps, and their kernel codes and coefficients, for
// the single-device solver and each part of the distributed one.
#pragma once
#include <cstdint>
#include <span>
#include <vector>

namespace tessera::lbm {

struct Grid;

/// A link of a fluid cell into a resting body whose surface is known: the
/// surface crosses the link at q |c_dir| from the cell centre (0 < q <= 1).
/// There interpolated bounce-back replaces halfway bounce-back, which puts
/// every wall at q = 1/2.
struct WallLink {
  long cell = 0;
  int dir = 0;
  double q = 0.5;
};

/// The momentum exchange's view of the links: each link's post-collision
/// population f*_d(n) - w_d of the last step (real units), which
/// interpolated bounce-back no longer sends back unchanged.
struct LinkSent {
  std::span<const WallLink> links;
  std::span<const double> sent;
};

/// The links of `links` that a solver runs, in their order: Error, naming
/// the link, where one is outside the lattice of q directions, has q
/// outside (0, 1], leaves a wall, does not end in a resting wall
/// (TS_LBM_WALL) or is given twice; dropped (halfway bounce-back there) are
/// those with q = 1/2 and those whose cell or cell - c_dir is not a plain
/// fluid cell: a wall (a gap of one cell: the second value of the
/// interpolation is not there) or an inlet or outlet cell (cell - c_dir
/// may wrap across the boundary face to the opposite one).
std::vector<WallLink> usable_links(const Grid& g, int q, const std::vector<std::uint8_t>& flags,
                                   std::span<const WallLink> links);

/// The kernel's code of a link from cell `local` (its index where the
/// kernel runs): 64 local + 2 dir + (q < 1/2).
long link_code(long local, const WallLink& l);
/// The kernel's two coefficients: 2q and 1 - 2q, or 1/(2q) and 1 - 1/(2q).
void link_coefficients(const WallLink& l, double c[2]);
/// The coefficients of `links` as the bytes of float or double values.
std::vector<std::uint8_t> link_coefficient_bytes(std::span<const WallLink> links, bool fp64);
/// Sent populations from the kernel's values (float or double bytes, in
/// storage units: 2^15 for FP16S) in real units.
std::vector<double> link_sent_values(const std::vector<std::uint8_t>& raw, bool fp64,
                                     double storage_unit);

}  // namespace tessera::lbm
