// Case files of `tessera swe --config` (the flat TOML subset of swe/case_file.cpp).
#include <cstdint>

#include "core/error.hpp"
#include "fuzz_support.hpp"
#include "swe/case_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const auto file = tessera::fuzz::scratch_file(".toml");
  tessera::fuzz::put_file(file, data, size);
  try {
    (void)tessera::swe::read_case_file(file.string());
  } catch (const tessera::Error&) {
  }
  return 0;
}
