// Krylov solvers for A x = b on a device: restarted GMRES(m) (Saad's
// Algorithm 6.9, right preconditioning, optionally flexible), CG and BiCGStab.
//
//   auto A = std::make_shared<sparse::DeviceMatrix<cfloat>>(dev, csr);
//   krylov::MatrixOperator<cfloat> op(A);
//   krylov::Options o;  o.method = Method::gmres; o.restart = 30; o.ortho = Ortho::cgs2;
//   auto res = krylov::solve(op, nullptr, b, x, o);   // x: initial guess in, solution out
//
// Modes (Options::mode):
//   resident: every vector (and GMRES's whole basis) lives on the device; dot
//             products and combinations run there; only scalars come back.
//   thesis:   the 2016 thesis's offload: the operator (SpMV) and the
//             preconditioner run on the device, everything else on the host,
//             and the vector is copied to the device and back on every
//             application. Same kernels, same order: the same iterates.
//   fused:    resident, and GMRES orthogonalises with CGS2 in its delayed form
//             (DCGS2) on fused kernels: each iteration reads the basis twice
//             (one reduction with two right-hand sides, one update with two
//             outputs) instead of four times. The iterates are those of
//             resident mode with --ortho dcgs2, bit for bit. GMRES/FGMRES only.
//             With Ortho::bcgs2 (resident or fused) GMRES runs as s-step
//             GMRES instead: blocks of block_size Krylov vectors, block CGS2,
//             the basis read four times per block (sstep.hpp).
//
// Stopping: relative residual ||r||/||b|| <= tol, where ||r|| is the
// recurrence's (GMRES: the Givens estimate of the preconditioned system's
// residual norm; right preconditioning keeps it equal to ||b - A x|| in exact
// arithmetic). At the end the true residual ||b - A x||/||b|| is recomputed
// in the working precision (Result::true_relres). fixed_iterations: run
// exactly max_iters iterations, no restart, tolerance ignored (the thesis's
// benchmark; GMRES then uses restart = max_iters).
#pragma once
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "krylov/operator.hpp"

