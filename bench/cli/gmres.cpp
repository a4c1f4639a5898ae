// `tessera bench gmres`: the thesis's GMRES experiment (100 iterations, no
// restart, tolerance ignored, complex single, TRACE cases) in the thesis and
// resident modes with MGS/CGS/CGS2, with the time split (SpMV,
// orthogonalisation, transfers) and bytes per iteration under the model of
// anchors-sparse.md §5 note 5; then time to a 1e-8 relative residual with
// GMRES(30) in complex double. docs/krylov.md explains the rows.
//
// --param keys (all optional):
//   cases=1,...,6   thesis cases (default all six; quick: 1)
//   iters=100       iterations of the fixed-iteration experiment
//   modes=resident,thesis,fused   (fused: GMRES with DCGS2 on fused kernels,
//                   one row where the ortho list has cgs2 or dcgs2)
//   ortho=mgs,cgs2  orthogonalisations (mgs, cgs, cgs2, dcgs2, bcgs2: s-step
//                   GMRES, its own row in the resident and fused modes)
//   sstep=4         bcgs2's block sizes (a list: one row each)
//   ghosts=keep     keep,drop: also solve the system without the ghost cells'
//                   empty rows (sparse::drop_empty_block_rows: same solution,
//                   38% shorter vectors on case 4)
//   basis=full      full,compressed: also GMRES with its basis in half
//                   (complex single; float for double) in resident/fused modes
//   pipeline=1      1,0: also the fused rows with one host round trip per
//                   DCGS2 step (krylov::Options::pipeline off), same bits
//   tosolve=1       0: skip the time-to-solution rows
//   precond=none    preconditioners of the time-to-solution rows (none,
//                   jacobi, block-jacobi (5 x 5), ilu0)
//   mtx=a.mtx,...   Matrix Market matrices: time to 1e-8 (GMRES(30)/(100),
//                   CGS2, resident and fused, each basis), b = A * ones
//   poisson=255     CG + one mg V-cycle on 3D Poisson N^3 to 1e-8 (double,
//                   matrix free), resident and fused; 0 skips it (quick: 63)
//   kernels=0       K > 0: the orthogonalisation kernels alone on complex
//                   single vectors of kn values (1280000: case 4 without its
//                   ghost rows), K basis vectors: dots, dots with two
//                   right-hand sides, combine and DCGS2's two-output
//                   combine, and for each sstep t s-step GMRES's block
//                   products and block update, each with its host round
//                   trip, bytes counted once per vector (the solver's split
//                   in kernel form)
//   short=256       CG + point Jacobi on laplace7:N (double) and BiCGStab +
//                   point Jacobi on each TRACE case (complex double), 100
//                   iterations, resident and fused, bytes per iteration by
//                   the pass counts of cg_fused.hpp; 0 skips them (quick: 32)
#include <fmt/format.h>

#include <algorithm>

#include "apps/tessera/commands.hpp"
#include "core/error.hpp"
#include "core/progress.hpp"
#include "krylov/poisson.hpp"
#include "krylov/precond.hpp"
#include "krylov/solver.hpp"
#include "mg/layout.hpp"
#include "krylov/vector_ops.hpp"
#include "sparse/convert.hpp"
#include "sparse/device_inputs.hpp"
#include "sparse/device_matrix.hpp"

