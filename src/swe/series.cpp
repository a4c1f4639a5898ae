#include "swe/series.hpp"

#include <cmath>
#include <filesystem>

#include <fmt/format.h>

#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "swe/output.hpp"
#include "swe/kernels/swe_hll_consts.h"

namespace tessera::swe {

namespace {

const char* side_names[4] = {"x-lo", "x-hi", "y-lo", "y-hi"};

bool plain_name(const std::string& s) {
  // a letter, digit or '_' first: the names become NetCDF variables
  if (s.empty() || s.size() > 64 || s[0] == '-') return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-')) return false;
  return true;
}

}  // namespace

Gauge parse_gauge(const std::string& spec, const PhysCase& c) {
  Gauge g;
  const auto a = spec.find(':'), b = a == std::string::npos ? a : spec.find(':', a + 1);
  std::size_t used_x = 0, used_y = 0;
  bool ok = b != std::string::npos;
  if (ok) {
    g.name = spec.substr(0, a);
    try {
      const std::string xs = spec.substr(a + 1, b - a - 1), ys = spec.substr(b + 1);
      g.x = std::stod(xs, &used_x);
      g.y = std::stod(ys, &used_y);
      ok = used_x == xs.size() && used_y == ys.size() && std::isfinite(g.x) && std::isfinite(g.y);
    } catch (const std::exception&) {
      ok = false;
    }
  }
  if (!ok || !plain_name(g.name))
    throw UsageError(fmt::format(
        "--gauge {}: expected NAME:X:Y (NAME of letters, digits, '_' and '-', not starting with '-'; X, Y world "
        "coordinates)",
        spec));
  const double i = std::floor((g.x - c.x0) / c.dx), j = std::floor((g.y - c.y0) / c.dy);
  if (!(i >= 0 && i < double(c.nx) && j >= 0 && j < double(c.ny)))
    throw UsageError(fmt::format("--gauge {}: ({}, {}) lies outside the grid [{}, {}] x [{}, {}]",
                                 spec, g.x, g.y, c.x0, c.x0 + double(c.nx) * c.dx, c.y0,
                                 c.y0 + double(c.ny) * c.dy));
  g.i = long(i);
  g.j = long(j);
  g.z = c.z[std::size_t(g.i * c.ny + g.j)];
  if (!(c.z[std::size_t(g.i * c.ny + g.j)] < c.z_nodata))
    throw UsageError(fmt::format("--gauge {}: cell (i={}, j={}) is NODATA", spec, g.i, g.j));
  return g;
}

void add_sections(PhysCase& c, const std::vector<std::string>& specs) {
  for (const std::string& spec : specs) {
    Section s = parse_section(spec, SectionGrid{c.nx, c.ny, c.dx, c.dy, c.x0, c.y0});
    for (const Section& o : c.sections)
      if (o.name == s.name)
        throw UsageError(fmt::format("--section {}: '{}' is taken", spec, s.name));
    c.sections.push_back(std::move(s));
  }
}

SweSeries::SweSeries(double every, const std::vector<std::string>& gauges, const PhysCase& c)
    : every_(every) {
  if (!(every >= 0) || !std::isfinite(every))
    throw UsageError(fmt::format("--series-every {}: expected a time > 0 s", every));
  if (every == 0) {
    if (!gauges.empty()) throw UsageError("--gauge needs --series-every SECONDS (the sampling)");
    if (!c.sections.empty())
      throw UsageError("--section needs --series-every SECONDS (the sampling)");
    return;
  }
  if (c.t_end / every > 1e7)  // rows kept in memory and in checkpoints
    throw UsageError(fmt::format(
        "--series-every {}: over the run's {} s that is more than 10^7 rows", every, c.t_end));
  for (const std::string& s : gauges) {
    Gauge g = parse_gauge(s, c);
    for (const Gauge& o : gauges_)
      if (o.name == g.name) throw UsageError(fmt::format("--gauge {}: '{}' is taken", s, g.name));
    gauges_.push_back(std::move(g));
  }
  for (int s = 0; s < 4; ++s) {
    bool open = ts_swe_open_side(int(c.bc[s]));
    for (const BcSegment& g : c.forcing.segments)
      open = open || (g.side == s && ts_swe_open_side(int(g.kind)));
    if (open) sides_.push_back(s);
  }
  auto column = [&](std::string name, const char* units, std::string long_name) {
    columns_.push_back(name);
    meta_.push_back({std::move(name), units, std::move(long_name)});
  };
  column("time_s", "s", "simulated time");
  for (const Gauge& g : gauges_) {
    const std::string at = fmt::format("gauge {} (x = {}, y = {})", g.name, g.x, g.y);
    column(g.name + "_depth_m", "m", "water depth at " + at);
    column(g.name + "_level_m", "m", "water level at " + at);
    column(g.name + "_u_m_s", "m s-1", "x velocity at " + at);
    column(g.name + "_v_m_s", "m s-1", "y velocity at " + at);
  }
  for (const Section& s : c.sections) {
    const std::string across = fmt::format("section {} from ({}, {}) to ({}, {}), left to right",
                                           s.name, s.x0, s.y0, s.x1, s.y1);
    column(s.name + "_volume_m3", "m3", "volume across " + across);
    column(s.name + "_discharge_m3_s", "m3 s-1",
           "mean discharge since the last row across " + across);
  }
  sections_ = c.sections.size();
  for (int s : sides_) {
    column(fmt::format("{}_outflow_m3", side_names[s]), "m3",
           fmt::format("volume out through side {}", side_names[s]));
    column(fmt::format("{}_outflow_m3_s", side_names[s]), "m3 s-1",
           fmt::format("mean discharge since the last row out through side {}", side_names[s]));
  }
}

std::vector<std::pair<long, long>> SweSeries::cells() const {
  std::vector<std::pair<long, long>> out;
  for (const Gauge& g : gauges_) out.emplace_back(g.i, g.j);
  return out;
}

void SweSeries::record(double t, const std::vector<std::array<double, 3>>& probe,
                       const std::vector<double>& through, const std::array<double, 4>& inflow) {
  if (!active() || (!rows_.empty() && !(t > rows_.back()[0]))) return;
  std::vector<double> row{t};
  for (std::size_t k = 0; k < gauges_.size(); ++k) {
    const auto [h, hu, hv] = probe[k];
    row.push_back(h);
    row.push_back(h + gauges_[k].z);
    row.push_back(h > 0 ? hu / h : 0.0);
    row.push_back(h > 0 ? hv / h : 0.0);
  }
  // a cumulative volume and the mean discharge since the previous row (0 on
  // the first)
  auto volume = [&](double v) {
    const std::size_t at = row.size();
    row.push_back(v);
    row.push_back(rows_.empty() ? 0.0 : (v - rows_.back()[at]) / (t - rows_.back()[0]));
  };
  for (std::size_t k = 0; k < sections_; ++k) volume(through.at(k));
  for (int s : sides_) volume(-inflow[std::size_t(s)]);
  rows_.push_back(std::move(row));
  next_ = long(std::floor(t / every_)) + 1;
}

void SweSeries::resume(const RunProgress& p) {
  if (!active()) return;
  for (const auto& r : p.samples)
    if (r.size() != columns_.size())
      throw UsageError(fmt::format(
          "the checkpoint's series rows hold {} values, this run's --gauge, --section and open "
          "sides make {}",
          r.size(), columns_.size()));
  rows_ = p.samples;
  next_ = p.next_sample;
}

void SweSeries::write(const std::string& dir, bool netcdf) const {
  if (!active() || dir.empty()) return;
  std::string text;
  for (std::size_t k = 0; k < columns_.size(); ++k) text += (k ? "," : "") + columns_[k];
  text += "\n";
  for (const auto& r : rows_) {
    for (std::size_t k = 0; k < r.size(); ++k) text += fmt::format("{}{:.17g}", k ? "," : "", r[k]);
    text += "\n";
  }
  write_file_atomic((std::filesystem::path(dir) / "series.csv").string(), text);
  if (netcdf && !rows_.empty())  // after the CSV: a NetCDF failure leaves it written
    NetcdfWriter::write_series((std::filesystem::path(dir) / "series.nc").string(), meta_, rows_);
}

nlohmann::json SweSeries::json() const {
  nlohmann::json j = {{"columns", columns_}};
  for (std::size_t k = 0; k < columns_.size(); ++k) {
    nlohmann::json col = nlohmann::json::array();
    for (const auto& r : rows_) col.push_back(r[k]);
    j[columns_[k]] = col;
  }
  return j;
}

}  // namespace tessera::swe
