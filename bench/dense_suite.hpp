// `tessera bench dense`: the memory-hierarchy kernels of the OpenCL
// optimisation lecture. Vector add (global vs. local-memory staging) and the
// matrix product (naive, tiled, register-blocked, vendor) with GFLOP/s and the
// tiled/naive speed-up next to the lecture's 9.2x, plus the backend's own
// device-to-device copy (the bandwidth every fraction is taken against).
#pragma once
#include <memory>

#include "bench/harness.hpp"
#include "core/device.hpp"

namespace tessera::bench {

struct DenseOptions {
  /// Matrix order n (C = A*B, all n x n); vector add then uses n*n elements.
  /// 0: n = 1024 and 8192, vectors of the STREAM default length; on devices
  /// that are not GPUs, 8192 runs only the CPU backend's register_blocked
  /// (the others take hours on a CPU or under PoCL).
  std::size_t size = 0;
  bool run_float = true;
  bool run_double = true;
  TimingOptions timing;
};

DeviceReport run_dense(const std::shared_ptr<Device>& device, const DenseOptions& opt);

/// The lecture's measurement (GTX 670, n = 1024, float): naive 156 ms, tiled 17 ms.
constexpr double kLectureNaiveMs = 156.0;
constexpr double kLectureTiledMs = 17.0;

}  // namespace tessera::bench
