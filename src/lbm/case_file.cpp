#include "lbm/case_file.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <span>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/error.hpp"
#include "core/host_memory.hpp"
#include "core/registry.hpp"
#include "io/npy.hpp"
#include "io/stl.hpp"
#include "io/vti_read.hpp"
#include "lbm/geometry/crossings.hpp"
#include "lbm/geometry/placement.hpp"
#include "lbm/geometry/voxelize.hpp"
#include "lbm/kernels/lbm_flags.h"

namespace tessera::lbm {
namespace {

using geometry::Axis;

constexpr double kPi = 3.14159265358979323846;

// The keys of each table; anything else is refused with file:line.
const std::map<std::string, std::set<std::string>>& known_keys() {
  static const std::map<std::string, std::set<std::string>> k = {
      {"domain", {"cells"}},
      {"units", {"cell-size", "density", "lattice-velocity"}},
      {"flow", {"velocity", "viscosity", "reynolds", "length"}},
      {"boundary",
       {"x-min", "x-max", "y-min", "y-max", "z-min", "z-max", "inlet-velocity", "inlet-profile",
        "wall-velocity", "outlet-density"}},
      {"body",
       {"name", "shape", "centre", "diameter", "axis", "size", "force", "file", "array", "scale",
        "length", "length-axis", "rotate", "bounce-back"}},
      {"probe", {"name", "at"}},
      {"run", {"time", "output-interval"}},
  };
  return k;
}

// One table's entries, read once each by name; unread keys are errors.
class Table {
 public:
  Table(const std::string& path, std::string name, int index)
      : path_(path), name_(std::move(name)), index_(index) {}
  void add(const io::CaseFileEntry& e) { entries_[e.key] = &e; }
  bool has(const std::string& key) const { return entries_.count(key) != 0; }
  long line() const { return entries_.empty() ? 0 : entries_.begin()->second->line; }
  std::string label() const {
    return index_ < 0 ? fmt::format("[{}]", name_) : fmt::format("[[{}]] #{}", name_, index_ + 1);
  }

  std::optional<double> number(const std::string& key) const {
    const auto* e = find(key);
    if (!e) return std::nullopt;
    return to_number(*e, e->value);
  }
  double number_or(const std::string& key, double fallback) const {
    return number(key).value_or(fallback);
  }
  double required_number(const std::string& key) const {
    if (auto v = number(key)) return *v;
    throw missing(key);
  }
  std::optional<std::string> text(const std::string& key) const {
    const auto* e = find(key);
    if (!e) return std::nullopt;
    if (e->is_array) fail(*e, "expected a string, found an array");
    return e->value;
  }
  std::optional<bool> flag(const std::string& key) const {
    const auto* e = find(key);
    if (!e) return std::nullopt;
    if (e->is_array || (e->value != "true" && e->value != "false"))
      fail(*e, fmt::format("expected true or false, found '{}'", e->value));
    return e->value == "true";
  }
  /// An array of `n` numbers (n = 0: any length from 1 to 3).
  std::optional<std::vector<double>> numbers(const std::string& key, std::size_t n) const {
    const auto* e = find(key);
    if (!e) return std::nullopt;
    if (!e->is_array) fail(*e, fmt::format("expected an array of {} numbers", n ? n : 3));
    if ((n && e->items.size() != n) || (!n && (e->items.empty() || e->items.size() > 3)))
      fail(*e, fmt::format("expected {} numbers, found {}", n ? fmt::format("{}", n) : "1 to 3",
                           e->items.size()));
    std::vector<double> v;
    for (const auto& item : e->items) v.push_back(to_number(*e, item));
    return v;
  }
  [[noreturn]] void fail(const io::CaseFileEntry& e, const std::string& what) const {
    throw UsageError(fmt::format("{}:{}: {} {}: {}", path_, e.line, label(), e.key, what));
  }
  UsageError missing(const std::string& key) const {
    return UsageError(fmt::format("{}:{}: {} needs the key '{}'", path_, line(), label(), key));
  }
  const io::CaseFileEntry* find(const std::string& key) const {
    const auto it = entries_.find(key);
    return it == entries_.end() ? nullptr : it->second;
  }

