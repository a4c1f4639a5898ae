// Entries of the OpenCL program-binary cache: anything that parses must be
// exactly what format_binary_entry would have written for its binary.
#include <cstdint>
#include <string_view>

#include "backends/opencl/cl_binary_entry.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view entry(reinterpret_cast<const char*>(data), size);
  if (const auto bin = tessera::opencl::parse_binary_entry(entry)) {
    if (tessera::opencl::format_binary_entry(*bin) != entry) __builtin_trap();
  }
  return 0;
}
