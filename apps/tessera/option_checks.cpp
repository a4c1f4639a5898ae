#include "apps/tessera/option_checks.hpp"

#include <cmath>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <system_error>

#include <fcntl.h>
#include <unistd.h>

#include <fmt/format.h>

#include "core/error.hpp"

namespace tessera::app {

namespace {
// The number a FLOAT option's text holds as CLI11 reads it (strtod: also
// "nan", "inf", hex floats); false when the text is no number at all (CLI11's
// own conversion reports those).
bool to_double(const std::string& s, double& v) {
  char* end = nullptr;
  v = std::strtod(s.c_str(), &end);
  return end != s.c_str() && *end == '\0';
}
}  // namespace

CLI::Validator finite_number() {
  return CLI::Validator(
      [](std::string& s) -> std::string {
        double v = 0;
        if (to_double(s, v) && !std::isfinite(v)) return "expected a finite number, got " + s;
        return {};
      },
      "FINITE", "finite");
}

CLI::Validator interval(double lo, double hi, bool open_lo, bool open_hi) {
  const bool no_hi = hi >= 1e308;
  const std::string text =
      no_hi ? fmt::format("{} {}", open_lo ? ">" : ">=", lo)
            : fmt::format("in {}{}, {}{}", open_lo ? "(" : "[", lo, hi, open_hi ? ")" : "]");
  return CLI::Validator(
      [=](std::string& s) -> std::string {
        double v = 0;
        if (!to_double(s, v)) return {};  // not a number: CLI11's conversion says so
        const bool ok = std::isfinite(v) && (open_lo ? v > lo : v >= lo) && (no_hi || (open_hi ? v < hi : v <= hi));
        if (!ok) return "expected a finite number " + text + ", got " + s;
        return {};
      },
      "NUMBER " + text, "interval");
}

void require_finite_everywhere(CLI::App& app) {
  for (CLI::Option* o : app.get_options())
    if (o->get_type_name() == "FLOAT" || o->get_type_name().rfind("FLOAT", 0) == 0) o->check(finite_number());
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) require_finite_everywhere(*sub);
}

namespace {

namespace fs = std::filesystem;

// The options whose value is a path the command writes.
bool is_output_option(const CLI::Option& o) {
  if (o.get_items_expected_max() == 0) return false;  // a flag (sparse's --json)
  for (const char* n : {"--out", "--json", "--checkpoint", "--export", "out"})
    if (o.check_name(n)) return true;
  return false;
}

void probe(const std::string& option, const std::string& value) {
  if (value.empty()) return;
  const fs::path target = fs::absolute(fs::path(value));
  fs::path dir = target.parent_path();
  std::error_code ec;
  // An existing target that is a folder is probed inside (--out DIR); the
  // nearest existing ancestor otherwise (the rest is created by the run).
  if (fs::is_directory(target, ec)) dir = target;
  while (!dir.empty() && !fs::exists(dir, ec)) {
    if (dir == dir.parent_path()) break;
    dir = dir.parent_path();
  }
  if (!fs::is_directory(dir, ec))
    throw Error(fmt::format("{} {}: cannot be written: {} is not a folder", option, value, dir.string()));
  const std::string tmpl = (dir / ".tessera-probe-XXXXXX").string();
  std::string name = tmpl;
  const int fd = ::mkstemp(name.data());
  if (fd < 0)
    throw Error(fmt::format("{} {}: cannot be written: {}: {}", option, value, dir.string(), std::strerror(errno)));
  ::close(fd);
  ::unlink(name.c_str());
}

}  // namespace

void probe_output_paths(CLI::App& command) {
  for (const CLI::Option* o : command.get_options())
    if (o->count() > 0 && is_output_option(*o))
      for (const std::string& v : o->results()) probe(o->get_name(), v);
  for (CLI::App* sub : command.get_subcommands([](CLI::App*) { return true; }))
    if (sub->parsed()) probe_output_paths(*sub);
}

}  // namespace tessera::app
