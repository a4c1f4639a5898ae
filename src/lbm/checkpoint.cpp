#include "lbm/checkpoint.hpp"

#include <cstring>
#include <string_view>

#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "lbm/kernels/lbm_point.hpp"

namespace tessera::lbm {

namespace {

std::string_view bytes(const std::vector<std::uint8_t>& v) {
  return {reinterpret_cast<const char*>(v.data()), v.size()};
}

}  // namespace

std::vector<std::uint8_t> convert_layout(const std::vector<std::uint8_t>& raw, const Config& c,
                                         long t, PopulationLayout from) {
  const auto v = c.variant();
  const auto& g = c.grid;
  const std::size_t elem = static_cast<std::size_t>(v.store_bytes());
  const std::size_t want =
      static_cast<std::size_t>(g.cells()) * static_cast<std::size_t>(v.q) * elem;
  if (raw.size() != want)
    throw Error("lbm: populations of " + std::to_string(raw.size()) + " bytes, the lattice holds " +
                std::to_string(want));
  std::vector<std::uint8_t> out(raw.size());
  for_each_esoteric_slot(c, t, [&](long n, int i, long slot) {
    const std::size_t pull = (static_cast<std::size_t>(i) * static_cast<std::size_t>(g.cells()) +
                              static_cast<std::size_t>(n)) *
                             elem;
    const std::size_t eso = static_cast<std::size_t>(slot) * elem;
    if (from == PopulationLayout::esoteric)
      std::memcpy(&out[pull], &raw[eso], elem);
    else
      std::memcpy(&out[eso], &raw[pull], elem);
    return false;
  });
  return out;
}

// The byte layout lives in checkpoint_format.cpp (validated there, fuzzed by
// tests/fuzz/fuzz_lbm_checkpoint.cpp).
void write_checkpoint(const std::filesystem::path& path, Solver& s) {
  write_file_atomic(
      path, format_checkpoint(s.config(), s.time(), bytes(s.flags()), bytes(s.raw_populations())));
}

void write_checkpoint(const std::filesystem::path& path, DistributedSolver& s) {
  const auto raw = s.raw_populations();  // collective over the ranks
  if (s.rank() != 0) return;             // rank 0 writes for every rank
  write_file_atomic(path, format_checkpoint(s.config(), s.time(), bytes(s.flags()), bytes(raw),
                                            PopulationLayout::pull));
}

CheckpointContents read_checkpoint_file(const std::filesystem::path& path) {
  return parse_checkpoint(read_file(path, "checkpoint"), path.string());
}

std::unique_ptr<Solver> read_checkpoint(const std::filesystem::path& path,
                                        std::shared_ptr<Device> device) {
  CheckpointContents c = read_checkpoint_file(path);
  auto s = std::make_unique<Solver>(std::move(device), c.config);
  if (c.layout == PopulationLayout::pull)  // a two-lattice run's (--gpus N, --streaming ab)
    c.populations = convert_layout(c.populations, c.config, c.time, PopulationLayout::pull);
  s->restore(c.populations, c.flags, c.time);
  return s;
}

DistributedSolver read_distributed_checkpoint(const std::filesystem::path& path,
                                              skeleton::Team team) {
  CheckpointContents c = read_checkpoint_file(path);
  DistributedSolver s(std::move(team), c.config);  // checks the lattice and the decomposition first
  if (c.layout == PopulationLayout::esoteric)  // a one-device run's (one lattice, esoteric pull)
    c.populations = convert_layout(c.populations, c.config, c.time, PopulationLayout::esoteric);
  s.restore(c.populations, c.flags, c.time);
  return s;
}

}  // namespace tessera::lbm