namespace tessera::krylov {

enum class Method { gmres, fgmres, cg, bicgstab };
/// dcgs2: CGS2 with delayed reorthogonalisation (docs/krylov.md, "DCGS2"):
/// A is applied to the once-orthogonalised candidate and the second projection
/// joins the next iteration's reduction; not with FGMRES.
/// bcgs2: s-step GMRES, blocks of Options::block_size Krylov vectors (a
/// Newton basis) orthogonalised by block CGS2 with Cholesky QR
/// (docs/krylov.md, "s-step GMRES"); resident and fused modes, not FGMRES.
enum class Ortho { mgs, cgs, cgs2, dcgs2, bcgs2 };
enum class Mode { resident, thesis, fused };
enum class Status { converged, max_iters, breakdown, stagnated, not_finite };

std::string_view to_string(Method m);
std::string_view to_string(Ortho o);
std::string_view to_string(Mode m);
std::string_view to_string(Status s);
/// Parsers: UsageError naming the accepted values otherwise.
Method parse_method(std::string_view s);
Ortho parse_ortho(std::string_view s);
Mode parse_mode(std::string_view s);

struct Options {
  Method method = Method::gmres;
  int restart = 30;  ///< GMRES's m
  Ortho ortho = Ortho::mgs;
  double tol = 1e-8;
  int max_iters = 1000;
  bool fixed_iterations = false;
  Mode mode = Mode::resident;
  /// Synchronise the device at phase boundaries so that TimeSplit is exact
  /// (costs a little; off: only `total` is meaningful).
  bool time_split = false;
  /// Resident and fused modes: time each phase between two device events
  /// instead (no synchronisation, so the run is the unperturbed one; the
  /// events are read at the end, or after every 4096 phases: one
  /// synchronisation then). TimeSplit then holds the device timeline between
  /// each phase's events, idle stretches inside the phase included (a
  /// blocking read's round trip), and `other` the rest of the wall time.
  /// Wins over time_split.
  bool time_split_events = false;
  /// Stop as stagnated when a whole GMRES restart cycle reduces the residual
  /// by less than this factor, or when CG and BiCGStab have not improved
  /// their best residual by it for `stagnation_window` iterations:
  /// kStagnationAuto (the default) waits max(200, the iterations the best
  /// took, 20 n) (a run waits for progress as long as it took to get where
  /// it is, and at least 20 n: CG on an ill-conditioned matrix rose for 2.4
  /// n iterations before it converged, Jacobi BiCGStab went 13.9 n without a
  /// gain; docs/krylov.md); N > 0 exactly N; 0 never stops as stagnated
  /// (`--stagnation auto|N|off`).
  double stagnation_factor = 1 - 1e-3;
  static constexpr int kStagnationAuto = -1;
  int stagnation_window = kStagnationAuto;
  /// GMRES: measure max |(I - V^H V)_ij| of each cycle's basis (tests).
  bool measure_orthogonality = false;
  /// GMRES/FGMRES in the resident and fused modes: keep the Krylov basis in
  /// lower precision (compressed-basis GMRES: float for double values, half
  /// for float values; arithmetic in the working precision). A UsageError in
  /// thesis mode and for CG/BiCGStab.
  bool compressed_basis = false;
  /// Fused GMRES (DCGS2) on a device with double precision: enqueue step
  /// j + 1 before waiting for step j's sums, with the coefficients formed on
  /// the device (docs/krylov.md, "Pipelined DCGS2"). Off: the host forms them
  /// after one round trip per step. Both give the same bits.
  bool pipeline = true;
  /// s-step GMRES (Ortho::bcgs2): Krylov vectors per block, 1 to 8.
  int block_size = 4;
  /// Called after every iteration with the iterations done and the
  /// relative residual just added to the history (Python's callback); an
  /// exception it throws ends the solve and reaches the caller.
  std::function<void(int, double)> progress;
};

/// Options from the names and numbers `tessera solve` and the Python package
/// take (UsageError naming a bad value: an unknown name, restart < 1,
/// max_iters < 0), with the exact time split both report.
Options parse_options(std::string_view method, std::string_view ortho, std::string_view mode,
                      int restart, double tol, int max_iters, bool fixed_iterations);

/// Seconds by phase (wall clock on the host; exact with Options::time_split;
/// device time with Options::time_split_events).
struct TimeSplit {
  double spmv = 0, ortho = 0, precond = 0, transfer = 0, other = 0, total = 0;
  /// Phases whose time is in the split (with time_split_events: the events
  /// read so far); the same count with either split.
  long phases = 0;
};

struct Result {
  Status status = Status::max_iters;
  int iterations = 0;  ///< operator applications inside the iteration (not the residual checks)
  int restarts = 0;
  /// Relative residual before the first iteration, then after each one
  /// (the method's own estimate; GMRES: the Givens residual).
  std::vector<double> history;
  double true_relres = 0;         ///< ||b - A x|| / ||b|| recomputed at the end (working precision)
  bool happy_breakdown = false;   ///< GMRES: h_{j+1,j} = 0, the Krylov space is invariant
  double orthogonality_loss = 0;  ///< with Options::measure_orthogonality: max over cycles
  /// DCGS2: steps whose candidate lost at least half its squared norm to the
  /// first projection, so its norm was taken explicitly (each ends its cycle;
  /// rare)
  int dcgs2_explicit = 0;
  /// s-step GMRES: blocks cut short where a Cholesky pivot of the block's
  /// Gram matrix was within its rounding (nearly dependent Krylov vectors)
  int sstep_short_blocks = 0;
  /// s-step GMRES: blocks whose first projection's Pythagorean Gram matrix
  /// could not be trusted (cancellation), so that they were projected a
  /// third time (the first only subtracted Q Q^H Y)
  int sstep_reprojected = 0;
  TimeSplit time;
  bool converged() const { return status == Status::converged; }
};

/// Solves A x = b with x holding the initial guess; M (may be null) is applied
/// as z = M r (an approximate inverse: right preconditioning for GMRES,
/// ordinary for CG and BiCGStab; FGMRES allows M to change between
/// applications). b and x live on A's device.
template <Scalar V>
Result solve(LinearOperator<V>& a, LinearOperator<V>* m, const Buffer<V>& b, Buffer<V>& x,
             const Options& opt);

}  // namespace tessera::krylov
