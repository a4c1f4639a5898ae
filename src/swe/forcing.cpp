#include "swe/forcing.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>

#include <fmt/format.h>

#include "core/error.hpp"
#include "io/file_bytes.hpp"
#include "swe/cases.hpp"
#include "swe/physical.hpp"

namespace tessera::swe {

namespace {

constexpr double mm_per_h = 1e-3 / 3600.0;  // m/s

std::vector<std::string> split(const std::string& s, char sep, std::size_t max_parts) {
  std::vector<std::string> out;
  std::size_t at = 0;
  while (out.size() + 1 < max_parts) {
    const std::size_t c = s.find(sep, at);
    if (c == std::string::npos) break;
    out.push_back(s.substr(at, c - at));
    at = c + 1;
  }
  out.push_back(s.substr(at));
  return out;
}

bool to_number(const std::string& s, double& v) {
  const char* b = s.data() + (!s.empty() && s[0] == '+');
  const auto [end, ec] = std::from_chars(b, s.data() + s.size(), v);
  return !s.empty() && ec == std::errc() && end == s.data() + s.size() && std::isfinite(v);
}

double number(const std::string& option, const std::string& spec, const std::string& what,
              const std::string& text) {
  double v = 0;
  if (!to_number(text, v))
    throw UsageError(
        fmt::format("{} {}: {} '{}' is not a finite number", option, spec, what, text));
  return v;
}

// The cells of c whose centres lie in [lo, hi] along an axis of n cells of
// size d from origin o: [first, last); empty when none.
// A range FROM..TO along a side must lie on it (from o to o + n d): a part
// beyond would be dropped, the whole inflow or boundary squeezed into the
// cells inside.
void require_on_side(const std::string& option, const std::string& spec, const char* side,
                     double lo, double hi, long n, double d, double o) {
  const double end = o + double(n) * d, slack = 1e-9 * d;
  if (lo < o - slack || hi > end + slack)
    throw UsageError(fmt::format(
        "{} {}: FROM {} .. TO {} reaches beyond side {}, which runs from {} to {}: the part "
        "outside would be dropped; give a range on the side",
        option, spec, lo, hi, side, o, end));
}

std::pair<long, long> cells_between(double lo, double hi, long n, double d, double o) {
  const long first = std::max(0L, long(std::ceil((lo - o) / d - 0.5)));
  const long last = std::min(n, long(std::floor((hi - o) / d - 0.5)) + 1);
  return {first, std::max(first, last)};
}

void refuse_nodata(const std::string& option, const Inflow& in, const PhysCase& c) {
  for (long i = in.i0; i < in.i1; ++i)
    for (long j = in.j0; j < in.j1; ++j)
      if (!(c.z[std::size_t(i * c.ny + j)] < c.z_nodata))
        throw UsageError(fmt::format(
            "{} {}: cell (i={}, j={}) is NODATA (high ground): water cannot enter there", option,
            in.spec, i, j));
}

io::TimeSeries discharge_series(const std::string& path) {
  return io::read_time_series(path, "discharge (m^3/s)", io::Between::linear, 0.0);
}

}  // namespace

Bc parse_boundary(const std::string& option, const std::string& s, double& value) {
  const auto colon = s.find(':');
  const std::string kind = s.substr(0, colon);
  if (kind == "wall" || kind == "transmissive" || kind == "periodic" || kind == "normal-depth") {
    if (colon != std::string::npos)
      throw UsageError(fmt::format("{} {}: '{}' takes no value", option, s, kind));
    return kind == "wall"           ? Bc::wall
           : kind == "periodic"     ? Bc::periodic
           : kind == "normal-depth" ? Bc::normal_depth
                                    : Bc::transmissive;
  }
  if ((kind == "level" || kind == "discharge") && colon != std::string::npos) {
    if (!to_number(s.substr(colon + 1), value))
      throw UsageError(
          fmt::format("{} {}: '{}' is not a finite number", option, s, s.substr(colon + 1)));
    // the ghost's critical depth (q^2/g)^(1/3) in float: q^2 overflows
    // near 1.8e19; no river carries 10^6 m^2/s per metre of width
    if (kind == "discharge" && !(std::fabs(value) <= 1e6))
      throw UsageError(fmt::format(
          "{} {}: a unit discharge of {} m^2/s (at most 10^6 in magnitude)", option, s, value));
    return kind == "level" ? Bc::level : Bc::discharge;
  }
  throw UsageError(fmt::format(
      "{} {}: expected wall, transmissive, normal-depth, periodic, level:ETA or discharge:Q",
      option, s));
}

BcSegment parse_segment(const std::string& spec, const PhysCase& c) {
  static const char* names[4] = {"x-lo", "x-hi", "y-lo", "y-hi"};
  const auto p = split(spec, ':', 4);
  double lo = 0, hi = 0;
  const int side = int(std::find(names, names + 4, p[0]) - names);
  if (p.size() != 4 || side == 4 || !to_number(p[1], lo) || !to_number(p[2], hi))
    throw UsageError(fmt::format(
        "--bc-segment {}: expected SIDE:FROM:TO:KIND (SIDE x-lo, x-hi, y-lo, y-hi; FROM, TO "
        "world coordinates along it; KIND wall, transmissive, normal-depth, level:ETA, "
        "discharge:Q or stage:FILE)",
        spec));
  if (!(lo < hi))
    throw UsageError(fmt::format("--bc-segment {}: FROM {} must be below TO {}", spec, p[1], p[2]));
  if (c.bc[side] == Bc::periodic)
    throw UsageError(fmt::format("--bc-segment {}: side {} is periodic", spec, names[side]));
  BcSegment g;
  g.spec = spec;
  g.side = side;
  const bool along_y = side < 2;
  require_on_side("--bc-segment", spec, names[side], lo, hi, along_y ? c.ny : c.nx,
                  along_y ? c.dy : c.dx, along_y ? c.y0 : c.x0);
  std::tie(g.lo, g.hi) =
      cells_between(lo, hi, along_y ? c.ny : c.nx, along_y ? c.dy : c.dx, along_y ? c.y0 : c.x0);
  if (g.lo >= g.hi)
    throw UsageError(
        fmt::format("--bc-segment {}: no cell centre of side {} lies between {} and {}", spec,
                    names[side], lo, hi));
  if (p[3].rfind("stage:", 0) == 0) {
    g.kind = Bc::level;
    g.stage = io::read_time_series(p[3].substr(6), "water level (m)", io::Between::linear,
                                   -std::numeric_limits<double>::infinity());
  } else {
    g.kind = parse_boundary("--bc-segment", p[3], g.value);
    if (g.kind == Bc::periodic)
      throw UsageError(fmt::format("--bc-segment {}: a segment cannot be periodic", spec));
  }
  return g;
}

Losses parse_losses(const std::string& spec) {
  Losses l;
  l.spec = spec;
  const auto colon = spec.find(':');
  const std::string kind = spec.substr(0, colon),
                    rest = colon == std::string::npos ? "" : spec.substr(colon + 1);
  if (kind == "none" && colon == std::string::npos) return l;
  if (kind == "constant" && colon != std::string::npos) {
    l.model = LossModel::constant;
    const double r = number("--losses", spec, "rate (mm/h)", rest);
    if (!(r > 0)) throw UsageError(fmt::format("--losses {}: the rate must be > 0 mm/h", spec));
    l.rate = r * mm_per_h;
    return l;
  }
  if (kind == "green-ampt" && colon != std::string::npos) {
    const auto p = split(rest, ',', 4);
    if (p.size() != 3)
      throw UsageError(fmt::format(
          "--losses {}: expected green-ampt:KS,PSI,DTHETA (conductivity mm/h, suction mm, "
          "moisture deficit)",
          spec));
    l.model = LossModel::green_ampt;
    const double ks = number("--losses", spec, "KS (mm/h)", p[0]),
                 psi = number("--losses", spec, "PSI (mm)", p[1]),
                 dth = number("--losses", spec, "DTHETA", p[2]);
    if (!(ks > 0)) throw UsageError(fmt::format("--losses {}: KS must be > 0 mm/h", spec));
    if (psi < 0) throw UsageError(fmt::format("--losses {}: PSI must be >= 0 mm", spec));
    if (!(dth >= 0 && dth <= 1))
      throw UsageError(fmt::format("--losses {}: DTHETA must lie in [0, 1]", spec));
    l.ks = ks * mm_per_h;
    l.psi = psi * 1e-3;
    l.dtheta = dth;
    return l;
  }
  throw UsageError(fmt::format(
      "--losses {}: expected none, constant:RATE (mm/h) or green-ampt:KS,PSI,DTHETA", spec));
}

namespace {

// The cells of side `names[side]` between [lo, hi] (whole side when !range).
Inflow side_cells(const std::string& option, const std::string& spec, int side, bool range,
                  double lo, double hi, const PhysCase& c) {
  static const char* names[4] = {"x-lo", "x-hi", "y-lo", "y-hi"};
  Inflow in;
  in.option = option;
  in.spec = spec;
  const bool along_y = side < 2;  // x sides run along y
  const long n = along_y ? c.ny : c.nx;
  const double d = along_y ? c.dy : c.dx, o = along_y ? c.y0 : c.x0;
  long first = 0, last = n;
  if (range) {
    if (!(lo < hi))
      throw UsageError(fmt::format("{} {}: FROM {} must be below TO {}", option, spec, lo, hi));
    require_on_side(option, spec, names[side], lo, hi, n, d, o);
    std::tie(first, last) = cells_between(lo, hi, n, d, o);
    if (first >= last)
      throw UsageError(fmt::format(
          "{} {}: no cell centre of side {} lies between {} and {} (the side's centres run "
          "from {} to {})",
          option, spec, names[side], lo, hi, o + 0.5 * d, o + (double(n) - 0.5) * d));
  }
  if (along_y) {
    in.i0 = side == 0 ? 0 : c.nx - 1;
    in.i1 = in.i0 + 1;
    in.j0 = first;
    in.j1 = last;
  } else {
    in.j0 = side == 2 ? 0 : c.ny - 1;
    in.j1 = in.j0 + 1;
    in.i0 = first;
    in.i1 = last;
  }
  refuse_nodata(option, in, c);
  return in;
}

int side_of(const std::string& name) {
  static const char* names[4] = {"x-lo", "x-hi", "y-lo", "y-hi"};
  return int(std::find(names, names + 4, name) - names);
}

}  // namespace

Inflow parse_inflow(const std::string& spec, const PhysCase& c) {
  auto p = split(spec, ':', 2);
  const int side = side_of(p[0]);
  if (p.size() < 2 || side == 4)
    throw UsageError(fmt::format(
        "--inflow {}: expected SIDE:FILE or SIDE:FROM:TO:FILE, SIDE one of x-lo, x-hi, y-lo, y-hi",
        spec));
  // SIDE:FROM:TO:FILE when the next two fields are numbers
  const auto q = split(p[1], ':', 3);
  double lo = 0, hi = 0;
  const bool range = q.size() == 3 && to_number(q[0], lo) && to_number(q[1], hi);
  Inflow in = side_cells("--inflow", spec, side, range, lo, hi, c);
  in.q = discharge_series(range ? q[2] : p[1]);
  return in;
}

Inflow inflow_cells(const std::string& side_spec, const PhysCase& c) {
  const auto p = split(side_spec, ':', 3);
  double lo = 0, hi = 0;
  const int side = side_of(p[0]);
  const bool range = p.size() == 3;
  if (side == 4 || p.size() == 2 || (range && (!to_number(p[1], lo) || !to_number(p[2], hi))))
    throw UsageError(
        fmt::format("inflow '{}': expected SIDE or SIDE:FROM:TO (SIDE one of x-lo, "
                    "x-hi, y-lo, y-hi)",
                    side_spec));
  return side_cells("inflow", side_spec, side, range, lo, hi, c);
}

Inflow point_cells(double x, double y, const PhysCase& c) {
  const double i = std::floor((x - c.x0) / c.dx), j = std::floor((y - c.y0) / c.dy);
  const std::string spec = fmt::format("{}:{}", x, y);
  if (!(i >= 0 && i < double(c.nx) && j >= 0 && j < double(c.ny)))
    throw UsageError(fmt::format("source ({}, {}) lies outside the grid [{}, {}] x [{}, {}]", x, y,
                                 c.x0, c.x0 + double(c.nx) * c.dx, c.y0,
                                 c.y0 + double(c.ny) * c.dy));
  Inflow in;
  in.option = "--source";
  in.spec = spec;
  in.i0 = long(i);
  in.i1 = in.i0 + 1;
  in.j0 = long(j);
  in.j1 = in.j0 + 1;
  refuse_nodata("--source", in, c);
  return in;
}

Inflow parse_point_source(const std::string& spec, const PhysCase& c) {
  const auto p = split(spec, ':', 3);
  double x = 0, y = 0;
  if (p.size() != 3 || !to_number(p[0], x) || !to_number(p[1], y))
    throw UsageError(
        fmt::format("--source {}: expected X:Y:FILE (world coordinates, a CSV of "
                    "time (s), discharge (m^3/s))",
                    spec));
  Inflow in;
  try {
    in = point_cells(x, y, c);
  } catch (const UsageError& e) {
    throw UsageError(fmt::format("--source {}: {}", spec, e.what()));
  }
  in.spec = spec;
  in.q = discharge_series(p[2]);
  return in;
}

void add_rain_frame(PhysCase& c, double time, std::vector<double> mm_h) {
  Forcing& f = c.forcing;
  double rate = 0, top = 0;
  for (std::size_t k = 0; k < mm_h.size(); ++k) {
    mm_h[k] = c.z[k] < c.z_nodata ? mm_h[k] * mm_per_h : 0.0;  // NODATA: no rain
    rate += mm_h[k] * c.dx * c.dy;
    top = std::max(top, mm_h[k]);
  }
  f.rain_times.push_back(time);
  f.rain_frames.push_back(std::move(mm_h));
  f.rain_frame_rate.push_back(rate);
  f.rain_frame_max.push_back(top);
}

std::vector<double> sample_rain_frame(const PhysCase& c,
                                      const std::function<double(double, double)>& at) {
  std::vector<double> frame(c.z.size(), 0.0);  // mm/h
  for (long i = 0; i < c.nx; ++i)
    for (long j = 0; j < c.ny; ++j) {
      const std::size_t k = std::size_t(i * c.ny + j);
      if (!(c.z[k] < c.z_nodata)) continue;  // NODATA: no rain
      frame[k] = at(c.x0 + (double(i) + 0.5) * c.dx, c.y0 + (double(j) + 0.5) * c.dy);
    }
  return frame;
}

void read_rain_grid(const std::string& path, PhysCase& c) {
  if (path.ends_with(".nc") || path.find(".nc:") != std::string::npos)
    return read_rain_netcdf(path, c);
  const std::string text = io::read_file_bytes(path);
  const std::filesystem::path dir = std::filesystem::path(path).parent_path();
  Forcing& f = c.forcing;
  f.rain_grid = path;
  long line = 0;
  bool first_row_seen = false;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    std::string row = text.substr(at, end - at);
    at = end + 1;
    ++line;
    while (!row.empty() && (row.back() == '\r' || row.back() == ' ')) row.pop_back();
    if (row.empty() || row[0] == '#') continue;
    const auto comma = row.find(',');
    double t = 0;
    const bool numeric = comma != std::string::npos && to_number(row.substr(0, comma), t);
    if (!numeric && !first_row_seen) {  // a header
      first_row_seen = true;
      continue;
    }
    first_row_seen = true;
    if (!numeric) throw Error(fmt::format("{}:{}: expected 'time (s), raster file'", path, line));
    std::string file = row.substr(comma + 1);
    while (!file.empty() && file.front() == ' ') file.erase(file.begin());
    if (!f.rain_times.empty() && !(t > f.rain_times.back()))
      throw Error(fmt::format("{}:{}: time {} after {}: times must increase", path, line, t,
                              f.rain_times.back()));
    const std::filesystem::path raster =
        std::filesystem::path(file).is_absolute() ? std::filesystem::path(file) : dir / file;
    AscGrid g;
    try {
      g = read_raster(raster.string());
    } catch (const Error& e) {
      throw Error(fmt::format("{}:{}: {}", path, line, e.what()));
    }
    std::vector<double> frame = sample_rain_frame(c, [&](double x, double y) {
      const double col = std::floor((x - g.xll) / g.dx), up = std::floor((y - g.yll) / g.dy);
      if (!(col >= 0 && col < double(g.ncols) && up >= 0 && up < double(g.nrows)))
        throw Error(fmt::format("{}:{}: {} does not cover the cell centre ({}, {})", path, line,
                                raster.string(), x, y));
      const double v = g.at(g.nrows - 1 - long(up), long(col));
      if (g.has_nodata && v == g.nodata) return 0.0;
      if (!(v >= 0))
        throw Error(fmt::format("{}:{}: {}: rain intensity {} mm/h at row {}, column {}", path,
                                line, raster.string(), v, g.nrows - long(up), long(col) + 1));
      return v;
    });
    add_rain_frame(c, t, std::move(frame));
  }
  if (f.rain_times.size() < 2)
    throw Error(
        fmt::format("{}: {} frame rows; a rain grid needs at least two (the last one's "
                    "time ends the one before)",
                    path, f.rain_times.size()));
}

