// What drives a flood besides its initial state: rain (a hyetograph),
// infiltration losses, and inflow hydrographs Q(t) into boundary segments or
// cells. The per-cell mathematics is swe_source_point.h; this is the host
// side: the series, where they act, the per-interval launch parameters and
// the volumes they bring (the mass balance).
#pragma once
#include <algorithm>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "io/time_series.hpp"
#include "swe/grid.hpp"

namespace tessera::swe {

struct PhysCase;

enum class LossModel : int { none = 0, constant = 1, green_ampt = 2 };

/// Infiltration losses, SI units (swe_source_point.h).
struct Losses {
  LossModel model = LossModel::none;
  double rate = 0;    ///< constant: m/s
  double ks = 0;      ///< Green-Ampt: saturated hydraulic conductivity, m/s
  double psi = 0;     ///< Green-Ampt: wetting-front suction head, m
  double dtheta = 0;  ///< Green-Ampt: moisture deficit (porosity - initial content), 0..1
  std::string spec;   ///< as given
};

/// "none", "constant:RATE" (mm/h) or "green-ampt:KS,PSI,DTHETA" (mm/h, mm,
/// fraction); UsageError naming the option otherwise.
Losses parse_losses(const std::string& spec);

/// An inflow hydrograph Q(t) [m^3/s] spread evenly over the interior cells
/// [i0, i1) x [j0, j1) of the whole grid.
struct Inflow {
  std::string option;  ///< --inflow or --source
  std::string spec;    ///< as given (messages, the restart check)
  long i0 = 0, i1 = 0, j0 = 0, j1 = 0;
  io::TimeSeries q;
  long cells() const { return (i1 - i0) * (j1 - j0); }
};

/// `--inflow SIDE:FILE` (a whole side: x-lo, x-hi, y-lo, y-hi) or
/// `--inflow SIDE:FROM:TO:FILE` (the side's cells whose centres lie between
/// the world coordinates FROM and TO along it), or `--source X:Y:FILE` (the
/// cell holding the point): the cells on case c's grid and the series (m^3/s,
/// linear in time). Refused: an unknown side, a segment or point outside the
/// grid or holding no cell centre, a NODATA cell among them, a bad file.
Inflow parse_inflow(const std::string& spec, const PhysCase& c);
Inflow parse_point_source(const std::string& spec, const PhysCase& c);
/// The cells of `SIDE` or `SIDE:FROM:TO` (no file; the series is the
/// caller's), and of the point (x, y): the Python API's inflows and sources.
Inflow inflow_cells(const std::string& side_spec, const PhysCase& c);

/// `--rain-grid FILE.csv`: rows "time (s), raster" (a path relative to the
/// CSV's folder; .asc or, with GDAL, any raster; intensity in mm/h, each
/// frame held to the next row's time), sampled at c's cell centres (the
/// raster must cover them; NODATA is no rain; negative values refused),
/// into c.forcing's rain_* fields. Errors name the file and line.
void read_rain_grid(const std::string& path, PhysCase& c);
/// `--rain-grid FILE.nc[:VARIABLE]` (read_rain_grid passes it on): a CF
/// NetCDF variable over (time, y, x) with 1D coordinate variables: time in
/// seconds, minutes, hours or days since the run's t = 0 (the units'
/// reference time), x and y equally spaced cell centres in the grid's
/// coordinates (either direction), intensity in mm/h, mm s-1 (kg m-2 s-1)
/// or m s-1; _FillValue (or missing_value) is no rain. The variable may go
/// unnamed when it is the file's only one over three dimensions. Sampled
/// at the nearest value to each cell centre. Errors name the file.
void read_rain_netcdf(const std::string& spec, PhysCase& c);
/// Appends a frame of the gridded rain: `mm_h` per interior cell (i*ny + j,
/// finite and >= 0, checked by the caller), from `time` (after the last
/// frame's, checked by the caller); NODATA cells get none.
void add_rain_frame(PhysCase& c, double time, std::vector<double> mm_h);
/// A frame for add_rain_frame: `at(x, y)` the intensity (mm/h) at each
/// interior cell's centre but NODATA's (those get 0); the rasters' and the
/// NetCDF reader's sampling, which check coverage and values in `at`.
std::vector<double> sample_rain_frame(const PhysCase& c,
                                      const std::function<double(double, double)>& at);
Inflow point_cells(double x, double y, const PhysCase& c);

/// A side's boundary kind from its option value: wall, transmissive,
/// periodic, level:ETA or discharge:Q (value set for the last two);
/// UsageError naming `option` and the value otherwise.
Bc parse_boundary(const std::string& option, const std::string& s, double& value);

/// A boundary segment (`--bc-segment SIDE:FROM:TO:KIND`): the cells
/// [lo, hi) along a side (x sides: columns j; y sides: rows i of the whole
/// grid) take another kind than the side's: wall, transmissive, level:ETA,
/// discharge:Q (m^2/s into the domain, as the sides') or stage:FILE (a
/// level eta(t) in m from a CSV, linear between rows).
struct BcSegment {
  std::string spec;
  int side = 0;
  long lo = 0, hi = 0;
  Bc kind = Bc::wall;
  double value = 0;
  std::optional<io::TimeSeries> stage;
};
BcSegment parse_segment(const std::string& spec, const PhysCase& c);

/// One source launch over an interval of the series: the depth rate
/// rate + slope (t - ta) [m/s] on the interior cells [i0, i1) x [j0, j1)
/// (global rows); the whole-grid launch (the last) also takes the losses.
struct SourceLaunch {
  long i0 = 0, i1 = 0, j0 = 0, j1 = 0;
  double rate = 0, slope = 0, ta = 0;
  bool whole_grid = false;
  long frame = -1;  ///< the whole-grid launch: the gridded rain's frame added per cell (-1: none)
};

/// The sources of a case (PhysCase::forcing).
struct Forcing {
  std::optional<io::TimeSeries> rain;  ///< intensity, mm/h, constant over each row
  Losses losses;
  std::vector<Inflow> inflows;
  std::vector<BcSegment> segments;  ///< at most one per side
  double rain_area = 0;             ///< m^2 that rain falls on (cells below z_nodata)
  double sample_every = 0;          ///< > 0: advances also end at its multiples (swe/series.hpp)
  /// Gridded rain (--rain-grid): frame k's intensity per interior cell
  /// (i*ny + j, m/s, 0 on NODATA) holds from rain_times[k] to the next
  std::vector<double> rain_times;
  std::vector<std::vector<double>> rain_frames;
  std::vector<double> rain_frame_rate;  ///< Σ R dx dy of each frame, m^3/s
  std::vector<double> rain_frame_max;   ///< the largest R of each frame, m/s
  std::string rain_grid;                ///< the file (messages, the restart check)

