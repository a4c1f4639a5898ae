// Outputs of a lattice Boltzmann run: VTK image data (.vti) with density and
// velocity, a ParaView collection (.pvd) of them, and PNG slices with a colour
// bar. Every file is written atomically.
#pragma once
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "lbm/solver.hpp"

namespace tessera::lbm {

/// density and velocity as float32 arrays, appended raw binary (VTK XML).
/// Density, velocity and `solid` (1 on wall and moving-wall cells, so that
/// ParaView shows the bodies), spacing `dx` (metres per cell, or 1).
void write_vti(const std::filesystem::path& path, const Fields& f,
               const std::vector<std::uint8_t>& flags, double dx = 1);

/// A .pvd collection: (time, file name relative to the .pvd) entries.
void write_pvd(const std::filesystem::path& path,
               const std::vector<std::pair<double, std::string>>& entries);

/// Which quantity a PNG slice shows.
enum class SliceQuantity { speed, density, ux, uy, uz };
SliceQuantity parse_slice_quantity(const std::string& s);

/// What a slice's figure says: its step and units, and the colour scale
/// (hi > lo: this one, shared by a sequence; else the slice's own range).
struct SliceFrame {
  long step = 0;
  double seconds_per_step = 1, metres_per_cell = 1;  ///< both 1: lattice units
  double lo = 0, hi = 0;
};

/// The z = `z` plane (clamped) as a figure (io/figure.hpp): axes in cells
/// (or metres), the step (or time) in the title, a colour bar; walls are
/// grey. Returns the (min, max) of the colour scale.
std::pair<double, double> write_png_slice(const std::filesystem::path& path, const Fields& f,
                                          const std::vector<std::uint8_t>& flags, long z,
                                          SliceQuantity q, const SliceFrame& frame = {});

/// Whether PNG output is built in (libpng found at configure time).
bool png_available();

}  // namespace tessera::lbm