long Forcing::rain_frame(double a, double b) const {
  if (rain_times.empty()) return -1;
  const double mid = 0.5 * (a + b);
  const auto it = std::upper_bound(rain_times.begin(), rain_times.end(), mid);
  const long k = long(it - rain_times.begin()) - 1;
  return std::min(std::max(k, 0L), long(rain_times.size()) - 1);
}

double Forcing::next_break(double t) const {
  double b = std::numeric_limits<double>::infinity();
  auto after = [&](const io::TimeSeries& s) {
    const auto it = std::upper_bound(s.t.begin(), s.t.end(), t);
    if (it != s.t.end()) b = std::min(b, *it);
  };
  if (rain) after(*rain);
  for (const Inflow& in : inflows) after(in.q);
  for (const BcSegment& g : segments)
    if (g.stage) after(*g.stage);
  if (sample_every > 0) b = std::min(b, (std::floor(t / sample_every) + 1) * sample_every);
  if (!rain_times.empty()) {
    const auto it = std::upper_bound(rain_times.begin(), rain_times.end(), t);
    if (it != rain_times.end()) b = std::min(b, *it);
  }
  return b;
}

std::vector<SourceLaunch> Forcing::launches(double a, double b, long nx, long ny, double dx,
                                            double dy) const {
  std::vector<SourceLaunch> out;
  const double mid = 0.5 * (a + b);  // robust to a or b rounded onto a row's edge
  for (const Inflow& in : inflows) {
    const io::TimeSeries& s = in.q;
    const std::size_t k = std::min(s.row_at(mid), s.t.size() - 2);
    const double area = double(in.cells()) * dx * dy;
    SourceLaunch l{in.i0, in.i1, in.j0, in.j1};
    l.ta = s.t[k];
    l.rate = s.v[k] / area;
    l.slope = (s.v[k + 1] - s.v[k]) / (s.t[k + 1] - s.t[k]) / area;
    out.push_back(l);
  }
  if (rain || losses.model != LossModel::none || !rain_times.empty()) {
    // last: losses see the water that came
    SourceLaunch l{0, nx, 0, ny};
    l.frame = rain_frame(a, b);
    if (rain) {
      const std::size_t k = rain->row_at(mid);
      l.ta = rain->t[k];
      l.rate = rain->v[k] * mm_per_h;
    }
    l.whole_grid = true;
    out.push_back(l);
  }
  return out;
}

