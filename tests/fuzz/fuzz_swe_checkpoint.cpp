// swe checkpoint files (`tessera swe --restart`); checkpoint_input.hpp says
// how the first byte re-seals the checksum.
#include "checkpoint_input.hpp"
#include "core/error.hpp"
#include "swe/checkpoint_format.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto bytes = checkpoint_input(data, size);
  if (!bytes) return 0;
  try {
    const auto c = tessera::swe::parse_swe_checkpoint(*bytes, "fuzz.ckpt");
    // what was accepted must format and parse again to the same model, grid and step
    if (c.nx() < 1 || c.ny() < 1 || c.steps() < 0) __builtin_trap();
    // (a thesis header's time is steps * its config's dt)
    const double dt =
        c.config.contains("dt") && c.config["dt"].is_number() ? c.config["dt"].get<double>() : 0.0;
    const auto again = tessera::swe::parse_swe_checkpoint(
        tessera::swe::format_swe_checkpoint(c, dt), "again.ckpt");
    if (again.steps() != c.steps() || again.nx() != c.nx() || again.model() != c.model())
      __builtin_trap();
    tessera::swe::validate_swe_state(c,
                                     "fuzz.ckpt");  // the meaning of the state: an Error or nothing
  } catch (const tessera::Error&) {
  }
  return 0;
}
