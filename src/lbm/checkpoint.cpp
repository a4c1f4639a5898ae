#include "lbm/checkpoint.hpp"

#include <fstream>
#include <iterator>
#include <string_view>

#include "core/atomic_file.hpp"
#include "core/error.hpp"

namespace tessera::lbm {

namespace {

std::string_view bytes(const std::vector<std::uint8_t>& v) {
  return {reinterpret_cast<const char*>(v.data()), v.size()};
}

}  // namespace

// The byte layout lives in checkpoint_format.cpp (validated there, fuzzed by
// tests/fuzz/fuzz_lbm_checkpoint.cpp).
void write_checkpoint(const std::filesystem::path& path, Solver& s) {
  write_file_atomic(path, format_checkpoint(s.config(), s.time(), bytes(s.flags()), bytes(s.raw_populations())));
}

void write_checkpoint(const std::filesystem::path& path, DistributedSolver& s) {
  write_file_atomic(path, format_checkpoint(s.config(), s.time(), bytes(s.flags()), bytes(s.raw_populations()),
                                            PopulationLayout::pull));
}

CheckpointContents read_checkpoint_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(path.string() + ": cannot open the checkpoint");
  const std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return parse_checkpoint(data, path.string());
}

std::unique_ptr<Solver> read_checkpoint(const std::filesystem::path& path, std::shared_ptr<Device> device) {
  CheckpointContents c = read_checkpoint_file(path);
  if (c.layout != PopulationLayout::esoteric)
    throw UsageError(path.string() + ": a checkpoint of a two-lattice run (--gpus N or --streaming ab): restart "
                                     "it with --streaming ab and any --gpus N");
  auto s = std::make_unique<Solver>(std::move(device), c.config);
  s->restore(c.populations, c.flags, c.time);
  return s;
}

DistributedSolver read_distributed_checkpoint(const std::filesystem::path& path, skeleton::Team team) {
  CheckpointContents c = read_checkpoint_file(path);
  if (c.layout != PopulationLayout::pull)
    throw UsageError(path.string() + ": a checkpoint of a one-device run (esoteric pull, one lattice): restart it "
                                     "on one device, without --gpus and --streaming ab");
  DistributedSolver s(std::move(team), c.config);
  s.restore(c.populations, c.flags, c.time);
  return s;
}

}  // namespace tessera::lbm
