// The byte format of a `tessera swe` checkpoint, separate from the solvers so
// that it can be validated (and fuzzed, tests/fuzz/fuzz_swe_checkpoint.cpp)
// without a device. Container: io/checkpoint_container.hpp with magic
// "TSSWECK1"; the JSON header holds the model, precision, grid, step count,
// time, the configuration the run must be restarted with and the run's
// progress (outputs written, .pvd series, schedule, starting mass); the
// payload holds the solver state's raw values (host byte order):
//   physical: h, hu, hv, z (nx*ny each, i*ny + j) | dt, time, target (T)
//             | rate0, rate1, steps, bad cell, bad step (uint32)
//             [| infiltrated depth (nx*ny)] [| boundary tallies, their
//             compensations (2 (nx + ny) each)]: the header's optional
//             "extras" says which
//   thesis:   Z, Qx, Qy ((nx+2)*(ny+2) each, frame included) | k (T)
#pragma once
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "swe/physical.hpp"
#include "swe/thesis.hpp"

namespace tessera::swe {

/// Where a run stands besides its solver: what a restarted run needs to go
/// on writing the same outputs and summary as an uninterrupted one.
struct RunProgress {
  long outputs = 0;  ///< numbered output instants written (the next file number)
  std::vector<std::pair<double, std::string>> series;  ///< the .pvd entries so far
  std::string last_output;
  long next_target = 1;  ///< --every-time: k of the next advance to k * every-time
  double mass_start = 0;
  /// --series-every: the rows of series.csv so far (swe/series.hpp) and the
  /// k of the next sample time k * every
  std::vector<std::vector<double>> samples;
  long next_sample = 0;
};

using SolverStateAny = std::variant<PhysSolverState<float>, PhysSolverState<double>,
                                    ThesisSolverState<float>, ThesisSolverState<double>>;

struct SweCheckpoint {
  nlohmann::json config = nlohmann::json::object();  ///< options the run must be restarted with
  RunProgress run;
  SolverStateAny state;

  std::string model() const;      ///< "physical" or "thesis"
  std::string precision() const;  ///< "float" or "double"
  long nx() const;
  long ny() const;
  long steps() const;
  double time(double thesis_dt) const;  ///< the physical model's own time, or steps * dt
};

/// The checkpoint bytes. `thesis_dt` (thesis states) is recorded as the time
/// steps * dt for humans; restarting reads the step count.
std::string format_swe_checkpoint(const SweCheckpoint& c, double thesis_dt = 0);

/// Validates and splits checkpoint bytes. Throws Error naming `source` and
/// what is wrong (signature, checksum, header field, sizes) before
/// allocating anything the file cannot back. The header's meaning is checked
/// too: step counts in 0..2^53, the output counter in 0..2^31-2 and no more
/// than the recorded schedule (config "every", "every-time") writes by that
/// step and time, .pvd entries (at most one per output, times ordered within
/// 0..the checkpoint's time, plain file names), next_target within the
/// advances done, the header's time equal to the state's (physical) or to
/// steps * config "dt" (thesis).
SweCheckpoint parse_swe_checkpoint(std::string_view data, const std::string& source);

/// The meaning of the state a restart continues from (read_swe_checkpoint
/// calls it; the format itself also carries bad states, for tests): not
/// marked bad, finite fields and scalars, depths h >= 0 (physical) or Z > 0
/// and finite discharges inside the frame (thesis; the frame is not judged), dt/time/target >= 0, wave rates the bits of
/// finite floats >= 0, k > 0. Error naming `source`, the field and the cell.
void validate_swe_state(const SweCheckpoint& c, const std::string& source);

}  // namespace tessera::swe
