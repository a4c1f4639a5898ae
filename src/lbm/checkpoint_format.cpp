#include "lbm/checkpoint_format.hpp"

#include <cmath>
#include <cstring>
#include <limits>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "io/checkpoint_container.hpp"
#include "lbm/kernels/lbm_flags.h"
#include "lbm/kernels/lbm_point.hpp"

namespace tessera::lbm {

namespace {

constexpr std::string_view kMagic{"TSLBMCK1", 8};
const std::string kWhat = "lbm checkpoint";

std::array<double, 3> vec3(const nlohmann::json& j, const char* what) {
  if (!j.is_array() || j.size() != 3)
    throw Error(fmt::format("'{}' is not an array of 3 numbers", what));
  return {io::header_finite(j[0], what), io::header_finite(j[1], what),
          io::header_finite(j[2], what)};
}

// Why a flag byte is outside the set lbm_flags.h defines (empty when it is
// inside): a type 0..7 in bits 0-2 (every type is defined), bits 3-5 clear;
// bit 6 (body) and bit 7 (near a wall, recomputed on restore) may be set.
std::string flag_problem(std::uint8_t f) {
  constexpr unsigned kDefined = TS_LBM_TYPE_MASK | TS_LBM_BODY | TS_LBM_NEAR_WALL;
  if (f & ~kDefined & 0xffu)
    return fmt::format("has the undefined bits 0x{:02x} set", f & ~kDefined & 0xffu);
  return {};
}

// The first non-finite storage value (IEEE binary16, 32 or 64 by its
// exponent bits), or -1.
long first_non_finite(std::string_view raw, int store_bits) {
  const char* p = raw.data();
  const std::size_t n = raw.size() / std::size_t(store_bits / 8);
  auto scan = [&](auto word, auto exponent) -> long {
    using W = decltype(word);
    for (std::size_t k = 0; k < n; ++k) {
      W w;
      std::memcpy(&w, p + k * sizeof(W), sizeof(W));
      if ((w & exponent) == exponent) return long(k);
    }
    return -1;
  };
  if (store_bits == 16) return scan(std::uint16_t{}, std::uint16_t{0x7c00});
  if (store_bits == 32) return scan(std::uint32_t{}, std::uint32_t{0x7f800000u});
  return scan(std::uint64_t{}, std::uint64_t{0x7ff0000000000000ull});
}

// Cell n and direction i of storage slot k of the populations of time t in
// `layout` (the esoteric layout permutes the slots with the parity of t).
std::pair<long, int> cell_of_slot(const Config& c, long t, PopulationLayout layout, long k) {
  const Grid& g = c.grid;
  const long cells = g.cells();
  if (layout == PopulationLayout::pull) return {k % cells, int(k / cells)};
  std::pair<long, int> found{-1, -1};
  for_each_esoteric_slot(c, t, [&](long n, int i, long slot) {
    if (slot == k) found = {n, i};
    return slot == k;
  });
  return found;
}

}  // namespace

std::string to_string(PopulationLayout l) {
  return l == PopulationLayout::pull ? "pull" : "esoteric";
}

std::string format_checkpoint(const Config& c, long time, std::string_view flags,
                              std::string_view populations, PopulationLayout layout) {
  nlohmann::json h = {{"lattice", to_string(c.lattice)},
                      {"collision", to_string(c.collision)},
                      {"precision", to_string(c.precision)},
                      {"grid", {c.grid.nx, c.grid.ny, c.grid.nz}},
                      {"tau", c.tau},
                      {"trt_magic", c.trt_magic},
                      {"force", c.force},
                      {"u_wall", c.u_wall},
                      {"u_in", c.u_in},
                      {"rho_out", c.rho_out},
                      {"time", time}};
  // single-device files keep the layout they always had (no field)
  if (layout != PopulationLayout::esoteric) h["layout"] = to_string(layout);
  // runs without an inlet normal keep the files they always had (no field)
  if (c.inlet.normal != 0 || c.inlet.axes != 0)
    h["inlet"] = {
        {"normal", c.inlet.normal}, {"axes", c.inlet.axes}, {"lo", c.inlet.lo}, {"hi", c.inlet.hi}};
  return io::format_container(kMagic, h, {flags, populations});
}

CheckpointContents parse_checkpoint(std::string_view data, const std::string& source) {
  const io::ContainerReader in(data, kMagic, kWhat, source);
  CheckpointContents out;
  Config& c = out.config;
  in.read_header([&](const nlohmann::json& h) {
    c.lattice = parse_lattice(io::header_string(h.at("lattice"), "lattice"));
    c.collision = parse_collision(io::header_string(h.at("collision"), "collision"));
    c.precision = parse_precision(io::header_string(h.at("precision"), "precision"));
    const auto g = io::header_integers3(h.at("grid"), "grid");
    c.grid = {g[0], g[1], g[2]};
    c.tau = io::header_finite(h.at("tau"), "tau");
    c.trt_magic = io::header_finite(h.at("trt_magic"), "trt_magic");
    c.force = vec3(h.at("force"), "force");
    c.u_wall = vec3(h.at("u_wall"), "u_wall");
    c.u_in = vec3(h.at("u_in"), "u_in");
    c.rho_out = io::header_finite(h.at("rho_out"), "rho_out");
    if (h.contains("inlet")) {
      const auto& p = h.at("inlet");
      if (!p.is_object()) throw Error("'inlet' is not an object");
      auto small = [&](const char* key, double lo, double hi) {
        const double v = io::header_finite(p.at(key), key);
        if (!(v >= lo && v <= hi && v == std::floor(v)))
          throw Error(fmt::format("'inlet.{}' is {} ({} to {})", key, v, lo, hi));
        return int(v);
      };
      c.inlet.normal = small("normal", -3, 3);
      c.inlet.axes = small("axes", 0, 7);
      const auto lo = vec3(p.at("lo"), "inlet.lo"), hi = vec3(p.at("hi"), "inlet.hi");
      for (int a = 0; a < 3; ++a)
        c.inlet.lo[a] = lo[std::size_t(a)], c.inlet.hi[a] = hi[std::size_t(a)];
    }
    // file names, time + steps and the parity of the layout follow from it
    out.time = io::header_count(h.at("time"), "time");
    if (h.contains("layout")) {
      const std::string l = io::header_string(h.at("layout"), "layout");
      if (l == "pull")
        out.layout = PopulationLayout::pull;
      else if (l != "esoteric")
        throw Error("'layout' is '" + l + "' (esoteric or pull)");
    }
    c.validate();  // also rejects grids with a side < 1
  });
  // Sizes from the header, overflow-checked, compared with the payload before
  // anything is allocated.
  std::uint64_t cells = 0, pop_bytes = 0, needed = 0, total = 0;
  const auto v = c.variant();
  const std::uint64_t framing =
      data.size() - in.payload().size();  // magic, lengths, header, checksum
  if (!io::checked_size(std::uint64_t(c.grid.nx), std::uint64_t(c.grid.ny), 0, cells) ||
      !io::checked_size(cells, std::uint64_t(c.grid.nz), 0, cells) ||
      cells > std::uint64_t(std::numeric_limits<long>::max()) ||
      !io::checked_size(cells, std::uint64_t(v.q) * std::uint64_t(v.store_bytes()), 0, pop_bytes) ||
      !io::checked_size(1, cells, pop_bytes, needed) ||
      !io::checked_size(1, needed, framing, total))
    throw in.bad(fmt::format("grid {}x{}x{} is too large", c.grid.nx, c.grid.ny, c.grid.nz));
  if (data.size() != total)
    throw in.bad(fmt::format("{} bytes, the header's lattice needs {}", data.size(), total));
  // The meaning of the state, before anything is copied: every flag in the
  // defined set, every population finite.
  auto cell_text = [&](long n) {
    return fmt::format("({}, {}, {})", n % c.grid.nx, (n / c.grid.nx) % c.grid.ny,
                       n / (c.grid.nx * c.grid.ny));
  };
  const std::string_view flags = in.payload().substr(0, cells),
                         pops = in.payload().substr(cells, pop_bytes);
  for (std::size_t n = 0; n < flags.size(); ++n) {
    const auto f = std::uint8_t(flags[n]);
    if ((f & 0x38) == 0) continue;  // the common case, fast
    throw in.bad(fmt::format("flags: cell {} {} (flag byte 0x{:02x})", cell_text(long(n)),
                             flag_problem(f), f));
  }
  if (const long k = first_non_finite(pops, v.store_bits); k >= 0) {
    const auto [n, i] = cell_of_slot(c, out.time, out.layout, k);
    throw in.bad(fmt::format(
        "populations: non-finite value at cell {}, direction {} ({} layout, storage slot {})",
        cell_text(n), i, to_string(out.layout), k));
  }
  const char* p = in.payload().data();
  out.flags.assign(p, p + cells);
  out.populations.assign(p + cells, p + cells + pop_bytes);
  return out;
}

}  // namespace tessera::lbm
