// The physical shallow-water model: conservative SWE with bathymetry and
// Manning friction, HLL + hydrostatic reconstruction (first order, or MUSCL
// + RK2), CFL time step computed on the device inside the update.
//
// Stepping is structured for a future distributed grid: each step is
// "fill ghosts (+ dt bookkeeping)" then "update interior"; a multi-device
// driver replaces the ghost fill with a halo exchange and the rate maximum
// with an all-reduce, the update kernels stay as they are.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/buffer.hpp"
#include "swe/grid.hpp"

namespace tessera::swe {

/// Interior fields on the host, in double, index i*ny + j (i along x).
struct HostFields {
  long nx = 0, ny = 0;
  std::vector<double> h, hu, hv;
};

/// A problem for the physical model.
struct PhysCase {
  std::string name;
  long nx = 0, ny = 0;
  double dx = 1, dy = 1, x0 = 0, y0 = 0;  ///< cell sizes, lower-left corner
  std::vector<double> z, h, hu, hv;       ///< interior, i*ny + j
  Bc bc[4] = {Bc::wall, Bc::wall, Bc::wall, Bc::wall};
  double bc_value[4] = {0, 0, 0, 0};
  double manning = 0, g = 9.81;
  double t_end = 1;
};

enum class Order { first, second };

struct PhysOptions {
  Order order = Order::first;
  double cfl = 0.45;
  double fixed_dt = 0;   ///< > 0: fixed time step
  double h_dry = -1;     ///< < 0: 1e-6 m (float) or 1e-12 m (double)
  long check_every = 16; ///< steps between host reads of the device flags
  int columns = 3;       ///< GPU first-order update kernel: 3 one column per work-item, faces
                         ///< shared in local memory (fastest); 1 one column, every face per
                         ///< item; 2 two columns per item (same values in every case)
};

/// What the device flags say.
struct Health {
  long steps = 0;
  double time = 0, dt = 0;
  bool bad = false;
  long bad_step = -1, bad_i = -1, bad_j = -1;
};

/// Checks a case (sizes, finite values, non-negative depth, periodic sides in
/// pairs, cfl); throws UsageError naming what is wrong.
void validate(const PhysCase& c, const PhysOptions& o);

template <class T>
class DistributedPhysSolver;

template <class T>
class PhysSolver {
 public:
  PhysSolver(std::shared_ptr<Device> device, const PhysCase& c, const PhysOptions& o);
  /// Runs until the simulated time reaches t (exactly) or a cell goes bad;
  /// `on_check` is called at every host check with the health.
  Health advance_to(double t, const std::function<void(const Health&)>& on_check = {});
  /// Exactly `n` steps (benchmarks; no host reads).
  void run_steps(long n);
  /// Switches the scheme of the next steps (benchmarks reuse one large state).
  void set_scheme(Order order, int columns) {
    opt_.order = order;
    prm_.columns = columns;
  }
  Health health() const;
  HostFields state() const;
  double mass() const;  ///< Σ h dx dy over the interior
  const PhysGrid& grid() const { return grid_; }

 private:
  // sequences the phases of step() itself, with halo exchanges between them
  friend class DistributedPhysSolver<T>;
  void step();
  std::shared_ptr<Device> device_;
  PhysGrid grid_;
  PhysParams<T> prm_;
  PhysOptions opt_;
  double dx_, dy_;
  Buffer<T> zb_;
  Fields<T> a_, b_;
  Buffer<T> scalars_;
  Buffer<std::uint32_t> flags_;
};

}  // namespace tessera::swe
