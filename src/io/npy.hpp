// NumPy .npy files (format versions 1.0-3.0), C order: little-endian
// float32/float64 (grids), and bool/uint8/int8 (voxel masks) for reading.
// Enough for exchanging grids and masks with Python without extra libraries.
#pragma once
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace tessera::io {

struct NpyArray {
  std::vector<std::int64_t> shape;
  std::vector<double> data;  ///< C order (last index fastest), converted to double on
                             ///< reading (bool: 0 or 1)
  std::string dtype;         ///< "<f4", "<f8", "|b1", "|u1" or "|i1" as stored
};

/// Reads a .npy file; throws Error naming the file and what is wrong
/// (bad magic, unsupported dtype or order, truncated data, size overflow, a
/// bool byte other than 0 or 1). Fortran order is refused.
NpyArray read_npy(const std::filesystem::path& path);

/// Writes C-order data with the given shape atomically (temporary + rename).
template <class T>
void write_npy(const std::filesystem::path& path, const std::vector<std::int64_t>& shape,
               const std::vector<T>& data);

}  // namespace tessera::io
