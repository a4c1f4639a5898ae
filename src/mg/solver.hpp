// The device-resident geometric multigrid solver for the unscaled Poisson
// system diag*u - (sum of neighbours) = b (2D 5-point, diag 4; 3D 7-point,
// diag 6) with homogeneous Dirichlet boundary, vertex-centred grids.
//
// Supported sizes: any nx, ny (, nz) >= 1; levels coarsen n -> (n-1)/2 while
// every side is odd and >= 3, so sides of the form c*2^k - 1 give k coarse
// levels. The coarsest level is solved by `coarse_sweeps` red-black
// Gauss-Seidel sweeps (exact for a single point); sizes whose coarsest level
// would exceed `max_coarsest_points` are rejected.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "core/buffer.hpp"
#include "dense/dense.hpp"
#include "mg/kernels/mg_kernels.hpp"
#include "mg/layout.hpp"

namespace tessera::mg {

enum class Smoother { jacobi, rbgs };
enum class CycleType { V, W, F };

struct Options {
  CycleType cycle = CycleType::V;
  bool fmg = false;  ///< start with a full-multigrid pass
  int pre = 1, post = 1;
  Smoother smoother = Smoother::rbgs;
  double omega = 0;   ///< damped-Jacobi weight; 0 picks 4/5 (2D) or 6/7 (3D)
  double tol = 1e-8;  ///< relative residual ||r||/||b||
  int max_cycles = 50;
  int coarse_sweeps = 64;
  /// 3D red-black: both colours in one pass (bitwise equal to the two-pass
  /// sweep).
  bool fused = true;
  /// ... on levels of at least this many points; smaller levels take the
  /// two-pass sweep (the same bits). A fused work-group marches up to 64
  /// planes in sequence, so a level with fewer groups than the GPU has
  /// multiprocessors waits on that march: at 127^3 (110 groups) it took
  /// longer than two colour kernels (docs/mg-history.md). 0: every level.
  long fused_min_points = 1L << 22;
  /// With `fused`: also add the coarse-grid correction inside the first
  /// post-smoothing sweep. Off by default: on an H200 the interpolation in
  /// the sweep's load path costs more (2.95 ms at 511^3 FP64) than a separate
  /// prolongation kernel plus the plain sweep (0.89 + 1.39 ms), see docs/mg-history.md.
  bool fuse_prolongation = false;
  /// 3D red-black: store the red and the black points of a level apart
  /// (Dims::split) on levels of at least `split_min_points` points. Each
  /// colour's sweep then reads its own b and the other colour's x and writes
  /// its own x (model E's 24 bytes per point and sweep, from two plain
  /// streaming kernels), the post-smoothing's correction is added to black
  /// points only (red ones are overwritten unread), and the residual +
  /// restriction reads the split level. The same bits as the natural layout;
  /// it takes the place of the fused sweep on those levels. On an H200 the
  /// 3D 511^3 FP64 V(1,1) took 4.20 ms against the fused sweep's 5.65 ms
  /// (docs/mg-history.md). apply() converts r and z (two passes more per cycle).
  /// From 2^20 points (127^3 split as well): 3.33 against 3.36 ms with 2^22
  /// (H200, session 19).
  bool split = true;
  long split_min_points = 1L << 20;
  /// Split levels with red-black smoothing: the post-smoothing's red
  /// half-sweep reads x + P e at its black neighbours
  /// (kernels::gauss_seidel_red_prolonged) instead of a prolongation kernel
  /// storing the correction first; the black half-sweep overwrites black x
  /// unread, so the results are the same bits. Off: the prolongation kernel
  /// (the cell kernel, ts_mg_prolong_cells).
  bool prolong_in_red_sweep = true;
  /// Red-black with pre-smoothing: after the last pre-smoothing sweep (black
  /// last) the residual vanishes at black points up to rounding, so the
  /// residual + restriction computes and weights the red points' residuals
  /// only (half its work; kernels::restrict_residual's red_only). Off: every
  /// point's, the bits of earlier versions; results differ at rounding level.
  /// Not used without pre-smoothing, nor for FMG's restriction of b.
  bool red_restriction = true;
  long max_coarsest_points = 4096;
  /// Levels of at most this many points (below the finest) run on the host's
  /// CPU backend (OpenMP): a cycle reaching the first of them reads its
  /// right-hand side (and, unless it is known to be zero, its solution) back,
  /// runs the rest of the cycle there and writes the solution back. Small
  /// levels on a GPU are launch-bound (several µs per kernel, seven kernels
  /// per level); `tessera bench mg-kernels` times the thresholds. 0: every
  /// level on the device. The same bits either way (every backend computes
  /// the CPU's bits). FMG's first pass below that level (its coarsest solve
  /// and the cycles it starts there) stays on the device: it runs once.
  long host_coarse_points = 0;
};

/// Why a solve stopped.
enum class Status { converged, max_cycles, diverged, stagnated };
std::string to_string(Status s);

struct SolveReport {
  Status status = Status::max_cycles;
  std::vector<double> residuals;  ///< ||r|| before the first cycle, then after each
  double rhs_norm = 0;
  int cycles = 0;
  double seconds = 0;  ///< device time of the cycles (events)
  double relative_residual() const {
    return residuals.empty() || rhs_norm == 0 ? 0 : residuals.back() / rhs_norm;
  }
  /// Geometric mean of the last (up to) five per-cycle reduction factors.
  double asymptotic_factor() const;
};

template <class T>
class Solver {
 public:
  Solver(std::shared_ptr<Device> device, Dims finest, Options options);

