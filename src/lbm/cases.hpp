// The flow cases of `tessera lbm` and of the validation tests: geometry
// (flags), constants and initial state, all in lattice units.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "lbm/config.hpp"
#include "lbm/solver.hpp"

namespace tessera::lbm {

class DistributedSolver;

/// A body whose force the run reports (Case::bodies).
struct BodyRef {
  std::string name;
  double length = 0;  ///< reference length in cells (diameter; box: its height)
  double area = 0;    ///< reference area in cells^2 (frontal; 2D: per unit depth, times nz)
};
/// A point whose velocity and density the run reports.
struct ProbeRef {
  std::string name;
  long cell = 0;                      ///< index n = x + nx (y + ny z)
  std::array<double, 3> at{0, 0, 0};  ///< where the user asked for it (their units)
};

struct Case {
  std::string name;
  Config config;
  std::vector<std::uint8_t> flags;
  bool uniform = true;  ///< initial state: equilibrium at (1, u0) ...
  std::array<double, 3> u0{0, 0, 0};
  Fields initial;                ///< ... or these fields
  double length = 1, speed = 1;  ///< reference length (cells) and speed, for Re and drag
  /// Bodies of a case file with their forces reported over time: body_of[n]
  /// is 1 + the index into `bodies` of the wall cell n belongs to, 0 for
  /// none (empty: the built-in cases' one body, TS_LBM_BODY).
  std::vector<BodyRef> bodies;
  std::vector<std::uint8_t> body_of;
  /// Links into bodies of a known surface, for interpolated bounce-back
  /// (Solver::set_links; empty: halfway bounce-back everywhere).
  std::vector<WallLink> links;
  std::vector<ProbeRef> probes;
  std::array<double, 3> drag_dir{1, 0, 0}, lift_dir{0, 1, 0};  ///< unit vectors
  /// Sets the flags and the initial state of a solver built from `config`.
  void apply(Solver& s) const;
  void apply(DistributedSolver& s) const;
};

/// Lid-driven cavity: n x n fluid cells (walls around, lid at the top moving
/// +x with u_lid); 3D lattices get nz cells periodic in z. tau from Re.
Case cavity(Lattice l, long n, double re, double u_lid, long nz = 1);
/// Channel between walls at y (halfway bounce-back: width = ny - 2), periodic
/// in x (and z), driven by a body force giving centre-line speed u_max.
Case poiseuille(Lattice l, long width, double tau, double u_max, long nx = 1, long nz = 1);
/// Taylor-Green vortex in the xy-plane, periodic n x n (x nz for 3D lattices).
Case taylor_green(Lattice l, long n, double tau, double u0, long nz = 1);
/// Flow past a cylinder (axis z, diameter d) in a channel: velocity inlet at
/// x = 0, density outlet at x = nx-1, walls at y; 3D lattices periodic in z.
Case cylinder(Lattice l, Grid g, double d, double re, double u_in);
/// Flow past a sphere of diameter d in a box with inlet/outlet in x, walls elsewhere.
Case sphere(Grid g, double d, double re, double u_in);

/// Analytic Poiseuille profile of a case made by poiseuille() at cell row y.
double poiseuille_exact(const Case& c, long y);

}  // namespace tessera::lbm

namespace tessera::lbm {
/// Largest |u/U_lid - u_Ghia| over Ghia's 17 points of the vertical centre
/// line (Re = 100 or 1000), the profile interpolated linearly between cell
/// centres and the walls (at x, y = 0.5 and n + 0.5 cells).
double ghia_deviation(const Case& cavity_case, const Fields& f, int re);
}  // namespace tessera::lbm
