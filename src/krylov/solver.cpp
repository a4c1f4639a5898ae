// Front end of the Krylov solvers: argument checks, the mode's space, the
// method, the time split.
#include "krylov/solver.hpp"

#include "core/enum_names.hpp"
#include "krylov/cg_fused.hpp"

namespace tessera::krylov {

namespace {
constexpr std::array<std::string_view, 4> kMethods{"gmres", "fgmres", "cg", "bicgstab"};
constexpr std::array<std::string_view, 5> kOrthos{"mgs", "cgs", "cgs2", "dcgs2", "bcgs2"};
constexpr std::array<std::string_view, 3> kModes{"resident", "thesis", "fused"};
constexpr std::array<std::string_view, 5> kStatuses{"converged", "max-iters", "breakdown",
                                                    "stagnated", "not-finite"};
static_assert(kMethods.size() == std::size_t(Method::bicgstab) + 1);
static_assert(kOrthos.size() == std::size_t(Ortho::bcgs2) + 1);
static_assert(kModes.size() == std::size_t(Mode::fused) + 1);
static_assert(kStatuses.size() == std::size_t(Status::not_finite) + 1);
}  // namespace

std::string_view to_string(Method m) { return enum_name(m, kMethods, kMethods.back()); }
std::string_view to_string(Ortho o) { return enum_name(o, kOrthos, kOrthos.back()); }
std::string_view to_string(Mode m) { return enum_name(m, kModes, kModes.back()); }
std::string_view to_string(Status s) { return enum_name(s, kStatuses, kStatuses.back()); }

Method parse_method(std::string_view s) { return enum_parse<Method>(s, kMethods, "method"); }
Ortho parse_ortho(std::string_view s) { return enum_parse<Ortho>(s, kOrthos, "orthogonalisation"); }
Mode parse_mode(std::string_view s) { return enum_parse<Mode>(s, kModes, "mode"); }

Options parse_options(std::string_view method, std::string_view ortho, std::string_view mode,
                      int restart, double tol, int max_iters, bool fixed_iterations) {
  if (restart < 1)
    throw UsageError("krylov: restart must be >= 1 (got " + std::to_string(restart) + ")");
  if (max_iters < 0)
    throw UsageError("krylov: max_iters must be >= 0 (got " + std::to_string(max_iters) + ")");
  Options o;
  o.method = parse_method(method);
  o.ortho = parse_ortho(ortho);
  o.mode = parse_mode(mode);
  // the fused mode's CGS2 is DCGS2: say so wherever the options are printed
  if (o.mode == Mode::fused && o.ortho == Ortho::cgs2) o.ortho = Ortho::dcgs2;
  o.restart = restart;
  o.tol = tol;
  o.max_iters = max_iters;
  o.fixed_iterations = fixed_iterations;
  o.time_split = true;
  return o;
}

namespace {

/// CG or BiCGStab (o.method): the fused form where the Space is resident and
/// o.mode asks for it.
template <class Space, Scalar V>
Result short_recurrence(Space& s, const Buffer<V>& b, Buffer<V>& x, const Options& o,
                        TimeSplit& t) {
  const bool cg = o.method == Method::cg;
  if constexpr (std::is_same_v<Space, detail::ResidentSpace<V>>)
    if (o.mode == Mode::fused)
      return cg ? detail::cg_fused<Space, V>(s, b, x, o, t)
                : detail::bicgstab_fused<Space, V>(s, b, x, o, t);
  return cg ? detail::cg<Space, V>(s, b, x, o, t) : detail::bicgstab<Space, V>(s, b, x, o, t);
}

template <class Space, Scalar V>
Result run(LinearOperator<V>& a, LinearOperator<V>* m, const Buffer<V>& b, Buffer<V>& x,
           const Options& o) {
  TimeSplit t;
  const auto t0 = detail::Clock::now();
  // GMRES combines up to m + 1 basis vectors; CG and BiCGStab at most 3
  // (a fixed run of 100000 iterations must not size a basis-long coefficient ring)
  const bool krylov_basis = o.method == Method::gmres || o.method == Method::fgmres;
  const int terms =
      krylov_basis ? std::max(o.fixed_iterations ? o.max_iters : o.restart, 1) + 1 : 3;
  Space s(a, m, terms, o, t);
  Result res;
  switch (o.method) {
    case Method::gmres:
      res = detail::gmres<Space, V>(s, b, x, o, m != nullptr, false, t);
      break;
    case Method::fgmres:
      res = detail::gmres<Space, V>(s, b, x, o, m != nullptr, m != nullptr, t);
      break;
    case Method::cg:
    case Method::bicgstab:
      res = short_recurrence<Space, V>(s, b, x, o, t);
      break;
  }
  a.device()->queue().synchronize();
  t.total = detail::seconds_since(t0);
  if constexpr (requires { s.harvest_split(); }) s.harvest_split();
  t.other = std::max(0.0, t.total - t.spmv - t.ortho - t.precond - t.transfer);
  res.time = t;
  return res;
}

}  // namespace

template <Scalar V>
Result solve(LinearOperator<V>& a, LinearOperator<V>* m, const Buffer<V>& b, Buffer<V>& x,
             const Options& o) {
  const std::size_t n = a.size();
  if (b.size() != n || x.size() != n)
    throw Error("krylov: size mismatch: the operator is " + std::to_string(n) + " x " +
                std::to_string(n) + ", b has " + std::to_string(b.size()) + " entries, x has " +
                std::to_string(x.size()));
  if (m && m->size() != n)
    throw Error("krylov: the preconditioner is " + std::to_string(m->size()) + " x " +
                std::to_string(m->size()) + ", the operator " + std::to_string(n) + " x " +
                std::to_string(n));
  if (&b.device() != a.device().get() || &x.device() != a.device().get())
    throw Error("krylov: b and x must live on the operator's device (" + a.device()->id() + ")");
  if (o.max_iters < 0) throw UsageError("krylov: max_iters must be >= 0");
  if (o.compressed_basis && o.method != Method::gmres && o.method != Method::fgmres)
    throw UsageError("krylov: a compressed basis is GMRES's (its Krylov basis); " +
                     std::string(to_string(o.method)) + " keeps no basis");
  if (o.ortho == Ortho::bcgs2 && (o.method == Method::gmres || o.method == Method::fgmres)) {
    if (o.block_size < 1 || o.block_size > TS_KRY_BLOCK_MAX)
      throw UsageError("krylov: the s-step block size must be 1 to " +
                       std::to_string(TS_KRY_BLOCK_MAX) + " (got " + std::to_string(o.block_size) +
                       ")");
    if (o.mode == Mode::thesis)
      throw UsageError(
          "krylov: s-step GMRES (bcgs2) needs the basis on the device: resident or fused mode");
    if (o.compressed_basis)
      throw UsageError("krylov: s-step GMRES (bcgs2) keeps a full-precision basis");
  }
  if (o.mode == Mode::thesis) return run<detail::ThesisSpace<V>, V>(a, m, b, x, o);
  if (o.mode == Mode::fused) {
    if (o.method == Method::cg ||
        o.method == Method::bicgstab)  // no basis: the ortho option is GMRES's
      return run<detail::ResidentSpace<V>, V>(a, m, b, x, o);
    if (o.method != Method::gmres)
      throw UsageError(
          "krylov: the fused mode's GMRES orthogonalises with DCGS2, which needs a fixed "
          "preconditioner; fgmres runs in resident or thesis mode");
    if (o.ortho != Ortho::cgs2 && o.ortho != Ortho::dcgs2 && o.ortho != Ortho::bcgs2)
      throw UsageError(
          "krylov: the fused mode orthogonalises with CGS2, in its delayed form (dcgs2) or as s-step "
          "block CGS2 (bcgs2), not " +
          std::string(to_string(o.ortho)));
    Options f = o;
    if (f.ortho == Ortho::cgs2) f.ortho = Ortho::dcgs2;
    return run<detail::ResidentSpace<V>, V>(a, m, b, x, f);
  }
  return run<detail::ResidentSpace<V>, V>(a, m, b, x, o);
}

template Result solve<float>(LinearOperator<float>&, LinearOperator<float>*, const Buffer<float>&,
                             Buffer<float>&, const Options&);
template Result solve<double>(LinearOperator<double>&, LinearOperator<double>*,
                              const Buffer<double>&, Buffer<double>&, const Options&);
template Result solve<std::complex<float>>(LinearOperator<std::complex<float>>&,
                                           LinearOperator<std::complex<float>>*,
                                           const Buffer<std::complex<float>>&,
                                           Buffer<std::complex<float>>&, const Options&);
template Result solve<std::complex<double>>(LinearOperator<std::complex<double>>&,
                                            LinearOperator<std::complex<double>>*,
                                            const Buffer<std::complex<double>>&,
                                            Buffer<std::complex<double>>&, const Options&);

}  // namespace tessera::krylov
