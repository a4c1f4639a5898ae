// tessera.mg: the device-resident multigrid solver on a NumPy right-hand side.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>

#include "common.hpp"
#include "mg/solver.hpp"

namespace tessera::py {

namespace {
struct MgArgs {
  std::string cycle, smoother;
  int pre, post, max_cycles, coarse_sweeps;
  double tol, omega;
  bool fmg;
};

mg::Options options(const MgArgs& a) {
  mg::Options o;
  if (a.cycle == "V")
    o.cycle = mg::CycleType::V;
  else if (a.cycle == "W")
    o.cycle = mg::CycleType::W;
  else if (a.cycle == "F")
    o.cycle = mg::CycleType::F;
  else
    throw UsageError("mg.solve: cycle must be 'V', 'W' or 'F' (got '" + a.cycle + "')");
  if (a.smoother == "rbgs")
    o.smoother = mg::Smoother::rbgs;
  else if (a.smoother == "jacobi")
    o.smoother = mg::Smoother::jacobi;
  else
    throw UsageError("mg.solve: smoother must be 'rbgs' or 'jacobi' (got '" + a.smoother + "')");
  if (a.pre < 0 || a.post < 0 || a.pre + a.post == 0)
    throw UsageError("mg.solve: pre and post smoothing steps must be >= 0 and not both 0");
  if (a.max_cycles < 0) throw UsageError("mg.solve: max_cycles must be >= 0");
  o.pre = a.pre;
  o.post = a.post;
  o.tol = a.tol;
  o.omega = a.omega;
  o.max_cycles = a.max_cycles;
  o.coarse_sweeps = a.coarse_sweeps;
  o.fmg = a.fmg;
  return o;
}

template <class T>
nb::tuple solve(const std::shared_ptr<Device>& dev, const AnyArray& b, const AnyArray* x0,
                const MgArgs& a) {
  mg::Dims d;
  std::vector<std::size_t> shape;
  for (std::size_t i = 0; i < b.ndim(); ++i) shape.push_back(b.shape(i));
  if (b.ndim() == 2) {
    d = {static_cast<long>(b.shape(1)), static_cast<long>(b.shape(0)), 1, 2};
  } else if (b.ndim() == 3) {
    d = {static_cast<long>(b.shape(2)), static_cast<long>(b.shape(1)),
         static_cast<long>(b.shape(0)), 3};
  } else {
    throw UsageError("mg.solve: b must be a 2-D (ny, nx) or 3-D (nz, ny, nx) array, got " +
                     std::to_string(b.ndim()) + " dimensions");
  }
  auto rhs = to_vector<T>(b, "mg.solve: b");
  std::vector<T> guess;
  if (x0) {
    if (x0->size() != b.size()) throw UsageError("mg.solve: x0 must have the shape of b");
    guess = to_vector<T>(*x0, "mg.solve: x0 (the dtype of b)");
  }
  mg::SolveReport rep;
  std::vector<T> x;
  int levels = 0;
  {
    nb::gil_scoped_release release;
    mg::Solver<T> s(dev, d, options(a));
    s.set_rhs(rhs);
    if (x0) s.set_solution(guess);
    rep = s.solve();
    x = s.solution();
    levels = s.levels();
  }
  nb::dict info;
  info["status"] = mg::to_string(rep.status);
  info["cycles"] = rep.cycles;
  info["residuals"] = to_numpy(std::vector<double>(rep.residuals));
  info["rhs_norm"] = rep.rhs_norm;
  info["relative_residual"] = rep.relative_residual();
  info["asymptotic_factor"] = rep.asymptotic_factor();
  info["seconds"] = rep.seconds;
  info["levels"] = levels;
  info["device"] = dev->id();
  return nb::make_tuple(to_numpy(std::move(x), shape), info);
}
}  // namespace

void bind_mg(nb::module_& m) {
  m.def(
      "_solve",
      [](nb::handle dev, AnyArray b, std::optional<AnyArray> x0, std::string cycle,
         std::string smoother, int pre, int post, double tol, int max_cycles, bool fmg,
         double omega, int coarse_sweeps) {
        const MgArgs a{cycle, smoother, pre, post, max_cycles, coarse_sweeps, tol, omega, fmg};
        auto d = device_from(dev);
        if (is_dtype<float>(b)) return solve<float>(d, b, x0 ? &*x0 : nullptr, a);
        if (is_dtype<double>(b)) return solve<double>(d, b, x0 ? &*x0 : nullptr, a);
        throw UsageError("mg.solve: b must be float32 or float64, got " + dtype_name(b));
      },
      nb::arg("device").none(), nb::arg("b"), nb::arg("x0").none(), nb::arg("cycle"),
      nb::arg("smoother"), nb::arg("pre"), nb::arg("post"), nb::arg("tol"), nb::arg("max_cycles"),
      nb::arg("fmg"), nb::arg("omega"), nb::arg("coarse_sweeps"));
}

}  // namespace tessera::py
