// `tessera bench spmv`: the thesis's SpMV tables on the six TRACE cases, the
// modern kernels against cuSPARSE on the same cases, CSR/ELL/SELL in FP64 on
// a 7-point Laplacian (and Matrix Market files), every figure against the
// copy bandwidth measured first in the same run. docs/sparse.md explains the
// byte models and how to read the rows.
//
// --param keys (all optional):
//   cases=1,2,...      thesis cases (Table 4.1 order; default all six, quick: 1,4)
//   parts=thesis,modern,stencil   which sections run (default all)
//   spmvs=100          SpMVs per timed run in the thesis table (the thesis timed 100)
//   ell_l=20           ELL subsection length L; ell_sweep=5,10,20,... adds rows for other L on the first case
//   laplace=200        7-point grid edge for the stencil section (quick: 100)
//   matrices=a.mtx,... Matrix Market files for the stencil section's kernels
//   group_rows=160     BELL V3 work-group rows
//   csr_chains=4       csr-vector: lane chains per work-item (the same sums)
//   kernels=a,b        the modern section's tessera kernels (default all six)
//   nnz=10000000       matrices section: nonzeros of each family (quick: 1000000)
//   families=a,b       matrices section: these specs instead of the set
//   precisions=double,float   matrices section: value types
//
// parts=matrices (not in the default): the families of matrix_families.hpp
// (power law at three exponents, uniform, banded, 2D/3D stencils, fem3,
// arrow, mostly-empty rows) with every CSR kernel, SELL and ELL V2 where
// their padding stays under 4x the nonzeros, bell-bi and bcsr-warp on
// block matrices, cuSPARSE CSR ALG1/ALG2, SELL (and BSR on blocks); then
// the best tessera and cuSPARSE rows and auto's choice against them.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "apps/tessera/commands.hpp"
#include "core/error.hpp"
#include "core/progress.hpp"
#include "sparse/convert.hpp"
#include "sparse/device_run.hpp"
#include "sparse/kernel_choice.hpp"
#include "sparse/matrix_families.hpp"
#include "sparse/spmv.hpp"
#include "sparse/storage.hpp"
#if defined(TESSERA_HAVE_CUSPARSE)
#include "sparse/kernels/spmv_cusparse.hpp"
#endif

