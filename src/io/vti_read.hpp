// Reading one data array of a VTK XML ImageData file (.vti), as ParaView,
// VTK, pyvista and tessera's own writer (io/vti.hpp) write them: ascii,
// binary (base64) or appended (raw or base64) arrays, uncompressed or
// compressed by vtkZLibDataCompressor, headers of UInt32 or UInt64, point or
// cell data, one piece. The XML is parsed by expat (what VTK itself uses),
// stopped at the appended data, whose bytes follow the '_' marker.
#pragma once
#include <array>
#include <filesystem>
#include <string>
#include <vector>

namespace tessera::io {

struct VtiField {
  std::string name;
  bool cell_data = false;
  /// Values per axis (cells for cell data, points for point data), x fastest.
  std::array<long, 3> dims{0, 0, 0};
  int components = 1;
  std::vector<double> values;  ///< dims[0] * dims[1] * dims[2] * components, x fastest
  std::string type;            ///< the DataArray's type as written (UInt8, Float32, ...)
};

/// Whether this build reads .vti files (expat found at build time).
bool vti_reading_available();

/// The data array `name` of `path` ("": the only array of the file, else
/// the one called "solid" (tessera's outputs), else refused naming the
/// arrays there). Throws Error naming the file and what
/// is wrong: not an ImageData file, big-endian data, another compressor,
/// several pieces, a missing array, truncated or corrupt data, a value that
/// is not a number; and in a build without expat, that .vti files are not
/// read here (convert the mask to .npy).
VtiField read_vti_array(const std::filesystem::path& path, const std::string& name = "");

}  // namespace tessera::io
