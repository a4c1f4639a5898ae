// Running a case: time stepping in chunks timed with device events, NaN
// checks (step range and cell), periodic outputs (.vti/.pvd/.png), the
// checkpoint, and a summary with MLUPS and the case's validation figures.
#pragma once
#include <array>
#include <filesystem>
#include <functional>
#include <string>

#include <nlohmann/json.hpp>

#include "lbm/cases.hpp"
#include "lbm/distributed.hpp"
#include "lbm/solver.hpp"

namespace tessera::lbm {

struct RunOptions {
  long steps = 1000;        ///< the step the run ends at (a restarted run continues to it)
  bool steps_given = true;  ///< false: `steps` is the default (the messages say so)
  long every = 0;           ///< outputs (and NaN checks) every this many steps; 0: at the end only
  std::filesystem::path out;  ///< output folder (empty: no field output)
  std::string png = "speed";  ///< quantity of the PNG slices ("" for none)
  long slice_z = -1;          ///< z of the PNG slice (-1: the middle)
  /// the PNG slices' colour scale [lo, hi]; empty: the first slice whose
  /// values are not all equal sets it for the rest
  std::vector<double> png_range;
  std::filesystem::path checkpoint;  ///< written (atomically) at every output and at the end
  double seconds_per_step = 1;       ///< a case file's [units]: the time column of its series
  double metres_per_cell = 1;        ///< ... and the .vti spacing
  /// called after every chunk: steps done, total, MLUPS of the chunk
  std::function<void(long, long, double)> progress;
  /// Several MPI ranks: the largest signal number over the ranks (a
  /// collective call). The ranks then stop at the same chunk's end, where
  /// this is asked, since mpirun delivers a signal to them at different
  /// moments; without it a signal stops the run at the next piece.
  std::function<int(int)> agree;
};

struct RunSummary {
  long steps = 0;
  double seconds = 0;  ///< device time of the stepping only
  double mlups = 0;
  double mass_start = 0, mass_end = 0;
  nlohmann::json to_json() const;
};

/// Steps `s` (already holding the case's state) and reports. Throws Error
/// when a NaN appears, naming the step range and the first cell; the outputs
/// of the last good check stay as they are.
RunSummary run(Solver& s, const Case& c, const RunOptions& o, nlohmann::json& report);
/// The same on several devices (--gpus N); seconds are wall clock between
/// synchronisations of every part.
RunSummary run(DistributedSolver& s, const Case& c, const RunOptions& o, nlohmann::json& report);

/// The first non-finite density or velocity of a non-wall cell, or -1.
long first_non_finite(const Fields& f, const std::vector<std::uint8_t>& flags);

}  // namespace tessera::lbm
