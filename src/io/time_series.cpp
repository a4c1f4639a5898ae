// Two numeric columns are all these files hold, but what a flood modeller
// exports (spreadsheets, HEC-DSS dumps, gauge portals) varies in separators,
// headers and comments, and every wrong row must be named by its line; the
// reader is written here for that (a general CSV library would still leave
// the numeric checks and the messages to do).
#include "io/time_series.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <string_view>

#include <fmt/format.h>

#include "core/error.hpp"
#include "io/file_bytes.hpp"

namespace tessera::io {

namespace {

std::string_view trim(std::string_view s) {
  const auto is_space = [](char c) { return c == ' ' || c == '\t' || c == '\r'; };
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

// The fields of a row: split at commas or semicolons when it has any, else at
// runs of blanks.
std::vector<std::string_view> fields_of(std::string_view row) {
  std::vector<std::string_view> out;
  const bool delimited = row.find_first_of(",;") != std::string_view::npos;
  std::size_t at = 0;
  while (at <= row.size()) {
    std::size_t end = delimited ? row.find_first_of(",;", at) : row.find_first_of(" \t", at);
    if (end == std::string_view::npos) end = row.size();
    const std::string_view f = trim(row.substr(at, end - at));
    if (delimited || !f.empty()) out.push_back(f);
    at = end + 1;
  }
  return out;
}

// A whole field as a finite number ("1e3", "-2.5", "+4"); false otherwise.
bool number(std::string_view f, double& v) {
  if (!f.empty() && f.front() == '+') f.remove_prefix(1);
  if (f.empty()) return false;
  const auto [end, ec] = std::from_chars(f.data(), f.data() + f.size(), v);
  return ec == std::errc() && end == f.data() + f.size();
}

}  // namespace

TimeSeries read_time_series(const std::string& path, const std::string& value_name, Between between,
                            double min_value) {
  const std::string bytes = read_file_bytes(path);
  TimeSeries s;
  s.path = path;
  s.between = between;
  auto fail = [&](long line, const std::string& what) {
    return Error(fmt::format("{}:{}: {}", path, line, what));
  };
  long line = 0;
  bool first_row = true;
  std::size_t at = 0;
  while (at < bytes.size()) {
    std::size_t end = bytes.find('\n', at);
    if (end == std::string::npos) end = bytes.size();
    const std::string_view row = trim(std::string_view(bytes).substr(at, end - at));
    at = end + 1;
    ++line;
    if (row.empty() || row.front() == '#') continue;
    if (row.find('\0') != std::string_view::npos)
      throw fail(line, "a NUL byte: this is not a text file");
    const auto f = fields_of(row);
    double t = 0, v = 0;
    const bool numeric = f.size() == 2 && number(f[0], t) && number(f[1], v);
    if (!numeric && first_row && f.size() == 2 && !number(f[0], t)) {  // a header
      first_row = false;
      continue;
    }
    first_row = false;
    if (f.size() != 2)
      throw fail(line, fmt::format("expected two fields, time (s) and {}; found {}", value_name,
                                   f.size()));
    if (!number(f[0], t)) throw fail(line, fmt::format("time '{}' is not a number", f[0]));
    if (!number(f[1], v))
      throw fail(line, fmt::format("{} '{}' is not a number", value_name, f[1]));
    if (!std::isfinite(t)) throw fail(line, fmt::format("time {} is not finite", f[0]));
    if (!std::isfinite(v)) throw fail(line, fmt::format("{} {} is not finite", value_name, f[1]));
    if (v < min_value)
      throw fail(line, fmt::format("{} {} is below {}", value_name, f[1], min_value));
    if (!s.t.empty() && !(t > s.t.back()))
      throw fail(line, fmt::format("time {} after {} (line {}): times must increase", f[0],
                                   s.t.back(), s.line.back()));
    s.t.push_back(t);
    s.v.push_back(v);
    s.line.push_back(line);
  }
  if (s.t.size() < 2)
    throw Error(fmt::format("{}: {} row{}; a series needs at least two (time, {}) rows", path,
                            s.t.size(), s.t.size() == 1 ? "" : "s", value_name));
  return s;
}

TimeSeries time_series_from(const std::vector<double>& t, const std::vector<double>& v,
                            const std::string& what, const std::string& value_name, Between between,
                            double min_value) {
  if (t.size() != v.size())
    throw UsageError(fmt::format("{}: {} times but {} values", what, t.size(), v.size()));
  if (t.size() < 2)
    throw UsageError(fmt::format("{}: {} rows; a series needs at least two", what, t.size()));
  TimeSeries s;
  s.path = what;
  s.between = between;
  for (std::size_t k = 0; k < t.size(); ++k) {
    if (!std::isfinite(t[k]) || !std::isfinite(v[k]))
      throw UsageError(fmt::format("{}: row {}: time {} and {} {}: expected finite numbers", what,
                                   k + 1, t[k], value_name, v[k]));
    if (v[k] < min_value)
      throw UsageError(
          fmt::format("{}: row {}: {} {} is below {}", what, k + 1, value_name, v[k], min_value));
    if (k > 0 && !(t[k] > t[k - 1]))
      throw UsageError(fmt::format("{}: row {}: time {} after {}: times must increase", what, k + 1,
                                   t[k], t[k - 1]));
  }
  s.t = t;
  s.v = v;
  for (std::size_t k = 0; k < t.size(); ++k) s.line.push_back(long(k + 1));
  return s;
}

std::size_t TimeSeries::row_at(double x) const {
  const auto it = std::upper_bound(t.begin(), t.end(), x);
  return it == t.begin() ? 0 : std::size_t(it - t.begin()) - 1;
}

double TimeSeries::at(double x) const {
  const std::size_t k = row_at(x);
  if (between == Between::step || k + 1 >= t.size()) return v[k];
  return v[k] + (v[k + 1] - v[k]) * ((x - t[k]) / (t[k + 1] - t[k]));
}

double TimeSeries::integral(double a, double b) const {
  double sum = 0;
  for (std::size_t k = row_at(a); k + 1 < t.size() && t[k] < b; ++k) {
    const double lo = std::max(a, t[k]), hi = std::min(b, t[k + 1]);
    if (!(hi > lo)) continue;
    sum += between == Between::step ? v[k] * (hi - lo) : 0.5 * (at(lo) + at(hi)) * (hi - lo);
  }
  return sum;
}

void require_covers(const TimeSeries& s, double t0, double t1, const std::string& what) {
  if (s.t.front() > t0)
    throw UsageError(
        fmt::format("{} {}: the series starts at t = {} s (line {}), after the run's "
                    "start t = {} s",
                    what, s.path, s.t.front(), s.line.front(), t0));
  if (s.t.back() < t1)
    throw UsageError(
        fmt::format("{} {}: the series ends at t = {} s (line {}), before the run's "
                    "end t = {} s",
                    what, s.path, s.t.back(), s.line.back(), t1));
}

}  // namespace tessera::io
