// tessera.swe: the physical shallow-water model (HLL, bathymetry, Manning
// friction) on a built-in case or on user arrays. Python's arrays are in
// the one order of every module (docs/python.md): C order (ny, nx), x
// fastest; the solver's own arrays are x-major (index i*ny + j), so the
// binding transposes on the way in and out.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "common.hpp"
#include "swe/cases.hpp"
#include "io/time_series.hpp"
#include "swe/forcing.hpp"
#include "swe/physical.hpp"
#include "swe/series.hpp"

namespace tessera::py {

namespace {
/// (ny, nx) in C order -> the solver's x-major order, or back.
std::vector<double> transpose(const std::vector<double>& v, long rows, long cols) {
  std::vector<double> t(v.size());
  for (long r = 0; r < rows; ++r)
    for (long c = 0; c < cols; ++c)
      t[static_cast<std::size_t>(c * rows + r)] = v[static_cast<std::size_t>(r * cols + c)];
  return t;
}

std::vector<double> field(const nb::dict& d, const char* key, long nx, long ny, bool required) {
  if (!d.contains(key)) {
    if (required) throw UsageError(std::string("swe.run: the case dict needs '") + key + "'");
    return std::vector<double>(static_cast<std::size_t>(nx * ny), 0.0);
  }
  auto a = nb::cast<AnyArray>(d[key]);
  if (a.ndim() != 2 || static_cast<long>(a.shape(0)) != ny || static_cast<long>(a.shape(1)) != nx)
    throw UsageError(std::string("swe.run: '") + key + "' must have the shape (ny, nx) = (" +
                     std::to_string(ny) + ", " + std::to_string(nx) + ") of 'h'");
  return transpose(to_vector<double>(a, (std::string("swe.run: ") + key).c_str()), ny, nx);
}

swe::PhysCase case_from_dict(const nb::dict& d) {
  swe::PhysCase c;
  c.name = d.contains("name") ? nb::cast<std::string>(d["name"]) : "user";
  auto h = nb::cast<AnyArray>(d["h"]);
  if (h.ndim() != 2) throw UsageError("swe.run: 'h' must be a 2-D array of shape (ny, nx)");
  c.ny = static_cast<long>(h.shape(0));
  c.nx = static_cast<long>(h.shape(1));
  c.h = field(d, "h", c.nx, c.ny, true);
  c.z = field(d, "z", c.nx, c.ny, false);
  c.hu = field(d, "hu", c.nx, c.ny, false);
  c.hv = field(d, "hv", c.nx, c.ny, false);
  if (d.contains("dx")) c.dx = nb::cast<double>(d["dx"]);
  if (d.contains("dy")) c.dy = nb::cast<double>(d["dy"]);
  if (d.contains("manning")) {  // a number, or a map of the shape of 'h'
    if (nb::isinstance<nb::float_>(d["manning"]) || nb::isinstance<nb::int_>(d["manning"]))
      c.manning = nb::cast<double>(d["manning"]);
    else
      c.manning_map = field(d, "manning", c.nx, c.ny, true);
  }
  if (d.contains("x0")) c.x0 = nb::cast<double>(d["x0"]);
  if (d.contains("y0")) c.y0 = nb::cast<double>(d["y0"]);
  if (d.contains("z_nodata")) c.z_nodata = nb::cast<double>(d["z_nodata"]);
  if (d.contains("g")) c.g = nb::cast<double>(d["g"]);
  if (d.contains("t_end")) c.t_end = nb::cast<double>(d["t_end"]);
  if (d.contains("bc")) {
    auto bc = nb::cast<std::vector<std::string>>(d["bc"]);
    if (bc.size() != 4) throw UsageError("swe.run: 'bc' needs four sides: x_lo, x_hi, y_lo, y_hi");
    for (int s = 0; s < 4; ++s) c.bc[s] = swe::parse_boundary("swe.run: bc", bc[s], c.bc_value[s]);
  }
  return c;
}

// What the Python caller asks beyond the case: the series, the maximum maps,
// snapshots every `every` seconds (to `callback`, or kept).
struct Extras {
  double series_every = 0;
  std::vector<std::string> gauges;  // NAME:X:Y
  double every = 0;
  nb::object callback;
};

template <class T>
nb::dict fields_of(const swe::PhysSolver<T>& s, const swe::PhysCase& c) {
  const swe::HostFields f = s.state();
  const std::vector<std::size_t> shape{static_cast<std::size_t>(f.ny),
                                       static_cast<std::size_t>(f.nx)};
  nb::dict out;
  out["h"] = to_numpy(transpose(f.h, f.nx, f.ny), shape);
  out["hu"] = to_numpy(transpose(f.hu, f.nx, f.ny), shape);
  out["hv"] = to_numpy(transpose(f.hv, f.nx, f.ny), shape);
  out["z"] = to_numpy(transpose(c.z, f.nx, f.ny), shape);
  return out;
}

template <class T>
nb::tuple run(const std::shared_ptr<Device>& dev, swe::PhysCase c, const swe::PhysOptions& o,
              double t_end, const Extras& x) {
  c.forcing.sample_every = x.series_every;
  swe::SweSeries series(x.series_every, x.gauges, c);
  std::unique_ptr<swe::PhysSolver<T>> sp;
  swe::Health health;
  double mass0 = 0;
  nb::list snapshots;
  auto on_check = [&](const swe::Health& h) {
    if (!h.bad && series.template due<T>(h.time)) series.sample(h.time, *sp);
  };
  {
    nb::gil_scoped_release release;
    sp = std::make_unique<swe::PhysSolver<T>>(dev, c, o);
    mass0 = sp->mass();
    if (series.active()) series.sample(0.0, *sp);
  }
  swe::PhysSolver<T>& s = *sp;
  const double stop = double(T(t_end));
  for (long k = 1;; ++k) {
    const double target = x.every > 0 ? std::min(t_end, double(k) * x.every) : t_end;
    {
      nb::gil_scoped_release release;
      health = s.advance_to(target, on_check);
    }
    if (health.bad || !(health.time < stop)) break;
    nb::dict f = fields_of(s, c);  // a snapshot between two advances
    if (x.callback.is_valid() && !x.callback.is_none())
      x.callback(health.time, f);
    else
      snapshots.append(nb::make_tuple(health.time, f));
  }
  if (!health.bad && series.active() && health.time > series.last_time())
    series.sample(health.time, s);
  const double mass1 = s.mass();
  nb::dict summary;
  summary["case"] = c.name;
  summary["nx"] = c.nx;
  summary["ny"] = c.ny;
  summary["dx"] = c.dx;
  summary["dy"] = c.dy;
  summary["steps"] = health.steps;
  summary["time"] = health.time;
  summary["dt"] = health.dt;
  summary["bad"] = health.bad;
  if (health.bad) {
    summary["bad_step"] = health.bad_step;
    summary["bad_cell"] = nb::make_tuple(health.bad_j, health.bad_i);  // the arrays' (y, x)
  }
  summary["mass_start"] = mass0;
  summary["mass_end"] = mass1;
  summary["device"] = dev->id();
  // the mass balance as the CLI's summary has it, as a dict
  const nlohmann::json b = swe::mass_balance(c, s, health.time, mass0, mass1);
  nb::dict mb;
  for (auto it = b.begin(); it != b.end(); ++it)
    if (it->is_number()) mb[it.key().c_str()] = it->get<double>();
  nb::dict sides;
  const nlohmann::json& in = b["boundary_inflow_m3"];
  for (auto it = in.begin(); it != in.end(); ++it) sides[it.key().c_str()] = it->get<double>();
  mb["boundary_inflow_m3"] = sides;
  summary["mass_balance"] = mb;
  if (series.active()) {  // the columns as NumPy arrays
    const nlohmann::json j = series.json();
    nb::dict cols;
    for (const auto& name : j["columns"]) {
      const std::string n = name.get<std::string>();
      cols[n.c_str()] = to_numpy(j[n].get<std::vector<double>>());
    }
    summary["series"] = cols;
  }
  if (x.every > 0 && (!x.callback.is_valid() || x.callback.is_none()))
    summary["snapshots"] = snapshots;
  nb::dict fields = fields_of(s, c);
  if (o.track_max) {
    const swe::MaxMaps m = s.max_maps();
    const std::vector<std::size_t> shape{static_cast<std::size_t>(c.ny),
                                         static_cast<std::size_t>(c.nx)};
    fields["max_depth"] = to_numpy(transpose(m.depth, c.nx, c.ny), shape);
    fields["max_speed"] = to_numpy(transpose(m.speed, c.nx, c.ny), shape);
    fields["time_of_max_depth"] = to_numpy(transpose(m.time_of_max, c.nx, c.ny), shape);
    fields["arrival_time"] = to_numpy(transpose(m.arrival, c.nx, c.ny), shape);
  }
  return nb::make_tuple(fields, summary);
}

// A (time, value) series from a path (CSV) or two sequences.
io::TimeSeries series_arg(nb::handle v, const std::string& what, const std::string& value_name,
                          io::Between between) {
  if (nb::isinstance<nb::str>(v))
    return io::read_time_series(nb::cast<std::string>(v), value_name, between, 0.0);
  auto pair = nb::cast<std::pair<std::vector<double>, std::vector<double>>>(v);
  return io::time_series_from(pair.first, pair.second, what, value_name, between, 0.0);
}
}  // namespace

void bind_swe(nb::module_& m) {
  m.def(
      "cases", [] { return swe::case_names(); }, "Names of the built-in cases.");
  m.def(
      "_run",
      [](nb::handle dev, nb::object case_, long nx, long ny, double t_end, std::string order,
         double cfl, double manning, std::string precision, long check_every, nb::object rain,
         std::string losses, nb::list inflows, nb::list sources, std::vector<std::string> segments,
         double series_every, std::vector<std::string> gauges, bool max_maps, double arrival_depth,
         double every, nb::object callback, nb::object rain_grid,
         std::vector<std::string> sections) {
        swe::PhysCase c;
        if (nb::isinstance<nb::str>(case_))
          c = swe::make_case(nb::cast<std::string>(case_), nx, ny);
        else if (nb::isinstance<nb::dict>(case_))
          c = case_from_dict(nb::cast<nb::dict>(case_));
        else
          throw UsageError("swe.run: case must be a built-in name or a dict of arrays");
        if (manning >= 0) c.manning = manning;
        if (t_end >= 0) c.t_end = t_end;
        swe::PhysOptions o;
        if (order == "first")
          o.order = swe::Order::first;
        else if (order == "second")
          o.order = swe::Order::second;
        else
          throw UsageError("swe.run: order must be 'first' or 'second' (got '" + order + "')");
        o.cfl = cfl;
        o.check_every = check_every;
        o.track_max = max_maps;
        o.arrival_depth = arrival_depth;
        if (!(arrival_depth > 0)) throw UsageError("swe.run: arrival_depth must be > 0 m");
        for (const double v : {every, series_every})
          if (!(v >= 0) || !std::isfinite(v))
            throw UsageError(fmt::format(
                "swe.run: every and series_every must be finite and >= 0 s (got {})", v));
        if (every > 0 && c.t_end / every > 1e7)
          throw UsageError(
              fmt::format("swe.run: every={} s over t_end={} s asks for more than 10^7 snapshots",
                          every, c.t_end));
        // the sources, as the command line builds them (swe/forcing.hpp)
        swe::Forcing& f = c.forcing;
        f.losses = swe::parse_losses(losses);
        if (!rain.is_none())
          f.rain = series_arg(rain, "swe.run: rain", "rain intensity (mm/h)", io::Between::step);
        if (!rain_grid.is_none()) {  // a CSV path, or (time, (ny, nx) mm/h) pairs
          if (f.rain) throw UsageError("swe.run: give rain or rain_grid, not both");
          if (nb::isinstance<nb::str>(rain_grid)) {
            swe::read_rain_grid(nb::cast<std::string>(rain_grid), c);
          } else {
            f.rain_grid = "swe.run: rain_grid";
            for (nb::handle fr : rain_grid) {
              auto t = nb::cast<nb::tuple>(fr);
              if (t.size() != 2)
                throw UsageError("swe.run: a rain_grid frame is (time, (ny, nx) array of mm/h)");
              const double time = nb::cast<double>(t[0]);
              if (!f.rain_times.empty() && !(time > f.rain_times.back()))
                throw UsageError("swe.run: rain_grid times must increase");
              nb::dict one;
              one["rain_grid frame"] = t[1];
              std::vector<double> v = field(one, "rain_grid frame", c.nx, c.ny, true);
              for (double x : v)
                if (!(x >= 0) || !std::isfinite(x))
                  throw UsageError("swe.run: rain_grid intensities must be finite and >= 0");
              swe::add_rain_frame(c, time, std::move(v));
            }
            if (f.rain_times.size() < 2)
              throw UsageError(
                  "swe.run: rain_grid needs at least two frames (the last one's time "
                  "ends the one before)");
          }
        }
        for (nb::handle in : inflows) {
          auto t = nb::cast<nb::tuple>(in);
          if (t.size() != 2)
            throw UsageError("swe.run: an inflow is (side, series): ('x-lo:200:400', (t, q))");
          swe::Inflow i = swe::inflow_cells(nb::cast<std::string>(t[0]), c);
          i.q = series_arg(t[1], "swe.run: inflow " + i.spec, "discharge (m^3/s)",
                           io::Between::linear);
          f.inflows.push_back(std::move(i));
        }
        for (nb::handle in : sources) {
          auto t = nb::cast<nb::tuple>(in);
          if (t.size() != 3)
            throw UsageError("swe.run: a source is (x, y, series): (350.0, 420.0, (t, q))");
          swe::Inflow i = swe::point_cells(nb::cast<double>(t[0]), nb::cast<double>(t[1]), c);
          i.q = series_arg(t[2], "swe.run: source " + i.spec, "discharge (m^3/s)",
                           io::Between::linear);
          f.inflows.push_back(std::move(i));
        }
        for (const std::string& sg : segments) {
          swe::BcSegment g = swe::parse_segment(sg, c);
          for (const swe::BcSegment& other : f.segments)
            if (other.side == g.side)
              throw UsageError("swe.run: bc_segments: two segments on one side");
          f.segments.push_back(std::move(g));
        }
        f.require_covers(c.t_end);
        swe::add_sections(c, sections);
        long rained = 0;
        for (double z : c.z) rained += z < c.z_nodata;
        f.rain_area = double(rained) * c.dx * c.dy;
        swe::validate(c, o);
        Extras x{series_every, gauges, every, callback};
        auto d = device_from(dev);
        if (precision == "double") return run<double>(d, c, o, c.t_end, x);
        if (precision == "float") return run<float>(d, c, o, c.t_end, x);
        throw UsageError("swe.run: precision must be 'float' or 'double' (got '" + precision +
                         "')");
      },
      nb::arg("device").none(), nb::arg("case"), nb::arg("nx"), nb::arg("ny"), nb::arg("t_end"),
      nb::arg("order"), nb::arg("cfl"), nb::arg("manning"), nb::arg("precision"),
      nb::arg("check_every"), nb::arg("rain").none(), nb::arg("losses"), nb::arg("inflows"),
      nb::arg("sources"), nb::arg("segments"), nb::arg("series_every"), nb::arg("gauges"),
      nb::arg("max_maps"), nb::arg("arrival_depth"), nb::arg("every"), nb::arg("callback").none(),
      nb::arg("rain_grid").none(), nb::arg("sections"));
}

}  // namespace tessera::py
