// tessera.solve: GMRES / FGMRES / CG / BiCGStab on a scipy.sparse matrix
// (CSR arrays from tessera/__init__.py), Jacobi or block-Jacobi preconditioned.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>

#include "krylov/precond.hpp"
#include "krylov/solver.hpp"
#include "sparse/device_matrix.hpp"
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
  int stagnation;  // krylov::Options::stagnation_window (0: off)
};

template <class V>
nb::tuple solve(const std::shared_ptr<Device>& dev, const sparse::Csr<V>& a, const AnyArray& b,
                const AnyArray* x0, const SolveArgs& s) {
  if (a.rows != a.cols)
    throw UsageError("solve: A must be square, got " + std::to_string(a.rows) + " x " +
                     std::to_string(a.cols));
  auto hb = to_vector<V>(b, "solve: b (the dtype of A)");
  if (hb.size() != static_cast<std::size_t>(a.rows))
    throw UsageError("solve: b has " + std::to_string(hb.size()) + " entries, A " +
                     std::to_string(a.rows) + " rows");
  std::vector<V> hx(hb.size(), V(0));
  if (x0) {
    hx = to_vector<V>(*x0, "solve: x0 (the dtype of A)");
    if (hx.size() != hb.size()) throw UsageError("solve: x0 must have the length of b");
  }
  krylov::Options o =
      krylov::parse_options(s.method, s.ortho, s.mode, s.restart, s.tol, s.max_iters, s.fixed);
  if (s.basis != "full" && s.basis != "compressed")
    throw UsageError("solve: basis must be 'full' or 'compressed', got '" + s.basis + "'");
  o.compressed_basis = s.basis == "compressed";
  o.block_size = s.sstep;
  o.stagnation_window = s.stagnation;
  krylov::Result r;
  {
    nb::gil_scoped_release release;
    auto dm = std::make_shared<sparse::DeviceMatrix<V>>(dev, a, sparse::parse_kernel(s.kernel));
    krylov::MatrixOperator<V> op(dm);
    const auto m = krylov::make_preconditioner<V>(s.precond, dev, a, s.block);
    Buffer<V> db(dev, hb.size()), dx(dev, hx.size());
    db.copy_from_host(hb);
    dx.copy_from_host(hx);
    r = krylov::solve<V>(op, m.get(), db, dx, o);
    dx.copy_to_host(hx);
  }
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
  info["device"] = dev->id();
  return nb::make_tuple(to_numpy(std::move(hx)), info);
}
}  // namespace

void bind_krylov(nb::module_& m) {
  m.def(
      "_solve",
      [](nb::handle dev, AnyArray indptr, AnyArray indices, AnyArray data,
         std::pair<long, long> shape, AnyArray b, std::optional<AnyArray> x0, std::string method,
         int restart, std::string ortho, double tol, int max_iters, std::string precond, int block,
         std::string mode, std::string kernel, bool fixed, std::string basis, int sstep,
         int stagnation) {
        const SolveArgs s{method, ortho, precond, mode,  kernel, restart,   max_iters,
                          block,  tol,   fixed,   basis, sstep,  stagnation};
        auto d = device_from(dev);
        return dispatch_value(data, "solve", [&]<class V>() {
          auto a = csr_from_arrays<V>(indptr, indices, data, shape);
          return solve<V>(d, a, b, x0 ? &*x0 : nullptr, s);
        });
      },
      nb::arg("device").none(), nb::arg("indptr"), nb::arg("indices"), nb::arg("data"),
      nb::arg("shape"), nb::arg("b"), nb::arg("x0").none(), nb::arg("method"), nb::arg("restart"),
      nb::arg("ortho"), nb::arg("tol"), nb::arg("max_iters"), nb::arg("precond"), nb::arg("block"),
      nb::arg("mode"), nb::arg("kernel"), nb::arg("fixed_iterations"), nb::arg("basis"),
      nb::arg("sstep"), nb::arg("stagnation"));
}

}  // namespace tessera::py
