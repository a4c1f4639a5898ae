// lbm checkpoint files (`tessera lbm --restart`); checkpoint_input.hpp says
// how the first byte re-seals the checksum.
#include "checkpoint_input.hpp"
#include "core/error.hpp"
#include "lbm/checkpoint_format.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto bytes = checkpoint_input(data, size);
  if (!bytes) return 0;
  try {
    const auto c = tessera::lbm::parse_checkpoint(*bytes, "fuzz.ckpt");
    if (c.flags.size() != static_cast<std::size_t>(c.config.grid.cells())) __builtin_trap();
  } catch (const tessera::Error&) {
  }
  return 0;
}
