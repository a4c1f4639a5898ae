#include "lbm/checkpoint_format.hpp"

#include <cstring>
#include <limits>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "io/checkpoint_container.hpp"

namespace tessera::lbm {

namespace {

constexpr std::string_view kMagic{"TSLBMCK1", 8};
const std::string kWhat = "lbm checkpoint";

std::array<double, 3> vec3(const nlohmann::json& j, const char* what) {
  if (!j.is_array() || j.size() != 3) throw Error(fmt::format("'{}' is not an array of 3 numbers", what));
  return {io::header_real(j[0], what), io::header_real(j[1], what), io::header_real(j[2], what)};
}

}  // namespace

std::string to_string(PopulationLayout l) { return l == PopulationLayout::pull ? "pull" : "esoteric"; }

std::string format_checkpoint(const Config& c, long time, std::string_view flags, std::string_view populations,
                              PopulationLayout layout) {
  nlohmann::json h = {{"lattice", to_string(c.lattice)}, {"collision", to_string(c.collision)},
                            {"precision", to_string(c.precision)}, {"grid", {c.grid.nx, c.grid.ny, c.grid.nz}},
                            {"tau", c.tau}, {"trt_magic", c.trt_magic}, {"force", c.force},
                            {"u_wall", c.u_wall}, {"u_in", c.u_in}, {"rho_out", c.rho_out}, {"time", time}};
  // single-device files keep the layout they always had (no field)
  if (layout != PopulationLayout::esoteric) h["layout"] = to_string(layout);
  return io::format_container(kMagic, h, {flags, populations});
}

CheckpointContents parse_checkpoint(std::string_view data, const std::string& source) {
  auto bad = [&](const std::string& why) { return io::container_error(source, kWhat, why); };
  const io::ContainerContents box = io::parse_container(data, kMagic, kWhat, source);
  const nlohmann::json& h = box.header;
  CheckpointContents out;
  Config& c = out.config;
  try {
    c.lattice = parse_lattice(io::header_string(h.at("lattice"), "lattice"));
    c.collision = parse_collision(io::header_string(h.at("collision"), "collision"));
    c.precision = parse_precision(io::header_string(h.at("precision"), "precision"));
    const auto g = io::header_integers3(h.at("grid"), "grid");
    c.grid = {g[0], g[1], g[2]};
    c.tau = io::header_real(h.at("tau"), "tau");
    c.trt_magic = io::header_real(h.at("trt_magic"), "trt_magic");
    c.force = vec3(h.at("force"), "force");
    c.u_wall = vec3(h.at("u_wall"), "u_wall");
    c.u_in = vec3(h.at("u_in"), "u_in");
    c.rho_out = io::header_real(h.at("rho_out"), "rho_out");
    out.time = io::header_integer(h.at("time"), "time");
    if (out.time < 0) throw Error("'time' is negative");
    if (h.contains("layout")) {
      const std::string l = io::header_string(h.at("layout"), "layout");
      if (l == "pull") out.layout = PopulationLayout::pull;
      else if (l != "esoteric") throw Error("'layout' is '" + l + "' (esoteric or pull)");
    }
    c.validate();  // also rejects grids with a side < 1
  } catch (const std::exception& e) {
    throw bad(std::string("header: ") + e.what());
  }
  // Sizes from the header, overflow-checked, compared with the payload before
  // anything is allocated.
  std::uint64_t cells = 0, pop_bytes = 0, needed = 0, total = 0;
  const auto v = c.variant();
  const std::uint64_t framing = data.size() - box.payload.size();  // magic, lengths, header, checksum
  if (!io::checked_size(std::uint64_t(c.grid.nx), std::uint64_t(c.grid.ny), 0, cells) ||
      !io::checked_size(cells, std::uint64_t(c.grid.nz), 0, cells) ||
      cells > std::uint64_t(std::numeric_limits<long>::max()) ||
      !io::checked_size(cells, std::uint64_t(v.q) * std::uint64_t(v.store_bytes()), 0, pop_bytes) ||
      !io::checked_size(1, cells, pop_bytes, needed) || !io::checked_size(1, needed, framing, total))
    throw bad(fmt::format("grid {}x{}x{} is too large", c.grid.nx, c.grid.ny, c.grid.nz));
  if (data.size() != total)
    throw bad(fmt::format("{} bytes, the header's lattice needs {}", data.size(), total));
  const char* p = box.payload.data();
  out.flags.assign(p, p + cells);
  out.populations.assign(p + cells, p + cells + pop_bytes);
  return out;
}

}  // namespace tessera::lbm
