// The registries behind RegisterCommand and RegisterBenchSuite. Function-local
// statics: registrars in other translation units may run before this file's
// globals are initialised.
#include "apps/tessera/commands.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "apps/tessera/option_checks.hpp"
#include "core/error.hpp"

namespace tessera::app {

namespace {
std::vector<std::pair<int, CommandFactory>>& command_table() {
  static std::vector<std::pair<int, CommandFactory>> table;
  return table;
}
std::vector<BenchSuiteEntry>& suite_table() {
  static std::vector<BenchSuiteEntry> table;
  return table;
}
}  // namespace

RegisterCommand::RegisterCommand(int order, CommandFactory factory) {
  command_table().emplace_back(order, factory);
}

std::vector<Command> make_commands(CLI::App& app) {
  auto table = command_table();
  std::stable_sort(table.begin(), table.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<Command> out;
  for (const auto& [order, factory] : table) out.push_back(factory(app));
  return out;
}

RegisterBenchSuite::RegisterBenchSuite(std::string name, std::string help, BenchSuite run) {
  auto& t = suite_table();
  t.push_back({std::move(name), std::move(help), std::move(run)});
  std::sort(t.begin(), t.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
}

const std::vector<BenchSuiteEntry>& bench_suites() { return suite_table(); }

std::string BenchArgs::param(const std::string& key, const std::string& fallback) const {
  for (const auto& p : params) {
    const auto eq = p.find('=');
    if (eq == std::string::npos) throw UsageError("--param '" + p + "': expected key=value");
    if (p.compare(0, eq, key) == 0 && eq == key.size()) return p.substr(eq + 1);
  }
  return fallback;
}

CLI::Option* add_json_option(CLI::App* cmd, std::string& path, const std::string& what) {
  return cmd
      ->add_option("--json", path, what + " as JSON to FILE (\"-\" or no FILE: standard output)")
      ->expected(0, 1)
      ->default_str("-")
      ->option_text("[FILE]");
}

long parse_int_param(const std::string& key, const std::string& text, long min) {
  try {
    std::size_t used = 0;
    const long n = std::stol(text, &used);
    if (used == text.size() && n >= min) return n;
  } catch (const std::exception&) {  // not a number, or out of range: the message below
  }
  throw UsageError("--param " + key + "=" + text +
                   ": expected an integer >= " + std::to_string(min));
}

double parse_double_param(const std::string& key, const std::string& text, double lo, double hi) {
  try {
    std::size_t used = 0;
    const double v = std::stod(text, &used);
    if (used == text.size() && v >= lo && v <= hi) return v;
  } catch (const std::exception&) {  // not a number, or out of range: the message below
  }
  throw UsageError(fmt::format("--param {}={}: expected a number in [{}, {}]", key, text, lo, hi));
}

long BenchArgs::param_int(const std::string& key, const std::string& fallback, long min) const {
  return parse_int_param(key, param(key, fallback), min);
}

std::vector<std::string> BenchArgs::param_list(const std::string& key,
                                               const std::string& fallback) const {
  return split_list("--param " + key, param(key, fallback));
}

bool BenchArgs::param_flag(const std::string& key, bool fallback) const {
  const std::string v = param(key, fallback ? "1" : "0");
  if (v != "0" && v != "1") throw UsageError("--param " + key + "=" + v + ": expected 0 or 1");
  return v == "1";
}

}  // namespace tessera::app
