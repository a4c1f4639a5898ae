// TOML case files (`tessera swe --config`, `tessera lbm --config`): the
// subset of TOML those commands need, parsed completely and strictly here
// (why not toml++: case_file.cpp). Every case file is valid TOML and means
// the same there.
#pragma once
#include <string>
#include <vector>

namespace tessera::io {

/// What a command's case files may hold beyond flat `key = value` lines of
/// strings, numbers and booleans.
struct CaseFileSyntax {
  bool tables = false;  ///< `[name]` and `[[name]]` (an array of tables) headers
  bool arrays = false;  ///< one-line arrays of those scalars, `[1, 2.5, 3]`
};

struct CaseFileEntry {
  std::string table;               ///< "" at the top, else the header's name
  int index = -1;                  ///< `[[table]]`: 0, 1, ... in file order; -1 otherwise
  std::string key, value;          ///< value as command-line text (scalars)
  std::vector<std::string> items;  ///< an array's elements as command-line text
  bool is_array = false;
  long line = 0;
};

/// Reads a case file; errors name the file, line and column (UsageError,
/// exit 2: it is the user's input). A key given twice in one table, a table
/// given twice, and whatever `syntax` does not allow are refused.
std::vector<CaseFileEntry> read_case_file(const std::string& path, CaseFileSyntax syntax = {});

/// "file:line" of an entry, for the messages of the command that reads it.
std::string where(const std::string& path, const CaseFileEntry& e);

}  // namespace tessera::io
