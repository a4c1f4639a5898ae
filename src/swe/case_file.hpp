// TOML case files for `tessera swe` (toml++): the same keys as the command
// line options, without the leading dashes.
#pragma once
#include <string>
#include <vector>

namespace tessera::swe {

struct CaseFileEntry {
  std::string key, value;  ///< value as command-line text
  long line = 0;
};

/// Reads a flat TOML table of strings, numbers and booleans; errors name the
/// file and line (exit 2: it is the user's input).
std::vector<CaseFileEntry> read_case_file(const std::string& path);

}  // namespace tessera::swe
