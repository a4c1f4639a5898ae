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
#include "lbm/kernels/lbm_point.hpp"

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
std::string format_checkpoint(const Config& c, long time, std::string_view flags,
                              std::string_view populations,
                              PopulationLayout layout = PopulationLayout::esoteric);

/// Calls fn(n, i, slot) for cell n and direction i of the esoteric-pull
/// lattice of time t with the storage slot that holds that population, in
/// cell order, until fn returns true. The slots of time t were written by
/// step t - 1 (the initial state counts as step -1, odd), with its parity.
/// One walk for the layout conversion and for naming a forged file's cell.
template <class Fn>
void for_each_esoteric_slot(const Config& c, long t, Fn&& fn) {
  const auto v = c.variant();
  const Grid& g = c.grid;
  const int odd = static_cast<int>((t - 1) & 1);
  point::with_variant(v.q, v.store_bits, [&](auto variant) {
    using V = decltype(variant);
    typename V::idx slot[27];
    long n = 0;
    for (long z = 0; z < g.nz; ++z)
      for (long y = 0; y < g.ny; ++y)
        for (long x = 0; x < g.nx; ++x, ++n) {
          V::out_slots(x, y, z, g.nx, g.ny, g.nz, odd, slot);
          for (int i = 0; i < V::q; ++i)
            if (fn(n, i, static_cast<long>(slot[i]))) return;
        }
  });
}

}  // namespace tessera::lbm
