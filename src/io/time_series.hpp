// Time series from CSV files: the rain hyetographs and inflow hydrographs of
// `tessera swe` (and any other two-column "time, value" input). Read
// completely and strictly: every error names the file and line.
#pragma once
#include <string>
#include <vector>

namespace tessera::io {

/// How a series is read between its rows.
enum class Between {
  step,    ///< row k's value holds on [t_k, t_k+1) (a hyetograph's intensities)
  linear,  ///< linear from row k to row k+1 (a hydrograph)
};

/// Rows (t_k, v_k) with strictly increasing, finite times and finite values.
struct TimeSeries {
  std::string path;  ///< where it came from (messages)
  std::vector<double> t, v;
  std::vector<long> line;  ///< the file line of each row
  Between between = Between::linear;

  /// The row k with t_k <= t < t_k+1 (the last row for t >= its time); t
  /// must not lie before the first row.
  std::size_t row_at(double t) const;
  /// The value at t (t within [t_0, t_last]).
  double at(double t) const;
  /// ∫ v dt over [a, b] (both within [t_0, t_last], a <= b), exactly as the
  /// rows define it (rectangles or trapezoids).
  double integral(double a, double b) const;
};

/// Reads a series: one row per line, "time, value" separated by a comma, a
/// semicolon, tabs or spaces; blank lines and lines starting with '#' are
/// skipped; a first line that is not numeric is a header. `value_name` (for
/// messages: "rain intensity (mm/h)") names the second column. Refused
/// (UsageError, file:line): a missing or unreadable file, a row with other
/// than two fields, a field that is not a number, NaN or infinite values,
/// times that do not increase, a value below `min_value`, fewer than two rows.
TimeSeries read_time_series(const std::string& path, const std::string& value_name, Between between,
                            double min_value = 0.0);

/// A series from values already in memory (the Python API), checked as
/// read_time_series checks a file's rows; errors name `what` and the row
/// (1-based). Throws UsageError.
TimeSeries time_series_from(const std::vector<double>& t, const std::vector<double>& v,
                            const std::string& what, const std::string& value_name, Between between,
                            double min_value = 0.0);

/// Refuses (UsageError) a series that does not cover [t0, t1]: its first time
/// after t0 or its last before t1. `what` names the option that gave it.
void require_covers(const TimeSeries& s, double t0, double t1, const std::string& what);

}  // namespace tessera::io
