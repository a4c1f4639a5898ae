// `tessera report`: runs the benchmark suites in this process on one device,
// each isolated (a suite that throws is recorded as failed with its message and
// the others still run; results that cannot be written end the run with exit 1,
// naming the file), writes OUT/results/<suite>.json and
// OUT/results/index.json, then runs the Python report writer
// (python/tessera_report/report.py) which writes OUT/report.md and the plots.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "apps/tessera/commands.hpp"
#include "apps/tessera/option_checks.hpp"
#include "core/atomic_file.hpp"
#include "core/env.hpp"
#include "core/error.hpp"
#include "core/registry.hpp"

namespace tessera::app {

nlohmann::json report_histories(const std::shared_ptr<Device>& dev,
                                bool quick);  // cmd_report_histories.cpp

namespace {
namespace fs = std::filesystem;

// The suites of the original studies, in report order.
const std::vector<std::string> kSuites = {"stream", "dense", "mg",       "mg-kernels", "swe",
                                          "spmv",   "gmres", "skeleton", "lbm"};

struct ReportArgs {
  std::string device = "best", out, python, suites;
  bool quick = false, strict = false, no_python = false, suites_only = false, keep = false;
  double row_budget_s = 5;          ///< full mode's TimingOptions::budget_s
  std::vector<std::string> params;  // suite.key=value
  std::vector<std::string> sizes;   // suite=N
};

// Sizes for --quick on a device that is not a GPU (the CPU or PoCL): the
// suites' own CPU defaults take far longer than a few minutes together.
struct Profile {
  std::size_t size = 0;
  std::vector<std::string> params;
};
std::map<std::string, Profile> cpu_quick_profile() {
  return {{"stream", {1u << 20, {}}},
          {"dense", {256, {}}},
          {"mg", {255, {"n3d=31", "streaming=0"}}},
          {"mg-kernels", {63, {}}},
          {"swe", {128, {"thesis-n=100", "steps=4"}}},
          {"spmv", {0, {"cases=1", "laplace=40", "spmvs=5"}}},
          {"gmres", {0, {"cases=1", "iters=10", "tosolve=0", "poisson=31"}}},
          {"skeleton", {32, {"steps=2"}}},
          {"lbm", {32, {"thesis_sides=32", "thesis_iterations=10", "precisions=fp32"}}}};
}

BenchArgs suite_args(const std::string& suite, const ReportArgs& r, bool gpu) {
  BenchArgs a;
  a.suite = suite;
  a.devices = {r.device};
  a.quick = r.quick;
  a.timing =
      r.quick ? bench::TimingOptions{1, gpu ? 5 : 3} : bench::TimingOptions{3, 20, r.row_budget_s};
  // user parameters first: BenchArgs::param takes the first match
  for (const auto& p : r.params) {
    const auto dot = p.find('.');
    if (dot == std::string::npos || p.find('=') == std::string::npos || p.find('=') < dot)
      throw UsageError("--param '" + p + "': expected suite.key=value");
    if (p.compare(0, dot, suite) == 0 && dot == suite.size()) a.params.push_back(p.substr(dot + 1));
  }
  bool sized = false;
  for (const auto& s : r.sizes) {
    const auto eq = s.find('=');
    if (eq == std::string::npos) throw UsageError("--size '" + s + "': expected suite=N");
    if (s.compare(0, eq, suite) == 0 && eq == suite.size()) {
      a.size = std::stoul(s.substr(eq + 1));
      sized = true;
    }
  }
  // --quick on a GPU: TRACE case 1 only for spmv (case 4's host conversion alone
  // takes minutes); measured on an H200: every suite in about 4 minutes
  if (r.quick && gpu && suite == "spmv") a.params.push_back("cases=1");
  if (r.quick && !gpu) {
    const auto profile = cpu_quick_profile();
    if (auto it = profile.find(suite); it != profile.end()) {
      if (!sized) a.size = it->second.size;
      a.params.insert(a.params.end(), it->second.params.begin(), it->second.params.end());
    }
  }
  return a;
}

/// --keep for a suite run again: the rows of the earlier file (same device)
/// that this run did not measure stay, before the new rows; a row measured
/// again is replaced. Every row carries its fraction of the copy bandwidth
/// measured in its own run; the device's copy_gbps is the newest run's.
void keep_unmeasured_rows(const fs::path& file, nlohmann::json& now) {
  std::ifstream in(file);
  const auto old = nlohmann::json::parse(in, nullptr, false);
  if (old.is_discarded() || !old.contains("devices") || !now.contains("devices")) return;
  for (auto& dev : now["devices"]) {
    std::set<std::string> measured;
    for (const auto& r : dev["results"]) measured.insert(r.value("kernel", ""));
    for (const auto& od : old["devices"]) {
      if (od.value("/device/name"_json_pointer, std::string()) !=
          dev.value("/device/name"_json_pointer, std::string()))
        continue;
      nlohmann::json rows = nlohmann::json::array();
      for (const auto& r : od["results"])
        if (!measured.count(r.value("kernel", ""))) rows.push_back(r);
      for (const auto& r : dev["results"]) rows.push_back(r);
      dev["results"] = std::move(rows);
    }
  }
}

/// The report writer: $TESSERA_REPORT_SCRIPT, next to an installed binary
/// (<prefix>/share/tessera/report/report.py), the build tree's source
/// (<build>/bin/../../python), or this file's source tree.
fs::path find_report_script() {
  if (const auto env = env_string("TESSERA_REPORT_SCRIPT")) return *env;
  std::vector<fs::path> candidates;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    candidates.push_back(exe.parent_path() / "../share/tessera/report/report.py");
    candidates.push_back(exe.parent_path() / "../../python/tessera_report/report.py");
  }
  candidates.push_back(fs::path(__FILE__).parent_path() / "../../python/tessera_report/report.py");
  for (const auto& c : candidates)
    if (fs::exists(c, ec)) return fs::weakly_canonical(c, ec);
  return {};
}

/// Runs argv[0] with the arguments (no shell); returns its exit status.
int run_program(const std::vector<std::string>& argv) {
  std::vector<char*> args;
  for (const auto& s : argv) args.push_back(const_cast<char*>(s.c_str()));
  args.push_back(nullptr);
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t pid = ::fork();
  if (pid < 0) throw Error("report: fork failed");
  if (pid == 0) {
    ::execvp(args[0], args.data());
    std::fprintf(stderr, "tessera report: cannot run '%s'\n", args[0]);
    std::_Exit(127);
  }
  int status = 0;
  if (::waitpid(pid, &status, 0) < 0) throw Error("report: waitpid failed");
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int run_report(const ReportArgs& r) {
  const auto device = open_device(r.device);
  const bool gpu = device->info().is_gpu;
  // "none": no suite runs (with --keep, the histories of an existing report are recomputed)
  std::vector<std::string> suites = r.suites.empty()     ? kSuites
                                    : r.suites == "none" ? std::vector<std::string>{}
                                                         : split_list("--suites", r.suites);
  for (const auto& s : suites)
    if (std::find(kSuites.begin(), kSuites.end(), s) == kSuites.end())
      throw UsageError("--suites: unknown suite '" + s +
                       "' (known: stream, dense, mg, mg-kernels, swe, spmv, "
                       "gmres, skeleton, lbm)");
  const fs::path out = r.out, results = out / "results";
  fs::create_directories(results);

  nlohmann::json index = {{"run", bench::run_metadata()},
                          {"device", bench::to_json(device->info())},
                          {"quick", r.quick},
                          {"suites", nlohmann::json::array()}};
  // --keep: the suites of an earlier run in OUT that this run does not repeat
  // stay in the report (a report built in parts, or one suite re-run), provided
  // they were measured on the same device in the same mode.
  std::map<std::string, nlohmann::json> kept;
  if (r.keep && fs::exists(results / "index.json")) {
    std::ifstream in(results / "index.json");
    const auto old = nlohmann::json::parse(in, nullptr, false);
    if (old.is_discarded() || !old.contains("suites"))
      throw Error((results / "index.json").string() +
                  ": not a report index (remove it or drop --keep)");
    const std::string old_dev = old.value("/device/name"_json_pointer, std::string()),
                      dev = device->info().name;
    if (old_dev != dev || old.value("quick", false) != r.quick)
      throw UsageError(
          fmt::format("--keep: {} holds a {} report of '{}', this run is a {} report of '{}' (use "
                      "another --out)",
                      out.string(), old.value("quick", false) ? "quick" : "full", old_dev,
                      r.quick ? "quick" : "full", dev));
    for (const auto& e : old["suites"]) kept[e.value("suite", "")] = e;
    if (old.contains("histories_error")) index["histories_error"] = old["histories_error"];
  }
  int failed = 0;
  for (const auto& name : kSuites) {
    if (std::find(suites.begin(), suites.end(), name) == suites.end()) {  // not run now
      if (auto it = kept.find(name); it != kept.end()) index["suites"].push_back(it->second);
      continue;
    }
    nlohmann::json entry = {{"suite", name}};
    const BenchSuiteEntry* suite = nullptr;
    for (const auto& s : bench_suites())
      if (s.name == name) suite = &s;
    const auto t0 = std::chrono::steady_clock::now();
    if (!suite) {
      entry["status"] = "not built";
      entry["error"] =
          "suite '" + name + "' is not in this build (module excluded or its backend missing)";
    } else {
      std::fprintf(stderr, "tessera report: %s on %s\n", name.c_str(), device->id().c_str());
      const fs::path file = results / (name + ".json");
      std::optional<nlohmann::json> j;
      try {
        const BenchArgs a = suite_args(name, r, gpu);
        entry["params"] = a.params;
        entry["size"] = a.size;
        bench::SuiteReport rep{name, {suite->run(device, a)}};
        j = rep.to_json();
        if (auto it = kept.find(name); it != kept.end() && it->second.value("status", "") == "ok") {
          keep_unmeasured_rows(file, *j);  // e.g. spmv measured in two runs, cases 1-3 and 4-6
          entry["earlier_runs"] = it->second.value("earlier_runs", nlohmann::json::array());
          entry["earlier_runs"].push_back(
              {{"params", it->second.value("params", nlohmann::json::array())},
               {"size", it->second.value("size", 0)}});
        }
      } catch (
          const std::exception& e) {  // a suite that fails is reported, and the next suite runs
        ++failed;
        entry["status"] = "failed";
        entry["error"] = e.what();
        std::fprintf(stderr, "tessera report: suite %s failed: %s\n", name.c_str(), e.what());
      }
      // Outside the try: results that cannot be written (a full disk, an
      // unwritable folder) end the run (exit 1, the file named), instead of
      // passing for a failed suite while every later suite fails the same way.
      if (j) {
        write_file_atomic(file.string(), j->dump(2) + "\n");
        entry["status"] = "ok";
        entry["file"] = "results/" + name + ".json";
      }
    }
    entry["seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    index["suites"].push_back(entry);
    // the index after every suite, so that a run cut off (a time limit, a
    // signal) leaves what it measured, plus the kept suites it had not reached
    nlohmann::json partial = index;
    for (const auto& [kept_name, kept_entry] : kept)
      if (std::none_of(partial["suites"].begin(), partial["suites"].end(),
                       [&](const nlohmann::json& e) { return e.value("suite", "") == kept_name; }))
        partial["suites"].push_back(kept_entry);
    write_file_atomic((results / "index.json").string(), partial.dump(2) + "\n");
  }
  if (!r.suites_only) {  // convergence histories for the plots (MG cycles, GMRES iterations)
    std::fprintf(stderr, "tessera report: convergence histories on %s\n", device->id().c_str());
    std::optional<nlohmann::json> histories;
    try {
      histories = report_histories(device, r.quick);
    } catch (const std::exception& e) {
      index["histories_error"] = e.what();
    }
    if (histories) {  // a write failure ends the run, as for the suites' results
      write_file_atomic((results / "histories.json").string(), histories->dump(1) + "\n");
      index.erase("histories_error");  // an earlier run's failure (--keep) is over
    }
  }
  write_file_atomic((results / "index.json").string(), index.dump(2) + "\n");

  if (r.no_python) {
    std::printf("results in %s (report.md not written: --no-python)\n", results.string().c_str());
  } else {
    const fs::path script = find_report_script();
    if (script.empty())
      throw Error(
          "report: python/tessera_report/report.py not found (set TESSERA_REPORT_SCRIPT); the "
          "results are in " +
          results.string());
    std::string python = r.python;
    if (python.empty()) python = env_string("TESSERA_PYTHON").value_or("python3");
    const int rc = run_program({python, script.string(), "--out", out.string()});
    if (rc != 0)
      throw Error(fmt::format("report: '{} {}' exited with {}; the results are in {}", python,
                              script.string(), rc, results.string()));
    std::printf("report: %s\n", (out / "report.md").string().c_str());
  }
  if (failed) std::fprintf(stderr, "tessera report: %d suite(s) failed (see the report)\n", failed);
  return failed && r.strict ? 1 : 0;
}

Command add_report_command(CLI::App& app) {
  auto r = std::make_shared<ReportArgs>();
  auto* cmd = app.add_subcommand(
      "report",
      "Run every benchmark suite and write OUT/report.md: the original studies' tables next to this "
      "machine's measurements, roofline fractions, vendor-library comparisons and plots");
  cmd->add_option("--device,-d", r->device, "Device id: best, cpu, opencl:P:D, cuda:N");
  cmd->add_option("--out,-o", r->out, "Output folder (results/ and report.md)")->required();
  cmd->add_flag("--quick", r->quick,
                "Fewer configurations (< 5 min on a GPU; small sizes on a CPU)");
  cmd->add_option("--suites", r->suites,
                  "Comma-separated subset (default: all; none: only the histories)");
  cmd->add_option("--param", r->params,
                  "suite.key=value passed to a suite (repeatable), e.g. lbm.gpus=1,2");
  cmd->add_option("--size,-s", r->sizes, "suite=N: a suite's --size (repeatable)");
  cmd->add_option("--python", r->python,
                  "Python interpreter for the report writer (default $TESSERA_PYTHON or python3)");
  cmd->add_flag("--no-python", r->no_python, "Only run the suites and write results/");
  cmd->add_flag("--no-histories", r->suites_only, "Skip the convergence histories (MG, GMRES)");
  cmd->add_flag("--strict", r->strict, "Exit 1 when a suite failed");
  cmd->add_option(
         "--row-seconds", r->row_budget_s,
         "Full mode: a row stops repeating once its runs took this long (at least 1 warm-up and 3 timed "
         "runs; 0: always 3 + 20)")
      ->check(CLI::Range(0.0, 3600.0));
  cmd->add_flag(
      "--keep", r->keep,
      "Keep the results already in OUT of the suites not run now (same device and mode): build a "
      "report in parts, or re-run one suite");
  return {cmd, [r] { return run_report(*r); }};
}

const RegisterCommand registered{90, add_report_command};
}  // namespace

}  // namespace tessera::app
