// Case files of `tessera swe --config` and `tessera lbm --config` (the TOML
// subset of io/case_file.cpp); the first byte's low bits choose the syntax
// (tables, arrays) and are part of the text too.
#include <cstdint>

#include "core/error.hpp"
#include "fuzz_support.hpp"
#include "io/case_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const auto file = tessera::fuzz::scratch_file(".toml");
  tessera::fuzz::put_file(file, data, size);
  try {
    const unsigned mode = size ? data[0] : 0u;
    (void)tessera::io::read_case_file(file.string(), {(mode & 1) != 0, (mode & 2) != 0});
  } catch (const tessera::Error&) {
  }
  return 0;
}
