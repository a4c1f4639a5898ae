// The physical shallow-water model: conservative SWE with bathymetry and
// Manning friction, HLL + hydrostatic reconstruction (first order, or MUSCL
// + RK2), CFL time step computed on the device inside the update.
//
// Stepping is structured for a future distributed grid: each step is
// "fill ghosts (+ dt bookkeeping)" then "update interior"; a multi-device
// driver replaces the ghost fill with a halo exchange and the rate maximum
// with an all-reduce, the update kernels stay as they are.
#pragma once
#include <array>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "core/buffer.hpp"
#include "swe/forcing.hpp"
#include "swe/grid.hpp"
#include "swe/section.hpp"
#include "swe/kernels/swe_params.h"

namespace tessera::swe {

/// Interior fields on the host, in double, index i*ny + j (i along x).
struct HostFields {
  long nx = 0, ny = 0;
  std::vector<double> h, hu, hv;
};

/// Σ h dx dy: the water a depth field holds (the solvers' mass()).
double water_volume(const std::vector<double>& h, double dx, double dy);

/// A problem for the physical model.
struct PhysCase;

/// A discharge side's ghost holds at least the critical depth h_c of its
/// inflow q (ts_swe_ghost_cell): the largest such ghost's rate
/// (q/h_c + c)/d + c/d' over the case's sides and segments (point functions
/// in T, with `p`'s g, dry depth and spacings) floors the step's rate, or
/// water poured into dry cells (interior rate 0) would arrive in one step
/// of the whole interval. Of the whole case: a distributed run's parts all
/// take it.
template <class T>
T discharge_rate_floor(const PhysCase& c, const PhysParams<T>& p);

struct PhysCase {
  std::string name;
  long nx = 0, ny = 0;
  double dx = 1, dy = 1, x0 = 0, y0 = 0;  ///< cell sizes, lower-left corner
  std::string crs_wkt;               ///< the terrain's coordinate reference system (WKT; "": none)
  std::vector<double> z, h, hu, hv;  ///< interior, i*ny + j
  Bc bc[4] = {Bc::wall, Bc::wall, Bc::wall, Bc::wall};
  double bc_value[4] = {0, 0, 0, 0};
  double manning = 0, g = 9.81;
  /// Manning n per interior cell (i*ny + j); empty: `manning` everywhere
  std::vector<double> manning_map;
  double t_end = 1;
  /// Cells with z >= z_nodata are NODATA (high ground): no rain, no losses.
  double z_nodata = std::numeric_limits<double>::infinity();
  Forcing forcing;  ///< rain, losses, inflows (global rows)
  long row0 = 0;    ///< the global row of this case's first (a distributed part's slab)
  /// keep boundary tallies even without an open side here (a part of a
  /// distributed case that has one: every part's state has the same extras)
  bool tally = false;
  /// cross-section discharge lines (global rows; a part tallies the faces
  /// whose first cell is in its rows)
  std::vector<Section> sections;
};

enum class Order { first, second };

struct PhysOptions {
  Order order = Order::first;
  double cfl = 0.45;
  double fixed_dt = 0;    ///< > 0: fixed time step
  double h_dry = -1;      ///< < 0: 1e-6 m (float) or 1e-12 m (double)
  long check_every = 16;  ///< at most this many steps between host reads of the device flags
  long align_every =
      0;  ///< > 0: a read also falls on every multiple of this many steps (--every outputs)
  bool track_max = false;  ///< keep the maximum maps (max_maps) every step
  /// first order, GPU shared-face update: skip tiles that are dry with dry
  /// neighbours for two steps (the same values; swe_kernel_list.h); off
  /// while rain falls (it wets every cell)
  bool skip_dry = true;
  double arrival_depth = 0.01;  ///< the depth [m] whose first crossing is a cell's arrival time
  int columns = 3;  ///< GPU first-order update kernel: 3 one column per work-item, faces
                    ///< shared in local memory (fastest); 1 one column, every face per
                    ///< item (same values either way)
};

/// What the device flags say.
struct Health {
  long steps = 0;
  double time = 0, dt = 0;
  bool bad = false;
  long bad_step = -1, bad_i = -1, bad_j = -1;
  /// SIGINT/SIGTERM received before this check (core/interrupt.hpp), 0 if
  /// none; under MPI agreed by every rank, so that all stop at the same check.
  int signal = 0;
};

/// The whole state of the physical model between two steps, independent of
/// the device, the backend and the partition: restore_state continues from
/// it bitwise (checkpoint/restart, swe/checkpoint.hpp). Ghost cells are not
/// part of it: every step refills them (boundary kernel, halo exchange)
/// before anything reads them.
template <class T>
struct PhysSolverState {
  long nx = 0, ny = 0;
  std::vector<T> h, hu, hv, z;     ///< interior, i*ny + j, the stored values (z: the bed)
  T dt = 0, time = 0, target = 0;  ///< the device's scalar slots
  std::uint32_t rate[2] = {0, 0};  ///< float bits of the maximal wave rates (the next dt)
  std::uint32_t steps = 0;
  std::uint32_t bad_cell = slot::none,
                bad_step = slot::none;  ///< first bad cell i*ny + j, its step
  /// the infiltrated depth per cell, i*ny + j (runs with losses; else empty)
  std::vector<T> infil;
  /// the open boundaries' tallies and their compensations per face: x_lo's
  /// ny, x_hi's ny, y_lo's nx, y_hi's nx (runs with an open side; else empty)
  std::vector<T> flow, flow_comp;
  /// the cross-sections' tallies and compensations per face, in the
  /// sections' face order (runs with --section; else empty)
  std::vector<T> section_flow, section_comp;
  /// the maximum maps (PhysOptions::track_max; else empty): four blocks of
  /// nx*ny (i*ny + j): depth, its time, speed, arrival time (< 0: none)
  std::vector<T> maxmap;
};

/// The maximum maps over the interior, i*ny + j (MaxMaps::arrival < 0: the
/// cell never reached the arrival depth).
struct MaxMaps {
  std::vector<double> depth, time_of_max, speed, arrival;
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
  /// Σ F dx dy: the water infiltrated so far (0 without losses).
  double infiltrated() const;
  /// The water [m^3] that entered through each side so far (x_lo, x_hi,
  /// y_lo, y_hi; negative: it left), exactly the update's boundary fluxes;
  /// 0 for walls, periodic and internal sides.
  std::array<double, 4> boundary_inflow() const;
  /// The water [m^3] that crossed each cross-section so far, left to right
  /// (swe/section.hpp), exactly the update's face fluxes.
  std::vector<double> section_volumes() const;
  /// Tiles of the shared-face update whose last written state was dry (dry
  /// skipping; 0 where the backend computes every cell, as the CPU does).
  long dry_tiles() const;
  /// The maximum maps so far (PhysOptions::track_max; else empty).
  MaxMaps max_maps() const;
  /// h, hu, hv of interior cells (i, j).
  std::vector<std::array<double, 3>> probe(const std::vector<std::pair<long, long>>& cells) const;
  const PhysGrid& grid() const { return grid_; }
  /// The full state (fields, bed, time, dt bookkeeping, step count, health).
  PhysSolverState<T> save_state() const;
  /// Continues from `s` (same grid; UsageError otherwise): the next steps give
  /// the bits the solver that saved it would have given.
  void restore_state(const PhysSolverState<T>& s);

