// The physical shallow-water model on several devices of one process and/or
// MPI ranks, through the skeleton library's team and halo exchange.
//
// Decomposition: x-slabs (rows i; the first nx % parts slabs get one more
// row), each a PhysSolver over its rows with the same row pitch w. Internal
// faces carry the boundary kind Bc::exchange (the ghost kernel leaves them
// alone); their 2 ghost rows of h, hu, hv are copied from the neighbour
// before every update (each RK2 stage), the bathymetry's once at the start.
// The domain's own boundary conditions act on the outer faces only (periodic
// x: the first and last slab exchange with each other).
//
// The time step is global: before each step's bookkeeping, every part's
// rate slots (the float bits of the maximal wave rate, max-reduced by the
// update kernels) are max-reduced across parts and ranks and written back,
// so every part takes the dt of the single-device run. Every cell then
// computes exactly what the single-device solver computes: h, hu, hv, the
// step count and the time are bitwise equal to PhysSolver for any part count.
#pragma once
#include <functional>
#include <memory>
#include <vector>

#include "skeleton/halo_exchange.hpp"
#include "skeleton/team.hpp"
#include "swe/physical.hpp"

namespace tessera::skeleton::detail {
class FieldShape;
}

namespace tessera::swe {

template <class T>
class DistributedPhysSolver {
 public:
  /// x-slabs over team.total_parts() parts; UsageError when a slab would
  /// hold fewer than 2 rows (nx < 2 * parts) or the case is invalid.
  /// Under MPI every rank passes the whole case (each keeps its rows).
  DistributedPhysSolver(skeleton::Team team, const PhysCase& c, const PhysOptions& o);
  ~DistributedPhysSolver();
  DistributedPhysSolver(DistributedPhysSolver&&) noexcept;

  /// As PhysSolver::advance_to (collective under MPI).
  Health advance_to(double t, const std::function<void(const Health&)>& on_check = {});
  /// Exactly `n` steps (benchmarks; one small host read per step for the dt).
  void run_steps(long n);
  void set_scheme(Order order, int columns);
  /// Steps, time and dt (the same on every part); the first bad cell in global
  /// (i, j) with its step (collective under MPI).
  Health health() const;
  /// The global interior fields, on every rank (collective under MPI).
  HostFields state() const;
  /// The whole state gathered over the global grid, as PhysSolver::save_state
  /// gives it (rates max-reduced, the first bad cell global), on every rank:
  /// independent of the partition (collective under MPI).
  PhysSolverState<T> save_state() const;
  /// Each part keeps its rows of a whole-grid state (from any part count or
  /// a single device); then the bed's halo rows are exchanged (collective).
  void restore_state(const PhysSolverState<T>& s);
  double mass() const;
  double infiltrated() const;                     ///< as PhysSolver::infiltrated, over every part
  std::array<double, 4> boundary_inflow() const;  ///< as PhysSolver's, over every part
  /// As PhysSolver's, over every part (collective under MPI).
  std::vector<double> section_volumes() const;
  MaxMaps max_maps() const;  ///< as PhysSolver's, the whole grid (collective under MPI)
  /// As PhysSolver::probe, cells of the whole grid (collective under MPI).
  std::vector<std::array<double, 3>> probe(const std::vector<std::pair<long, long>>& cells) const;
  /// Waits for every local part's queue.
  void synchronize() const;

  int parts() const noexcept;        ///< all parts (every rank)
  int local_parts() const noexcept;  ///< parts of this rank
  long first_row(int global_part) const;
  long rows(int global_part) const;
  const skeleton::Team& team() const noexcept { return team_; }
  /// Halo traffic of the last exchange of one field (h, hu or hv).
  const skeleton::ExchangeStats& last_exchange() const;

 private:
  void step();
  void reduce_rates();
  void set_target(T target);
  void exchange(int which);  // 0: state a, 1: state b, 2: bathymetry
  skeleton::Team team_;
  std::unique_ptr<skeleton::detail::FieldShape> shape_;
  skeleton::ExchangeRequest request_;
  std::vector<std::unique_ptr<PhysSolver<T>>> parts_;  // this rank's
  long nx_ = 0, ny_ = 0;
  double dx_ = 1, dy_ = 1;
  PhysOptions opt_;
  std::vector<Section> sections_;
};

}  // namespace tessera::swe
