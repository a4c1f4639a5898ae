// swe checkpoint files (`tessera swe --restart`). As for lbm, the checksum
// would stop almost every mutation at the first check, so mode 1 re-seals
// the input: the fuzzer's bytes get a valid trailing checksum and reach the
// header, size and state checks behind it.
#include <cstdint>
#include <cstring>
#include <string>

#include "core/error.hpp"
#include "core/hash.hpp"
#include "swe/checkpoint_format.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  std::string bytes(reinterpret_cast<const char*>(data + 1), size - 1);
  if (data[0] & 1) {
    if (bytes.size() < 8) return 0;
    const std::uint64_t sum = tessera::fnv1a64(std::string_view(bytes).substr(0, bytes.size() - 8));
    std::memcpy(bytes.data() + bytes.size() - 8, &sum, 8);
  }
  try {
    const auto c = tessera::swe::parse_swe_checkpoint(bytes, "fuzz.ckpt");
    // what was accepted must format back to the same state bytes
    if (c.nx() < 1 || c.ny() < 1 || c.steps() < 0) __builtin_trap();
    const auto again = tessera::swe::parse_swe_checkpoint(tessera::swe::format_swe_checkpoint(c), "again.ckpt");
    if (again.steps() != c.steps() || again.nx() != c.nx() || again.model() != c.model()) __builtin_trap();
  } catch (const tessera::Error&) {
  }
  return 0;
}
