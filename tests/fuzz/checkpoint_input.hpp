// The checkpoint harnesses' input: the fuzzer's bytes after the first, which
// picks the mode. The trailing checksum would stop almost every mutation at
// the first check, so mode 1 (bit 0 set) re-seals them: the last 8 bytes
// become the FNV-1a 64 of the rest, and mutations reach the header, size and
// state checks behind it. Empty when there is nothing to parse.
#pragma once
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>

#include "core/hash.hpp"

inline std::optional<std::string> checkpoint_input(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return std::nullopt;
  std::string bytes(reinterpret_cast<const char*>(data + 1), size - 1);
  if (data[0] & 1) {
    if (bytes.size() < 8) return std::nullopt;
    const std::uint64_t sum = tessera::fnv1a64(std::string_view(bytes).substr(0, bytes.size() - 8));
    std::memcpy(bytes.data() + bytes.size() - 8, &sum, 8);
  }
  return bytes;
}
