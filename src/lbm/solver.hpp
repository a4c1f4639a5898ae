// The production lattice Boltzmann solver on one device: D2Q9/D3Q19/D3Q27,
// BGK/TRT, FP32/FP16S/FP64 storage, one copy of the populations (esoteric
// pull, SoA), one kernel per time step. Cases set the flags (lbm/cases.hpp).
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/buffer.hpp"
#include "lbm/config.hpp"

namespace tessera::lbm {

/// Density and velocity per cell (structure of arrays, x fastest); walls: 0.
struct Fields {
  Grid grid;
  std::vector<double> rho, ux, uy, uz;
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

  /// One flag byte per cell (TS_LBM_* of lbm_point.h); marks cells next to walls.
  void set_flags(std::vector<std::uint8_t> flags);
  const std::vector<std::uint8_t>& flags() const noexcept { return flags_; }

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

  /// The whole state as raw bytes (populations then flags), and its restore.
  std::vector<std::uint8_t> raw_populations() const;
  void restore(const std::vector<std::uint8_t>& populations, const std::vector<std::uint8_t>& flags,
               long t);

 private:
  std::vector<double> incoming_of(const std::vector<std::uint8_t>& raw) const;

  std::shared_ptr<Device> device_;
  Config config_;
  StepParams params_;
  KernelVariant variant_;
  Bytes f_, flags_dev_;
  std::vector<std::uint8_t> flags_;
  long t_ = 0;
};

/// Total mass of the non-wall cells from the incoming populations f_i - w_i
/// (Q*N, i slowest), summed in double; Solver and DistributedSolver share it.
double mass_of(const std::vector<double>& incoming, const std::vector<std::uint8_t>& flags, int q);
/// Momentum-exchange force on the cells flagged TS_LBM_BODY (lattice units)
/// from the incoming populations.
std::array<double, 3> body_force_of(const std::vector<double>& incoming,
                                    const std::vector<std::uint8_t>& flags, const Grid& g,
                                    Lattice l);
/// Momentum-exchange force on each body of a case file: body_of[n] = 1 + the
/// body's index for its wall cells, 0 elsewhere (Case::body_of).
std::vector<std::array<double, 3>> body_forces_of(const std::vector<double>& incoming,
                                                  const std::vector<std::uint8_t>& flags,
                                                  const std::vector<std::uint8_t>& body_of,
                                                  std::size_t bodies, const Grid& g, Lattice l);

/// Throws OutOfMemory (with the bytes needed) when `c`'s state cannot fit `dev`.
void check_fits(const Config& c, const Device& dev);

/// Marks TS_LBM_NEAR_WALL on every non-wall cell with a wall among its
/// lattice neighbours (periodic), clearing it elsewhere.
void mark_near_wall(const Grid& g, Lattice l, std::vector<std::uint8_t>& flags);

}  // namespace tessera::lbm
