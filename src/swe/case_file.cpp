#include "swe/case_file.hpp"

#include <algorithm>
#include <fstream>
#include <iterator>

#include <fmt/format.h>

#include "core/error.hpp"

#if TESSERA_SWE_HAVE_TOML
#include <toml++/toml.h>
#endif

namespace tessera::swe {

#if !TESSERA_SWE_HAVE_TOML
std::vector<CaseFileEntry> read_case_file(const std::string& path) {
  throw UsageError(fmt::format("{}: this tessera was built without toml++ (Debian package "
                               "libtomlplusplus-dev), so it cannot read case files",
                               path));
}
#else
std::vector<CaseFileEntry> read_case_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(fmt::format("{}: cannot open the case file", path));
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) throw Error(fmt::format("{}: cannot read the case file", path));
  // toml++ 3.3 (Debian bookworm) reaches __builtin_unreachable() on some
  // non-ASCII characters (upstream issues #190, #295) and fails an internal
  // assertion on a NUL in a table header (both found by
  // tests/fuzz/fuzz_toml_case.cpp). Every key and value tessera reads is
  // printable ASCII, and TOML forbids control characters other than tab and
  // newlines anyway, so refuse other bytes before toml++ sees them.
  long line = 1, column = 1;
  for (unsigned char ch : text) {
    if (ch >= 0x80)
      throw UsageError(fmt::format("{}:{}:{}: non-ASCII byte 0x{:02X}: case files must be plain ASCII", path,
                                   line, column, ch));
    if ((ch < 0x20 && ch != '\t' && ch != '\n' && ch != '\r') || ch == 0x7f)
      throw UsageError(fmt::format("{}:{}:{}: control character 0x{:02X} (TOML allows only tab and newlines)", path,
                                   line, column, ch));
    if (ch == '\n') line++, column = 1;
    else column++;
  }
  // Case files are flat `key = value` lines; a table header is refused here
  // (it would be refused below as a non-scalar anyway) because toml++ 3.3
  // assumes, without checking, that a key follows '[' (undefined behaviour
  // for "[ = ..."; found by fuzzing).
  line = 1;
  for (std::size_t at = 0; at < text.size(); ++line) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    const std::size_t first = text.find_first_not_of(" \t\r", at);
    if (first < end && text[first] == '[')
      throw UsageError(fmt::format("{}:{}: tables ([...]) are not part of a case file (flat 'key = value' lines only)",
                                   path, line));
    // Arrays and inline tables likewise (toml++ 3.3 asserts on "k = [}"; found by fuzzing).
    if (first < end && text[first] != '#') {
      const std::size_t eq = text.find('=', first);
      const std::size_t value = eq < end ? text.find_first_not_of(" \t", eq + 1) : std::string::npos;
      if (value < end && (text[value] == '[' || text[value] == '{'))
        throw UsageError(fmt::format("{}:{}: arrays and inline tables are not part of a case file (values are "
                                     "strings, numbers or booleans)", path, line));
    }
    at = end + 1;
  }
  toml::table t;
  try {
    t = toml::parse(text, path);
  } catch (const toml::parse_error& e) {
    throw UsageError(fmt::format("{}:{}: {}", path, e.source().begin.line, e.description()));
  }
  std::vector<CaseFileEntry> out;
  for (const auto& [k, node] : t) {
    CaseFileEntry e{std::string(k.str()), "", static_cast<long>(node.source().begin.line)};
    if (auto s = node.value<std::string>(); s && node.is_string()) e.value = *s;
    else if (node.is_integer()) e.value = std::to_string(*node.value<std::int64_t>());
    else if (node.is_floating_point()) e.value = fmt::format("{:.17g}", *node.value<double>());
    else if (node.is_boolean()) e.value = *node.value<bool>() ? "true" : "false";
    else
      throw UsageError(fmt::format("{}:{}: key '{}' must be a string, number or boolean", path, e.line, e.key));
    out.push_back(std::move(e));
  }
  return out;
}
#endif

}  // namespace tessera::swe
