#include "lbm/checkpoint_format.hpp"

#include <cstring>
#include <limits>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "core/hash.hpp"

namespace tessera::lbm {

namespace {

constexpr char kMagic[8] = {'T', 'S', 'L', 'B', 'M', 'C', 'K', '1'};

template <class T>
void put(std::string& out, const T& v) {
  out.append(reinterpret_cast<const char*>(&v), sizeof v);
}

// Integers must be JSON integers: converting a huge or fractional JSON number
// to long would be undefined behaviour.
long integer(const nlohmann::json& j, const char* what) {
  if (!j.is_number_integer()) throw Error(fmt::format("'{}' is not an integer", what));
  if (j.is_number_unsigned() && j.get<std::uint64_t>() > std::uint64_t(std::numeric_limits<long>::max()))
    throw Error(fmt::format("'{}' is out of range", what));
  return j.get<long>();
}

double real(const nlohmann::json& j, const char* what) {
  if (!j.is_number()) throw Error(fmt::format("'{}' is not a number", what));
  return j.get<double>();
}

std::array<double, 3> vec3(const nlohmann::json& j, const char* what) {
  if (!j.is_array() || j.size() != 3) throw Error(fmt::format("'{}' is not an array of 3 numbers", what));
  return {real(j[0], what), real(j[1], what), real(j[2], what)};
}

}  // namespace

std::string format_checkpoint(const Config& c, long time, std::string_view flags, std::string_view populations) {
  const nlohmann::json h = {{"lattice", to_string(c.lattice)}, {"collision", to_string(c.collision)},
                            {"precision", to_string(c.precision)}, {"grid", {c.grid.nx, c.grid.ny, c.grid.nz}},
                            {"tau", c.tau}, {"trt_magic", c.trt_magic}, {"force", c.force},
                            {"u_wall", c.u_wall}, {"u_in", c.u_in}, {"rho_out", c.rho_out}, {"time", time}};
  const std::string header = h.dump();
  std::string out(kMagic, sizeof kMagic);
  put(out, std::uint64_t(header.size()));
  out += header;
  out += flags;
  out += populations;
  put(out, fnv1a64(out));
  return out;
}

CheckpointContents parse_checkpoint(std::string_view data, const std::string& source) {
  auto bad = [&](const std::string& why) { return Error(source + ": not a valid lbm checkpoint: " + why); };
  if (data.size() < 24 || std::memcmp(data.data(), kMagic, sizeof kMagic) != 0)
    throw bad("no TSLBMCK1 signature at the start");
  std::uint64_t sum = 0, hlen = 0;
  std::memcpy(&sum, data.data() + data.size() - 8, 8);
  if (sum != fnv1a64(data.substr(0, data.size() - 8)))
    throw bad("checksum mismatch (the file is corrupt or truncated)");
  std::memcpy(&hlen, data.data() + 8, 8);
  if (hlen > data.size() - 24) throw bad("header length exceeds the file");
  CheckpointContents out;
  Config& c = out.config;
  try {
    const auto h = nlohmann::json::parse(data.substr(16, hlen));
    if (!h.is_object()) throw Error("the header is not a JSON object");
    c.lattice = parse_lattice(h.at("lattice").get<std::string>());
    c.collision = parse_collision(h.at("collision").get<std::string>());
    c.precision = parse_precision(h.at("precision").get<std::string>());
    const auto& g = h.at("grid");
    if (!g.is_array() || g.size() != 3) throw Error("'grid' is not an array of 3 integers");
    c.grid = {integer(g[0], "grid"), integer(g[1], "grid"), integer(g[2], "grid")};
    c.tau = real(h.at("tau"), "tau");
    c.trt_magic = real(h.at("trt_magic"), "trt_magic");
    c.force = vec3(h.at("force"), "force");
    c.u_wall = vec3(h.at("u_wall"), "u_wall");
    c.u_in = vec3(h.at("u_in"), "u_in");
    c.rho_out = real(h.at("rho_out"), "rho_out");
    out.time = integer(h.at("time"), "time");
    if (out.time < 0) throw Error("'time' is negative");
    c.validate();  // also rejects grids with a side < 1
  } catch (const std::exception& e) {
    throw bad(std::string("header: ") + e.what());
  }
  // Sizes from the header, overflow-checked, compared with the file before
  // anything is allocated (a forged header must not ask for terabytes).
  std::uint64_t cells = 0, pop_bytes = 0, total = 0;
  const auto v = c.variant();
  if (__builtin_mul_overflow(std::uint64_t(c.grid.nx), std::uint64_t(c.grid.ny), &cells) ||
      __builtin_mul_overflow(cells, std::uint64_t(c.grid.nz), &cells) ||
      cells > std::uint64_t(std::numeric_limits<long>::max()) ||
      __builtin_mul_overflow(cells, std::uint64_t(v.q) * std::uint64_t(v.store_bytes()), &pop_bytes) ||
      __builtin_add_overflow(16 + hlen + 8, cells, &total) || __builtin_add_overflow(total, pop_bytes, &total))
    throw bad(fmt::format("grid {}x{}x{} is too large", c.grid.nx, c.grid.ny, c.grid.nz));
  if (data.size() != total)
    throw bad(fmt::format("{} bytes, the header's lattice needs {}", data.size(), total));
  const char* p = data.data() + 16 + hlen;
  out.flags.assign(p, p + cells);
  out.populations.assign(p + cells, p + cells + pop_bytes);
  return out;
}

}  // namespace tessera::lbm
