// Gridded rain from one CF NetCDF file (`--rain-grid FILE.nc[:VARIABLE]`):
// a variable over (time, y, x) with 1D coordinate variables, sampled at the
// grid's cell centres as the raster frames of a CSV are. netcdf-c reads the
// file (optional at build time, TESSERA_SWE_HAVE_NETCDF, as the output).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/error.hpp"
#include "swe/forcing.hpp"
#include "swe/physical.hpp"

#if TESSERA_SWE_HAVE_NETCDF
#include <netcdf.h>
#endif

namespace tessera::swe {

#if TESSERA_SWE_HAVE_NETCDF
namespace {

// An open file, closed on every way out.
struct NcFile {
  int id = -1;
  std::string path;
  ~NcFile() {
    if (id >= 0) nc_close(id);
  }
  void check(int status, const std::string& what) const {
    if (status != NC_NOERR)
      throw Error(fmt::format("--rain-grid {}: {}: {}", path, what, nc_strerror(status)));
  }
  [[noreturn]] void fail(const std::string& what) const {
    throw Error(fmt::format("--rain-grid {}: {}", path, what));
  }
  std::string text_attribute(int var, const char* name) const {
    std::size_t len = 0;
    if (nc_inq_attlen(id, var, name, &len) != NC_NOERR) return "";
    nc_type type;
    check(nc_inq_atttype(id, var, name, &type), name);
    if (type != NC_CHAR) fail(fmt::format("attribute '{}' is not text", name));
    std::string s(len, '\0');
    check(nc_get_att_text(id, var, name, s.data()), name);
    while (!s.empty() && (s.back() == '\0' || s.back() == ' ')) s.pop_back();
    return s;
  }
  std::string var_name(int var) const {
    char name[NC_MAX_NAME + 1] = {0};
    check(nc_inq_varname(id, var, name), "variable name");
    return name;
  }
  // A 1D coordinate variable over dimension `dim` (CF: the variable of
  // the dimension's name), as doubles.
  std::vector<double> coordinate(int dim) const {
    char name[NC_MAX_NAME + 1] = {0};
    std::size_t n = 0;
    check(nc_inq_dim(id, dim, name, &n), "dimension");
    int var = -1;
    if (nc_inq_varid(id, name, &var) != NC_NOERR)
      fail(fmt::format("dimension '{}' has no coordinate variable '{}'", name, name));
    int nd = 0;
    check(nc_inq_varndims(id, var, &nd), name);
    if (nd != 1)
      fail(fmt::format("coordinate variable '{}' has {} dimensions (1 expected)", name, nd));
    std::vector<double> v(n);
    check(nc_get_var_double(id, var, v.data()), name);
    for (std::size_t k = 0; k < n; ++k)
      if (!std::isfinite(v[k])) fail(fmt::format("coordinate '{}' value {} is {}", name, k, v[k]));
    return v;
  }
};

// Seconds per unit of a CF time ("minutes since 2026-06-01 00:00"): the
// run's t = 0 is the reference time.
double seconds_per(const std::string& units, const NcFile& f) {
  const auto since = units.find(" since ");
  const std::string u = units.substr(0, since);
  if (u == "s" || u == "sec" || u == "second" || u == "seconds") return 1;
  if (u == "min" || u == "minute" || u == "minutes") return 60;
  if (u == "h" || u == "hr" || u == "hour" || u == "hours") return 3600;
  if (u == "d" || u == "day" || u == "days") return 86400;
  f.fail(
      fmt::format("time units '{}': expected seconds, minutes, hours or days [since ...]", units));
}

// mm/h per unit of the rain variable.
double mm_h_per(const std::string& units, const std::string& var, const NcFile& f) {
  if (units == "mm/h" || units == "mm h-1" || units == "mm hr-1" || units == "mm/hr") return 1;
  if (units == "mm/s" || units == "mm s-1" || units == "kg m-2 s-1") return 3600;
  if (units == "m/s" || units == "m s-1") return 3.6e6;
  f.fail(
      fmt::format("variable '{}' has units '{}': expected mm/h (mm h-1), mm s-1 (kg m-2 s-1) "
                  "or m s-1",
                  var, units));
}

// The index of the coordinate nearest to v, if v lies within half a
// spacing of the coordinates' span (equally spaced, either direction).
long nearest(const std::vector<double>& c, double v) {
  if (c.size() == 1) return -1;
  const double step = (c.back() - c.front()) / double(c.size() - 1);
  const double k = std::round((v - c.front()) / step);
  return k >= 0 && k < double(c.size()) ? long(k) : -1;
}

void check_spacing(const std::vector<double>& c, const char* axis, const NcFile& f) {
  if (c.size() < 2) f.fail(fmt::format("{} has {} values (2 or more)", axis, c.size()));
  const double step = (c.back() - c.front()) / double(c.size() - 1);
  for (std::size_t k = 1; k < c.size(); ++k)
    if (!(std::fabs(c[k] - c[k - 1] - step) <= 1e-6 * std::fabs(step)))
      f.fail(fmt::format("{} is not equally spaced ({} then {}): resample it first", axis, c[k - 1],
                         c[k]));
}

}  // namespace

void read_rain_netcdf(const std::string& spec, PhysCase& c) {
  // FILE.nc or FILE.nc:VARIABLE
  std::string path = spec, want;
  if (const auto colon = spec.rfind(':');
      colon != std::string::npos && spec.substr(0, colon).ends_with(".nc"))
    path = spec.substr(0, colon), want = spec.substr(colon + 1);
  NcFile f;
  f.path = path;
  f.check(nc_open(path.c_str(), NC_NOWRITE, &f.id), "cannot open");
  int nvars = 0;
  f.check(nc_inq_nvars(f.id, &nvars), "variables");
  int var = -1;
  std::vector<std::string> candidates;
  for (int v = 0; v < nvars; ++v) {
    int nd = 0;
    f.check(nc_inq_varndims(f.id, v, &nd), "variable");
    if (nd == 3) candidates.push_back(f.var_name(v));
  }
  if (!want.empty()) {
    if (nc_inq_varid(f.id, want.c_str(), &var) != NC_NOERR)
      f.fail(fmt::format("no variable '{}' (variables over 3 dimensions: {})", want,
                         fmt::join(candidates, ", ")));
  } else if (candidates.size() == 1) {
    f.check(nc_inq_varid(f.id, candidates[0].c_str(), &var), candidates[0]);
  } else {
    f.fail(candidates.empty()
               ? std::string("no variable over (time, y, x)")
               : fmt::format("several variables over 3 dimensions ({}): name one, {}:VARIABLE",
                             fmt::join(candidates, ", "), path));
  }
  const std::string name = f.var_name(var);
  int nd = 0, dims[NC_MAX_VAR_DIMS];
  f.check(nc_inq_varndims(f.id, var, &nd), name);
  if (nd != 3)
    f.fail(fmt::format("variable '{}' has {} dimensions; (time, y, x) expected", name, nd));
  f.check(nc_inq_vardimid(f.id, var, dims), name);
  const std::vector<double> t = f.coordinate(dims[0]), ys = f.coordinate(dims[1]),
                            xs = f.coordinate(dims[2]);
  int tvar = -1;
  {
    char tname[NC_MAX_NAME + 1] = {0};
    f.check(nc_inq_dimname(f.id, dims[0], tname), "time");
    f.check(nc_inq_varid(f.id, tname, &tvar), tname);
  }
  const double per_second = seconds_per(f.text_attribute(tvar, "units"), f);
  const double scale = mm_h_per(f.text_attribute(var, "units"), name, f);
  check_spacing(xs, "x", f);
  check_spacing(ys, "y", f);
  double fill = NC_FILL_DOUBLE;
  bool has_fill = false;
  for (const char* att : {"_FillValue", "missing_value"})
    if (nc_get_att_double(f.id, var, att, &fill) == NC_NOERR) {
      has_fill = true;
      break;
    }
  // CF packing (ERA5, radar products): value = stored * scale_factor +
  // add_offset, the fill value compared with the stored one
  double packed_scale = 1, packed_offset = 0;
  for (auto [att, to] : {std::pair{"scale_factor", &packed_scale}, {"add_offset", &packed_offset}})
    if (const int rc = nc_get_att_double(f.id, var, att, to); rc != NC_ENOTATT) {
      f.check(rc, att);
      if (!std::isfinite(*to) || (to == &packed_scale && *to == 0))
        f.fail(fmt::format("variable '{}': {} {} (a finite, non-zero scale expected)", name, att,
                           *to));
    }
  Forcing& forcing = c.forcing;
  forcing.rain_grid = spec;
  const std::size_t nyf = ys.size(), nxf = xs.size();
  std::vector<double> raw(nyf * nxf);
  for (std::size_t k = 0; k < t.size(); ++k) {
    const double time = t[k] * per_second;
    if (!forcing.rain_times.empty() && !(time > forcing.rain_times.back()))
      f.fail(fmt::format("time {} s after {} s: times must increase", time,
                         forcing.rain_times.back()));
    const std::size_t start[3] = {k, 0, 0}, count[3] = {1, nyf, nxf};
    f.check(nc_get_vara_double(f.id, var, start, count, raw.data()), name);
    std::vector<double> frame = sample_rain_frame(c, [&](double x, double y) {
      const long col = nearest(xs, x), row = nearest(ys, y);
      if (col < 0 || row < 0)
        f.fail(
            fmt::format("variable '{}' does not cover the cell centre ({}, {}): x {}..{}, "
                        "y {}..{} (cell centres)",
                        name, x, y, xs.front(), xs.back(), ys.front(), ys.back()));
      const double stored = raw[std::size_t(row) * nxf + std::size_t(col)];
      if (has_fill && stored == fill) return 0.0;
      const double v = stored * packed_scale + packed_offset;
      if (!(v >= 0) || !std::isfinite(v))
        f.fail(fmt::format("variable '{}' is {} at time {} s, x {}, y {} (rain must be >= 0)", name,
                           v, time, xs[std::size_t(col)], ys[std::size_t(row)]));
      return v * scale;
    });
    add_rain_frame(c, time, std::move(frame));
  }
  if (forcing.rain_times.size() < 2)
    f.fail(
        fmt::format("{} time(s); a rain grid needs at least two (the last one's time ends "
                    "the one before)",
                    forcing.rain_times.size()));
}

#else

void read_rain_netcdf(const std::string& spec, PhysCase&) {
  throw UsageError(fmt::format(
      "--rain-grid {}: this tessera was built without NetCDF (Debian libnetcdf-dev): list the "
      "frames as rasters in a CSV instead",
      spec));
}

#endif

}  // namespace tessera::swe
