// The production solver on several devices (and MPI ranks) through the
// skeleton library's distributed field: z-slabs with one halo layer, two
// lattices with pull streaming (the esoteric pull's in-place slots would have
// to travel back across the faces), and per step only the populations that
// cross each face (D3Q19: 5 up, 5 down), exchanged while the slab's inner
// layers compute. Every cell computes exactly what the single-device solver
// computes, so the populations are bitwise equal to it for any part count.
#pragma once
#include <array>
#include <memory>
#include <span>
#include <vector>

#include "lbm/config.hpp"
#include "lbm/solver.hpp"
#include "skeleton/halo_exchange.hpp"
#include "skeleton/team.hpp"

namespace tessera::lbm {

class DistributedSolver {
 public:
  /// z-slabs over team.total_parts() parts (first nz % parts get one more layer);
  /// needs a 3D lattice and nz >= parts.
  DistributedSolver(skeleton::Team team, Config config);
  ~DistributedSolver();
  DistributedSolver(DistributedSolver&&) noexcept;

  const Config& config() const noexcept;
  const Grid& grid() const noexcept { return config().grid; }
  long time() const noexcept;
  int parts() const noexcept;
  /// This process's MPI rank (0 without MPI).
  int rank() const noexcept;

  /// Global flags (x fastest), as for Solver::set_flags.
  void set_flags(std::vector<std::uint8_t> flags);
  /// Interpolated bounce-back on these links, as Solver::set_links
  /// (set_flags and restore clear them).
  void set_links(std::span<const WallLink> links);
  /// The links kept (usable_links), in the order given.
  const std::vector<WallLink>& links() const noexcept;
  void initialize(double rho0, const std::array<double, 3>& u0);
  void initialize(const Fields& f);
  void step(long steps = 1);
  /// Waits for every part's queue.
  void synchronize();

  /// Global incoming populations f_i - w_i (Q*N, as Solver::incoming) and fields.
  std::vector<double> incoming();
  Fields fields();
  double mass();
  /// Momentum-exchange force on the cells flagged TS_LBM_BODY (as Solver's).
  std::array<double, 3> body_force();
  /// Momentum-exchange force on each body (Solver::body_forces).
  std::vector<std::array<double, 3>> body_forces(const std::vector<std::uint8_t>& body_of,
                                                 std::size_t bodies);
  /// Global flags with the near-wall marks.
  const std::vector<std::uint8_t>& flags() const noexcept;

  /// The whole state, independent of the part count: the gathered lattice
  /// the next step reads (Q*N storage values, i slowest, x fastest: the
  /// checkpoint layout "pull"), and its restore into any part count, which
  /// continues bitwise.
  std::vector<std::uint8_t> raw_populations();
  void restore(const std::vector<std::uint8_t>& populations, const std::vector<std::uint8_t>& flags,
               long t);
  /// The halo traffic of the last step.
  const skeleton::ExchangeStats& last_exchange() const;

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace tessera::lbm
