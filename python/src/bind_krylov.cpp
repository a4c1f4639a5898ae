// tessera.solve: GMRES / FGMRES / CG / BiCGStab on a scipy.sparse matrix
// (CSR arrays from tessera/__init__.py), preconditioned by Jacobi, block
// Jacobi, ILU(0) or smoothed-aggregation AMG (its options from a dict).
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>

#include "amg/preconditioner.hpp"
#include "krylov/precond.hpp"
#include "krylov/solver.hpp"
#include "sparse/device_matrix.hpp"
#include "sparse/kernel_choice.hpp"
#include "sparse/analysis.hpp"
#include "sparse_csr.hpp"

namespace tessera::py {

namespace {
struct SolveArgs {
  std::string method, ortho, precond, mode, kernel;
  int restart, max_iters, block;
  double tol;
  bool fixed;
  std::string basis;
  int sstep;
  int stagnation;  // krylov::Options::stagnation_window (-1 auto, 0 off)
};

krylov::Options options_of(const SolveArgs& s, nb::handle callback) {
  krylov::Options o =
      krylov::parse_options(s.method, s.ortho, s.mode, s.restart, s.tol, s.max_iters, s.fixed);
  if (s.basis != "full" && s.basis != "compressed")
    throw UsageError("solve: basis must be 'full' or 'compressed', got '" + s.basis + "'");
  o.compressed_basis = s.basis == "compressed";
  o.block_size = s.sstep;
  o.stagnation_window = s.stagnation;
  // The callback is a borrowed handle (the caller's argument outlives the
  // solve): the options are copied without the GIL, so no reference count
  // may change when they are.
  if (callback.is_valid() && !callback.is_none())
    o.progress = [cb = callback.ptr()](int iteration, double relres) {
      nb::gil_scoped_acquire acquire;
      const nb::handle fn(cb);
      fn(iteration, relres);
    };
  return o;
}

nb::dict info_of(const krylov::Result& r, const Device& dev) {
  nb::dict info;
  info["status"] = std::string(krylov::to_string(r.status));
  info["converged"] = r.converged();
  info["iterations"] = r.iterations;
  info["restarts"] = r.restarts;
  info["history"] = to_numpy(std::vector<double>(r.history));
  info["true_relres"] = r.true_relres;
  info["happy_breakdown"] = r.happy_breakdown;
  info["dcgs2_explicit"] = r.dcgs2_explicit;
  nb::dict t;
  t["total"] = r.time.total;
  t["spmv"] = r.time.spmv;
  t["ortho"] = r.time.ortho;
  t["precond"] = r.time.precond;
  t["transfer"] = r.time.transfer;
  t["other"] = r.time.other;
  t["phases"] = r.time.phases;
  info["time"] = t;
  info["device"] = dev.id();
  return info;
}

// AMG's options from tessera.solve's amg= dict (the Python side has checked
// the keys); block: rows per node; the smoother auto resolved for a GPU or
// not (is_gpu), so that the sweeps checked are the ones that run.
amg::Options amg_options_from(const nb::dict& d, int block, bool is_gpu) {
  amg::Options o;
  o.block = block;
  auto get = [&](const char* key) { return d.contains(key) ? nb::object(d[key]) : nb::object(); };
  if (auto v = get("strength"); v.is_valid())
    o.strength = amg::parse_strength(nb::cast<std::string>(v));
  if (auto v = get("theta"); v.is_valid()) o.theta = nb::cast<double>(v);
  if (auto v = get("smoother"); v.is_valid())
    o.smoother = amg::parse_smoother(nb::cast<std::string>(v));
  if (auto v = get("degree"); v.is_valid()) o.degree = nb::cast<int>(v);
  if (auto v = get("omega"); v.is_valid()) o.omega = nb::cast<double>(v);
  if (auto v = get("presweeps"); v.is_valid()) o.presweeps = nb::cast<int>(v);
  if (auto v = get("postsweeps"); v.is_valid()) o.postsweeps = nb::cast<int>(v);
  if (auto v = get("cycle"); v.is_valid()) o.cycle = amg::parse_cycle(nb::cast<std::string>(v));
  if (auto v = get("levels"); v.is_valid()) o.max_levels = nb::cast<int>(v);
  if (auto v = get("coarse_size"); v.is_valid()) o.coarse_size = nb::cast<long>(v);
  o.smoother = amg::resolve_smoother(o.smoother, is_gpu);
  if ((d.contains("presweeps") && o.presweeps < 0) ||
      (d.contains("postsweeps") && o.postsweeps < 0))
    throw UsageError("amg: presweeps and postsweeps: expected 0 to 16");
  try {
    o.check();
  } catch (const UsageError& e) {  // the command line's names, as amg= keys
    std::string m = e.what();
    for (std::size_t at; (at = m.find("--amg-")) != std::string::npos;) m.replace(at, 6, "amg ");
    throw UsageError(m);
  }
  return o;
}

// The near-nullspace of amg={'nullspace': B}: B an n x k array (k vectors
// as columns) of A's dtype.
template <class V>
amg::Nullspace<V> nullspace_from(const nb::dict& d, std::size_t n) {
  amg::Nullspace<V> b;
  if (!d.contains("nullspace")) return b;
  const auto arr = nb::cast<AnyArray>(d["nullspace"]);
  if (arr.ndim() < 1 || arr.ndim() > 2 || arr.shape(0) != n)
    throw UsageError("amg: nullspace must be an array of " + std::to_string(n) +
                     " rows (one column per vector), got " + std::to_string(arr.ndim()) +
                     " dimensions with " + std::to_string(arr.ndim() ? arr.shape(0) : 0) + " rows");
  b.cols = arr.ndim() == 2 ? static_cast<int>(arr.shape(1)) : 1;
  b.values = to_vector<V>(arr, "amg: nullspace (the dtype of A)");
  return b;
}

// info['amg']: the hierarchy and the setup's phases.
template <class V>
nb::dict amg_info(const amg::Amg<V>& m) {
  const auto& h = m.hierarchy();
  nb::list levels;
  for (const auto& l : h.levels) {
    nb::dict e;
    e["rows"] = l.a.rows;
    e["nonzeros"] = l.a.nnz();
    e["block"] = l.block;
    e["rho"] = l.rho;
    e["colors"] = l.colors();
    levels.append(e);
  }
  nb::dict d;
  d["levels"] = levels;
  d["operator_complexity"] = h.operator_complexity();
  d["grid_complexity"] = h.grid_complexity();
  d["setup_s"] = h.times.total;
  d["upload_s"] = m.upload_seconds();
  d["smoother"] = std::string(amg::to_string(m.options().smoother));  // auto resolved
  d["products_on"] = h.products_on;                                   // "host" or the device id
  return d;
}

// b and x0 (when given) as V, checked against the operator's n.
template <class V>
std::pair<std::vector<V>, std::vector<V>> rhs_and_guess(std::size_t n, const AnyArray& b,
                                                        const AnyArray* x0) {
  auto hb = to_vector<V>(b, "solve: b (the dtype of A)");
  if (hb.size() != n)
    throw UsageError("solve: b has " + std::to_string(hb.size()) + " entries, A " +
                     std::to_string(n) + " rows");
  std::vector<V> hx(n, V(0));
  if (x0) {
    hx = to_vector<V>(*x0, "solve: x0 (the dtype of A)");
    if (hx.size() != n) throw UsageError("solve: x0 must have the length of b");
  }
  return {std::move(hb), std::move(hx)};
}

// Solves with the GIL released (taken again only by a Python matvec or
// callback); x comes back as a NumPy array.
template <class V>
nb::tuple run(krylov::LinearOperator<V>& op, krylov::LinearOperator<V>* m, std::vector<V> hb,
              std::vector<V> hx, const krylov::Options& o) {
  const auto& dev = op.device();
  Buffer<V> db(dev, hb.size()), dx(dev, hx.size());
  db.copy_from_host(hb);
  dx.copy_from_host(hx);
  krylov::Result r;
  {
    nb::gil_scoped_release release;
    r = krylov::solve<V>(op, m, db, dx, o);
    dx.copy_to_host(hx);
  }
  return nb::make_tuple(to_numpy(std::move(hx)), info_of(r, *dev));
}

template <class V>
nb::tuple solve(const std::shared_ptr<Device>& dev, const sparse::Csr<V>& a, const AnyArray& b,
                const AnyArray* x0, const SolveArgs& s, const nb::dict& amg_opts,
                nb::handle callback) {
  if (a.rows != a.cols)
    throw UsageError("solve: A must be square, got " + std::to_string(a.rows) + " x " +
                     std::to_string(a.cols));
  if (a.rows == 0) throw UsageError("solve: A is 0 x 0: there is no system to solve");
  auto [hb, hx] = rhs_and_guess<V>(static_cast<std::size_t>(a.rows), b, x0);
  const krylov::Options o = options_of(s, callback);
  const bool amg = s.precond == "amg";
  const amg::Options ao =
      amg ? amg_options_from(amg_opts, s.block, dev->info().is_gpu) : amg::Options{};
  if (amg && o.method == krylov::Method::cg && !ao.symmetric())
    throw UsageError(
        "solve: method 'cg' needs a symmetric preconditioner: amg presweeps and "
        "postsweeps must be equal (they give " +
        std::to_string(ao.pre()) + " and " + std::to_string(ao.post()) +
        "); or use method 'gmres'");
  const auto null =
      amg ? nullspace_from<V>(amg_opts, static_cast<std::size_t>(a.rows)) : amg::Nullspace<V>{};
  nb::gil_scoped_release release;
  // CG assumes A = A^H: the Python side warns on the defect (as tessera solve)
  const double defect = o.method == krylov::Method::cg ? sparse::hermitian_defect(a) : -1.0;
  const sparse::KernelChoice kc = sparse::kernel_for(s.kernel, a, dev->backend());
  auto dm = std::make_shared<sparse::DeviceMatrix<V>>(dev, a, kc.kernel, kc.options);
  krylov::MatrixOperator<V> op(dm);
  const auto m = amg ? std::make_unique<amg::Amg<V>>(dev, a, ao, null)
                     : krylov::make_preconditioner<V>(s.precond, dev, a, s.block);
  nb::gil_scoped_acquire acquire;  // run() releases it again around the solve
  nb::tuple out = run<V>(op, m.get(), std::move(hb), std::move(hx), o);
  if (amg) nb::cast<nb::dict>(out[1])["amg"] = amg_info(static_cast<const amg::Amg<V>&>(*m));
  if (defect >= 0) nb::cast<nb::dict>(out[1])["hermitian_defect"] = defect;
  return out;
}

// A is any object with matvec (scipy.sparse.linalg.LinearOperator):
// `matvec` takes and returns contiguous 1-D arrays of V (the Python side
// converts), called with the GIL on the host copy of each vector.
template <class V>
nb::tuple solve_operator(const std::shared_ptr<Device>& dev, std::size_t n, nb::handle matvec,
                         const AnyArray& b, const AnyArray* x0, const SolveArgs& s,
                         nb::handle callback) {
  if (s.precond != "none")
    throw UsageError("solve: precond '" + s.precond +
                     "' needs the matrix; A is an operator (matvec only): precond 'none'");
  auto [hb, hx] = rhs_and_guess<V>(n, b, x0);
  const krylov::Options o = options_of(s, callback);
  krylov::FunctionOperator<V> op(dev, n, [mv = matvec.ptr(), n](const Buffer<V>& x, Buffer<V>& y) {
    std::vector<V> hy;
    {
      nb::gil_scoped_acquire acquire;
      const nb::object r = nb::handle(mv)(to_numpy(x.to_vector()));
      hy = to_vector<V>(nb::cast<AnyArray>(r), "solve: A.matvec's result");
    }
    if (hy.size() != n)
      throw UsageError("solve: A.matvec returned " + std::to_string(hy.size()) +
                       " entries for a vector of " + std::to_string(n));
    y.copy_from_host(hy);
  });
  return run<V>(op, nullptr, std::move(hb), std::move(hx), o);
}
}  // namespace

void bind_krylov(nb::module_& m) {
  m.def(
      "_solve",
      [](nb::handle dev, AnyArray indptr, AnyArray indices, AnyArray data,
         std::pair<long, long> shape, AnyArray b, std::optional<AnyArray> x0, std::string method,
         int restart, std::string ortho, double tol, int max_iters, std::string precond, int block,
         std::string mode, std::string kernel, bool fixed, std::string basis, int sstep,
         int stagnation, nb::dict amg, nb::object callback) {
        const SolveArgs s{method, ortho, precond, mode,  kernel, restart,   max_iters,
                          block,  tol,   fixed,   basis, sstep,  stagnation};
        auto d = device_from(dev);
        return dispatch_value(data, "solve", [&]<class V>() {
          auto a = csr_from_arrays<V>(indptr, indices, data, shape);
          return solve<V>(d, a, b, x0 ? &*x0 : nullptr, s, amg, callback);
        });
      },
      nb::arg("device").none(), nb::arg("indptr"), nb::arg("indices"), nb::arg("data"),
      nb::arg("shape"), nb::arg("b"), nb::arg("x0").none(), nb::arg("method"), nb::arg("restart"),
      nb::arg("ortho"), nb::arg("tol"), nb::arg("max_iters"), nb::arg("precond"), nb::arg("block"),
      nb::arg("mode"), nb::arg("kernel"), nb::arg("fixed_iterations"), nb::arg("basis"),
      nb::arg("sstep"), nb::arg("stagnation"), nb::arg("amg"), nb::arg("callback").none());
  m.def(
      "_solve_operator",
      [](nb::handle dev, long n, nb::object matvec, AnyArray b, std::optional<AnyArray> x0,
         std::string method, int restart, std::string ortho, double tol, int max_iters,
         std::string precond, std::string mode, bool fixed, std::string basis, int sstep,
         int stagnation, nb::object callback) {
        if (n < 1) throw UsageError("solve: the operator has " + std::to_string(n) + " rows");
        const SolveArgs s{method, ortho, precond, mode,  "csr-vector", restart,   max_iters,
                          5,      tol,   fixed,   basis, sstep,        stagnation};
        auto d = device_from(dev);
        return dispatch_value(b, "solve", [&]<class V>() {
          return solve_operator<V>(d, static_cast<std::size_t>(n), matvec, b, x0 ? &*x0 : nullptr,
                                   s, callback);
        });
      },
      nb::arg("device").none(), nb::arg("n"), nb::arg("matvec"), nb::arg("b"), nb::arg("x0").none(),
      nb::arg("method"), nb::arg("restart"), nb::arg("ortho"), nb::arg("tol"), nb::arg("max_iters"),
      nb::arg("precond"), nb::arg("mode"), nb::arg("fixed_iterations"), nb::arg("basis"),
      nb::arg("sstep"), nb::arg("stagnation"), nb::arg("callback").none());
}

}  // namespace tessera::py
