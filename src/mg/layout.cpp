// Host-side conversion between interior arrays and the halo layout (or a
// split level's storage by colour).
#include <limits>
#include <string>

#include "core/error.hpp"
#include "mg/kernels/mg_grid.h"
#include "mg/layout.hpp"

namespace tessera::mg {

template <class T>
std::vector<T> to_halo_layout(const Dims& d, const std::vector<T>& interior) {
  if (interior.size() != static_cast<std::size_t>(d.points()))
    throw Error("multigrid: expected " + std::to_string(d.points()) + " values, got " +
                std::to_string(interior.size()));
  std::vector<T> s(d.storage(), T(0));
  const long nz = d.dim == 3 ? d.nz : 1;
  std::size_t n = 0;
  for (long k = 0; k < nz; ++k)
    for (long j = 0; j < d.ny; ++j)
      for (long i = 0; i < d.nx; ++i)
        s[static_cast<std::size_t>(ts_mg_index(i, j, k, d.px(), d.py(), d.ph(), d.dim))] =
            interior[n++];
  return s;
}

template <class T>
std::vector<T> from_halo_layout(const Dims& d, const std::vector<T>& s) {
  std::vector<T> out(static_cast<std::size_t>(d.points()));
  const long nz = d.dim == 3 ? d.nz : 1;
  std::size_t n = 0;
  for (long k = 0; k < nz; ++k)
    for (long j = 0; j < d.ny; ++j)
      for (long i = 0; i < d.nx; ++i)
        out[n++] = s[static_cast<std::size_t>(ts_mg_index(i, j, k, d.px(), d.py(), d.ph(), d.dim))];
  return out;
}

template std::vector<float> to_halo_layout(const Dims&, const std::vector<float>&);
template std::vector<double> to_halo_layout(const Dims&, const std::vector<double>&);
template std::vector<float> from_halo_layout(const Dims&, const std::vector<float>&);
template std::vector<double> from_halo_layout(const Dims&, const std::vector<double>&);

}  // namespace tessera::mg

namespace tessera::mg::kernels {

FusedGrid fused_grid(const Dims& d) {
  const long w = TS_MG_FX - 4, h = TS_MG_FY * TS_MG_FR - 4;
  return {(d.nx + w - 1) / w, (d.ny + h - 1) / h, (d.nz + TS_MG_TILE_Z - 1) / TS_MG_TILE_Z};
}

Tuning& tuning() {
  static Tuning t;
  return t;
}

const Tuning& checked_tuning() {
  const Tuning& t = tuning();
  if (t.prolong_cells < 1)
    throw UsageError("mg tuning: prolong_cells must be >= 1, got " +
                     std::to_string(t.prolong_cells));
  if (t.slot_rows != 1 && t.slot_rows != 2 && t.slot_rows != 4 && t.slot_rows != 8)
    throw UsageError("mg tuning: slot_rows must be 1, 2, 4 or 8, got " +
                     std::to_string(t.slot_rows));
  if (t.slot_planes < 1)
    throw UsageError("mg tuning: slot_planes must be >= 1, got " + std::to_string(t.slot_planes));
  if (t.restrict_planes < 1)
    throw UsageError("mg tuning: restrict_planes must be >= 1, got " +
                     std::to_string(t.restrict_planes));
  if (t.tiled_min_points < 0)
    throw UsageError("mg tuning: tiled_min_points must be >= 0, got " +
                     std::to_string(t.tiled_min_points));
  if (t.prolong_min_blocks != 1 && t.prolong_min_blocks != 12)
    throw UsageError("mg tuning: prolong_min_blocks must be 1 or 12 (the two CUDA builds), got " +
                     std::to_string(t.prolong_min_blocks));
  return t;
}

void require_cube_offsets(const Dims& coarse, const char* what) {
  const long reach = 2 * (coarse.py() + coarse.px()) + coarse.px();
  if (reach > std::numeric_limits<int>::max())
    throw Error(std::string("multigrid: ") + what + ": coarse level " + std::to_string(coarse.nx) +
                "x" + std::to_string(coarse.ny) + "x" + std::to_string(coarse.nz) +
                " has planes too large for 32-bit offsets (" + std::to_string(reach) +
                " elements, at most " + std::to_string(std::numeric_limits<int>::max()) + ")");
}

void require_split_pair(const Dims& fine, const Dims& coarse, const char* what) {
  const bool pair = fine.dim == 3 && coarse.dim == 3 && coarse.nx == (fine.nx - 1) / 2 &&
                    coarse.ny == (fine.ny - 1) / 2 && coarse.nz == (fine.nz - 1) / 2;
  if (!fine.split || !pair)
    throw Error(std::string("multigrid: ") + what +
                " needs a split 3D level and its coarsening, got " + std::to_string(fine.nx) + "x" +
                std::to_string(fine.ny) + "x" + std::to_string(fine.nz) +
                (fine.split ? " (split)" : " (natural)") + " over " + std::to_string(coarse.nx) +
                "x" + std::to_string(coarse.ny) + "x" + std::to_string(coarse.nz));
  require_cube_offsets(coarse, what);
}

}  // namespace tessera::mg::kernels
