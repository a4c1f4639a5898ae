// Names and checks of the AMG options.
#include "amg/options.hpp"

#include <fmt/format.h>

#include "core/error.hpp"

namespace tessera::amg {

std::string_view to_string(Strength s) {
  return s == Strength::symmetric ? "symmetric" : "classical";
}
std::string_view to_string(Smoother s) {
  return s == Smoother::automatic   ? "auto"
         : s == Smoother::jacobi    ? "jacobi"
         : s == Smoother::chebyshev ? "chebyshev"
                                    : "gauss-seidel";
}

Smoother resolve_smoother(Smoother s, bool is_gpu) {
  if (s != Smoother::automatic) return s;
  return is_gpu ? Smoother::jacobi : Smoother::gauss_seidel;
}
std::string_view to_string(Cycle c) { return c == Cycle::v ? "V" : "W"; }

Strength parse_strength(std::string_view s) {
  if (s == "symmetric") return Strength::symmetric;
  if (s == "classical") return Strength::classical;
  throw UsageError(fmt::format("--amg-strength {}: expected symmetric or classical", s));
}
Smoother parse_smoother(std::string_view s) {
  if (s == "jacobi") return Smoother::jacobi;
  if (s == "chebyshev") return Smoother::chebyshev;
  if (s == "gauss-seidel") return Smoother::gauss_seidel;
  if (s == "auto") return Smoother::automatic;
  throw UsageError(
      fmt::format("--amg-smoother {}: expected auto, chebyshev, gauss-seidel or jacobi", s));
}
Cycle parse_cycle(std::string_view s) {
  if (s == "V" || s == "v") return Cycle::v;
  if (s == "W" || s == "w") return Cycle::w;
  throw UsageError(fmt::format("--amg-cycle {}: expected V or W", s));
}

void Options::check() const {
  auto bad = [](std::string_view opt, auto v, std::string_view want) {
    throw UsageError(fmt::format("--amg-{} {}: expected {}", opt, v, want));
  };
  if (!(theta >= 0 && theta < 1)) bad("theta", theta, "a threshold in [0, 1)");
  if (degree < 1 || degree > 16) bad("degree", degree, "a Chebyshev degree from 1 to 16");
  if (!(omega > 0 && omega < 2)) bad("omega", omega, "a Jacobi weight times rho in (0, 2)");
  if (presweeps != kSmootherDefault && (presweeps < 0 || presweeps > 16))
    bad("presweeps", presweeps, "0 to 16 sweeps");
  if (postsweeps != kSmootherDefault && (postsweeps < 0 || postsweeps > 16))
    bad("postsweeps", postsweeps, "0 to 16 sweeps");
  if (pre() + post() == 0) bad("postsweeps", postsweeps, "at least one sweep before or after");
  if (max_levels < 1 || max_levels > 40) bad("levels", max_levels, "1 to 40 levels");
  if (coarse_size < 1 || coarse_size > kMaxDenseCoarse)
    bad("coarse-size", coarse_size,
        fmt::format("1 to {} rows (the coarsest level is inverted densely)", kMaxDenseCoarse));
  if (!(prolongator_omega >= 0 && prolongator_omega < 2))
    bad("prolongator-omega", prolongator_omega, "a weight times 1/rho in [0, 2)");
  if (block < 0 || block > 16)
    throw UsageError(fmt::format("--block {}: AMG takes 1 to 16 rows per node", block));
}

}  // namespace tessera::amg
