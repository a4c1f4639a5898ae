// 64-bit FNV-1a: cache keys and file checksums (not cryptographic).
#pragma once
#include <cstdint>
#include <string_view>

namespace tessera {

constexpr std::uint64_t fnv1a64(std::string_view data,
                                std::uint64_t h = 0xcbf29ce484222325ull) noexcept {
  for (unsigned char c : data) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return h;
}

}  // namespace tessera
