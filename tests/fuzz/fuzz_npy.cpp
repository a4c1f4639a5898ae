// NumPy .npy reader (right-hand sides of `tessera mg --rhs`).
#include <cstdint>

#include "core/error.hpp"
#include "fuzz_support.hpp"
#include "io/npy.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const auto file = tessera::fuzz::scratch_file(".npy");
  tessera::fuzz::put_file(file, data, size);
  try {
    const auto a = tessera::io::read_npy(file);
    std::int64_t n = 1;
    for (auto d : a.shape) n *= d;
    if (static_cast<std::size_t>(n) != a.data.size()) __builtin_trap();
  } catch (const tessera::Error&) {
  }
  return 0;
}
