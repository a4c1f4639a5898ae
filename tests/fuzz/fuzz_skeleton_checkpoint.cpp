// skeleton field checkpoints (skeleton::load_checkpoint); checkpoint_input.hpp
// says how the first byte re-seals the checksum. Anything accepted must have
// exactly the values its header describes and format to the same bytes again.
#include "checkpoint_input.hpp"
#include "core/error.hpp"
#include "skeleton/checkpoint_format.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto bytes = checkpoint_input(data, size);
  if (!bytes) return 0;
  try {
    const auto c = tessera::skeleton::parse_field_checkpoint(*bytes, "fuzz.ckpt");
    const auto& h = c.header;
    if (c.values.size() !=
        static_cast<std::size_t>(h.extents.volume()) * h.components * h.element_bytes)
      __builtin_trap();
    // a valid header round-trips (field order and number formatting aside, the
    // parsed header must parse again to the same header)
    const auto again = tessera::skeleton::parse_field_checkpoint(
        tessera::skeleton::format_field_checkpoint(h, c.values), "again.ckpt");
    if (!(again.header == h)) __builtin_trap();
  } catch (const tessera::Error&) {
  }
  return 0;
}
