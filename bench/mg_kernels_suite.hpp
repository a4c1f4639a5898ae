// `tessera bench mg-kernels`: where a 3D FP64 V(1,1) red-black cycle spends
// its time. Each fine-level kernel is timed alone with its byte model
// (anchors-multigrid.md §5), then the whole cycle fused and two-pass, so the
// gap to the model-E floor can be attributed kernel by kernel.
#pragma once
#include <memory>
#include <string>

#include "bench/harness.hpp"

namespace tessera::bench {

struct MgKernelsOptions {
  long n = 511;  ///< cube side (c*2^k - 1)
  TimingOptions timing{3, 20};
  /// ECMAScript regex: only the rows whose names it finds are timed (the
  /// copy always is); empty: every row (`--param rows=REGEX`)
  std::string rows;
};

DeviceReport run_mg_kernels(const std::shared_ptr<Device>& device, const MgKernelsOptions& opt);

}  // namespace tessera::bench
