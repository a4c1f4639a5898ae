// The production lattice Boltzmann solver on one device: D2Q9/D3Q19/D3Q27,
// BGK/TRT, FP32/FP16S/FP64 storage, one copy of the populations (esoteric
// pull, SoA), one kernel per time step. Cases set the flags (lbm/cases.hpp).
#pragma once
#include <array>
#include <functional>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "core/buffer.hpp"
#include "lbm/config.hpp"
#include "lbm/links.hpp"

namespace tessera::lbm {

/// Density and velocity per cell (structure of arrays, x fastest); walls: 0.
struct Fields {
  Grid grid;
  std::vector<double> rho, ux, uy, uz;
};

/// A link from a non-wall cell n along direction i into a wall cell of
/// body `body` (1-based, Case::body_of).
struct ForceLink {
  long n = 0;
  int i = 0;
  std::uint8_t body = 0;
};

class Solver {
 public:
  /// Validates `config`, checks that the state fits the device (OutOfMemory
  /// says how much it needs) and allocates it. All cells start as fluid.
  Solver(std::shared_ptr<Device> device, Config config);

  const Config& config() const noexcept { return config_; }
  const Grid& grid() const noexcept { return config_.grid; }
  Device& device() const noexcept { return *device_; }
  /// Steps done since initialisation.
  long time() const noexcept { return t_; }

  /// One flag byte per cell (TS_LBM_* of lbm_point.h); marks cells next to
  /// walls. Clears the links (set_links).
  void set_flags(std::vector<std::uint8_t> flags);
  const std::vector<std::uint8_t>& flags() const noexcept { return flags_; }
  /// Interpolated bounce-back on these links from the next step on: those
  /// of usable_links (lbm/links.hpp; Error for a link that cannot be).
  /// set_flags and restore clear them.
  void set_links(std::span<const WallLink> links);
  /// The links kept, in the order given.
  const std::vector<WallLink>& links() const noexcept { return links_; }

  /// Equilibrium at (rho0, u0) everywhere, or of given fields; time 0.
  void initialize(double rho0, const std::array<double, 3>& u0);
  void initialize(const Fields& f);

  void step(long steps = 1);

  /// rho and u of every cell at the current time (u includes half the force).
  Fields fields();
  /// Incoming populations f_i - w_i of every cell (Q*N, i slowest) as the next step reads them.
  std::vector<double> incoming();
  /// Total mass of the non-wall cells, summed in double from the populations.
  double mass();
  /// Momentum-exchange force on the cells flagged TS_LBM_BODY (lattice units).
  std::array<double, 3> body_force();
  /// Momentum-exchange force on each body (body_forces_of); empty without bodies.
  std::vector<std::array<double, 3>> body_forces(const std::vector<std::uint8_t>& body_of,
                                                 std::size_t bodies);

  /// The whole state as raw bytes (populations then flags), and its restore.
  std::vector<std::uint8_t> raw_populations() const;
  void restore(const std::vector<std::uint8_t>& populations, const std::vector<std::uint8_t>& flags,
               long t);

 private:
  std::vector<double> incoming_of(const std::vector<std::uint8_t>& raw) const;
  /// The links' f*_d(n) - w_d of the last step (real units).
  std::vector<double> link_sent() const;
  /// The links for the momentum exchange (sent: their storage), or none
  /// before the first step since set_links, initialize or restore: the
  /// incoming populations are then halfway bounce-back's.
  LinkSent link_view(std::vector<double>& sent) const;

  std::shared_ptr<Device> device_;
  Config config_;
  StepParams params_;
  KernelVariant variant_;
  Bytes f_, flags_dev_;
  std::vector<std::uint8_t> flags_;
  std::vector<WallLink> links_;
  Bytes link_code_, link_coef_, link_sent_;
  bool links_fresh_ = true;                       ///< no step since the links or the state were set
  std::vector<ForceLink> force_links_;            ///< body_forces' links, for the flags and
  std::vector<std::uint8_t> force_links_cached_;  ///< ... this body_of
  long t_ = 0;
};

/// Total mass of the non-wall cells from the incoming populations f_i - w_i
/// (Q*N, i slowest), summed in double; Solver and DistributedSolver share it.
double mass_of(const std::vector<double>& incoming, const std::vector<std::uint8_t>& flags, int q);
/// Momentum-exchange force on the cells flagged TS_LBM_BODY (lattice units)
/// from the incoming populations (and the links' sent populations, where
/// interpolated bounce-back runs).
std::array<double, 3> body_force_of(const std::vector<double>& incoming,
                                    const std::vector<std::uint8_t>& flags, const Grid& g,
                                    Lattice l, LinkSent links = {});
/// Momentum-exchange force on each body of a case file: body_of[n] = 1 + the
/// body's index for its wall cells, 0 elsewhere (Case::body_of). A link
/// (n, d) into a body adds c_d (f*_d(n) + f_dbar(n)): the population n
/// sent and the one that came back, the incoming one of the next step
/// (halfway bounce-back: twice it; interpolated: f*_d(n) from `links`).
std::vector<std::array<double, 3>> body_forces_of(const std::vector<double>& incoming,
                                                  const std::vector<std::uint8_t>& flags,
                                                  const std::vector<std::uint8_t>& body_of,
                                                  std::size_t bodies, const Grid& g, Lattice l,
                                                  LinkSent links = {});

/// The links into walls of the bodies of `body_of` (non-zero entries),
/// cell by cell (x fastest), direction by direction.
std::vector<ForceLink> force_links(const Grid& g, Lattice l, const std::vector<std::uint8_t>& flags,
                                   const std::vector<std::uint8_t>& body_of);
/// The momentum exchange over `links`: incoming(i, n) gives the incoming
/// population f_i - w_i of cell n; the sum in the links' order.
std::vector<std::array<double, 3>> forces_on_links(
    const std::vector<ForceLink>& links, std::size_t bodies, Lattice l, LinkSent sent,
    const std::function<double(int, long)>& incoming);

/// Throws OutOfMemory (with the bytes needed) when `c`'s state cannot fit `dev`.
void check_fits(const Config& c, const Device& dev);

/// Marks TS_LBM_NEAR_WALL on every non-wall cell with a wall among its
/// lattice neighbours (periodic), clearing it elsewhere.
void mark_near_wall(const Grid& g, Lattice l, std::vector<std::uint8_t>& flags);

}  // namespace tessera::lbm
