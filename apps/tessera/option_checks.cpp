#include "apps/tessera/option_checks.hpp"

#include <cmath>
#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <system_error>
#include <vector>

#include <fcntl.h>
#include <unistd.h>

#include <fmt/format.h>

#include "core/atomic_file.hpp"
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

std::vector<std::string> split_list(const std::string& option, const std::string& value) {
  std::vector<std::string> items;
  if (value.empty()) return items;
  for (std::size_t start = 0;;) {
    const std::size_t comma = value.find(',', start);
    items.push_back(
        value.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (items.back().empty())
      throw UsageError(
          fmt::format("{} '{}': an empty item in the comma-separated list (give items such as a,b)",
                      option, value));
    if (comma == std::string::npos) return items;
    start = comma + 1;
  }
}

CLI::Validator finite_number() {
  return CLI::Validator(
      [](std::string& s) -> std::string {
        if (s.empty()) return "expected a number, got an empty value";
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
        const bool ok = std::isfinite(v) && (open_lo ? v > lo : v >= lo) &&
                        (no_hi || (open_hi ? v < hi : v <= hi));
        if (!ok) return "expected a finite number " + text + ", got " + s;
        return {};
      },
      "NUMBER " + text, "interval");
}

CLI::Validator non_empty_number() {
  return CLI::Validator(
      [](std::string& s) -> std::string {
        return s.empty() ? "expected a number, got an empty value" : "";
      },
      "", "non-empty");
}

void require_finite_everywhere(CLI::App& app) {
  for (CLI::Option* o : app.get_options()) {
    const std::string t = o->get_type_name();
    if (t.rfind("FLOAT", 0) == 0) o->check(finite_number());
    if (t.rfind("INT", 0) == 0 || t.rfind("UINT", 0) == 0) o->check(non_empty_number());
  }
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; }))
    require_finite_everywhere(*sub);
}

namespace {

namespace fs = std::filesystem;

enum class Output { none, file, folder };

// The options whose value is a path the command writes: a file (written
// into an existing folder) or, for the commands whose --out is a folder of
// outputs, a folder (made with its parents by the run).
Output output_kind(const CLI::App& command, const CLI::Option& o) {
  if (o.get_items_expected_max() == 0) return Output::none;  // a flag (sparse's --json)
  const std::string& c = command.get_name();
  if (o.check_name("--out") && (c == "lbm" || c == "swe" || c == "report" || c == "demo"))
    return Output::folder;
  for (const char* n : {"--out", "--json", "--checkpoint", "--export", "out"})
    if (o.check_name(n)) return Output::file;
  return Output::none;
}

// True when `p` is `folder` or lies inside it (both absolute and normal).
bool inside(const fs::path& p, const fs::path& folder) {
  auto f = folder.begin();
  for (auto q = p.begin(); f != folder.end(); ++q, ++f)
    if (q == p.end() || *q != *f) return false;
  return true;
}

// `folders`: the output folders the command makes with their parents; a file
// may go into one of them or one of those parents (lbm --out run/out
// --checkpoint run/c.ckpt), not into a subfolder the run does not make.
void probe(const std::string& option, const std::string& value, Output kind,
           const std::vector<fs::path>& folders) {
  if (value.empty() || (option == "--json" && value == "-")) return;  // standard output
  // (normalised for comparing with --out; a trailing separator names the same path)
  fs::path target = fs::absolute(fs::path(value)).lexically_normal();
  if (!target.has_filename() && target.has_parent_path()) target = target.parent_path();
  fs::path dir = target.parent_path();
  std::error_code ec;
  if (kind == Output::file && fs::is_directory(target, ec))
    throw Error(fmt::format("{} {}: cannot be written: it is a folder, a file name is expected",
                            option, value));
  if (kind == Output::folder && fs::exists(target, ec) && !fs::is_directory(target, ec))
    throw Error(
        fmt::format("{} {}: cannot be written: it is a file, a folder is expected", option, value));
  // (a ".." in the name is resolved by the system through folders that may
  // not exist yet: no exception then)
  const fs::path given(value);
  const bool dots =
      std::any_of(given.begin(), given.end(), [](const fs::path& c) { return c == ".."; });
  if (kind == Output::file && !fs::exists(dir, ec) && !dots)
    for (const fs::path& f : folders)
      if (inside(f, dir))
        kind = Output::folder;  // --out itself or one of the parents it is made with
  if (kind == Output::folder) {
    // an existing folder is probed inside; else its nearest existing ancestor
    if (fs::is_directory(target, ec)) dir = target;
    while (!dir.empty() && !fs::exists(dir, ec) && dir != dir.parent_path())
      dir = dir.parent_path();
  } else if (!fs::exists(dir, ec)) {
    throw Error(fmt::format("{} {}: cannot be written: the folder {} does not exist", option, value,
                            dir.string()));
  }
  if (!fs::is_directory(dir, ec))
    throw Error(
        fmt::format("{} {}: cannot be written: {} is not a folder", option, value, dir.string()));
  // every name still to be made, the file's included, must fit the folder's limit
  const long name_max = ::pathconf(dir.c_str(), _PC_NAME_MAX);
  const fs::path to_make = target.lexically_relative(dir);
  if (name_max > 0)
    for (const fs::path& c : to_make)
      if (long(c.string().size()) > name_max)
        throw Error(fmt::format(
            "{} {}: cannot be written: the name '{}' is longer than the {} characters {} allows",
            option, value.size() > 80 ? value.substr(0, 80) + "..." : value,
            c.string().size() > 40 ? c.string().substr(0, 40) + "..." : c.string(), name_max,
            dir.string()));
  const std::string tmpl = (dir / ".tessera-probe-XXXXXX").string();
  std::string name = tmpl;
  const int fd = ::mkstemp(name.data());
  if (fd < 0)
    throw Error(fmt::format("{} {}: cannot be written: {}: {}", option, value, dir.string(),
                            std::strerror(errno)));
  ::close(fd);
  ::unlink(name.c_str());
}

}  // namespace