 private:
  // sequences the phases of step() itself, with halo exchanges between them
  friend class DistributedPhysSolver<T>;
  void step();
  // the sources' launches and the boundary segments' values over [a, b]
  // (PhysCase::forcing), on this grid's rows
  void set_sources(double a, double b);
  void add_sources();  // this interval's launches, after a step's update
  void track();        // the maximum maps, at a step's end
  // the open boundaries' and the cross-sections' flows of state f this
  // step (weight 1 or 1/2)
  void tally(const Fields<T>& f, T weight);
  // the cross-sections' tallies in their global face order (0 for another
  // part's faces; comp: the compensations)
  std::vector<T> section_tallies(bool comp) const;
  std::shared_ptr<Device> device_;
  PhysGrid grid_;
  PhysParams<T> prm_;
  PhysOptions opt_;
  double dx_, dy_;
  Buffer<T> zb_;
  Fields<T> a_, b_;
  Buffer<T> scalars_;
  Buffer<std::uint32_t> flags_;
  Forcing forcing_;
  long row0_ = 0;
  T zwall_ = 0;
  Buffer<T> infil_;                     // the infiltrated depth F per cell (losses; else one value)
  Buffer<T> nmap_;                      // the Manning map (PhysCase::manning_map; else one value)
  std::vector<ts_swe_src<T>> sources_;  // this interval's launches
  bool tally_ = false;                  // an open side: its flows are tallied
  Buffer<T> flow_, flow_comp_;          // per boundary face (kernels::tally_boundaries)
  std::vector<Section> sections_;       // the cross-sections (global)
  std::vector<std::size_t> sec_index_;  // this grid's section faces: their global index
  Buffer<std::uint64_t> sec_faces_;     // and their encoding (kernels::tally_sections)
  Buffer<T> sec_acc_, sec_comp_;        // their tallies
  Buffer<T> maxmap_;                    // the maximum maps: 4 blocks of the storage size
  Buffer<std::uint32_t> tiles_;         // dry skipping: 3 rotating wet-flag sets, pinned tiles
  Buffer<T> rainf_;                     // the gridded rain\'s frame on the device (else one value)
  long rain_frame_ = -1;                // which frame rainf_ holds
  void reset_tiles();                   // every tile wet (the first two steps compute all)
};

}  // namespace tessera::swe
