// VTK XML image data (.vti, raw appended arrays) and ParaView collections
// (.pvd): the field outputs of swe, lbm and mg, readable by ParaView, VisIt
// and pyvista. One writer, so that every module's files share one layout:
// each array is a little-endian UInt64 byte count followed by its values,
// x fastest, components interleaved. Files are written atomically.
#pragma once
#include <array>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tessera::io {

/// One data array: Float64 (f64) or Float32 (f32, used when f64 is empty).
struct VtiArray {
  std::string name;
  int components = 1;
  std::vector<double> f64;
  std::vector<float> f32;
};

struct VtiImage {
  /// WholeExtent's upper ends: 0..extent[a] points along axis a.
  std::array<long, 3> extent{0, 0, 0};
  std::array<double, 3> origin{0, 0, 0}, spacing{1, 1, 1};
  /// Values per cell (extent[a] cells per axis, at least one) or per point.
  bool cell_data = false;
  std::optional<double> time;  ///< FieldData TimeValue
  std::vector<VtiArray> arrays;
  /// The arrays viewers show first (empty: none named).
  std::string active_scalars, active_vectors;
};

void write_vti(const std::filesystem::path& path, const VtiImage& image);

/// A .pvd collection: (time, file name relative to the .pvd) entries.
void write_pvd(const std::filesystem::path& path,
               const std::vector<std::pair<double, std::string>>& entries);

}  // namespace tessera::io