void probe_output_paths(CLI::App& command) {
  // `--json -` (or a bare --json): standard output carries the JSON alone
  if (const CLI::Option* j = command.get_option_no_throw("--json"); j && j->count() > 0)
    if (j->results().empty() || j->results().front() == "-") reserve_stdout_for_output();
  std::vector<fs::path> folders;
  for (const CLI::Option* o : command.get_options())
    if (o->count() > 0 && output_kind(command, *o) == Output::folder)
      for (const std::string& v : o->results())
        if (!v.empty()) {
          fs::path f = fs::absolute(fs::path(v)).lexically_normal();
          if (!f.has_filename() && f.has_parent_path()) f = f.parent_path();
          folders.push_back(f);
        }
  for (const CLI::Option* o : command.get_options())
    if (o->count() > 0)
      if (const Output kind = output_kind(command, *o); kind != Output::none)
        for (const std::string& v : o->results()) probe(o->get_name(), v, kind, folders);
  for (CLI::App* sub : command.get_subcommands([](CLI::App*) { return true; }))
    if (sub->parsed()) probe_output_paths(*sub);
}

void apply_case_file_options(CLI::App& cmd, const std::string& path,
                             const std::vector<io::CaseFileEntry>& entries,
                             const std::string& command) {
  for (const auto& e : entries) {
    if (!e.table.empty()) continue;
    if (e.key == "config")
      throw UsageError(fmt::format("{}:{}: a case file cannot name another", path, e.line));
    CLI::Option* opt = nullptr;
    try {
      opt = cmd.get_option("--" + e.key);
    } catch (const CLI::OptionNotFound&) {
      throw UsageError(fmt::format("{}:{}: unknown key '{}' (keys are the options of tessera {})",
                                   path, e.line, e.key, command));
    }
    if (opt->count() > 0) continue;  // the command line wins
    try {
      if (e.is_array) {
        if (e.items.empty())
          throw UsageError(
              fmt::format("{}:{}: {}: an empty array gives no value", path, e.line, e.key));
        for (const auto& item : e.items) opt->add_result(item);
      } else {
        opt->add_result(e.value);
      }
      opt->run_callback();
    } catch (const CLI::Error& err) {
      throw UsageError(fmt::format("{}:{}: {}: {}", path, e.line, e.key, err.what()));
    }
  }
}

}  // namespace tessera::app
