// Storage accounting: how many bytes each format stores and how much of that is
// padding or zeros, computed from the format's arrays (so it is exact for what
// was built, not a model).
//
//  slots       value positions stored (entries, padding, in-block zeros)
//  zero_slots  slots holding exactly 0: ELL/SELL/DIA padding, zeros inside
//              BCSR/BELL blocks (TRACE's ~17%), explicit zeros of the source
//  nonzeros    slots - zero_slots
//  value_bytes slots * sizeof(T) (complex values interleaved: 2 reals each)
//  index_bytes every index array: columns, row pointers, row maps, offsets
#pragma once
#include <string>

#include "sparse/formats.hpp"

namespace tessera::sparse {

struct Storage {
  std::string format;
  size64 slots = 0;
  size64 zero_slots = 0;
  size64 value_bytes = 0;
  size64 index_bytes = 0;
  size64 nonzeros() const { return slots - zero_slots; }
  size64 total_bytes() const { return value_bytes + index_bytes; }
  /// Stored slots per nonzero value (1 = no padding, no zeros).
  double slots_per_nonzero() const {
    return nonzeros() > 0 ? static_cast<double>(slots) / static_cast<double>(nonzeros()) : 0.0;
  }
  /// Fraction of stored slots that are zero.
  double zero_fraction() const {
    return slots > 0 ? static_cast<double>(zero_slots) / static_cast<double>(slots) : 0.0;
  }
  /// Total bytes per nonzero value.
  double bytes_per_nonzero() const {
    return nonzeros() > 0 ? static_cast<double>(total_bytes()) / static_cast<double>(nonzeros())
                          : 0.0;
  }
};

/// storage(const Format<T>&) for every format of formats.hpp.
TESSERA_SPARSE_DECLARE_FOR_EACH_FORMAT(Storage, storage)

}  // namespace tessera::sparse
