// Helpers shared by the harnesses: readers that take a path get the input
// through a per-process file in a tmpfs when there is one.
#pragma once
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

namespace tessera::fuzz {

inline std::filesystem::path scratch_file(const char* suffix) {
  const char* dir = std::getenv("TESSERA_FUZZ_TMP");
  std::filesystem::path base =
      dir && *dir ? dir : (std::filesystem::exists("/dev/shm") ? "/dev/shm" : "/tmp");
  return base / ("tessera-fuzz-" + std::to_string(::getpid()) + suffix);
}

inline void put_file(const std::filesystem::path& p, const std::uint8_t* data, std::size_t size) {
  std::FILE* f = std::fopen(p.c_str(), "wb");
  if (!f) std::abort();
  if (size && std::fwrite(data, 1, size, f) != size) std::abort();
  std::fclose(f);
}

}  // namespace tessera::fuzz
