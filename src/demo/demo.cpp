// `tessera demo`: the sections in order, each printed with its one-line
// result and verdict, then DIR/index.html.
#include "demo/demo.hpp"

#include <chrono>
#include <cstdio>
#include <exception>
#include <functional>
#include <utility>

#include <fmt/format.h>

#include "bench/harness.hpp"
#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "core/registry.hpp"
#include "demo/html.hpp"
#include "demo/section.hpp"
#include "tessera/config.hpp"

namespace tessera::demo {

SectionResult section(std::string id, std::string title) {
  SectionResult r;
  r.id = std::move(id);
  r.title = std::move(title);
  return r;
}

std::string roofline(const Context& c, double bytes, double seconds) {
  if (!(c.copy_gbps > 0) || !(seconds > 0) || !(bytes > 0)) return "-";
  return fmt::format("{:.0f}% of copy", 100.0 * bytes / seconds * 1e-9 / c.copy_gbps);
}

std::string to_string(Scale s) {
  return s == Scale::quick ? "quick" : s == Scale::medium ? "medium (CPU)" : "full";
}

std::string duration(double s) {
  if (s >= 1) return fmt::format("{:.2f} s", s);
  if (s >= 1e-3) return fmt::format("{:.1f} ms", s * 1e3);
  return fmt::format("{:.3f} ms", s * 1e3);
}

namespace {

struct SectionEntry {
  const char* id;
  const char* title;
  std::function<SectionResult(const Context&)> run;
};

}  // namespace

int run_demo(const DemoOptions& opt) {
  const auto start = std::chrono::steady_clock::now();
  std::filesystem::create_directories(opt.out);
  Context c;
  c.device = open_device(opt.device);
  c.out = opt.out;
  const DeviceInfo& info = c.device->info();
  c.scale = opt.quick ? Scale::quick : info.is_gpu ? Scale::full : Scale::medium;
  std::printf("tessera demo %s (%s) on %s: %s [%s, %s], %s sizes\n", TESSERA_VERSION,
              TESSERA_GIT_COMMIT, info.id.c_str(), info.name.c_str(), info.platform.c_str(),
              info.driver_version.c_str(), to_string(c.scale).c_str());
  // The roofline denominator: the backend's device-to-device copy, once.
  const std::size_t copy_bytes = info.is_gpu ? (std::size_t(1) << 30) : (std::size_t(64) << 20);
  c.copy_gbps = bench::measure_native_copy(*c.device, copy_bytes, {2, 5}).gbps();
  std::printf("copy bandwidth %.1f GB/s (device-to-device copy of %zu MiB)\n\n", c.copy_gbps,
              copy_bytes >> 20);
  std::fflush(stdout);

  const SectionEntry entries[] = {
      {"mg", "Multigrid (thesis 2D Poisson)", run_mg},
      {"swe", "Shallow water (thesis dam break, physical model)", run_swe},
      {"dense", "Dense matrix product (lecture: naive vs tiled)", run_dense},
      {"krylov", "Sparse + GMRES (TRACE-like system)", run_krylov},
      {"lbm", "Skeleton + lattice Boltzmann (flow past a sphere)", run_lbm},
  };
  std::vector<SectionResult> results;
  int k = 0, wrong = 0;
  for (const auto& e : entries) {
    std::printf("[%d/%zu] %s\n", ++k, std::size(entries), e.title);
    std::fflush(stdout);
    const auto t0 = std::chrono::steady_clock::now();
    SectionResult r;
    try {
      r = e.run(c);
    } catch (const std::exception& ex) {  // one failing section does not hide the others
      r = SectionResult{};
      r.id = e.id;
      r.title = e.title;
      r.summary = fmt::format("failed: {}", ex.what());
      r.check = "the section did not complete";
      r.correct = false;
    }
    const double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    wrong += !r.correct;
    std::printf("      %s\n      check: %s\n      %s (%.1f s)\n\n", r.summary.c_str(),
                r.check.c_str(), r.correct ? "correct" : "WRONG", sec);
    std::fflush(stdout);
    results.push_back(std::move(r));
  }

  const auto meta = bench::run_metadata();
  PageInfo page;
  page.scale_note = c.scale == Scale::quick
                        ? "quick run (small sizes): timings are not comparable with the studies"
                    : c.scale == Scale::medium
                        ? "CPU run (reduced sizes): timings are not comparable with the studies"
                        : "";
  page.device_line =
      fmt::format("{} ({}, {}, driver {})", info.id, info.name, info.platform, info.driver_version);
  page.facts = {
      {"tessera", fmt::format("{} (commit {}, {} build)", TESSERA_VERSION, TESSERA_GIT_COMMIT,
                              TESSERA_BUILD_TYPE)},
      {"date", meta.value("date", "")},
      {"host", meta.value("host", "")},
      {"backends built",
       fmt::format("cpu{}{}{}", TESSERA_HAVE_OPENCL ? ", opencl" : "",
                   TESSERA_HAVE_CUDA ? ", cuda" : "", TESSERA_HAVE_MPI ? ", mpi" : "")},
      {"compiler", fmt::format("{}", __VERSION__)},
      {"device memory",
       fmt::format("{:.1f} GiB, {} compute units", double(info.global_mem_bytes) / (1u << 30),
                   info.compute_units)},
      {"copy bandwidth", fmt::format("{:.1f} GB/s (the roofline denominator)", c.copy_gbps)},
      {"command", fmt::format("tessera demo --device {}{} --out {}", opt.device,
                              opt.quick ? " --quick" : "", opt.out.string())}};
  const auto page_path = opt.out / "index.html";
  write_file_atomic(page_path, render_page(page, results, opt.out));
  const double total =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("%zu sections, %d wrong, %.0f s; page: %s\n", results.size(), wrong, total,
              page_path.string().c_str());
  return wrong ? 1 : 0;
}

}  // namespace tessera::demo