double Forcing::max_dt(const std::vector<SourceLaunch>& launches, double a, double b, double g,
                       double cfl, double dx, double dy) const {
  double s = 0;
  for (const SourceLaunch& l : launches)
    s = std::max({s,
                  l.rate + l.slope * (a - l.ta) +
                      (l.frame >= 0 ? rain_frame_max[std::size_t(l.frame)] : 0.0),
                  l.rate + l.slope * (b - l.ta) +
                      (l.frame >= 0 ? rain_frame_max[std::size_t(l.frame)] : 0.0)});
  if (!(s > 0)) return 0;
  return std::cbrt(std::pow(cfl / ((1 / dx + 1 / dy) * std::sqrt(g * s)), 2.0));
}

double Forcing::rain_volume(double t) const {
  double v = rain ? rain->integral(0.0, t) * mm_per_h * rain_area : 0.0;
  for (std::size_t k = 0; k + 1 < rain_times.size(); ++k) {
    const double lo = std::max(0.0, rain_times[k]), hi = std::min(t, rain_times[k + 1]);
    if (hi > lo) v += rain_frame_rate[k] * (hi - lo);
  }
  return v;
}

double Forcing::inflow_volume(double t) const {
  double v = 0;
  for (const Inflow& in : inflows) v += in.q.integral(0.0, t);
  return v;
}

void Forcing::require_covers(double t_end) const {
  if (!rain_times.empty() && (rain_times.front() > 0 || rain_times.back() < t_end))
    throw UsageError(
        fmt::format("--rain-grid {}: its frames run from t = {} s to {} s; the run "
                    "needs [0, {}] s",
                    rain_grid, rain_times.front(), rain_times.back(), t_end));
  if (rain) io::require_covers(*rain, 0.0, t_end, "--rain");
  for (const Inflow& in : inflows) io::require_covers(in.q, 0.0, t_end, in.option);
}

}  // namespace tessera::swe
