// tessera.swe: the physical shallow-water model (HLL, bathymetry, Manning
// friction) on a built-in case or on user arrays. Python's arrays are in
// the one order of every module (docs/python.md): C order (ny, nx), x
// fastest; the solver's own arrays are x-major (index i*ny + j), so the
// binding transposes on the way in and out.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "common.hpp"
#include "swe/cases.hpp"
#include "swe/physical.hpp"

namespace tessera::py {

namespace {
swe::Bc parse_bc(const std::string& s, double& value) {
  auto starts = [&](const char* p) { return s.rfind(p, 0) == 0; };
  if (s == "wall") return swe::Bc::wall;
  if (s == "transmissive") return swe::Bc::transmissive;
  if (s == "periodic") return swe::Bc::periodic;
  if (starts("level:")) {
    value = std::stod(s.substr(6));
    return swe::Bc::level;
  }
  if (starts("discharge:")) {
    value = std::stod(s.substr(10));
    return swe::Bc::discharge;
  }
  throw UsageError("swe: boundary '" + s +
                   "': expected wall, transmissive, periodic, level:V or discharge:Q");
}

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
  if (d.contains("manning")) c.manning = nb::cast<double>(d["manning"]);
  if (d.contains("g")) c.g = nb::cast<double>(d["g"]);
  if (d.contains("t_end")) c.t_end = nb::cast<double>(d["t_end"]);
  if (d.contains("bc")) {
    auto bc = nb::cast<std::vector<std::string>>(d["bc"]);
    if (bc.size() != 4) throw UsageError("swe.run: 'bc' needs four sides: x_lo, x_hi, y_lo, y_hi");
    for (int s = 0; s < 4; ++s) c.bc[s] = parse_bc(bc[s], c.bc_value[s]);
  }
  return c;
}

template <class T>
nb::tuple run(const std::shared_ptr<Device>& dev, const swe::PhysCase& c, const swe::PhysOptions& o,
              double t_end) {
  swe::HostFields f;
  swe::Health health;
  double mass0 = 0, mass1 = 0;
  {
    nb::gil_scoped_release release;
    swe::PhysSolver<T> s(dev, c, o);
    mass0 = s.mass();
    health = s.advance_to(t_end);
    mass1 = s.mass();
    f = s.state();
  }
  const std::vector<std::size_t> shape{static_cast<std::size_t>(f.ny),
                                       static_cast<std::size_t>(f.nx)};
  nb::dict fields;
  fields["h"] = to_numpy(transpose(f.h, f.nx, f.ny), shape);
  fields["hu"] = to_numpy(transpose(f.hu, f.nx, f.ny), shape);
  fields["hv"] = to_numpy(transpose(f.hv, f.nx, f.ny), shape);
  fields["z"] = to_numpy(transpose(c.z, f.nx, f.ny), shape);
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
  return nb::make_tuple(fields, summary);
}
}  // namespace

void bind_swe(nb::module_& m) {
  m.def(
      "cases", [] { return swe::case_names(); }, "Names of the built-in cases.");
  m.def(
      "_run",
      [](nb::handle dev, nb::object case_, long nx, long ny, double t_end, std::string order,
         double cfl, double manning, std::string precision, long check_every) {
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
        swe::validate(c, o);
        auto d = device_from(dev);
        if (precision == "double") return run<double>(d, c, o, c.t_end);
        if (precision == "float") return run<float>(d, c, o, c.t_end);
        throw UsageError("swe.run: precision must be 'float' or 'double' (got '" + precision +
                         "')");
      },
      nb::arg("device").none(), nb::arg("case"), nb::arg("nx"), nb::arg("ny"), nb::arg("t_end"),
      nb::arg("order"), nb::arg("cfl"), nb::arg("manning"), nb::arg("precision"),
      nb::arg("check_every"));
}

}  // namespace tessera::py
