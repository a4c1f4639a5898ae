// Sub-commands of the `tessera` program and `tessera bench` suites. Each
// apps/tessera/cmd_<name>.cpp registers its sub-command and each
// bench/cli/<suite>.cpp its suite with a static registrar, so adding a
// module's command touches no shared file.
#pragma once
#include <CLI/CLI.hpp>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "bench/harness.hpp"
#include "core/device.hpp"

namespace tessera::app {

/// A registered sub-command and what runs when it was given.
struct Command {
  CLI::App* app;
  std::function<int()> action;
};
using CommandFactory = Command (*)(CLI::App&);

/// `static RegisterCommand r{order, add_x_command};` in a cmd_*.cpp file;
/// `order` sorts the sub-commands in `tessera --help`.
struct RegisterCommand {
  RegisterCommand(int order, CommandFactory factory);
};

/// `--json [FILE]`, the same in every command: the machine-readable output
/// to FILE, or to standard output for "-" or no value.
CLI::Option* add_json_option(CLI::App* cmd, std::string& path, const std::string& what);

/// Every registered sub-command added to `app`, in order.
std::vector<Command> make_commands(CLI::App& app);

/// Options common to every benchmark suite (`tessera bench <suite> ...`).
struct BenchArgs {
  std::string suite;
  std::vector<std::string> devices;
  std::size_t size = 0;  ///< 0: the suite's default sizes
  std::string precision = "both";
  bench::TimingOptions timing{3, 20};
  bool quick = false;
  std::string json;
  std::vector<std::string> params;  ///< suite-specific key=value pairs (--param)
  bool run_float() const { return precision != "double"; }
  bool run_double() const { return precision != "float"; }
  /// The value of --param key=value, or `fallback` when not given.
  std::string param(const std::string& key, const std::string& fallback = "") const;
  /// param() as an integer of at least `min` (parse_int_param).
  long param_int(const std::string& key, const std::string& fallback, long min = 0) const;
  /// param() as a comma-separated list (split_list, option_checks.hpp): ""
  /// gives none, an empty item is a UsageError naming the key and the value.
  std::vector<std::string> param_list(const std::string& key, const std::string& fallback) const;
  /// param() as 0 or 1; anything else is a UsageError naming the key.
  bool param_flag(const std::string& key, bool fallback) const;
};

/// `text`, the value of --param `key` (or one item of its list), as an
/// integer of at least `min`; a UsageError naming both otherwise.
long parse_int_param(const std::string& key, const std::string& text, long min = 0);

/// The same as a finite number in [lo, hi].
double parse_double_param(const std::string& key, const std::string& text, double lo, double hi);

/// A suite: runs on one device and returns its report.
using BenchSuite =
    std::function<bench::DeviceReport(const std::shared_ptr<Device>&, const BenchArgs&)>;

/// `static RegisterBenchSuite r{"name", "what it measures", run};` in a bench_*.cpp file.
struct RegisterBenchSuite {
  RegisterBenchSuite(std::string name, std::string help, BenchSuite run);
};

struct BenchSuiteEntry {
  std::string name, help;
  BenchSuite run;
};
const std::vector<BenchSuiteEntry>& bench_suites();

}  // namespace tessera::app
