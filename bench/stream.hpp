// `tessera bench stream`: STREAM copy/scale/add/triad plus the backend's own
// device-to-device copy (the roofline denominator) and dot products.
#pragma once
#include <memory>

#include "bench/harness.hpp"
#include "core/device.hpp"

namespace tessera::bench {

struct StreamOptions {
  std::size_t size = 0;  ///< elements per array; 0 picks a size >> cache
  bool run_float = true;
  bool run_double = true;
  TimingOptions timing;
};

DeviceReport run_stream(const std::shared_ptr<Device>& device, const StreamOptions& opt);

/// The default STREAM array length for a device: each array at least 8x the
/// last-level cache, three arrays within a quarter of its memory, at most 2^28.
std::size_t default_stream_size(const DeviceInfo& d, std::size_t element_bytes);

}  // namespace tessera::bench
