// The thesis-exact shallow-water model (Stramare, PoliMi 2012): the dam-break
// case, the dt rule, the sequential reference (flat arrays, "vettori puri") and
// the device solver with every thesis variant as a selectable strategy.
#pragma once
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/buffer.hpp"
#include "swe/grid.hpp"

namespace tessera::swe {

/// The thesis's default dt: dx / sqrt(9.8 (Zmax - Zmin)) * 0.1, in double
/// (seed §1.5; single precision casts the result, as Table 5.30 shows).
double thesis_dt(double dx, double zmax, double zmin);
/// nstep = ceil(T / dt); step 0 (the initial fill) is not counted.
long thesis_steps(double t_end, double dt);

/// Host arrays of the thesis layout.
template <class T>
struct ThesisState {
  ThesisGrid grid;
  std::vector<T> z, qx, qy;
  explicit ThesisState(ThesisGrid g = {}) : grid(g), z(g.size()), qx(g.size()), qy(g.size()) {}
};

/// The thesis benchmark: square basin side x side metres, depth `deep` where
/// the cell centre is before `dam` metres (along x, or along y when
/// transposed), `shallow` elsewhere, still water.
struct DamBreak {
  long nx = 1000, ny = 1000;
  double side = 500, dam = 100, deep = 20, shallow = 10;
  bool transposed = false;
  double dx() const { return side / double(nx); }
};
template <class T>
ThesisState<T> thesis_dam_break(const DamBreak& c);

/// The reflective frame on host arrays (same function as the ghost kernels).
template <class T>
void thesis_fill_ghosts(ThesisState<T>& s);
/// The sequential reference: one step in place (ghosts, update, swap).
template <class T>
void thesis_reference_step(ThesisState<T>& s, T k);
/// Σ Z dx² over the interior, summed in double in row order.
template <class T>
double thesis_mass(const ThesisState<T>& s, double dx);
/// k = dt / (2 dx) as the kernel's dt/(2.0*dx) evaluates it in T.
template <class T>
T thesis_coefficient(double dt, double dx) {
  return T(dt) / (T(2) * T(dx));
}

enum class ThesisBuffers { copy, in_place, ping_pong };

/// One row of the thesis's variant table (seed §4) or a race-free successor.
struct ThesisVariant {
  std::string name;
  std::string description;
  bool device_ghosts;  ///< ghost frame by kernels (V1) or on the host with transfers (V0)
  ThesisKernel kernel;
  ThesisBuffers buffers;
  /// V1f4 (thesis §4.5.5): rows padded to a multiple of 4 values on the
  /// device and the ghost rows copied four values at a time (float4; double4
  /// in double), whole rows with the corners and the padding, then the
  /// columns in a second launch
  bool vector_rows = false;
};
const std::vector<ThesisVariant>& thesis_variants();
/// Throws UsageError listing the names when `name` is unknown.
const ThesisVariant& thesis_variant(std::string_view name);

/// "default" (NULL), "max", "quarter" (¼ Max: half side), "AxB".
WorkGroup parse_work_group(std::string_view spec, Device& device);
/// The thesis's global size for the tile kernels: the next multiple of l
/// strictly above n+2 (or l when n+2 < l), seed §3.4.
long thesis_round_global(long n, int l);
/// Rows per work-group of the strip-walls kernel: short strips on small grids
/// (enough work-groups to fill a GPU), long ones on large grids (fewer rows
/// re-read at strip edges).
long thesis_strip_rows(const ThesisGrid& g);

/// The whole state of the thesis model between two steps: the fields with
/// their frame, the steps done and the coefficient k = dt / (2 dx) they were
/// taken with (the model's whole dt bookkeeping: the time is steps * dt).
/// Independent of the variant and the work-group shape, which compute the
/// same bits (tests/swe/test_swe_thesis.cpp).
template <class T>
struct ThesisSolverState {
  ThesisState<T> fields;
  long steps = 0;
  T k = 0;
};

/// The thesis model on a device, one variant, one work-group shape.
template <class T>
class ThesisSolver {
 public:
  ThesisSolver(std::shared_ptr<Device> device, const ThesisState<T>& initial, T k,
               const ThesisVariant& variant, WorkGroup wg);
  void step();
  void run(long steps) {
    for (long s = 0; s < steps; ++s) step();
  }
  /// The current state (ghosts as left by the last step).
  ThesisState<T> state() const;
  const ThesisGrid& grid() const { return grid_; }
  WorkGroup work_group() const { return wg_; }
  long steps() const { return steps_; }  ///< steps done since the initial state
  ThesisSolverState<T> save_state() const { return {state(), steps_, k_}; }
  /// Continues from `s`; UsageError when its grid or k differ from this solver's.
  void restore_state(const ThesisSolverState<T>& s);

 private:
  void upload(const ThesisState<T>& s);  ///< s (w = ny + 2) into a_ (the device layout)

 private:
  std::shared_ptr<Device> device_;
  ThesisGrid grid_;   ///< the layout of states in and out (w = ny + 2)
  ThesisGrid dgrid_;  ///< the device layout: grid_, or rows padded for vector_rows
  T k_;
  ThesisVariant variant_;
  WorkGroup wg_;
  ThesisState<T> host_;  ///< the state, for the host-ghost variants
  Fields<T> a_, b_;      ///< a: the current state on the device
  long steps_ = 0;
};

}  // namespace tessera::swe
