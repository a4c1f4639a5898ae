// The byte format of an lbm checkpoint, separate from the solver so that it can
// be validated (and fuzzed) without a device; the container (signature,
// header, checksum) is io/checkpoint_container.hpp's:
//   magic "TSLBMCK1" (8) | header length (8) | JSON header | flags (1 byte per cell)
//   | populations | FNV-1a 64 of everything before (8)
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "lbm/config.hpp"

namespace tessera::lbm {

/// How the populations are stored: "esoteric" (Solver::raw_populations, one
/// device, in-place esoteric pull) or "pull" (DistributedSolver's gathered
/// lattice, any part count). Files without the field are "esoteric".
enum class PopulationLayout { esoteric, pull };
std::string to_string(PopulationLayout l);

struct CheckpointContents {
  Config config;
  long time = 0;
  PopulationLayout layout = PopulationLayout::esoteric;
  std::vector<std::uint8_t> flags;        ///< one per cell
  std::vector<std::uint8_t> populations;  ///< raw storage bytes (layout of Solver::raw_populations)
};

/// Validates and splits checkpoint bytes. Throws Error naming `source` and what
/// is wrong (signature, checksum, header field, sizes) before allocating
/// anything the file cannot back, and what is impossible in a well-formed
/// file: a time outside 0..2^53, header reals that are not finite or not a
/// valid configuration, a flag byte outside lbm_flags.h's set (cell named),
/// a non-finite population (cell and direction named, either layout).
CheckpointContents parse_checkpoint(std::string_view data, const std::string& source);

/// The checkpoint bytes of a configuration at time `time`.
std::string format_checkpoint(const Config& c, long time, std::string_view flags, std::string_view populations,
                              PopulationLayout layout = PopulationLayout::esoteric);

}  // namespace tessera::lbm
