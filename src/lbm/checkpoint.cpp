#include "lbm/checkpoint.hpp"

#include <cstring>
#include <fstream>
#include <iterator>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "core/hash.hpp"

namespace tessera::lbm {

namespace {

// layout: magic (8) | header length (8) | JSON header | flags | populations | FNV-1a 64 of all before (8)
constexpr char kMagic[8] = {'T', 'S', 'L', 'B', 'M', 'C', 'K', '1'};

nlohmann::json header_of(const Solver& s) {
  const Config& c = s.config();
  return {{"lattice", to_string(c.lattice)}, {"collision", to_string(c.collision)},
          {"precision", to_string(c.precision)}, {"grid", {c.grid.nx, c.grid.ny, c.grid.nz}},
          {"tau", c.tau}, {"trt_magic", c.trt_magic}, {"force", c.force}, {"u_wall", c.u_wall},
          {"u_in", c.u_in}, {"rho_out", c.rho_out}, {"time", s.time()}};
}

template <class T>
void put(std::string& out, const T& v) {
  out.append(reinterpret_cast<const char*>(&v), sizeof v);
}

}  // namespace

void write_checkpoint(const std::filesystem::path& path, Solver& s) {
  const std::string header = header_of(s).dump();
  const auto pops = s.raw_populations();
  std::string out(kMagic, sizeof kMagic);
  put(out, std::uint64_t(header.size()));
  out += header;
  out.append(reinterpret_cast<const char*>(s.flags().data()), s.flags().size());
  out.append(reinterpret_cast<const char*>(pops.data()), pops.size());
  put(out, fnv1a64(out));
  write_file_atomic(path, out);
}

std::unique_ptr<Solver> read_checkpoint(const std::filesystem::path& path, std::shared_ptr<Device> device) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(path.string() + ": cannot open the checkpoint");
  const std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto bad = [&](const std::string& why) { return Error(path.string() + ": not a valid lbm checkpoint: " + why); };
  if (data.size() < 24 || std::memcmp(data.data(), kMagic, sizeof kMagic) != 0)
    throw bad("no TSLBMCK1 signature at the start");
  std::uint64_t sum = 0, hlen = 0;
  std::memcpy(&sum, data.data() + data.size() - 8, 8);
  if (sum != fnv1a64(std::string_view(data).substr(0, data.size() - 8)))
    throw bad("checksum mismatch (the file is corrupt or truncated)");
  std::memcpy(&hlen, data.data() + 8, 8);
  if (hlen > data.size() - 24) throw bad("header length exceeds the file");
  Config c;
  long t = 0;
  try {
    const auto h = nlohmann::json::parse(data.substr(16, hlen));
    c.lattice = parse_lattice(h.at("lattice"));
    c.collision = parse_collision(h.at("collision"));
    c.precision = parse_precision(h.at("precision"));
    c.grid = {h.at("grid")[0], h.at("grid")[1], h.at("grid")[2]};
    c.tau = h.at("tau");
    c.trt_magic = h.at("trt_magic");
    c.force = h.at("force");
    c.u_wall = h.at("u_wall");
    c.u_in = h.at("u_in");
    c.rho_out = h.at("rho_out");
    t = h.at("time");
  } catch (const std::exception& e) {
    throw bad(std::string("header: ") + e.what());
  }
  auto s = std::make_unique<Solver>(std::move(device), c);
  const std::size_t N = static_cast<std::size_t>(c.grid.cells());
  const std::size_t pop_bytes = N * std::size_t(c.variant().q) * c.variant().store_bytes();
  if (data.size() != 16 + hlen + N + pop_bytes + 8)
    throw bad(fmt::format("{} bytes, the header's lattice needs {}", data.size(), 16 + hlen + N + pop_bytes + 8));
  const char* p = data.data() + 16 + hlen;
  std::vector<std::uint8_t> flags(p, p + N), pops(p + N, p + N + pop_bytes);
  s->restore(pops, flags, t);
  return s;
}

}  // namespace tessera::lbm
