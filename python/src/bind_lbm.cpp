// tessera.lbm: the lattice Boltzmann cases of `tessera lbm` on one device;
// density and velocity come back as NumPy arrays of shape (nz, ny, nx).
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <nanobind/stl/tuple.h>

#include "common.hpp"
#include "io/case_file.hpp"
#include "lbm/case_file.hpp"
#include "lbm/cases.hpp"
#include "lbm/driver.hpp"

namespace tessera::py {

namespace {
struct LbmArgs {
  std::string name, lattice, collision, precision;
  std::vector<long> size;
  double re, u, tau, diameter;
  long steps;
};

lbm::Grid grid_of(const std::vector<long>& s, lbm::Grid def) {
  if (s.empty()) return def;
  if (s.size() > 3) throw UsageError("lbm.run: size has at most three entries (nx, ny, nz)");
  return {s[0], s.size() > 1 ? s[1] : def.ny, s.size() > 2 ? s[2] : def.nz};
}

lbm::Case make_case(const LbmArgs& a) {
  const lbm::Lattice l = lbm::parse_lattice(a.lattice);
  const bool two_d = l == lbm::Lattice::d2q9;
  if (a.u <= 0 || a.u > 0.3)
    throw UsageError("lbm.run: u must be in (0, 0.3] (lattice units, low Mach)");
  if (a.name == "cavity") {
    if (a.size.size() > 1 && a.size[0] != a.size[1])  // as the CLI: used or refused
      throw UsageError("lbm.run: the cavity is square: give size=(n,) or (n, n, nz)");
    const long n = a.size.empty() ? 65 : a.size[0], nz = a.size.size() > 2 ? a.size[2] : 1;
    return lbm::cavity(l, n, a.re, a.u, nz);
  }
  if (a.name == "poiseuille") {
    const lbm::Grid g = grid_of(a.size, {1, 34, 1});
    return lbm::poiseuille(l, g.ny - 2, a.tau > 0 ? a.tau : 0.8, a.u, g.nx, g.nz);
  }
  if (a.name == "tgv") {
    const lbm::Grid g = grid_of(a.size, {64, 64, two_d ? 1 : 64});
    return lbm::taylor_green(l, g.nx, a.tau > 0 ? a.tau : 0.6, a.u, g.nz);
  }
  if (a.name == "cylinder") {
    const lbm::Grid g = grid_of(a.size, {400, 100, two_d ? 1 : 4});
    return lbm::cylinder(l, g, a.diameter > 0 ? a.diameter : double(g.ny) / 5.0, a.re, a.u);
  }
  throw UsageError("lbm.run: case must be cavity, poiseuille, tgv or cylinder (got '" + a.name +
                   "')");
}
// Runs a case on one device; the fields as (nz, ny, nx) arrays and the summary.
nb::tuple run_case(nb::handle dev, const lbm::Case& c, lbm::RunOptions o,
                   const nlohmann::json& extra) {
  auto d = device_from(dev);
  nlohmann::json report = extra;
  lbm::RunSummary r;
  lbm::Fields f;
  {
    nb::gil_scoped_release release;
    lbm::Solver s(d, c.config);
    c.apply(s);
    o.png = "";
    r = lbm::run(s, c, o, report);
    f = s.fields();
  }
  const std::vector<std::size_t> shape{static_cast<std::size_t>(f.grid.nz),
                                       static_cast<std::size_t>(f.grid.ny),
                                       static_cast<std::size_t>(f.grid.nx)};
  nb::dict fields;
  fields["rho"] = to_numpy(std::move(f.rho), shape);
  fields["ux"] = to_numpy(std::move(f.ux), shape);
  fields["uy"] = to_numpy(std::move(f.uy), shape);
  fields["uz"] = to_numpy(std::move(f.uz), shape);
  nb::object summary = json_to_python(report.dump());
  nb::dict s = nb::isinstance<nb::dict>(summary) ? nb::cast<nb::dict>(summary) : nb::dict();
  s["steps"] = r.steps;
  s["seconds"] = r.seconds;
  s["mlups"] = r.mlups;
  s["mass_start"] = r.mass_start;
  s["mass_end"] = r.mass_end;
  s["tau"] = c.config.tau;
  s["device"] = d->id();
  return nb::make_tuple(fields, s);
}

}  // namespace

void bind_lbm(nb::module_& m) {
  m.def(
      "_run",
      [](nb::handle dev, std::string name, std::vector<long> size, std::string lattice,
         std::string collision, std::string precision, double re, double u, double tau,
         double diameter, long steps) {
        const LbmArgs a{name, lattice, collision, precision, size, re, u, tau, diameter, steps};
        if (steps < 0) throw UsageError("lbm.run: steps must be >= 0");
        lbm::Case c = make_case(a);
        c.config.collision = lbm::parse_collision(collision);
        c.config.precision = lbm::parse_precision(precision);
        c.config.validate();
        lbm::RunOptions o;
        o.steps = steps;
        return run_case(dev, c, o, nlohmann::json::object());
      },
      nb::arg("device").none(), nb::arg("case"), nb::arg("size"), nb::arg("lattice"),
      nb::arg("collision"), nb::arg("precision"), nb::arg("re"), nb::arg("u"), nb::arg("tau"),
      nb::arg("diameter"), nb::arg("steps"));
  // A case described as a case file's tables (lbm.simulate builds the
  // entries from a dict): the same reader, checks and messages as
  // `tessera lbm --config`, with "<dict>" where a file name would be.
  m.def(
      "_simulate",
      [](nb::handle dev,
         const std::vector<std::tuple<std::string, int, std::string, std::string,
                                      std::vector<std::string>, bool>>& rows,
         std::string lattice, std::string collision, std::string precision, double trt_magic,
         long steps, long every) {
        std::vector<io::CaseFileEntry> entries;
        for (const auto& [table, index, key, value, items, is_array] : rows) {
          io::CaseFileEntry e;
          e.table = table;
          e.index = index;
          e.key = key;
          e.value = value;
          e.items = items;
          e.is_array = is_array;
          entries.push_back(std::move(e));
        }
        const lbm::CaseFromFile f =
            lbm::case_from_file("<dict>", entries, lbm::parse_lattice(lattice));
        lbm::Case c = f.c;
        c.config.collision = lbm::parse_collision(collision);
        c.config.precision = lbm::parse_precision(precision);
        if (trt_magic != 0) lbm::set_trt_magic(c.config, trt_magic, "lbm.simulate: trt_magic");
        c.config.validate();
        lbm::RunOptions o;
        o.steps = steps >= 0 ? steps : f.steps;
        if (o.steps < 0) throw UsageError("lbm.simulate: give steps= or a 'run' table with 'time'");
        o.every = every >= 0 ? every : std::max(0L, f.every);
        if (f.units.physical) o.seconds_per_step = f.units.dt;
        const nlohmann::json units = {{"physical", f.units.physical},
                                      {"dx_m", f.units.dx},
                                      {"dt_s", f.units.dt},
                                      {"speed_lattice", f.units.speed},
                                      {"reference_length_cells", f.units.length},
                                      {"trt_magic", c.config.trt_magic},
                                      {"describe", f.units.describe(c.config.tau)}};
        return run_case(dev, c, o, {{"units", units}});
      },
      nb::arg("device").none(), nb::arg("rows"), nb::arg("lattice"), nb::arg("collision"),
      nb::arg("precision"), nb::arg("trt_magic"), nb::arg("steps"), nb::arg("every"));
}

}  // namespace tessera::py
