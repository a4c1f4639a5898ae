// The on-disk format of one OpenCL program-cache entry, without OpenCL types so
// that it can be tested and fuzzed alone (tests/fuzz/fuzz_cl_cache_entry.cpp):
//   magic "TSCLBIN1" (8) | binary size (8, host order) | FNV-1a 64 of the binary (8) | binary
// An entry that does not parse is treated as absent (rebuilt), never trusted.
#pragma once
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>

#include "core/hash.hpp"

namespace tessera::opencl {

inline constexpr char kBinaryEntryMagic[8] = {'T', 'S', 'C', 'L', 'B', 'I', 'N', '1'};
inline constexpr std::uint64_t kMaxBinaryEntryBytes = std::uint64_t(1) << 30;

/// The program binary held by a cache entry, or nothing when the entry is
/// short, foreign, truncated, oversized, has trailing bytes or a bad checksum.
inline std::optional<std::string_view> parse_binary_entry(std::string_view entry) {
  constexpr std::size_t kHeader = 24;
  if (entry.size() < kHeader || std::memcmp(entry.data(), kBinaryEntryMagic, 8) != 0)
    return std::nullopt;
  std::uint64_t size = 0, checksum = 0;
  std::memcpy(&size, entry.data() + 8, 8);
  std::memcpy(&checksum, entry.data() + 16, 8);
  if (size == 0 || size > kMaxBinaryEntryBytes || size != entry.size() - kHeader)
    return std::nullopt;
  const std::string_view bin = entry.substr(kHeader);
  if (fnv1a64(bin) != checksum) return std::nullopt;
  return bin;
}

/// A cache entry holding `binary`.
inline std::string format_binary_entry(std::string_view binary) {
  std::string out(kBinaryEntryMagic, 8);
  const std::uint64_t size = binary.size(), checksum = fnv1a64(binary);
  out.append(reinterpret_cast<const char*>(&size), 8);
  out.append(reinterpret_cast<const char*>(&checksum), 8);
  out.append(binary);
  return out;
}

}  // namespace tessera::opencl
