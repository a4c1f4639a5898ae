// Time series of a case file's run (issue 43): the force on each body with
// its drag and lift coefficients, and the velocity and density at each probe,
// sampled at the run's outputs; CSV files in the output folder (rewritten
// atomically at each sample) and arrays in the summary JSON.
#pragma once
#include <array>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "lbm/cases.hpp"
#include "lbm/solver.hpp"

namespace tessera::lbm {

/// The Strouhal number f L / U of an oscillating signal sampled at `step`s:
/// f from the mean spacing of its upward crossings of its mean over the
/// second half of the samples (the first half is the start-up); L, U in
/// lattice units. NaN with fewer than three crossings there.
double strouhal(const std::vector<long>& step, const std::vector<double>& value, double length,
                double speed);

class Series {
 public:
  /// `seconds_per_step` labels the time column (1: lattice units). A run
  /// continued from step `start` keeps the rows up to `start` of the CSV
  /// files it finds in `out`, so it ends with the straight run's files.
  Series(const Case& c, std::filesystem::path out, double seconds_per_step, long start);
  bool empty() const { return bodies_.empty() && probes_.empty(); }
  /// One sample at `step`: each body's force (the solvers' body_forces),
  /// the probes from the fields.
  void sample(long step, const std::vector<std::array<double, 3>>& forces, const Fields& f);
  /// The series as JSON: {"bodies": [...], "probes": [...]}.
  nlohmann::json to_json() const;

 private:
  void write() const;
  const Case& c_;
  std::filesystem::path out_;
  double dt_;
  struct BodySeries {
    std::vector<long> step;
    std::vector<std::array<double, 3>> force;
    std::vector<double> cd, cl;
  };
  struct ProbeSeries {
    std::vector<long> step;
    std::vector<std::array<double, 4>> value;  // ux, uy, uz, rho
  };
  std::vector<BodySeries> bodies_;
  std::vector<ProbeSeries> probes_;
  std::vector<std::string> force_rows_, probe_rows_;  // CSV lines, kept from a restart too
};

}  // namespace tessera::lbm