namespace tessera::app {

namespace {

using namespace tessera::sparse;
using bench::Measurement;

const std::vector<Kernel> kThesisKernels{Kernel::bcsr_v1a, Kernel::bcsr_v2a, Kernel::bcsr_v1b,
                                         Kernel::bcsr_v2b, Kernel::bcsr_v3,  Kernel::ell,
                                         Kernel::ell_v2,   Kernel::bell,     Kernel::bell_v2,
                                         Kernel::bell_v3,  Kernel::bell_v4};
const std::vector<Kernel> kModernBlockKernels{Kernel::bcsr_warp, Kernel::bell, Kernel::bell_bi,
                                              Kernel::bell_sub,  Kernel::sell, Kernel::csr_vector};
const std::vector<Kernel> kStencilKernels{Kernel::csr_scalar, Kernel::csr_vector, Kernel::ell_v2,
                                          Kernel::sell};

struct Context {
  std::shared_ptr<Device> device;
  const BenchArgs& args;
  bench::DeviceReport& report;
  double working_set = 0;        ///< bytes: 4x the last-level cache, so no run measures L2
  Progress* progress = nullptr;  ///< a line per row with TESSERA_PROGRESS=log
};

/// One kernel run as a report row; a kernel that cannot run (BELL V3's window
/// beyond local memory, ...) becomes a row saying why.
template <Scalar V>
void kernel_row(Context& c, const HostMatrix<V>& m, Kernel k, const std::string& label, int spmvs,
                const DeviceOptions& dopt, double minimal_bytes, const std::string& model,
                std::vector<std::pair<std::string, double>>* best,
                const SpmvReference<V>& reference, bool transfers = false) {
  if (!available(k, c.device->backend())) return;
  SpmvRunOptions o;
  o.kernel = std::string(to_string(k));
  o.spmvs_per_run = spmvs;
  o.timing = c.args.timing;
  if (spmvs > 1) o.timing = {1, std::min(c.args.timing.reps, 5), c.args.timing.budget_s};
  o.device = dopt;
  o.working_set_bytes = c.working_set;
  o.transfer_vectors = transfers;
  Measurement r;
  r.kernel = label;
  r.precision = is_complex_v<V> ? fmt::format("complex {}", sizeof(V) == 8 ? "float" : "double")
                                : std::string(sizeof(V) == 4 ? "float" : "double");
  try {
    const SpmvRunResult res = run_spmv<V>(c.device, m, o, &reference);
    const double flop = is_complex_v<V> ? 8.0 : 2.0;
    r.size = static_cast<std::size_t>(res.rows);
    r.timing = res.timing;
    r.bytes = res.model_bytes * spmvs;
    r.flops = flop * static_cast<double>(res.stored) * spmvs;
    const double t = res.ms_per_spmv() * 1e-3;
    r.note = fmt::format(
        "{:.2f} GFLOP/s on nonzeros; {:.1f}% of copy under the {} model; {} matrix cop{}",
        res.gflops_true(is_complex_v<V>), 100.0 * minimal_bytes / t * 1e-9 / c.report.copy_gbps,
        model, res.copies, res.copies == 1 ? "y" : "ies");
    if (transfers) r.note += "; x uploaded and y downloaded on every SpMV (not in the byte model)";
    if (best) best->emplace_back(label, res.ms_per_spmv());
  } catch (const Error& e) {
    r.note = fmt::format("not run: {}", e.what());
  }
  c.report.results.push_back(r);
  if (c.progress) c.progress->note(label);
}

#if defined(TESSERA_HAVE_CUSPARSE)
/// A cuSPARSE baseline row, timed like the tessera kernels (matrix copies
/// cycled through so that L2 holds none of them).
template <Scalar V, class Make>
void cusparse_row(Context& c, const std::string& label, size64 rows, size64 cols, double stored,
                  double minimal_bytes, Make make,
                  std::vector<std::pair<std::string, double>>* best, const char* model = "BCSR") {
  Measurement r;
  r.kernel = label;
  r.precision = is_complex_v<V> ? "complex" : (sizeof(V) == 4 ? "float" : "double");
  r.size = static_cast<std::size_t>(rows);
  try {
    std::vector<std::unique_ptr<vendor::CusparseSpmv<V>>> copies;
    copies.push_back(make());
    const double mbytes = copies.front()->matrix_bytes();
    while (copies.size() <
           std::min<std::size_t>(64, static_cast<std::size_t>(std::ceil(c.working_set / mbytes))))
      copies.push_back(make());
    Buffer<V> x(c.device, static_cast<std::size_t>(cols)),
        y(c.device, static_cast<std::size_t>(rows));
    x.copy_from_host(std::vector<V>(x.size(), V(1)));
    std::size_t next = 0;
    r.timing = bench::time_runs(
        c.device->queue(), [&](int) { copies[next++ % copies.size()]->run(x, y); }, c.args.timing);
    r.bytes = mbytes + static_cast<double>(sizeof(V)) * static_cast<double>(rows + cols);
    r.flops = (is_complex_v<V> ? 8.0 : 2.0) * stored;
    r.note =
        fmt::format("{:.1f}% of copy under the {} model; {} matrix copies",
                    100.0 * minimal_bytes / (r.timing.median_ms * 1e-3) * 1e-9 / c.report.copy_gbps,
                    model, copies.size());
    if (best) best->emplace_back(label, r.timing.median_ms);
  } catch (const Error& e) {
    r.note = fmt::format("not run: {}", e.what());
  }
  c.report.results.push_back(r);
  if (c.progress) c.progress->note(label);
}
#endif

/// The fastest tessera row against the fastest cuSPARSE one, for the record.
void summary_row(Context& c, const std::string& what,
                 const std::vector<std::pair<std::string, double>>& ours,
                 const std::vector<std::pair<std::string, double>>& vendor) {
  if (ours.empty()) return;
  const auto b = *std::min_element(ours.begin(), ours.end(),
                                   [](auto& a, auto& z) { return a.second < z.second; });
  Measurement r;
  r.kernel = "best: " + what;
  r.note = fmt::format("fastest tessera kernel {} at {:.4f} ms per SpMV", b.first, b.second);
  if (!vendor.empty()) {
    const auto v = *std::min_element(vendor.begin(), vendor.end(),
                                     [](auto& a, auto& z) { return a.second < z.second; });
    r.note += fmt::format("; fastest cuSPARSE {} at {:.4f} ms: tessera {:.2f}x", v.first, v.second,
                          v.second / b.second);
  }
  c.report.results.push_back(r);
}

template <Scalar V>
double bcsr_model_bytes(const Bcsr<V>& b) {
  return static_cast<double>(sparse::storage(b).total_bytes()) +
         static_cast<double>(sizeof(V) * (b.rows + b.cols));
}

void trace_sections(Context& c, Progress& progress, bool thesis, bool modern) {
  using V = std::complex<float>;
  const std::vector<std::string> names =
      c.args.param_list("cases", c.args.quick ? "1,4" : "1,2,3,4,5,6");
  const int spmvs = int(c.args.param_int("spmvs", "100", 1));
  DeviceOptions dopt;
  dopt.ell_subsection = int(c.args.param_int("ell_l", "20", 1));
  dopt.bell_group_rows = int(c.args.param_int("group_rows", "160", 1));
  if (const std::string ch = c.args.param("csr_chains", ""); !ch.empty()) {
    dopt.csr_chains = int(parse_int_param("csr_chains", ch, 1));
    if ((dopt.csr_chains & (dopt.csr_chains - 1)) !=
        0)  // refused up front, not as a "not run" row per case
      throw UsageError(fmt::format("--param csr_chains={}: expected a power of two", ch));
  }
  std::vector<Kernel> modern_kernels;
  for (const std::string& k : c.args.param_list("kernels", ""))
    modern_kernels.push_back(sparse::parse_kernel(k));
  if (modern_kernels.empty()) modern_kernels = kModernBlockKernels;
  const auto cases = thesis_cases();
  bool first = true;
  for (const std::string& n : names) {
    const int i = int(parse_int_param("cases", n, 1));
    if (i > static_cast<int>(cases.size()))
      throw UsageError(fmt::format("--param cases: no case {}", i));
    const TraceCase& tc = cases[static_cast<std::size_t>(i - 1)];
    progress.step(fmt::format("TRACE case {} ({})", i, tc.name()));
    HostMatrix<V> m;
    m.name = tc.name();
    m.block = trace_bcsr<V>(tc);
    m.is_block = true;
    const SpmvReference<V> ref = spmv_reference(m);  // once per matrix, not per kernel
    progress.note(fmt::format("case {} generated and multiplied on the host: {} block rows", i,
                              m.block.rows));
    const double minimal = bcsr_model_bytes(m.block);
    const std::string tag = fmt::format("{}x{}x{}", tc.nx, tc.ntheta, tc.nr);
    if (thesis) {
      for (Kernel k : kThesisKernels)
        kernel_row(c, m, k, fmt::format("thesis {} {} x{}", tag, to_string(k), spmvs), spmvs, dopt,
                   minimal, "BCSR", nullptr, ref);
      // the thesis's path: the vectors cross the bus on every SpMV
      for (Kernel k : {Kernel::bcsr_v1a, Kernel::bell, Kernel::bell_v4})
        kernel_row(c, m, k,
                   fmt::format("thesis {} {} +x/y transfers x{}", tag, to_string(k), spmvs), spmvs,
                   dopt, minimal, "BCSR", nullptr, ref, true);
      if (first)
        for (const std::string& l : c.args.param_list("ell_sweep", "")) {
          DeviceOptions o = dopt;
          o.ell_subsection = int(parse_int_param("ell_sweep", l, 1));
          kernel_row(c, m, Kernel::ell, fmt::format("thesis {} ell L={} x{}", tag, l, spmvs), spmvs,
                     o, minimal, "BCSR", nullptr, ref);
        }
    }
    if (modern) {
      std::vector<std::pair<std::string, double>> ours, vendor;
      for (Kernel k : modern_kernels)
        kernel_row(c, m, k, fmt::format("{} {}", tag, to_string(k)), 1, dopt, minimal, "BCSR",
                   &ours, ref);
#if defined(TESSERA_HAVE_CUSPARSE)
      if (c.device->backend() == Backend::cuda) {
        const double stored = static_cast<double>(m.block.val.size());
        cusparse_row<V>(
            c, tag + " cusparse-bsrmv", m.block.rows, m.block.cols, stored, minimal,
            [&] { return std::make_unique<vendor::CusparseSpmv<V>>(c.device, m.block); }, &vendor);
        const Csr<V> csr = to_csr(m.block, Zeros::drop);
        for (auto k : {vendor::CusparseKernel::csr_alg1, vendor::CusparseKernel::csr_alg2})
          cusparse_row<V>(
              c, fmt::format("{} {}", tag, vendor::to_string(k)), csr.rows, csr.cols,
              static_cast<double>(csr.nnz()), minimal,
              [&] { return std::make_unique<vendor::CusparseSpmv<V>>(c.device, csr, k); }, &vendor);
      }
#endif
      summary_row(c, tag, ours, vendor);
    }
    first = false;
  }
}

template <Scalar V>
void stencil_matrix(Context& c, const HostMatrix<V>& m) {
  std::vector<std::pair<std::string, double>> ours, vendor;
  const double minimal = static_cast<double>(sparse::storage(m.csr).total_bytes()) +
                         static_cast<double>(sizeof(V) * (m.csr.rows + m.csr.cols));
  const SpmvReference<V> ref = spmv_reference(m);
  for (Kernel k : kStencilKernels)
    kernel_row(c, m, k, fmt::format("{} {}", m.name, to_string(k)), 1, DeviceOptions{}, minimal,
               "CSR", &ours, ref);
#if defined(TESSERA_HAVE_CUSPARSE)
  if (c.device->backend() == Backend::cuda)
    for (auto k : {vendor::CusparseKernel::csr_alg1, vendor::CusparseKernel::csr_alg2,
                   vendor::CusparseKernel::sell})
      cusparse_row<V>(
          c, fmt::format("{} {}", m.name, vendor::to_string(k)), m.csr.rows, m.csr.cols,
          static_cast<double>(m.csr.nnz()), minimal,
          [&] { return std::make_unique<vendor::CusparseSpmv<V>>(c.device, m.csr, k); }, &vendor);
#endif
  summary_row(c, m.name, ours, vendor);
}

void stencil_section(Context& c, Progress& progress) {
  const int n = int(c.args.param_int("laplace", c.args.quick ? "100" : "200", 1));
  progress.step(fmt::format("7-point Laplacian {}^3", n));
  stencil_matrix(c, generate_matrix<double>(fmt::format("laplace7:{}", n)));
  for (const std::string& f : c.args.param_list("matrices", "")) {
    progress.step(f);
    if (file_is_complex(f))
      stencil_matrix(c, read_matrix<std::complex<double>>(f));
    else
      stencil_matrix(c, read_matrix<double>(f));
  }
}

/// Slots ELL (every row padded to the longest) and SELL-32 (each slice of 32
/// rows to its longest) would store.
template <Scalar V>
std::pair<double, double> padded_slots(const Csr<V>& a) {
  double ell = 0, sell = 0, slice = 0;
  for (size64 i = 0; i < a.rows; ++i) {
    const double len = a.row_ptr[i + 1] - a.row_ptr[i];
    ell = std::max(ell, len);
    slice = std::max(slice, len);
    if (i % 32 == 31 || i + 1 == a.rows) {
      sell += 32 * slice;
      slice = 0;
    }
  }
  return {ell * static_cast<double>(a.rows), sell};
}

template <Scalar V>
void family_matrix(Context& c, const std::string& spec) {
  const HostMatrix<V> m = generate_matrix<V>(spec);
  const Csr<V>& a = m.csr;
  const SpmvReference<V> ref = spmv_reference(m);
  const double nnz = static_cast<double>(a.nnz());
  const double minimal = static_cast<double>(sparse::storage(a).total_bytes()) +
                         static_cast<double>(sizeof(V) * (a.rows + a.cols));
  const KernelChoice choice = choose_kernel(a, c.device->backend());
  const auto [ell_slots, sell_slots] = padded_slots(a);
  std::vector<std::pair<std::string, double>> ours, vendor;
  auto row = [&](Kernel k, const DeviceOptions& o, const std::string& label) {
    kernel_row(c, m, k, label, 1, o, minimal, "CSR", &ours, ref);
  };
  for (Kernel k : {Kernel::csr_scalar, Kernel::csr_vector, Kernel::csr_merge})
    row(k, DeviceOptions{}, fmt::format("{} {}", spec, to_string(k)));
  auto padded = [&](Kernel k, double slots) {
    if (slots <= 4 * nnz) return row(k, DeviceOptions{}, fmt::format("{} {}", spec, to_string(k)));
    Measurement r;
    r.kernel = fmt::format("{} {}", spec, to_string(k));
    r.note = fmt::format("not run: its padding would store {:.1f}x the nonzeros", slots / nnz);
    c.report.results.push_back(r);
  };
  padded(Kernel::sell, sell_slots);
  padded(Kernel::ell_v2, ell_slots);
  const bool blocks = choice.kernel == Kernel::bell_bi || choice.kernel == Kernel::bcsr_warp;
  if (blocks)
    for (Kernel k : {Kernel::bell_bi, Kernel::bcsr_warp})
      row(k, choice.options,
          fmt::format("{} {} {}x{}", spec, to_string(k), choice.options.block_r,
                      choice.options.block_c));
#if defined(TESSERA_HAVE_CUSPARSE)
  if (c.device->backend() == Backend::cuda) {
    for (auto k : {vendor::CusparseKernel::csr_alg1, vendor::CusparseKernel::csr_alg2,
                   vendor::CusparseKernel::sell})
      if (k != vendor::CusparseKernel::sell || sell_slots <= 4 * nnz)
        cusparse_row<V>(
            c, fmt::format("{} {}", spec, vendor::to_string(k)), a.rows, a.cols, nnz, minimal,
            [&] { return std::make_unique<vendor::CusparseSpmv<V>>(c.device, a, k); }, &vendor,
            "CSR");
    if (blocks) {
      const Bcsr<V> b = to_bcsr(a, {choice.options.block_r, choice.options.block_c});
      cusparse_row<V>(
          c, fmt::format("{} cusparse-bsrmv", spec), a.rows, a.cols, nnz, minimal,
          [&] { return std::make_unique<vendor::CusparseSpmv<V>>(c.device, b); }, &vendor, "CSR");
    }
  }
#endif
  summary_row(c, spec, ours, vendor);
  // auto: the row of the kernel it picks, against the fastest
  const std::string picked = blocks ? fmt::format("{} {} {}x{}", spec, to_string(choice.kernel),
                                                  choice.options.block_r, choice.options.block_c)
                                    : fmt::format("{} {}", spec, to_string(choice.kernel));
  Measurement r;
  r.kernel = "auto: " + spec;
  r.note = fmt::format("picks {} ({})", to_string(choice.kernel), choice.reason);
  const auto it =
      std::find_if(ours.begin(), ours.end(), [&](auto& p) { return p.first == picked; });
  if (it != ours.end()) {
    const double best = std::min_element(ours.begin(), ours.end(), [](auto& x, auto& y) {
                          return x.second < y.second;
                        })->second;
    r.note += fmt::format("; {:.4f} ms, {:.2f}x the fastest tessera kernel", it->second,
                          it->second / best);
    if (!vendor.empty()) {
      const double v = std::min_element(vendor.begin(), vendor.end(), [](auto& x, auto& y) {
                         return x.second < y.second;
                       })->second;
      r.note += fmt::format(", {:.2f}x the fastest cuSPARSE (speed-up)", v / it->second);
    }
  }
  c.report.results.push_back(r);
}

void matrices_section(Context& c, Progress& progress) {
  const size64 nnz = c.args.param_int("nnz", c.args.quick ? "1000000" : "10000000", 1);
  std::vector<std::string> specs = c.args.param_list("families", "");
  if (specs.empty()) specs = family_benchmark_set(nnz);
  for (const std::string& p : c.args.param_list("precisions", "double,float"))
    if (p != "double" && p != "float")
      throw UsageError(fmt::format("--param precisions: '{}' (double, float)", p));
  for (const std::string& p : c.args.param_list("precisions", "double,float"))
    for (const std::string& spec : specs) {
      progress.step(fmt::format("{} ({})", spec, p));
      if (p == "double")
        family_matrix<double>(c, spec);
      else
        family_matrix<float>(c, spec);
    }
}

bench::DeviceReport run_spmv_suite(const std::shared_ptr<Device>& device, const BenchArgs& args) {
  bench::DeviceReport report;
  report.device = device->info();
  const std::vector<std::string> parts = args.param_list("parts", "thesis,modern,stencil");
  auto has = [&](const char* p) { return std::find(parts.begin(), parts.end(), p) != parts.end(); };
  const std::size_t families =
      has("matrices")
          ? (args.param_list("families", "").empty() ? 12
                                                     : args.param_list("families", "").size()) *
                args.param_list("precisions", "double,float").size()
          : 0;
  Progress progress("spmv on " + device->id(),
                    2 + 6 + static_cast<int>(args.param_list("matrices", "").size() + families));
  progress.step("copy");
  const std::size_t copy_bytes = std::size_t(1) << (args.quick ? 28 : 30);
  const Measurement copy = bench::measure_native_copy(*device, copy_bytes, args.timing);
  report.copy_gbps = copy.gbps();
  report.results.push_back(copy);
  const double cache =
      device->info().cache_bytes > 0 ? static_cast<double>(device->info().cache_bytes) : 64e6;
  Context c{device, args, report, 4 * cache, &progress};
  if (has("thesis") || has("modern")) trace_sections(c, progress, has("thesis"), has("modern"));
  if (has("stencil")) stencil_section(c, progress);
  if (has("matrices")) matrices_section(c, progress);
  return report;
}

const RegisterBenchSuite registered{
    "spmv",
    "SpMV: thesis kernels x TRACE cases, modern kernels vs cuSPARSE, FP64 stencil CSR/ELL/SELL",
    run_spmv_suite};

}  // namespace

}  // namespace tessera::app