namespace tessera::app {

namespace {

using namespace tessera::sparse;
using bench::Measurement;

// Vector bytes of one Arnoldi step j (0-based) as implemented: MGS 5 vector
// passes per projection, CGS 2(j+1)+3, CGS2 twice that; plus the norm (2),
// normalisation (2) and the copy of v_j into the operator's input (2).
// DCGS2 on the separate kernels: two dots over p vectors and a right-hand
// side each, the next candidate (p + 2) and q_j (p + 1): 4p + 5, no norm;
// fused: one reduction (p + 1: w; u_j is slot p-1) and one update (p + 1
// read, 2 written): 2p + 4; both plus the copy of v_j (2).
// A compressed basis (c = its bytes per value over the working type's, 1/2)
// scales the basis vectors' passes: fused 2pc + 3 + 3c (the two written
// basis vectors and the v_j copy's read are basis vectors too); otherwise the
// p-proportional terms (MGS: each projection reads q_i twice, w three times).
// s-step GMRES (bcgs2, blocks of s in a cycle of m): a block of t vectors
// starting at step k costs 3t for the Newton recurrence, two projections of
// 2(k+1) + 3t each (the block products read the k+1 basis vectors and the
// block once, the update reads both and writes the block) and the copies of
// v_j (2t): 4(k+1) + 11t, shared out over its t steps. The first s steps of
// a solve (first_cycle) are blocks of one.
double ortho_vectors(krylov::Mode mode, krylov::Ortho o, int j, double c = 1, int s = 1, int m = 1,
                     bool first_cycle = false) {
  const double p = j + 1;
  if (o == krylov::Ortho::bcgs2) {
    if (first_cycle && j < s) return 4.0 * (j + 1) + 11.0;
    const int k0 = first_cycle ? s : 0, k = k0 + (j - k0) / s * s, t = std::min(s, m - k);
    return (4.0 * (k + 1) + 11.0 * t) / t;
  }
  if (mode == krylov::Mode::fused) return 2 * p * c + 3 + 3 * c;
  if (o == krylov::Ortho::dcgs2) return 4 * p * c + 5 + 2;
  const double proj = o == krylov::Ortho::mgs   ? p * (2 * c + 3)
                      : o == krylov::Ortho::cgs ? 2 * p * c + 3
                                                : 2 * (2 * p * c + 3);
  return proj + 6;
}

// Vector passes of one CG / BiCGStab iteration with point Jacobi (SpMV
// excluded; cg_fused.hpp counts them): resident CG 17, fused 13; resident
// BiCGStab 33, fused 23.
double short_vectors(krylov::Method m, krylov::Mode mode) {
  const bool fused = mode == krylov::Mode::fused;
  if (m == krylov::Method::cg) return fused ? 13 : 17;
  return fused ? 23 : 33;
}

template <Scalar V>
Measurement run_case(const std::shared_ptr<Device>& dev, const HostMatrix<V>& hm,
                     const krylov::Options& o, const BenchArgs& args, const std::string& label,
                     const std::string& precond = "none") {
  auto dm = hm.is_block ? std::make_shared<DeviceMatrix<V>>(dev, hm.block, block_solver_kernel())
                        : std::make_shared<DeviceMatrix<V>>(dev, hm.csr);
  krylov::MatrixOperator<V> op(dm);
  // block Jacobi: TRACE's 5 x 5 blocks
  const auto prec = precond == "none"
                        ? nullptr
                        : krylov::make_preconditioner<V>(
                              precond, dev, hm.is_block ? to_csr(hm.block) : hm.csr, 5);
  const std::size_t n = op.size();
  Buffer<V> b(dev, n), x(dev, n);
  std::vector<V> hb(n, V(0));
  for (std::size_t i = 0; i < n; ++i) hb[i] = V(1);
  // b = A * ones keeps ghost rows (empty in TRACE) consistent.
  Buffer<V> ones(dev, n);
  ones.copy_from_host(hb);
  op.apply(ones, b);
  krylov::DeviceVectorOps<V> ops(dev, n, 1);
  krylov::Result last;
  Measurement m;
  m.kernel = label;
  m.precision = sizeof(real_t<V>) == 4 ? (is_complex_v<V> ? "complex-single" : "single")
                                       : (is_complex_v<V> ? "complex-double" : "double");
  m.size = n;
  m.timing = bench::time_runs(
      dev->queue(),
      [&](int) {
        ops.combine(x, 0, V(0), nullptr, 0, nullptr, 0, 0, nullptr);
        last = krylov::solve<V>(op, prec.get(), b, x, o);
      },
      args.timing);
  // Two more runs for the split: the device synchronised at phase boundaries
  // (wall time per phase, as before), and device events around each phase
  // (device time, the run unperturbed; not in thesis mode, whose phases are
  // host work).
  krylov::Options split = o;
  split.time_split = true;
  ops.combine(x, 0, V(0), nullptr, 0, nullptr, 0, 0, nullptr);
  const krylov::Result r = krylov::solve<V>(op, prec.get(), b, x, split);
  std::string event_split;
  if (o.mode != krylov::Mode::thesis) {
    krylov::Options ev = o;
    ev.time_split_events = true;
    ops.combine(x, 0, V(0), nullptr, 0, nullptr, 0, 0, nullptr);
    const auto e = krylov::solve<V>(op, prec.get(), b, x, ev).time;
    event_split =
        fmt::format("; device events ms: spmv {:.3f} ortho {:.3f} precond {:.3f} (total {:.3f})",
                    1e3 * e.spmv, 1e3 * e.ortho, 1e3 * e.precond, 1e3 * e.total);
  }
  const double vb = static_cast<double>(n * sizeof(V));
  double bytes = 0;
  const int m_len = o.fixed_iterations ? o.max_iters : o.restart;
  const double c = o.compressed_basis ? 0.5 : 1.0;
  const bool gmres = o.method == krylov::Method::gmres || o.method == krylov::Method::fgmres;
  double one_projection =
      0;  // anchors-sparse.md §5 note 5's count for one projection per step (the fused DCGS2's)
  for (int it = 0; it < r.iterations; ++it) {
    const int j = it % std::max(1, m_len);
    bytes +=
        (gmres ? ortho_vectors(o.mode, o.ortho, j, c, o.block_size, std::max(1, m_len), it < m_len)
               : short_vectors(o.method, o.mode)) *
        vb;
    one_projection += ortho_vectors(krylov::Mode::fused, krylov::Ortho::dcgs2, j) * vb;
  }
  // BiCGStab applies A twice per iteration
  const int spmvs =
      o.method == krylov::Method::bicgstab ? 2 * r.iterations + 1 : r.iterations + r.restarts + 1;
  // a half basis (single values) runs on A / sigma: w is scaled in place after each application
  if (o.compressed_basis && sizeof(real_t<V>) == 4) bytes += 2.0 * vb * r.iterations;
  bytes += spmvs * dm->model_bytes(dm->kernel());
  if (o.mode == krylov::Mode::thesis) bytes += 2.0 * vb * (r.iterations + r.restarts + 1);
  m.bytes = bytes;
  m.flops = 0;
  const auto& t = r.time;
  m.note = fmt::format(
      "{} it ({}), relres {:.2e}; split ms: spmv {:.3f} ortho {:.3f} precond {:.3f} transfer {:.3f} other {:.3f}; "
      "model {:.0f} B/it ortho vs {:.0f} B SpMV{}{}",
      r.iterations, krylov::to_string(r.status), r.true_relres, 1e3 * t.spmv, 1e3 * t.ortho,
      1e3 * t.precond, 1e3 * t.transfer, 1e3 * t.other,
      r.iterations ? (bytes - spmvs * dm->model_bytes(dm->kernel())) / r.iterations : 0.0,
      dm->model_bytes(dm->kernel()), event_split,
      o.ortho == krylov::Ortho::bcgs2 && gmres
          ? fmt::format("; s {}; one-projection model {:.0f} B/it ortho", o.block_size,
                        r.iterations ? one_projection / r.iterations : 0.0)
          : std::string());
  return m;
}

// CG preconditioned by one V-cycle (issue 7: 256^3 to 1e-8 in < 15 iterations;
// mg needs sides c*2^k - 1, so 255). Bytes: not modelled (0).
Measurement poisson_cg_mg(const std::shared_ptr<Device>& dev, long n, krylov::Mode mode,
                          const BenchArgs& args) {
  using T = double;
  const mg::Dims d{n, n, n, 3};
  krylov::PoissonOperator<T> a(dev, d);
  krylov::MultigridPreconditioner<T> m(dev, d);
  Buffer<T> b(dev, d.storage()), x(dev, d.storage());
  b.copy_from_host(
      mg::to_halo_layout(d, std::vector<T>(static_cast<std::size_t>(d.points()), T(1))));
  krylov::DeviceVectorOps<T> ops(dev, d.storage(), 1);
  krylov::Options o;
  o.method = krylov::Method::cg;
  o.mode = mode;
  o.tol = 1e-8;
  o.max_iters = 100;
  krylov::Result last;
  Measurement r;
  r.kernel = fmt::format("cg + mg V(1,1) to 1e-8 {} poisson3d:{}", krylov::to_string(mode), n);
  r.precision = "double";
  r.size = static_cast<std::size_t>(d.points());
  r.timing = bench::time_runs(
      dev->queue(),
      [&](int) {
        ops.combine(x, 0, T(0), nullptr, 0, nullptr, 0, 0, nullptr);
        last = krylov::solve<T>(a, &m, b, x, o);
      },
      args.timing);
  krylov::Options split = o;
  split.time_split = true;
  ops.combine(x, 0, T(0), nullptr, 0, nullptr, 0, 0, nullptr);
  const krylov::Result t = krylov::solve<T>(a, &m, b, x, split);
  r.note = fmt::format(
      "{} it ({}), true relres {:.2e}; split ms: spmv {:.2f} precond {:.2f} dots {:.2f} other {:.2f}",
      t.iterations, krylov::to_string(t.status), t.true_relres, 1e3 * t.time.spmv,
      1e3 * t.time.precond, 1e3 * t.time.ortho, 1e3 * t.time.other);
  return r;
}

// The orthogonalisation's kernels alone (--param kernels=K): what one Arnoldi
// step of the fused and resident modes runs at j = K - 1, each timed with its
// launch overheads and (dots) its blocking read, against the bytes of one
// pass over every vector it touches. Coefficients of modulus < 1/2 keep the
// in-place updates bounded over the repetitions.
std::vector<Measurement> ortho_kernel_rows(const std::shared_ptr<Device>& dev, int k, std::size_t n,
                                           const BenchArgs& args, const std::vector<int>& ssteps) {
  using V = std::complex<float>;
  const int tmax = *std::max_element(ssteps.begin(), ssteps.end());
  krylov::DeviceVectorOps<V> ops(dev, n, k + tmax + 1, tmax);
  auto basis = ops.make(static_cast<std::size_t>(k + tmax) + 1);
  auto w = ops.make(), w2 = ops.make(), y = ops.make();
  std::vector<V> host(n * (static_cast<std::size_t>(k + tmax) + 1));
  std::uint64_t state = 0x9e3779b97f4a7c15ull;
  auto next = [&] {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<float>(static_cast<double>(state >> 11) * 0x1p-53 - 0.5);
  };
  for (auto& v : host) v = V(next(), next());
  ops.set(basis, host);
  host.resize(n);
  for (auto& v : host) v = V(next(), next());
  ops.set(w, host);
  for (auto& v : host) v = V(next(), next());
  ops.set(w2, host);
  std::vector<V> out(static_cast<std::size_t>(k) + 1), out2(out.size()), c(out.size()),
      c2(out.size());
  for (std::size_t i = 0; i < c.size(); ++i)
    c[i] = V(0.5f / float(k), -0.25f / float(k)), c2[i] = V(-0.5f / float(k), 0.125f);
  const double vb = static_cast<double>(n * sizeof(V));
  std::vector<Measurement> rows;
  auto row = [&](const std::string& what, double vectors, const std::function<void()>& run) {
    Measurement m;
    m.kernel = fmt::format("ortho kernel {} k={}", what, k);
    m.precision = "complex-single";
    m.size = n;
    m.bytes = vectors * vb;
    m.timing = bench::time_runs(
        dev->queue(), [&](int) { run(); }, args.timing);
    m.note = fmt::format("{:.0f} vector passes of {} values, blocking read included for dots",
                         vectors, n);
    rows.push_back(m);
  };
  const int kk = k;
  row("dots", kk + 1, [&] { ops.dots(basis, 0, kk, w, 0, out.data()); });
  row("dots2", kk + 2, [&] { ops.dots2(basis, 0, kk, w, 0, &w2, 0, out.data(), out2.data()); });
  row("combine", kk + 2, [&] { ops.combine(y, 0, V(0.5f), &w, 0, &basis, 0, kk, c.data()); });
  // DCGS2: slot k from w and slots 0..k-1, slot k-1 from itself and slots 0..k-2, one pass
  row("combine2", kk + 3, [&] {
    ops.combine2(basis, static_cast<std::size_t>(kk), V(0.5f), &w, 0, &basis, 0, kk, c.data(),
                 {&basis, static_cast<std::size_t>(kk) - 1, V(0.5f), &basis,
                  static_cast<std::size_t>(kk) - 1, kk - 1, c2.data()});
  });
  // s-step GMRES's block kernels: the block in slots k..k+t-1 against the k
  // basis vectors before it (a = I / 2 and small c keep the block bounded)
  for (const int t : ssteps) {
    std::vector<V> prod(std::size_t(k + t) * std::size_t(t)),
        a(std::size_t(t) * std::size_t(t), V(0)),
        cb(std::size_t(k) * std::size_t(t), V(0.25f / float(k), 0.125f / float(k)));
    for (int r = 0; r < t; ++r) a[std::size_t(r) * std::size_t(t) + std::size_t(r)] = V(0.5f);
    row(fmt::format("dots_block t={}", t), kk + t,
        [&] { ops.dots_block(basis, 0, kk, static_cast<std::size_t>(kk), t, prod.data()); });
    row(fmt::format("combine_block t={}", t), kk + 2 * t, [&] {
      ops.combine_block(basis, static_cast<std::size_t>(kk), t, a.data(), 0, kk, cb.data());
    });
  }
  return rows;
}

bench::DeviceReport run_gmres_suite(const std::shared_ptr<Device>& device, const BenchArgs& args) {
  bench::DeviceReport report;
  report.device = device->info();
  const auto names = args.param_list("cases", args.quick ? "1" : "1,2,3,4,5,6");
  const int iters = int(args.param_int("iters", "100"));
  const auto modes = args.param_list("modes", "resident,thesis,fused");
  const auto orthos = args.param_list("ortho", "mgs,cgs2");
  const auto ghosts = args.param_list("ghosts", "keep");
  const auto bases = args.param_list("basis", "full");
  for (const auto& b : bases)
    if (b != "full" && b != "compressed")
      throw UsageError(fmt::format("--param basis={}: expected full or compressed", b));
  const auto cgs2_like = [](const std::string& o) {
    return o == "cgs2" || o == "dcgs2" || o == "bcgs2";
  };
  if (std::find(modes.begin(), modes.end(), "fused") != modes.end() &&
      std::none_of(orthos.begin(), orthos.end(), cgs2_like))
    throw UsageError(
        "--param modes=...fused needs cgs2, dcgs2 or bcgs2 in --param ortho= (the fused mode runs DCGS2 "
        "or s-step block CGS2)");
  std::vector<int> ssteps;
  for (const auto& v : args.param_list("sstep", "4")) {
    const int sv = int(parse_int_param("sstep", v));
    if (sv < 1 || sv > TS_KRY_BLOCK_MAX)
      throw UsageError(fmt::format("--param sstep={}: expected 1 to {}", v, TS_KRY_BLOCK_MAX));
    ssteps.push_back(sv);
  }
  for (const auto& g : ghosts)
    if (g != "keep" && g != "drop")
      throw UsageError(fmt::format("--param ghosts={}: expected keep or drop", g));
  const bool tosolve = args.param_int("tosolve", "1") != 0;
  std::vector<bool> pipelines;
  for (const auto& p : args.param_list("pipeline", "1"))
    if (p == "0" || p == "1")
      pipelines.push_back(p == "1");
    else
      throw UsageError(fmt::format("--param pipeline={}: expected 1, 0 or 1,0", p));
  const int poisson = int(args.param_int("poisson", args.quick ? "63" : "255"));
  const int shortn = int(args.param_int("short", args.quick ? "32" : "256"));
  const auto precs = args.param_list("precond", "none");
  for (const auto& p : precs)
    if (p != "none" && p != "jacobi" && p != "block-jacobi" && p != "ilu0")
      throw UsageError(
          fmt::format("--param precond={}: expected none, jacobi, block-jacobi or ilu0", p));
  std::vector<std::string> mtx;
  for (const auto& f : args.param_list("mtx", ""))
    if (!f.empty() && args.run_double()) mtx.push_back(f);
  // time to 1e-8 (complex double for TRACE, the file's field for Matrix
  // Market): GMRES(30)/(100) with CGS2, resident and fused, each basis
  auto to_solve_rows = [&](const auto& hm) {
    for (const auto& precond : precs)
      for (const auto& basis : bases)
        for (int restart : {30, 100})
          for (const char* mode : {"resident", "fused"}) {
            krylov::Options o;
            o.mode = krylov::parse_mode(mode);
            o.ortho = krylov::Ortho::cgs2;
            o.restart = restart;
            o.tol = 1e-8;
            o.max_iters = 5000;
            o.compressed_basis = basis == "compressed";
            if (o.mode == krylov::Mode::fused &&
                std::find(modes.begin(), modes.end(), "fused") == modes.end())
              continue;
            report.results.push_back(
                run_case(device, hm, o, args,
                         fmt::format("gmres({}) to 1e-8 {} cgs2 {}{}{}", restart, mode, hm.name,
                                     o.compressed_basis ? " compressed basis" : "",
                                     precond == "none" ? "" : " + " + precond),
                         precond));
          }
  };
  Progress progress("gmres on " + device->id(), 2 + static_cast<int>(names.size() + mtx.size()));
  progress.step("copy");
  const Measurement copy =
      bench::measure_native_copy(*device, std::size_t(1) << (args.quick ? 26 : 29), args.timing);
  report.copy_gbps = copy.gbps();
  report.results.push_back(copy);
  const int kernel_k = int(args.param_int("kernels", "0"));
  const int kernel_n = int(args.param_int("kn", "1280000"));
  if (kernel_k == 1)
    throw UsageError("--param kernels: at least 2 basis vectors (0 skips the rows)");
  if (kernel_k > 0 && kernel_n == 0) throw UsageError("--param kn: at least one value");
  if (kernel_k > 0 && args.run_float())
    for (auto& m :
         ortho_kernel_rows(device, kernel_k, static_cast<std::size_t>(kernel_n), args, ssteps))
      report.results.push_back(std::move(m));
  const auto cases = thesis_cases();
  for (const auto& name : names) {
    const int i = int(parse_int_param("cases", name));
    if (i < 1 || i > static_cast<int>(cases.size()))
      throw UsageError(fmt::format("--param cases: no case {}", name));
    const TraceCase& tc = cases[static_cast<std::size_t>(i - 1)];
    progress.step(tc.name());
    if (args.run_float()) {
      const auto full = generate_matrix<std::complex<float>>(tc.name());
      HostMatrix<std::complex<float>> restricted;  // the ghost cells' empty rows dropped
      if (std::find(ghosts.begin(), ghosts.end(), "drop") != ghosts.end()) {
        restricted.name = full.name;
        restricted.block = sparse::drop_empty_block_rows(full.block).a;
        restricted.is_block = true;
      }
      for (const auto& basis : bases)
        for (const auto& ghost : ghosts)
          for (const auto& mode : modes)
            for (const auto& ortho : orthos) {
              if (basis == "compressed" && mode == "thesis")
                continue;  // the basis lives on the host there
              const bool drop = ghost == "drop";
              const auto& hm = drop ? restricted : full;
              krylov::Options o;
              o.mode = krylov::parse_mode(mode);
              o.ortho = krylov::parse_ortho(ortho);
              if (o.ortho ==
                  krylov::Ortho::
                      bcgs2) {  // s-step: device basis, full precision; a row per block size
                if (o.mode == krylov::Mode::thesis || basis == "compressed") continue;
                o.fixed_iterations = true;
                o.max_iters = iters;
                for (const int sv : ssteps) {
                  o.block_size = sv;
                  report.results.push_back(
                      run_case(device, hm, o, args,
                               fmt::format("gmres {} it {} bcgs2 s={} {}{}", iters, mode, sv,
                                           tc.name(), drop ? " ghosts dropped" : "")));
                }
                continue;
              }
              // the fused mode is CGS2 in its delayed form: one row, under the ortho list's first cgs2/dcgs2
              if (o.mode == krylov::Mode::fused) {
                const bool cgs2_like =
                    o.ortho == krylov::Ortho::cgs2 || o.ortho == krylov::Ortho::dcgs2;
                const auto first =
                    std::find_if(orthos.begin(), orthos.end(),
                                 [](const std::string& s) { return s == "cgs2" || s == "dcgs2"; });
                if (!cgs2_like || &*first != &ortho) continue;
              }
              o.fixed_iterations = true;
              o.max_iters = iters;
              o.compressed_basis = basis == "compressed";
              // only the fused mode pipelines: the other modes run once
              for (const bool pipeline :
                   o.mode == krylov::Mode::fused ? pipelines : std::vector<bool>{true}) {
                o.pipeline = pipeline;
                report.results.push_back(
                    run_case(device, hm, o, args,
                             fmt::format("gmres {} it {} {} {}{}{}{}", iters, mode, ortho,
                                         tc.name(), drop ? " ghosts dropped" : "",
                                         o.compressed_basis ? " compressed basis" : "",
                                         pipeline ? "" : " no pipeline")));
              }
            }
    }
    if (tosolve && args.run_double())
      to_solve_rows(generate_matrix<std::complex<double>>(tc.name()));
  }
  // Matrix Market files: time to 1e-8 like the TRACE rows, in the file's field (real or complex) in double
  for (const auto& path : mtx) {
    progress.step(path);
    if (file_is_complex(path))
      to_solve_rows(read_matrix<std::complex<double>>(path));
    else
      to_solve_rows(read_matrix<double>(path));
  }
  if (shortn > 0 && args.run_double()) {
    progress.step("cg/bicgstab");
    auto short_rows = [&](const auto& hm, krylov::Method method) {
      for (const char* mode : {"resident", "fused"}) {
        krylov::Options o;
        o.method = method;
        o.mode = krylov::parse_mode(mode);
        o.fixed_iterations = true;
        o.max_iters = iters;
        report.results.push_back(run_case(
            device, hm, o, args,
            fmt::format("{} + jacobi {} it {} {}", krylov::to_string(method), iters, mode, hm.name),
            "jacobi"));
      }
    };
    short_rows(generate_matrix<double>(fmt::format("laplace7:{}", shortn)), krylov::Method::cg);
    for (const auto& name : names)
      short_rows(generate_matrix<std::complex<double>>(
                     cases[static_cast<std::size_t>(parse_int_param("cases", name) - 1)].name()),
                 krylov::Method::bicgstab);
  }
  if (poisson > 0 && args.run_double())
    for (const auto mode : {krylov::Mode::resident, krylov::Mode::fused})
      report.results.push_back(poisson_cg_mg(device, poisson, mode, args));
  return report;
}

const RegisterBenchSuite registered{
    "gmres",
    "GMRES: the thesis's 100 iterations on TRACE cases by mode and orthogonalisation, time to 1e-8",
    run_gmres_suite};

}  // namespace

}  // namespace tessera::app
