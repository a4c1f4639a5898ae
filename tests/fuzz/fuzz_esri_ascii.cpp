// ESRI ASCII grid reader (bathymetry, initial levels of `tessera swe`).
#include <cstdint>

#include "core/error.hpp"
#include "fuzz_support.hpp"
#include "swe/cases.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const auto file = tessera::fuzz::scratch_file(".asc");
  tessera::fuzz::put_file(file, data, size);
  try {
    const tessera::swe::AscGrid g = tessera::swe::read_asc(file.string());
    // What the reader promises its callers: a full grid.
    if (g.values.size() != static_cast<std::size_t>(g.ncols * g.nrows)) __builtin_trap();
  } catch (const tessera::Error&) {
  }
  return 0;
}