 private:
  double to_number(const io::CaseFileEntry& e, const std::string& v) const {
    if (e.is_array && &v == &e.value) fail(e, "expected a number, found an array");
    double x = 0;
    std::size_t used = 0;
    try {
      x = std::stod(v, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != v.size() || v.empty()) fail(e, fmt::format("expected a number, found '{}'", v));
    if (!std::isfinite(x)) fail(e, fmt::format("'{}' is not a finite number", v));
    return x;
  }

  const std::string& path_;
  std::string name_;
  int index_;
  std::map<std::string, const io::CaseFileEntry*> entries_;
};

// Face types, in the order of precedence where faces meet (edges, corners).
enum class Face { periodic, outlet, inlet, slip, moving, wall };

Face parse_face(const Table& t, const std::string& key) {
  const auto v = t.text(key);
  if (!v) return Face::periodic;
  static const std::map<std::string, Face> names = {
      {"periodic", Face::periodic}, {"wall", Face::wall},   {"moving-wall", Face::moving},
      {"free-slip", Face::slip},    {"inlet", Face::inlet}, {"outlet", Face::outlet}};
  const auto it = names.find(*v);
  if (it == names.end())
    t.fail(*t.find(key),
           fmt::format("'{}' is not a face type (periodic, wall, free-slip, moving-wall, inlet, "
                       "outlet)",
                       *v));
  return it->second;
}

// The parabolic inlet: the peak at the centre of each axis across the inlet
// whose faces are both no-slip walls (their surfaces half a cell inside the
// wall layers), uniform along the others. One inlet face; refused (`fail`)
// when no axis across it is walled.
InletProfile parabolic_inlet(const std::array<Face, 6>& faces, const Grid& g,
                             const std::function<void(const std::string&)>& fail) {
  int axis = -1;
  InletProfile p;
  for (int f = 0; f < 6; ++f)
    if (faces[std::size_t(f)] == Face::inlet) {
      if (axis >= 0) fail("a parabolic profile takes one inlet face");
      axis = f / 2;
    }
  const long ext[3] = {g.nx, g.ny, g.nz};
  for (int a = 0; a < 3; ++a) {
    if (a == axis || faces[std::size_t(2 * a)] != Face::wall ||
        faces[std::size_t(2 * a + 1)] != Face::wall)
      continue;
    if (ext[a] < 3) fail(fmt::format("the channel across {} has no fluid cell", "xyz"[a]));
    p.axes |= 1 << a;
    p.lo[a] = 0.5;
    p.hi[a] = double(ext[a]) - 1.5;
  }
  if (p.axes == 0)
    fail("a parabolic profile needs an axis across the inlet with walls on both faces");
  return p;
}

// The inward normal that gives the inlet cells their density from the
// populations that left the fluid (ts_lbm_inlet_density: the inflow is then
// the one given; with the density of all incoming populations, some of which
// wrap around from the outlet, a 2D channel's inflow was 7% short): one
// inlet face, whose inflow is parabolic or meets no no-slip wall. Where a
// uniform inflow meets a no-slip wall (the built-in cylinder's channel) the
// velocity jumps at the inlet's corners, and with the fluid's density TRT's
// velocity there oscillated by the inflow's own size (D2Q9, Re 100): such
// inlets keep the density of all incoming populations (0).
int inlet_normal(const std::array<Face, 6>& faces, bool parabolic) {
  if (std::count(faces.begin(), faces.end(), Face::inlet) != 1) return 0;
  const int f = int(std::find(faces.begin(), faces.end(), Face::inlet) - faces.begin());
  const int axis = f / 2;
  for (int a = 0; a < 3 && !parabolic; ++a)
    if (a != axis && (faces[std::size_t(2 * a)] >= Face::moving ||
                      faces[std::size_t(2 * a + 1)] >= Face::moving))
      return 0;
  return f % 2 ? -(axis + 1) : axis + 1;
}

std::uint8_t flag_of(Face f, int axis) {
  switch (f) {
    case Face::slip:
      return std::uint8_t(TS_LBM_SLIP_X + axis);
    case Face::wall:
      return TS_LBM_WALL;
    case Face::moving:
      return TS_LBM_MOVING;
    case Face::inlet:
      return TS_LBM_INLET;
    case Face::outlet:
      return TS_LBM_OUTLET;
    case Face::periodic:
      break;
  }
  return TS_LBM_FLUID;
}

// A file named in the case file: relative to the case file's folder.
std::filesystem::path beside(const std::string& case_path, const std::string& file) {
  const std::filesystem::path f(file);
  return f.is_absolute() ? f : std::filesystem::path(case_path).parent_path() / f;
}

Axis axis_of(const Table& t, const char* key) {
  const std::string a = t.text(key).value_or("x");
  if (a != "x" && a != "y" && a != "z")
    t.fail(*t.find(key), fmt::format("'{}' is not x, y or z", a));
  return Axis(a[0] - 'x');
}

// An STL surface placed in the lattice (rotate about x, y, z in that order;
// then `scale` or `length` along `length-axis`; its bounding box centred at
// `centre`), voxelized on `device`: 1 where a cell centre is inside.
std::vector<std::uint8_t> stl_cells(const Table& t, const std::string& path, const Grid& g,
                                    Lattice lattice, const std::function<double(double)>& position,
                                    double to_cells, const std::shared_ptr<Device>& device,
                                    geometry::Triangles& placed, geometry::VoxelReport& report) {
  if (lattice == Lattice::d2q9) t.fail(*t.find("shape"), "an STL body needs a 3D lattice");
  const auto file = t.text("file");
  if (!file) throw t.missing("file");
  const io::Mesh mesh = io::read_stl(beside(path, *file));
  geometry::Placement p;
  if (const auto r = t.numbers("rotate", 3))
    for (int a = 0; a < 3; ++a)
      if ((*r)[std::size_t(a)] != 0) p.rotate.push_back({Axis(a), (*r)[std::size_t(a)]});
  if (t.has("scale") && t.has("length"))
    t.fail(*t.find("length"), "give 'scale' or 'length', not both");
  if (t.has("length")) {
    const double l = t.required_number("length");
    if (!(l > 0)) t.fail(*t.find("length"), "must be > 0");
    p.length = geometry::LengthAlong{axis_of(t, "length-axis"), l * to_cells};
  } else {
    const double s = t.number_or("scale", 1.0);
    if (!(s > 0)) t.fail(*t.find("scale"), "must be > 0");
    p.scale = s * to_cells;
  }
  if (const auto ctr = t.numbers("centre", 3)) {
    p.centre = std::array<double, 3>{position((*ctr)[0]), position((*ctr)[1]), position((*ctr)[2])};
  } else {  // the file's coordinates are the case's (cells, or metres with [units])
    const double shift = position(0.0);
    p.translate = {shift, shift, shift};
  }
  try {
    placed = geometry::place(
        geometry::triangles_from(std::span<const float>(mesh.data(), 9 * mesh.size())), p);
    return geometry::voxelize(placed, g, device ? device : open_device("cpu"), &report);
  } catch (const Error& e) {
    t.fail(*t.find("file"), e.what());
  }
}

// A solid mask from a .vti file (io/vti_read.hpp): one component, cell data
// of the domain's cells or point data of one point per cell, x fastest;
// the array `array`, else the only one, else "solid" (tessera's outputs).
std::vector<std::uint8_t> vti_mask_cells(const Table& t, const std::filesystem::path& file,
                                         const Grid& g) {
  io::VtiField f;
  try {
    f = io::read_vti_array(file, t.text("array").value_or(""));
  } catch (const Error& e) {
    t.fail(*t.find("file"), e.what());
  }
  if (f.components != 1)
    t.fail(*t.find("file"),
           fmt::format("array '{}' has {} components (a mask has one)", f.name, f.components));
  if (f.dims != std::array<long, 3>{g.nx, g.ny, g.nz})
    t.fail(*t.find("file"),
           fmt::format("array '{}' holds {} x {} x {} {} (x, y, z), the domain has {} x {} x {} "
                       "cells",
                       f.name, f.dims[0], f.dims[1], f.dims[2], f.cell_data ? "cells" : "points",
                       g.nx, g.ny, g.nz));
  std::vector<std::uint8_t> cells(f.values.size());
  for (std::size_t n = 0; n < cells.size(); ++n) {
    if (!std::isfinite(f.values[n]))
      t.fail(*t.find("file"), fmt::format("value {} of array '{}' is not finite", n, f.name));
    cells[n] = f.values[n] != 0 ? 1 : 0;
  }
  return cells;
}

bool is_vti(const std::string& file) {
  return file.ends_with(".vti") || file.ends_with(".vti.gz") || file.ends_with(".vti.bz2");
}

// A solid mask from a .npy file of the domain's shape (nz, ny, nx), C order
// (x fastest), nonzero = solid; D2Q9 also takes (ny, nx). Or from a .vti.
std::vector<std::uint8_t> mask_cells(const Table& t, const std::string& path, const Grid& g) {
  const auto file = t.text("file");
  if (!file) throw t.missing("file");
  if (is_vti(*file)) return vti_mask_cells(t, beside(path, *file), g);
  if (t.has("array")) t.fail(*t.find("array"), "only a .vti mask has named arrays");
  const io::NpyArray a = io::read_npy(beside(path, *file));
  const std::vector<std::int64_t> want{g.nz, g.ny, g.nx};
  const bool plane = g.nz == 1 && a.shape == std::vector<std::int64_t>{g.ny, g.nx};
  if (a.shape != want && !plane)
    t.fail(*t.find("file"),
           fmt::format("the mask's shape ({}) is not the domain's (nz, ny, nx) = ({})",
                       fmt::join(a.shape, ", "), fmt::join(want, ", ")));
  std::vector<std::uint8_t> cells(a.data.size());
  for (std::size_t n = 0; n < cells.size(); ++n) {
    if (!std::isfinite(a.data[n]))
      t.fail(*t.find("file"), fmt::format("element {} of the mask is not finite", n));
    cells[n] = a.data[n] != 0 ? 1 : 0;
  }
  return cells;
}

// A body's frontal area (cells^2: the cells of the plane normal to the drag
// direction's main axis that the body covers) and its extent along the lift
// direction's main axis (cells), from its cells.
std::pair<double, double> frontal_area(const std::vector<std::uint8_t>& cells, const Grid& g,
                                       const std::array<double, 3>& drag,
                                       const std::array<double, 3>& lift) {
  auto main_axis = [](const std::array<double, 3>& d) {
    int a = 0;
    for (int k = 1; k < 3; ++k)
      if (std::fabs(d[std::size_t(k)]) > std::fabs(d[std::size_t(a)])) a = k;
    return a;
  };
  const int da = main_axis(drag), la = main_axis(lift);
  const long ext[3] = {g.nx, g.ny, g.nz};
  std::vector<std::uint8_t> shadow(std::size_t(g.cells() / ext[da]), 0);
  long lo = ext[la], hi = -1;
  for (long z = 0; z < g.nz; ++z)
    for (long y = 0; y < g.ny; ++y)
      for (long x = 0; x < g.nx; ++x) {
        if (!cells[std::size_t(x + g.nx * (y + g.ny * z))]) continue;
        const long p[3] = {x, y, z};
        long k = 0, stride = 1;
        for (int a = 0; a < 3; ++a)
          if (a != da) k += p[a] * stride, stride *= ext[a];
        shadow[std::size_t(k)] = 1;
        lo = std::min(lo, p[la]);
        hi = std::max(hi, p[la]);
      }
  double area = 0;
  for (auto v : shadow) area += v;
  return {area, hi >= lo ? double(hi - lo + 1) : 0.0};
}

// The surface of a body with interpolated bounce-back: a primitive's
// inside test or an STL's placed triangles.
struct Surface {
  bool interpolated = false;
  std::function<bool(double, double, double)> inside;
  geometry::Triangles mesh;
};

// The links from fluid cells into the bodies of `surfaces` (by body id),
// with the fraction q where the body's surface crosses each: the segment
// between the cell centres bisected on a primitive's inside test (the one
// that decided the cells), or its first crossing of an STL's triangles
// (none found, a crossing the voxelizer's vertex rounding moved past the
// cell centre: q = 1/2, halfway bounce-back). The positions are unwrapped:
// a cylinder along a periodic axis is the same there.
std::vector<WallLink> wall_links(const Case& c, const Grid& g, Lattice lattice,
                                 const std::map<std::uint8_t, Surface>& surfaces) {
  std::vector<WallLink> links;
  if (surfaces.empty()) return links;
  // per STL body: its links' indices and segments, crossed with its mesh below
  std::map<std::uint8_t, std::pair<std::vector<std::size_t>, std::vector<geometry::LinkSegment>>>
      by_mesh;
  point::with_variant(q_of(lattice), 32, [&](auto var) {
    using V = decltype(var);
    for (long z = 0; z < g.nz; ++z)
      for (long y = 0; y < g.ny; ++y)
        for (long x = 0; x < g.nx; ++x) {
          const long n = x + g.nx * (y + g.ny * z);
          if (TS_LBM_IS_WALL(c.flags[std::size_t(n)])) continue;
          for (int i = 1; i < V::q; ++i) {
            const long m =
                (x + V::cx(i) + g.nx) % g.nx +
                g.nx * ((y + V::cy(i) + g.ny) % g.ny + g.ny * ((z + V::cz(i) + g.nz) % g.nz));
            const auto it = surfaces.find(c.body_of[std::size_t(m)]);
            if (c.body_of[std::size_t(m)] == 0 || it == surfaces.end()) continue;
            const geometry::LinkSegment seg{{double(x), double(y), double(z)},
                                            {V::cx(i), V::cy(i), V::cz(i)}};
            WallLink l{n, i, 0.5};
            if (it->second.inside) {
              l.q = geometry::crossing_by_bisection(it->second.inside, seg);
            } else {
              by_mesh[it->first].first.push_back(links.size());
              by_mesh[it->first].second.push_back(seg);
            }
            links.push_back(l);
          }
        }
    return 0;
  });
  for (const auto& [id, mine] : by_mesh) {
    const auto t = geometry::first_crossings(surfaces.at(id).mesh, mine.second);
    for (std::size_t k = 0; k < t.size(); ++k)
      links[mine.first[k]].q = std::isnan(t[k]) ? 0.5 : std::max(t[k], 1e-6);
  }
  return links;
}

}  // namespace

bool describes_a_case(const std::vector<io::CaseFileEntry>& entries) {
  return std::any_of(entries.begin(), entries.end(),
                     [](const io::CaseFileEntry& e) { return e.table == "domain"; });
}

std::string Units::describe(double tau) const {
  const double nu = (tau - 0.5) / 3.0;
  std::string s;
  if (physical)
    s += fmt::format(
        "units: dx {:.6g} m, dt {:.6g} s; U {:.6g} m/s = {:.6g} lattice, nu {:.6g} m^2/s = {:.6g} lattice\n",
        dx, dt, speed_si, speed, nu * dx * dx / dt, nu);
  s += fmt::format("lattice: tau {:.6g}, Mach {:.3g}", tau, mach(speed));
  if (length > 0)
    s += fmt::format(", Re {:.6g} (U L / nu, L {:.6g} cells)", speed * length / nu, length);
  s += fmt::format(", grid Reynolds number U dx / nu {:.3g}", speed / nu);
  return s;
}

CaseFromFile case_from_file(const std::string& path, const std::vector<io::CaseFileEntry>& entries,
                            Lattice lattice, const std::shared_ptr<Device>& device) {
  // Group the entries by table and refuse what no table knows.
  std::map<std::string, Table> tables;
  std::vector<Table> bodies, probes;
  for (const auto& e : entries) {
    if (e.table.empty()) continue;
    const auto known = known_keys().find(e.table);
    if (known == known_keys().end())
      throw UsageError(fmt::format(
          "{}:{}: unknown table [{}] (tables: domain, units, flow, boundary, body, probe, run)",
          path, e.line, e.table));
    if (!known->second.count(e.key))
      throw UsageError(fmt::format("{}:{}: unknown key '{}' in [{}] (keys: {})", path, e.line,
                                   e.key, e.table, fmt::join(known->second, ", ")));
    const bool repeated = e.table == "body" || e.table == "probe";
    if (repeated != (e.index >= 0))
      throw UsageError(fmt::format("{}:{}: [{}] is {}", path, e.line, e.table,
                                   repeated ? "an array of tables: write [[" + e.table + "]]"
                                            : "one table: write [" + e.table + "]"));
    if (repeated) {
      auto& list = e.table == "body" ? bodies : probes;
      while (int(list.size()) <= e.index) list.emplace_back(path, e.table, int(list.size()));
      list[std::size_t(e.index)].add(e);
    } else {
      tables.try_emplace(e.table, path, e.table, -1).first->second.add(e);
    }
  }
  auto table = [&](const std::string& name) -> const Table& {
    auto it = tables.find(name);
    if (it == tables.end()) it = tables.emplace(name, Table(path, name, -1)).first;
    return it->second;
  };

  // [domain]
  const auto cells = table("domain").numbers("cells", 3);
  if (!cells)
    throw UsageError(fmt::format("{}: [domain] needs the key 'cells' ([nx, ny, nz])", path));
  Grid g;
  long* dims[3] = {&g.nx, &g.ny, &g.nz};
  for (int a = 0; a < 3; ++a) {
    const double v = (*cells)[std::size_t(a)];
    if (!(v >= 1 && v <= 1048576 && v == std::floor(v)))
      table("domain").fail(*table("domain").find("cells"),
                           fmt::format("{} is not a cell count (whole numbers from 1 to 2^20)", v));
    *dims[a] = long(v);
  }
  if (lattice == Lattice::d2q9 && g.nz != 1)
    table("domain").fail(*table("domain").find("cells"),
                         fmt::format("D2Q9 takes nz = 1 (found {})", g.nz));

  // [units], [flow]: lattice units unless [units] gives the cell size
  CaseFromFile out;
  Units& u = out.units;
  const Table& units = table("units");
  const Table& flow = table("flow");
  u.physical = units.has("cell-size");
  if (!u.physical && (units.has("density") || units.has("lattice-velocity")))
    throw UsageError(
        fmt::format("{}:{}: [units] needs 'cell-size' (metres per cell) for its other keys", path,
                    units.line()));
  const double speed_given = flow.required_number("velocity");
  if (!(speed_given > 0)) flow.fail(*flow.find("velocity"), "must be > 0");
  if (u.physical) {
    u.dx = units.required_number("cell-size");
    if (!(u.dx > 0)) units.fail(*units.find("cell-size"), "must be > 0");
    u.density = units.number_or("density", 0);
    if (units.has("density") && !(u.density > 0)) units.fail(*units.find("density"), "must be > 0");
    // the speed of the inflow in lattice units: the user's, or 0.05 (Mach
    // 0.087: compressibility errors ~Ma^2 below 1%), which sets the time step
    u.speed = units.number_or("lattice-velocity", 0.05);
    if (!(u.speed > 0)) units.fail(*units.find("lattice-velocity"), "must be > 0");
    u.speed_si = speed_given;
    u.dt = u.speed * u.dx / u.speed_si;
  } else {
    u.speed = u.speed_si = speed_given;
  }
  if (mach(u.speed) > kMaxMach) {
    const bool chosen = units.has("lattice-velocity");
    const Table& t = chosen ? units : flow;
    t.fail(
        *t.find(chosen ? "lattice-velocity" : "velocity"),
        fmt::format("the flow's speed is {:.4g} in lattice units, Mach {:.3g} > {}: too fast for "
                    "the lattice Boltzmann model",
                    u.speed, mach(u.speed), kMaxMach));
  }
  const double to_cells = u.physical ? 1.0 / u.dx : 1.0;
  if (flow.has("length")) {
    u.length = flow.required_number("length") * to_cells;
    if (!(u.length > 0)) flow.fail(*flow.find("length"), "must be > 0");
  }
  if (flow.has("viscosity") == flow.has("reynolds"))
    throw UsageError(fmt::format("{}:{}: [flow] needs exactly one of 'viscosity' and 'reynolds'",
                                 path, flow.line()));
  if (flow.has("viscosity")) {
    const double nu = flow.required_number("viscosity");
    if (!(nu > 0)) flow.fail(*flow.find("viscosity"), "must be > 0");
    u.viscosity = u.physical ? nu * u.dt / (u.dx * u.dx) : nu;
  } else {
    const double re = flow.required_number("reynolds");
    if (!(re > 0)) flow.fail(*flow.find("reynolds"), "must be > 0");
    if (!(u.length > 0)) throw flow.missing("length");
    u.viscosity = u.speed * u.length / re;
  }

  Case& c = out.c;
  c.name = std::filesystem::path(path).stem().string();
  c.config.lattice = lattice;
  c.config.grid = g;
  c.config.tau = 3.0 * u.viscosity + 0.5;
  // the host holds the flags and one body id per cell while the case is
  // built (and the solver's fields after): refused before allocating
  const std::uint64_t host = 2 * std::uint64_t(g.cells());
  if (host > host_memory_limit())
    throw OutOfMemory(
        fmt::format("{}: the host, for the flags of {}x{}x{} cells", path, g.nx, g.ny, g.nz), host,
        host_memory_limit());
  c.flags.assign(std::size_t(g.cells()), TS_LBM_FLUID);
  c.length = u.length > 0 ? u.length : 1;
  c.speed = u.speed;

  // [boundary]: one type per face; where faces meet, wall > moving-wall >
  // free-slip > inlet > outlet (a channel's corners are its walls; a
  // free-slip face is whole up to no-slip walls: ts_lbm_slip_axis)
  const Table& b = table("boundary");
  const std::array<const char*, 6> face_keys = {"x-min", "x-max", "y-min",
                                                "y-max", "z-min", "z-max"};
  std::array<Face, 6> faces{};
  for (int f = 0; f < 6; ++f) faces[std::size_t(f)] = parse_face(b, face_keys[std::size_t(f)]);
  for (int a = 0; a < 3; ++a)
    if ((faces[std::size_t(2 * a)] == Face::periodic) !=
        (faces[std::size_t(2 * a + 1)] == Face::periodic))
      throw UsageError(fmt::format(
          "{}:{}: [boundary] {} and {}: a periodic face needs a periodic opposite face", path,
          b.line(), face_keys[std::size_t(2 * a)], face_keys[std::size_t(2 * a + 1)]));
  if (lattice == Lattice::d2q9 && faces[4] != Face::periodic)
    throw UsageError(
        fmt::format("{}:{}: [boundary] z-min/z-max: D2Q9 is periodic in z", path, b.line()));
  const bool has_inlet = std::count(faces.begin(), faces.end(), Face::inlet) > 0;
  const bool has_moving = std::count(faces.begin(), faces.end(), Face::moving) > 0;
  auto velocity = [&](const char* key) {
    std::array<double, 3> v{0, 0, 0};
    const auto given = b.numbers(key, 3);
    for (int a = 0; a < 3; ++a)
      v[std::size_t(a)] = given ? (*given)[std::size_t(a)] * u.speed / u.speed_si : 0;
    return v;
  };
  if (has_inlet) {
    if (b.has("inlet-velocity")) {
      c.config.u_in = velocity("inlet-velocity");
    } else {  // the flow's velocity along the inward normal of the first inlet face
      const int f = int(std::find(faces.begin(), faces.end(), Face::inlet) - faces.begin());
      c.config.u_in[std::size_t(f / 2)] = f % 2 ? -u.speed : u.speed;
    }
  } else if (b.has("inlet-velocity")) {
    b.fail(*b.find("inlet-velocity"), "no face is an inlet");
  }
  const std::array<double, 3> u_mean = c.config.u_in;  // the initial state's velocity
  if (auto profile = b.text("inlet-profile")) {
    const auto* e = b.find("inlet-profile");
    if (*profile == "parabolic") {
      if (!has_inlet) b.fail(*e, "no face is an inlet");
      c.config.inlet = parabolic_inlet(faces, g, [&](const std::string& why) { b.fail(*e, why); });
      // the velocity given is the mean over the cross-section: the peak is
      // 3/2 of it for each bounded axis (of the continuous parabola)
      for (int a = 0; a < 3; ++a)
        if (c.config.inlet.axes >> a & 1)
          for (double& v : c.config.u_in) v *= 1.5;
      const double peak = std::hypot(c.config.u_in[0], c.config.u_in[1], c.config.u_in[2]);
      if (mach(peak) > kMaxMach)
        b.fail(*e, fmt::format("the parabola's peak speed is {:.4g} in lattice units, Mach "
                               "{:.3g} > {}: lower the velocity or the lattice-velocity",
                               peak, mach(peak), kMaxMach));
    } else if (*profile != "uniform") {
      b.fail(*e, fmt::format("'{}' is not an inlet profile (uniform, parabolic)", *profile));
    }
  }
  c.config.inlet.normal = inlet_normal(faces, c.config.inlet.axes != 0);
  if (has_moving) {
    if (!b.has("wall-velocity")) throw b.missing("wall-velocity");
    c.config.u_wall = velocity("wall-velocity");
  } else if (b.has("wall-velocity")) {
    b.fail(*b.find("wall-velocity"), "no face is a moving-wall");
  }
  c.config.rho_out = b.number_or("outlet-density", 1.0);
  if (!(c.config.rho_out > 0)) b.fail(*b.find("outlet-density"), "must be > 0");
  const double un = std::hypot(c.config.u_in[0], c.config.u_in[1], c.config.u_in[2]);
  if (un > 0)
    for (int a = 0; a < 3; ++a) c.drag_dir[std::size_t(a)] = c.config.u_in[std::size_t(a)] / un;
  c.lift_dir = c.drag_dir[1] == 0 ? std::array<double, 3>{0, 1, 0} : std::array<double, 3>{1, 0, 0};
  const long ext[3] = {g.nx, g.ny, g.nz};
  for (long z = 0; z < g.nz; ++z)
    for (long y = 0; y < g.ny; ++y)
      for (long x = 0; x < g.nx; ++x) {
        const long p[3] = {x, y, z};
        Face strongest = Face::periodic;
        int axis = 0;  // of the strongest face (a free-slip wall's normal)
        for (int a = 0; a < 3; ++a)
          for (int side = 0; side < 2; ++side) {
            const Face f = faces[std::size_t(2 * a + side)];
            if (p[a] == (side ? ext[a] - 1 : 0) && f > strongest) strongest = f, axis = a;
          }
        c.flags[std::size_t(x + g.nx * (y + g.ny * z))] = flag_of(strongest, axis);
      }
  const bool open = has_inlet || std::count(faces.begin(), faces.end(), Face::outlet) > 0;
  if (open) c.config.trt_magic = trt_magic_open(c.config.tau, u.speed);
  c.u0 = u_mean;

  // [[body]]: primitives in the user's units (cell centres at (i + 1/2) dx
  // with [units], at i in lattice units)
  auto position = [&](double v) { return u.physical ? v / u.dx - 0.5 : v; };
  c.body_of.assign(std::size_t(g.cells()), 0);
  bool any_body_cell = false;
  std::map<std::uint8_t, Surface> surfaces;  // of the bodies with interpolated bounce-back
  for (const Table& t : bodies) {
    BodyRef ref;
    ref.name = t.text("name").value_or(fmt::format("body{}", c.bodies.size() + 1));
    const std::string shape = t.text("shape").value_or("");
    if (shape.empty()) throw t.missing("shape");
    std::vector<std::uint8_t> from_file;  // stl, mask: the body's cells
    Surface surface;
    const std::string bounce = t.text("bounce-back").value_or("halfway");
    if (bounce != "halfway" && bounce != "interpolated")
      t.fail(*t.find("bounce-back"),
             fmt::format("'{}' is not a bounce-back (halfway, interpolated)", bounce));
    surface.interpolated = bounce == "interpolated";
    if (surface.interpolated && shape == "mask")
      t.fail(*t.find("bounce-back"),
             "a mask has no surface to interpolate: give the body as an STL or a primitive, or "
             "bounce-back = \"halfway\"");
    if (shape == "stl" || shape == "mask") {
      geometry::VoxelReport voxels;
      from_file = shape == "stl" ? stl_cells(t, path, g, lattice, position, to_cells, device,
                                             surface.mesh, voxels)
                                 : mask_cells(t, path, g);
      if (voxels.odd_rays > 0) {
        // holes: the rays along y and z decided the cells, but the links
        // through a missing face find no crossing to interpolate
        const std::string holes = fmt::format(
            "the mesh is not closed: {} rays along x cross it an odd number of times ({} cells "
            "decided by the rays along y and z)",
            voxels.odd_rays, voxels.resolved_cells);
        if (surface.interpolated)
          t.fail(*t.find("file"),
                 holes +
                     "; interpolated bounce-back needs the whole surface: close the mesh's "
                     "holes, or use bounce-back = \"halfway\"");
        out.warnings.push_back(
            fmt::format("{}:{}: {}; close its holes", path, t.find("file")->line, holes));
      }
      if (shape == "stl")  // a periodic copy of what sticks out would be cut off
        for (int a = 0; a < 3; ++a) {
          if (faces[std::size_t(2 * a)] != Face::periodic) continue;
          double lo = INFINITY, hi = -INFINITY;
          for (std::size_t k = std::size_t(a); k < surface.mesh.xyz.size(); k += 3)
            lo = std::min(lo, surface.mesh.xyz[k]), hi = std::max(hi, surface.mesh.xyz[k]);
          if (lo < -0.5 || hi > double(ext[a]) - 0.5)
            t.fail(*t.find("file"),
                   fmt::format("the body spans {} = {:.6g}..{:.6g} cells, beyond the periodic "
                               "{} faces of the domain (-0.5..{}): it would be cut off there; "
                               "move it inside or enlarge the domain",
                               "xyz"[a], lo, hi, "xyz"[a], double(ext[a]) - 0.5));
        }
      // on a face layer the body would replace the boundary there
      for (long z = 0; z < g.nz; ++z)
        for (long y = 0; y < g.ny; ++y)
          for (long x = 0; x < g.nx; ++x) {
            const long p[3] = {x, y, z};
            for (int a = 0; a < 3; ++a)
              if (from_file[std::size_t(x + g.nx * (y + g.ny * z))] &&
                  faces[std::size_t(2 * a)] != Face::periodic && (p[a] == 0 || p[a] == ext[a] - 1))
                t.fail(*t.find("file"),
                       fmt::format("the body reaches the domain's {} face at cell ({}, {}, {})",
                                   face_keys[std::size_t(2 * a + (p[a] != 0))], x, y, z));
          }
      const auto [area, length] = frontal_area(from_file, g, c.drag_dir, c.lift_dir);
      ref.area = area;
      ref.length = length;
    }
    const auto centre_in =
        from_file.empty() ? t.numbers("centre", 3) : std::optional<std::vector<double>>{{0, 0, 0}};
    if (!centre_in) throw t.missing("centre");
    const double cx = position((*centre_in)[0]), cy = position((*centre_in)[1]),
                 cz = lattice == Lattice::d2q9 ? 0 : position((*centre_in)[2]);
    std::function<bool(double, double, double)> inside;
    double lo[3] = {-1e300, -1e300, -1e300}, hi[3] = {1e300, 1e300, 1e300};
    if (!from_file.empty()) {
      // the cells are decided
    } else if (shape == "sphere" || shape == "cylinder") {
      const double d = t.required_number("diameter") * to_cells;
      if (!(d >= 2))
        t.fail(*t.find("diameter"),
               fmt::format("{:.4g} cells: a body needs at least 2 cells across", d));
      const double r = d / 2;
      ref.length = d;
      if (shape == "sphere") {
        if (lattice == Lattice::d2q9)
          t.fail(*t.find("shape"), "a sphere needs a 3D lattice (D2Q9: a cylinder along z)");
        inside = [=](double x, double y, double z) {
          return (x - cx) * (x - cx) + (y - cy) * (y - cy) + (z - cz) * (z - cz) <= r * r;
        };
        ref.area = kPi * r * r;
        for (int a = 0; a < 3; ++a) lo[a] = -r, hi[a] = r;
      } else {
        const std::string axis = t.text("axis").value_or("z");
        if (axis != "x" && axis != "y" && axis != "z")
          t.fail(*t.find("axis"), fmt::format("'{}' is not x, y or z", axis));
        if (lattice == Lattice::d2q9 && axis != "z")
          t.fail(*t.find("axis"), "D2Q9 takes cylinders along z");
        const int ax = axis[0] - 'x';
        inside = [=](double x, double y, double z) {
          const double p[3] = {x - cx, y - cy, z - cz};
          double s = 0;
          for (int a = 0; a < 3; ++a) s += a == ax ? 0 : p[a] * p[a];
          return s <= r * r;
        };
        ref.area = d * double(ext[ax]);  // frontal: diameter x its length (the lattice's extent)
        for (int a = 0; a < 3; ++a) lo[a] = a == ax ? -1e300 : -r, hi[a] = a == ax ? 1e300 : r;
      }
    } else if (shape == "box") {
      const auto size = t.numbers("size", 3);
      if (!size) throw t.missing("size");
      double h[3];
      for (int a = 0; a < 3; ++a) {
        h[a] = (*size)[std::size_t(a)] * to_cells / 2;
        if (!(h[a] > 0) && !(lattice == Lattice::d2q9 && a == 2))
          t.fail(*t.find("size"), "every side must be > 0");
        lo[a] = -h[a], hi[a] = h[a];
      }
      if (lattice == Lattice::d2q9) lo[2] = -1e300, hi[2] = 1e300;
      inside = [=](double x, double y, double z) {
        return std::fabs(x - cx) <= h[0] && std::fabs(y - cy) <= h[1] &&
               (lattice == Lattice::d2q9 || std::fabs(z - cz) <= h[2]);
      };
      // frontal area normal to the drag direction (axis-aligned flows)
      int ax = 0;
      for (int a = 1; a < 3; ++a)
        if (std::fabs(c.drag_dir[std::size_t(a)]) > std::fabs(c.drag_dir[std::size_t(ax)])) ax = a;
      const double side[3] = {2 * h[0], 2 * h[1],
                              lattice == Lattice::d2q9 ? double(g.nz) : 2 * h[2]};
      ref.area = 1;
      for (int a = 0; a < 3; ++a)
        if (a != ax) ref.area *= side[a];
      ref.length = side[1 - (ax == 1)];
    } else {
      t.fail(*t.find("shape"),
             fmt::format("'{}' is not a shape (sphere, cylinder, box, stl, mask)", shape));
    }
    // the body must lie inside the domain, clear of its faces
    const double ctr[3] = {cx, cy, cz};
    for (int a = 0; a < (lattice == Lattice::d2q9 ? 2 : 3); ++a)
      if (lo[a] > -1e299 && (ctr[a] + lo[a] < 0.5 || ctr[a] + hi[a] > double(ext[a]) - 1.5))
        t.fail(*t.find("centre"),
               fmt::format(
                   "the body reaches {:.4g}..{:.4g} cells along {}, outside the fluid cells 1..{}",
                   ctr[a] + lo[a], ctr[a] + hi[a], "xyz"[a], ext[a] - 2));
    const bool measure = t.flag("force").value_or(true);
    const std::size_t id = c.bodies.size() + 1;
    if (id > 255) t.fail(*t.find("shape"), "at most 255 bodies");
    long count = 0;
    for (long z = 0; z < g.nz; ++z)
      for (long y = 0; y < g.ny; ++y)
        for (long x = 0; x < g.nx; ++x)
          if (const std::size_t n = std::size_t(x + g.nx * (y + g.ny * z));
              from_file.empty() ? inside(double(x), double(y), double(z)) : from_file[n] != 0) {
            if (c.body_of[n] != 0)
              t.fail(*t.find(from_file.empty() ? "centre" : "file"),
                     fmt::format("it overlaps '{}' at cell ({}, {}, {})",
                                 c.bodies[c.body_of[n] - 1].name, x, y, z));
            c.flags[n] = std::uint8_t(TS_LBM_WALL | (measure ? TS_LBM_BODY : 0));
            c.body_of[n] = std::uint8_t(id);
            ++count;
          }
    if (count == 0)
      t.fail(*t.find(from_file.empty() ? "centre" : "file"), "the body covers no cell centre");
    if (surface.interpolated) {
      if (from_file.empty()) surface.inside = inside;
      surfaces.emplace(std::uint8_t(id), std::move(surface));
    }
    any_body_cell = true;
    if (!measure) ref.area = 0;  // no coefficients for it
    c.bodies.push_back(ref);
  }
  c.links = wall_links(c, g, lattice, surfaces);
  if (!any_body_cell) c.body_of.clear();

  // [[probe]]
  for (const Table& t : probes) {
    ProbeRef p;
    p.name = t.text("name").value_or(fmt::format("probe{}", c.probes.size() + 1));
    const auto at = t.numbers("at", 3);
    if (!at) throw t.missing("at");
    long cell[3];
    for (int a = 0; a < 3; ++a) {
      p.at[std::size_t(a)] = (*at)[std::size_t(a)];
      // the nearest cell centre, range-checked in double (lround of a huge
      // value is undefined)
      const double q = lattice == Lattice::d2q9 && a == 2 ? 0.0 : position((*at)[std::size_t(a)]);
      if (!(q > -0.5 && q < double(ext[a]) - 0.5))
        t.fail(*t.find("at"),
               fmt::format("{} is outside the domain along {}", (*at)[std::size_t(a)], "xyz"[a]));
      cell[a] = std::lround(q);
    }
    p.cell = cell[0] + g.nx * (cell[1] + g.ny * cell[2]);
    if (c.flags[std::size_t(p.cell)] != TS_LBM_FLUID)
      t.fail(*t.find("at"),
             fmt::format("cell ({}, {}, {}) is not a fluid cell", cell[0], cell[1], cell[2]));
    c.probes.push_back(p);
  }

  // [run]: physical time needs [units]
  const Table& run = table("run");
  auto steps_of = [&](const char* key) -> long {
    const auto v = run.number(key);
    if (!v) return -1;
    if (!(*v > 0)) run.fail(*run.find(key), "must be > 0");
    const double steps = *v / u.dt;  // the command's --steps range: up to 2^40
    if (!(steps <= double(1L << 40)))
      run.fail(*run.find(key), fmt::format("{:.6g} steps of {:.6g}: more than 2^40", steps, u.dt));
    return std::max(1L, std::lround(steps));
  };
  out.steps = steps_of("time");
  out.every = steps_of("output-interval");

  try {
    c.config.validate();  // tau > 1/2, Mach <= 0.3
  } catch (const UsageError& e) {
    throw UsageError(fmt::format("{}: {}", path, e.what()));
  }
  return out;
}

}  // namespace tessera::lbm
