// .vti reader (LBM voxel masks; io/vti_read.hpp): ascii, base64 and raw
// appended arrays, zlib blocks, gzip through read_file_bytes. Anything
// accepted must hold exactly the values its extent and components say.
#include <cstdint>
#include <string>

#include "core/error.hpp"
#include "fuzz_support.hpp"
#include "io/vti_read.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const auto file = tessera::fuzz::scratch_file(".vti");
  tessera::fuzz::put_file(file, data, size);
  for (const char* name : {"", "solid", "velocity"}) {
    try {
      const tessera::io::VtiField f = tessera::io::read_vti_array(file, name);
      std::uint64_t n = std::uint64_t(f.components);
      for (long d : f.dims) {
        if (d < 1 || n > (std::uint64_t(1) << 40) / std::uint64_t(d)) __builtin_trap();
        n *= std::uint64_t(d);
      }
      if (f.components < 1 || f.values.size() != n) __builtin_trap();
      if (*name && f.name != name) __builtin_trap();
    } catch (const tessera::Error&) {
    }
  }
  return 0;
}
