// Time series of a physical run (`--series-every SECONDS`): point gauges
// (`--gauge NAME:X:Y`: depth, water level, velocity), the water through
// each cross-section (`--section`, swe/section.hpp) and out through each open
// side (cumulative volume and the mean discharge since the previous row: the
// hydrographs), sampled at exact multiples of the
// interval (the run ends its advances there, swe/forcing.hpp) and at the
// end. Written as series.csv in the output folder and as columns in the
// summary; kept in checkpoints so a restarted run writes the same rows.
#pragma once
#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "swe/checkpoint_format.hpp"
#include "swe/output.hpp"
#include "swe/physical.hpp"

namespace tessera::swe {

/// A point gauge: the cell holding (x, y).
struct Gauge {
  std::string name;
  double x = 0, y = 0;
  long i = 0, j = 0;
  double z = 0;  ///< the cell's bed (level = z + depth)
};

/// `NAME:X:Y`; UsageError naming the option for a bad name, a point off the
/// grid or on a NODATA cell.
Gauge parse_gauge(const std::string& spec, const PhysCase& c);

/// Adds the cross-sections `NAME:X0:Y0:X1:Y1` (swe/section.hpp) to the case;
/// UsageError for a bad one or a name given twice.
void add_sections(PhysCase& c, const std::vector<std::string>& specs);

class SweSeries {
 public:
  /// No sampling when `every` is 0 (then gauges and sections are refused).
  /// The sections are the case's (PhysCase::sections).
  SweSeries(double every, const std::vector<std::string>& gauges, const PhysCase& c);
  bool active() const { return every_ > 0; }
  double every() const { return every_; }
  /// The next sample time after the rows so far.
  double next_time() const { return double(next_) * every_; }
  /// Whether the run at time t (the device's time in T) has reached the next
  /// sample time as T stores it.
  template <class T>
  bool due(double t) const {
    return active() && t >= double(T(next_time()));
  }
  /// Adds the row at time t (a sample time, or the run's end): gauges from
  /// `probe` (h, hu, hv per gauge cell), the sections from `through`
  /// (Solver::section_volumes, cumulative), the open sides from `inflow`
  /// (Solver::boundary_inflow, cumulative).
  void record(double t, const std::vector<std::array<double, 3>>& probe,
              const std::vector<double>& through, const std::array<double, 4>& inflow);
  /// Samples solver s at time t (collective under MPI).
  template <class Solver>
  void sample(double t, const Solver& s) {
    record(t, s.probe(cells()), s.section_volumes(), s.boundary_inflow());
  }
  const std::vector<Gauge>& gauges() const { return gauges_; }
  std::vector<std::pair<long, long>> cells() const;
  /// series.csv in `dir` (atomic), and series.nc when `netcdf`; nothing
  /// when inactive or dir is "".
  void write(const std::string& dir, bool netcdf = false) const;
  /// {"columns": [...], NAME: [values...]} for the summary.
  nlohmann::json json() const;
  void save(RunProgress& p) const {
    p.samples = rows_;
    p.next_sample = next_;
  }
  void resume(const RunProgress& p);
  double last_time() const { return rows_.empty() ? -1.0 : rows_.back()[0]; }

 private:
  double every_ = 0;
  std::vector<Gauge> gauges_;
  std::size_t sections_ = 0;
  std::vector<int> sides_;  // open sides (x_lo, x_hi, y_lo, y_hi)
  std::vector<std::string> columns_;
  std::vector<SeriesColumn> meta_;  // columns_ with units and long names
  std::vector<std::vector<double>> rows_;
  long next_ = 0;  // k of the next sample time k * every
};

// The volumes the run's sources and open boundaries brought and took, and
// what is left over: stored_end - stored_start - rain - inflow - boundaries
// + infiltrated (round-off).
template <class Solver>
nlohmann::json mass_balance(const PhysCase& c, const Solver& s, double t, double start,
                            double end) {
  const Forcing& f = c.forcing;
  const double rain = f.rain_volume(t), inflow = f.inflow_volume(t), lost = s.infiltrated();
  const std::array<double, 4> sides = s.boundary_inflow();
  const double through = sides[0] + sides[1] + sides[2] + sides[3];
  const double residual = end - start - rain - inflow - through + lost;
  return {{"stored_start_m3", start},
          {"stored_end_m3", end},
          {"rain_m3", rain},
          {"inflow_m3", inflow},
          {"infiltrated_m3", lost},
          {"boundary_inflow_m3",
           {{"x-lo", sides[0]}, {"x-hi", sides[1]}, {"y-lo", sides[2]}, {"y-hi", sides[3]}}},
          {"boundary_net_inflow_m3", through},
          {"residual_m3", residual},
          {"relative_residual",
           residual / std::max({start + rain + inflow + std::fabs(through), end, 1e-300})}};
}

}  // namespace tessera::swe
