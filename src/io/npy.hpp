// NumPy .npy files (format versions 1.0-3.0), little-endian float32/float64,
// C order. Enough for exchanging grids with Python without extra libraries.
#pragma once
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace tessera::io {

struct NpyArray {
  std::vector<std::int64_t> shape;
  std::vector<double> data;  ///< converted to double on reading
  std::string dtype;         ///< "<f4" or "<f8" as stored
};

/// Reads a .npy file; throws Error naming the file and what is wrong
/// (bad magic, unsupported dtype or order, truncated data, size overflow).
NpyArray read_npy(const std::filesystem::path& path);

/// Writes C-order data with the given shape atomically (temporary + rename).
template <class T>
void write_npy(const std::filesystem::path& path, const std::vector<std::int64_t>& shape,
               const std::vector<T>& data);

}  // namespace tessera::io
