#include "lbm/checkpoint.hpp"

#include <fstream>
#include <iterator>

#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "lbm/checkpoint_format.hpp"

namespace tessera::lbm {

// The byte layout lives in checkpoint_format.cpp (validated there, fuzzed by
// tests/fuzz/fuzz_lbm_checkpoint.cpp).
void write_checkpoint(const std::filesystem::path& path, Solver& s) {
  const auto pops = s.raw_populations();
  const auto& flags = s.flags();
  write_file_atomic(path, format_checkpoint(s.config(), s.time(),
                                            std::string_view(reinterpret_cast<const char*>(flags.data()), flags.size()),
                                            std::string_view(reinterpret_cast<const char*>(pops.data()), pops.size())));
}

std::unique_ptr<Solver> read_checkpoint(const std::filesystem::path& path, std::shared_ptr<Device> device) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(path.string() + ": cannot open the checkpoint");
  const std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CheckpointContents c = parse_checkpoint(data, path.string());
  auto s = std::make_unique<Solver>(std::move(device), c.config);
  s->restore(c.populations, c.flags, c.time);
  return s;
}

}  // namespace tessera::lbm
