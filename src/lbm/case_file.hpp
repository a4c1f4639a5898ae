// `tessera lbm --config case.toml`: a flow of the user's own set-up, in
// lattice or physical (SI) units — the domain, the boundary of each box face,
// bodies whose forces are measured, probes and the run's length. The tables
// ([domain], [units], [flow], [boundary], [[body]], [[probe]], [run]) are read
// here; the file's top-level keys are the options of `tessera lbm` (the
// command applies them, as `tessera swe --config` does). docs/lbm.md, "Case
// files", lists every key.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "core/device.hpp"
#include "io/case_file.hpp"
#include "lbm/cases.hpp"

namespace tessera::lbm {

/// The conversion between lattice units and SI (identity without [units]).
struct Units {
  bool physical = false;
  double dx = 1, dt = 1;  ///< metres per cell, seconds per step
  double density = 0;     ///< kg/m^3 (0: not given; forces stay in lattice units)
  double speed = 0;       ///< the reference speed U in lattice units (the inflow)
  double speed_si = 0;    ///< ... and in m/s
  double viscosity = 0;   ///< lattice units
  double length = 0;      ///< the reference length L in cells (Re = U L / nu), 0 if none
  /// One line per conversion: dx, dt, U, nu, tau, Mach, Re, grid Reynolds number.
  std::string describe(double tau) const;
};

struct CaseFromFile {
  Case c;
  Units units;
  long steps = -1;  ///< [run] time / dt, or -1: the command's --steps
  long every = -1;  ///< [run] output-interval / dt, or -1: the command's --every
  /// What the case runs with but the user should know (an STL body with
  /// holes, its cells decided by vote): one line each, file:line first.
  std::vector<std::string> warnings;
};

/// The case described by the tables of a case file (entries outside a table
/// are the command's options and skipped here). Unknown tables and keys, a
/// missing key, values of the wrong kind, bodies outside the domain or below
/// two cells across, and settings the lattice cannot run (Mach > 0.3, tau <=
/// 1/2) are refused with file:line (UsageError).
/// STL bodies are voxelized on `device` (null: the CPU).
CaseFromFile case_from_file(const std::string& path, const std::vector<io::CaseFileEntry>& entries,
                            Lattice lattice, const std::shared_ptr<Device>& device = nullptr);

/// Whether the file describes a case of its own (it has a [domain] table).
bool describes_a_case(const std::vector<io::CaseFileEntry>& entries);

}  // namespace tessera::lbm
