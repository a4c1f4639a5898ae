#include "core/embedded_sources.hpp"

#include <set>
#include <sstream>

#include "core/error.hpp"

namespace tessera {

namespace {

const EmbeddedSource* find_source(std::string_view name) {
  for (std::size_t i = 0; i < kEmbeddedSourceCount; ++i)
    if (name == kEmbeddedSources[i].name) return &kEmbeddedSources[i];
  return nullptr;
}

std::string directory_of(std::string_view path) {
  auto slash = path.rfind('/');
  return slash == std::string_view::npos ? std::string() : std::string(path.substr(0, slash + 1));
}

// Returns the quoted file name of an `#include "..."` line, or empty.
std::string quoted_include(const std::string& line) {
  std::size_t p = line.find_first_not_of(" \t");
  if (p == std::string::npos || line[p] != '#') return {};
  p = line.find_first_not_of(" \t", p + 1);
  if (line.compare(p, 7, "include") != 0) return {};
  auto open = line.find('"', p + 7);
  auto close = open == std::string::npos ? open : line.find('"', open + 1);
  if (close == std::string::npos) return {};
  return line.substr(open + 1, close - open - 1);
}

// Every #include is expanded where it stands, as the C preprocessor would:
// a guarded header's guard keeps its second copy empty, and a header
// without one (krylov_basis.h, included once per basis storage) is meant to
// be included again. Only a file already being expanded (an include cycle)
// is not entered again.
void expand_into(std::string_view name, std::set<std::string, std::less<>>& open,
                 std::ostringstream& out) {
  const EmbeddedSource* src = find_source(name);
  if (!src) throw Error("embedded kernel source '" + std::string(name) + "' not found");
  open.emplace(name);
  std::istringstream in(src->text);
  std::string line;
  int lineno = 0;
  out << "#line 1 \"" << name << "\"\n";
  while (std::getline(in, line)) {
    ++lineno;
    std::string inc = quoted_include(line);
    if (inc.empty()) {
      out << line << '\n';
      continue;
    }
    std::string beside = directory_of(name) + inc;
    std::string resolved = find_source(beside) ? beside : inc;
    if (!find_source(resolved))
      throw Error("embedded kernel source '" + std::string(name) + "' line " +
                  std::to_string(lineno) + ": included file '" + inc + "' is not embedded");
    if (!open.count(resolved)) expand_into(resolved, open, out);
    out << "#line " << lineno + 1 << " \"" << name << "\"\n";
  }
  open.erase(open.find(name));
}

}  // namespace

std::string_view embedded_source(std::string_view name) {
  const EmbeddedSource* src = find_source(name);
  if (!src) throw Error("embedded kernel source '" + std::string(name) + "' not found");
  return src->text;
}

std::string expand_includes(std::string_view name) {
  std::set<std::string, std::less<>> open;
  std::ostringstream out;
  expand_into(name, open, out);
  return out.str();
}

}  // namespace tessera
