#include "swe/case_file.hpp"

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
  toml::table t;
  try {
    t = toml::parse_file(path);
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
