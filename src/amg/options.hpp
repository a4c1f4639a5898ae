// The options of smoothed-aggregation AMG (docs/amg.md): what `tessera solve
// --amg-*` and the Python package's amg= take.
#pragma once
#include <string>
#include <string_view>

namespace tessera::amg {

/// Strength of connection between nodes I != J (b x b blocks: their
/// Frobenius norms n_IJ):
///   symmetric: n_IJ >= theta sqrt(n_II n_JJ) (PyAMG's 'symmetric'; SPD),
///   classical: n_IJ >= theta max_{K != I} n_IK (the absolute-value
///              measure; nonsymmetric matrices).
/// Either way the graph is made symmetric (I-J strong when either way is).
enum class Strength { symmetric, classical };
/// Smoother: weighted Jacobi x += (omega / rho) D^-1 (b - A x), a
/// Chebyshev polynomial in D^-1 A over [rho / 30, 1.1 rho] (D the diagonal
/// of b x b blocks, the point diagonal for b = 1; rho the estimate of the
/// spectral radius of D^-1 A), or symmetric multicolour Gauss-Seidel: a
/// sweep runs the colours in order, then in reverse (PyAMG's default
/// smoother, 'symmetric' sweep, in a parallel order), row by row (point
/// Gauss-Seidel also for blocks). automatic: Gauss-Seidel on a CPU device,
/// Jacobi on a GPU, where one Gauss-Seidel launch per colour and pass (6 to
/// 71 colours a level, about 660 launches a V-cycle on a 3D Poisson
/// problem) made a cycle 19x Jacobi's and the solve 8x slower for 0.6x the
/// iterations (docs/amg.md, Performance); resolve_smoother picks.
enum class Smoother { automatic, jacobi, chebyshev, gauss_seidel };
enum class Cycle { v, w };

/// The coarsest level is inverted densely on the host (O(n^3)) and applied
/// as a dense matrix: at most this many rows.
inline constexpr long kMaxDenseCoarse = 4096;
/// The coarsest matrix is singular to working precision where its
/// infinity-norm condition number times the precision's epsilon exceeds
/// this (double: 4.5e13; float: 8.4e4): its entries carry rounding of that
/// size, so a singular matrix shows a condition number about 1/eps.
inline constexpr double kMaxCoarseConditionEps = 1e-2;

struct Options {
  Strength strength = Strength::symmetric;
  double theta = 0.0;  ///< strength threshold, 0 <= theta < 1
  Smoother smoother = Smoother::automatic;
  int degree = 2;          ///< Chebyshev degree (matrix products per sweep)
  double omega = 4.0 / 3;  ///< Jacobi's weight times rho (4/3: 2/3 on Poisson)
  /// Sweeps before and after the coarse correction; kSmootherDefault: 2 for
  /// Gauss-Seidel (two passes over the colours, the work of PyAMG's default
  /// symmetric sweep), 1 for Jacobi and Chebyshev (and for automatic until
  /// it is resolved).
  static constexpr int kSmootherDefault = -1;
  int presweeps = kSmootherDefault, postsweeps = kSmootherDefault;
  int pre() const { return resolved(presweeps); }
  int post() const { return resolved(postsweeps); }
  int resolved(int sweeps) const {
    return sweeps != kSmootherDefault ? sweeps : smoother == Smoother::gauss_seidel ? 2 : 1;
  }
  Cycle cycle = Cycle::v;
  int max_levels = 10;     ///< levels at most, the finest included
  long coarse_size = 300;  ///< stop coarsening at this many rows or fewer
  /// the prolongator smoother's weight times 1 / rho: P = (I - w/rho D^-1 A) T
  double prolongator_omega = 4.0 / 3;
  /// rows per node (b x b blocks); 0: the caller's (a block matrix's block
  /// size, otherwise 1)
  int block = 0;

  /// UsageError naming the option and value when a value is out of range.
  void check() const;
  /// Whether one cycle is a symmetric operator for a Hermitian matrix (what
  /// CG needs): as many sweeps after the coarse correction as before it.
  bool symmetric() const { return pre() == post(); }
};

/// The smoother `o` runs with on a device (is_gpu: DeviceInfo's): automatic
/// resolved, any other kept.
Smoother resolve_smoother(Smoother s, bool is_gpu);

std::string_view to_string(Strength s);
std::string_view to_string(Smoother s);
std::string_view to_string(Cycle c);
/// Parsers: UsageError naming the option and the accepted values otherwise.
Strength parse_strength(std::string_view s);
Smoother parse_smoother(std::string_view s);
Cycle parse_cycle(std::string_view s);

}  // namespace tessera::amg