  void set_rhs(const std::vector<T>& interior);
  void set_solution(const std::vector<T>& x) { upload_interior(levels_[0].x, levels_[0].d, x); }
  std::vector<T> solution() const { return download_interior(levels_[0].x, levels_[0].d); }
  /// Sets the solution to zero (on the device).
  void reset();

  /// Cycles (after an FMG pass if options.fmg) until ||r|| <= tol ||b||,
  /// divergence, or max_cycles.
  SolveReport solve();
  /// One cycle of the configured type on the current solution.
  void cycle();
  /// One full-multigrid pass (the solution is overwritten).
  void fmg();
  double residual_norm();
  double rhs_norm();

  /// Preconditioner use: z = M^{-1} r by one cycle from z = 0. r and z are in
  /// the finest level's halo layout (storage() elements, zero halo).
  void apply(const Buffer<T>& r, Buffer<T>& z);

  int levels() const { return static_cast<int>(levels_.size()); }
  const Dims& dims(int l) const { return levels_[static_cast<std::size_t>(l)].d; }
  const Options& options() const { return opt_; }
  /// The first level run on the host (Options::host_coarse_points), -1: none.
  int host_level() const { return host_ ? static_cast<int>(host_level_) : -1; }
  Device& device() const { return *device_; }

 private:
  struct Level {
    Dims d;
    Buffer<T> x, x2, b;  // x2: Jacobi ping-pong target
  };
  /// x_zero: the level's solution is known to be zero (just cleared);
  /// b_again: its right-hand side is the one of the visit before (a W
  /// cycle's second visit, an F cycle's V visit)
  void cycle(std::size_t l, CycleType type, bool x_zero = false, bool b_again = false);
  /// The rest of the cycle from level host_level_ on host_.
  void host_cycle(CycleType type, bool x_zero, bool b_again);
  /// steps sweeps; with `correction`, P * correction->x is added to x first.
  /// x_zero: L.x is zero on entry and need not be: the first red sweep
  /// then reads only b (kernels::gauss_seidel_color's zero), see cycle()
  void smooth(Level& L, int steps, const Level* correction = nullptr, bool x_zero = false);
  /// Whether level L's smoothing (or coarsest solve) can start from a zero x
  /// that is not stored (x_zero above)
  bool zero_start(std::size_t l) const;
  bool fused_rbgs(const Level& L) const;
  /// A finest-level array between the natural layout (apply's r and z) and
  /// the level's storage (a plain copy unless the level is split).
  void to_finest(const Buffer<T>& natural, Buffer<T>& level);
  void from_finest(const Buffer<T>& level, Buffer<T>& natural);
  void coarse_solve(Level& L, bool x_zero = false);

  std::shared_ptr<Device> device_;
  Options opt_;
  T omega_;
  std::vector<Level> levels_;
  Buffer<T> r_;  // finest-level residual scratch
  dense::Reducer<T> reducer_;
  // Options::host_coarse_points: levels from host_level_ on also exist in
  // host_, a solver on the CPU device whose finest level is host_level_.
  std::size_t host_level_ = 0;  // 0: none (the finest level never moves)
  std::unique_ptr<Solver> host_;
};

/// The coarsening schedule the solver uses for `finest` (for checks and docs).
std::vector<Dims> coarsening_schedule(const Dims& finest, long max_coarsest_points);

}  // namespace tessera::mg
