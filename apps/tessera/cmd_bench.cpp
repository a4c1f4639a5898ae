// `tessera bench <suite>`: runs a benchmark suite on one or more devices,
// prints a Markdown table and optionally writes JSON.
#include <cstdio>

#include "apps/tessera/commands.hpp"
#include "bench/dense_suite.hpp"
#include "bench/mg_suite.hpp"
#include "bench/stream.hpp"
#include "core/error.hpp"
#include "core/registry.hpp"

namespace tessera::app {

namespace {
struct BenchArgs {
  std::string suite;
  std::vector<std::string> devices;
  std::size_t size = 0;
  std::string precision = "both";
  int reps = 20;
  int warmup = 3;
  std::string json;
  bool quick = false;
};
}  // namespace

Command add_bench_command(CLI::App& app) {
  auto args = std::make_shared<BenchArgs>();
  auto* cmd = app.add_subcommand("bench", "Run a benchmark suite");
  cmd->add_option("suite", args->suite, "Suite to run")
      ->required()
      ->check(CLI::IsMember({"stream", "dense", "mg"}));
  cmd->add_option("--device,-d", args->devices,
                  "Device id(s): best, cpu, opencl:P:D, cuda:N (repeatable)");
  cmd->add_option("--size,-n", args->size,
                  "Problem size (stream: elements per array; dense: matrix order n; 0 = auto)");
  cmd->add_option("--precision", args->precision, "float, double or both")
      ->check(CLI::IsMember({"float", "double", "both"}));
  cmd->add_option("--reps", args->reps, "Timed repetitions (median reported)")->check(CLI::Range(1, 100000));
  cmd->add_option("--warmup", args->warmup, "Untimed warm-up runs")->check(CLI::Range(0, 1000));
  cmd->add_option("--json", args->json, "Write results as JSON to this file");
  cmd->add_flag("--quick", args->quick, "Fewer configurations (mg: nu in {2,16})");
  return {cmd, [args] {
    if (args->devices.empty()) args->devices.push_back("best");
    bench::SuiteReport report{args->suite, {}};
    bench::StreamOptions opt;
    opt.size = args->size;
    opt.run_float = args->precision != "double";
    opt.run_double = args->precision != "float";
    opt.timing = {args->warmup, args->reps};
    bench::DenseOptions dense_opt;
    dense_opt.size = args->size;
    dense_opt.run_float = opt.run_float;
    dense_opt.run_double = opt.run_double;
    dense_opt.timing = opt.timing;
    for (const auto& id : args->devices) {
      auto dev = open_device(id);
      if (args->suite == "mg") {
        bench::MgBenchOptions mo;
        if (args->size) mo.n2d = mo.n3d = static_cast<long>(args->size);
        mo.quick = args->quick;
        mo.timing = {args->warmup, std::min(args->reps, 10)};
        report.devices.push_back(bench::run_mg(dev, mo));
        continue;
      }
      report.devices.push_back(args->suite == "dense" ? bench::run_dense(dev, dense_opt)
                                                      : bench::run_stream(dev, opt));
    }
    std::printf("%s", report.to_markdown().c_str());
    if (!args->json.empty()) bench::write_json(report, args->json);
    return 0;
  }};
}

}  // namespace tessera::app
