// `tessera bench <suite>`: runs a registered benchmark suite (bench_*.cpp) on
// one or more devices, prints a Markdown table and optionally writes JSON.
#include <cstdio>

#include "apps/tessera/commands.hpp"
#include "core/error.hpp"
#include "core/registry.hpp"

namespace tessera::app {

namespace {
Command add_bench_command(CLI::App& app) {
  auto args = std::make_shared<BenchArgs>();
  std::string help = "Run a benchmark suite:";
  std::vector<std::string> names;
  for (const auto& s : bench_suites()) {
    names.push_back(s.name);
    help += "\n  " + s.name + ": " + s.help;
  }
  auto* cmd = app.add_subcommand("bench", help);
  cmd->add_option("suite", args->suite, "Suite to run")->required()->check(CLI::IsMember(names));
  cmd->add_option("--device,-d", args->devices,
                  "Device id(s): best, cpu, opencl:P:D, cuda:N (repeatable)");
  cmd->add_option("--size,-s", args->size,
                  "Problem size (stream: elements per array; dense: matrix order n; 0 = the "
                  "suite's defaults)");
  // -n was --size here and is --steps elsewhere: accepted for one release
  auto old_size = std::make_shared<std::size_t>(0);
  auto* old_n = cmd->add_option("-n", *old_size, "deprecated: -s/--size")->group("");
  cmd->add_option("--precision", args->precision, "float, double or both")
      ->check(CLI::IsMember({"float", "double", "both"}));
  cmd->add_option("--reps", args->timing.reps, "Timed repetitions (median reported)")
      ->check(CLI::Range(1, 100000));
  cmd->add_option("--warmup", args->timing.warmup, "Untimed warm-up runs")
      ->check(CLI::Range(0, 1000));
  cmd->add_option(
         "--row-seconds", args->timing.budget_s,
         "Stop a row's repetitions once its runs took this long (at least 1 warm-up and 3 timed runs; "
         "default 0: every repetition)")
      ->check(CLI::Range(0.0, 3600.0));
  add_json_option(cmd, args->json, "Write the results");
  cmd->add_flag("--quick", args->quick, "Fewer configurations");
  cmd->add_option("--param", args->params, "Suite-specific key=value (repeatable)");
  return {cmd, [args, old_size, old_n] {
            if (old_n->count() > 0) {
              std::fprintf(stderr,
                           "tessera bench: -n is deprecated (it means --steps in other commands); "
                           "use -s/--size\n");
              if (args->size == 0) args->size = *old_size;
            }
            if (args->devices.empty()) args->devices.push_back("best");
            const BenchSuiteEntry* suite = nullptr;
            for (const auto& s : bench_suites())
              if (s.name == args->suite) suite = &s;
            if (!suite) throw UsageError("unknown benchmark suite '" + args->suite + "'");
            bench::SuiteReport report{args->suite, {}};
            for (const auto& id : args->devices)
              report.devices.push_back(suite->run(open_device(id), *args));
            std::printf("%s", report.to_markdown().c_str());
            if (!args->json.empty()) bench::write_json(report, args->json);
            return 0;
          }};
}
const RegisterCommand registered{20, add_bench_command};
}  // namespace

}  // namespace tessera::app