  bool any() const {
    return rain.has_value() || losses.model != LossModel::none || !inflows.empty() ||
           !segments.empty() || sample_every > 0 || !rain_times.empty();
  }
  /// The gridded rain's frame over [a, b] (-1: none).
  long rain_frame(double a, double b) const;
  /// The first time after t at which a series starts a new row (inf: none).
  double next_break(double t) const;
  /// The launches of a step inside [a, b], an interval within one row of
  /// every series, on a grid of nx x ny cells of dx x dy.
  std::vector<SourceLaunch> launches(double a, double b, long nx, long ny, double dx,
                                     double dy) const;
  /// The segments' kinds and values over [a, b] (within one row of every
  /// series) into p, for a grid whose first row is global row `row0` of
  /// `rows` (distributed parts: y-side segments clipped to their rows;
  /// x-side ones only where the side is a boundary, not an exchange).
  template <class T>
  void set_segments(PhysParams<T>& p, double a, double b, long row0, long rows) const;
  /// The longest step over [a, b] (0: no bound) after which water arriving
  /// at the largest depth rate s of `launches` on a dry cell is within the
  /// CFL rule: dt (1/dx + 1/dy) sqrt(g s dt) <= cfl. From a dry state the
  /// wave rates bound no step; this does.
  double max_dt(const std::vector<SourceLaunch>& launches, double a, double b, double g, double cfl,
                double dx, double dy) const;
  /// Rain and inflow volumes [m^3] from t = 0 to t.
  double rain_volume(double t) const;
  double inflow_volume(double t) const;
  /// Refuses series that do not cover [0, t_end] (option names in messages).
  void require_covers(double t_end) const;
};

template <class T>
void Forcing::set_segments(PhysParams<T>& p, double a, double b, long row0, long rows) const {
  const double mid = 0.5 * (a + b);
  for (const BcSegment& g : segments) {
    const int s = g.side;
    long lo = g.lo, hi = g.hi;
    if (s >= 2) lo = std::max(lo - row0, 0L), hi = std::min(hi - row0, rows);
    if ((s < 2 && p.bc[s] == int(Bc::exchange)) || lo >= hi) {
      p.seg_lo[s] = p.seg_hi[s] = 0;
      continue;
    }
    p.seg_lo[s] = lo, p.seg_hi[s] = hi, p.seg_bc[s] = int(g.kind);
    p.seg_value[s] = T(g.value), p.seg_slope[s] = 0, p.seg_ta[s] = 0;
    if (g.stage) {
      const io::TimeSeries& st = *g.stage;
      const std::size_t k = std::min(st.row_at(mid), st.t.size() - 2);
      p.seg_value[s] = T(st.v[k]);
      p.seg_slope[s] = T((st.v[k + 1] - st.v[k]) / (st.t[k + 1] - st.t[k]));
      p.seg_ta[s] = T(st.t[k]);
      p.timed = true;
    }
  }
}

/// Runs `advance(b)` over consecutive intervals [a, b] from `now` to `t` that
/// each lie within one row of every series of `f`, calling `set(a, b)` before
/// each; stops early when `advance` returns a health that is bad or short of
/// b. Time values are compared as T stores them.
template <class T, class Health, class Set, class Advance>
Health advance_in_rows(const Forcing& f, double now, double t, Set&& set, Advance&& advance) {
  Health h{};
  for (;;) {
    double b = f.next_break(now);
    while (b < t && !(T(b) > T(now))) b = f.next_break(b);  // rows shorter than T resolves
    if (!(b < t)) b = t;
    set(now, b);
    h = advance(b);
    if (h.bad || !(T(h.time) >= T(b)) || !(T(b) < T(t))) return h;
    now = h.time;
  }
}

}  // namespace tessera::swe
