// What a lattice Boltzmann run is: lattice, collision, storage precision,
// grid, relaxation and boundary constants, with their validation (tau > 1/2,
// Mach number, memory).
#pragma once
#include <array>
#include <cstdint>
#include <string>

#include "lbm/kernels/lbm_kernels.hpp"

namespace tessera::lbm {

enum class Lattice { d2q9, d3q19, d3q27 };
enum class Collision { bgk, trt };
/// Storage of the populations; arithmetic is float for fp32/fp16s, double for fp64.
enum class Precision { fp32, fp16s, fp64 };

int q_of(Lattice l);
std::string to_string(Lattice l);
std::string to_string(Collision c);
std::string to_string(Precision p);
/// Parse "D3Q19"/"d3q19", "bgk"/"srt"/"trt", "fp32"/"float", "fp16s", "fp64"/"double"; UsageError otherwise.
Lattice parse_lattice(const std::string& s);
Collision parse_collision(const std::string& s);
Precision parse_precision(const std::string& s);

/// The largest speed the solver accepts, |u| <= kMaxMach * c_s (c_s = 1/sqrt(3)).
constexpr double kMaxMach = 0.3;

/// TRT's Lambda = (tau+ - 1/2)(tau- - 1/2) fixes the odd relaxation rate.
/// Flows bounded by walls only: 3/16 puts halfway bounce-back walls exactly
/// halfway for Poiseuille flow at every viscosity (Ginzburg).
constexpr double kTrtMagicWalls = 3.0 / 16.0;

/// TRT's Lambda for a flow with equilibrium inlets or outlets, at relaxation
/// time tau and inflow speed `speed` (lattice units). Next to such boundaries
/// TRT diverges at small tau where BGK runs (also in an independent NumPy
/// solver): the largest stable Lambda falls steeply with the grid Reynolds
/// number g = speed / nu (measured: 1/12 up to g = 10, 1/48 at 12, 1/96 at
/// 15, 1/192 at 20). So: 1/12 up to g = 10, halved for each unit of g above,
/// and never below BGK's own (tau - 1/2)^2, where TRT is BGK.
/// docs/lbm.md, "TRT next to inlets and outlets".
double trt_magic_open(double tau, double speed);

struct Config {
  Lattice lattice = Lattice::d3q19;
  Collision collision = Collision::bgk;
  Precision precision = Precision::fp32;
  Grid grid{64, 64, 64};
  double tau = 0.6;                       ///< BGK relaxation time (TRT: of the even moments)
  double trt_magic = kTrtMagicWalls;      ///< TRT Lambda = (tau+ - 1/2)(tau- - 1/2)
  std::array<double, 3> force{0, 0, 0};   ///< body force density (Guo)
  std::array<double, 3> u_wall{0, 0, 0};  ///< moving-wall velocity
  std::array<double, 3> u_in{0, 0, 0};    ///< inlet velocity (a profile's peak)
  InletProfile inlet;                     ///< uniform, or parabolas across the inlet
  double rho_out = 1;                     ///< outlet density

  KernelVariant variant() const;
  StepParams step_params() const;
  double viscosity() const { return (tau - 0.5) / 3.0; }
  /// Device memory of the populations and flags (what a step streams through once).
  std::uint64_t state_bytes() const;
  /// Throws UsageError for tau <= 1/2, a Mach number above kMaxMach, a bad grid.
  void validate() const;
};

/// A Lambda the user gave (`given_as`: the option or key, for the message):
/// used, or refused (UsageError) for a BGK run or a value not finite and > 0.
void set_trt_magic(Config& c, double lambda, const std::string& given_as);

/// "uniform" or the parabolas' axes and walls, then the inward normal
/// ("parabolic y 0.5..48.5, inward normal +x").
std::string describe(const InletProfile& p);

/// Mach number of a speed in lattice units.
double mach(double speed);

}  // namespace tessera::lbm
