// `tessera bench mg`: (a) the thesis's tables on today's hardware: 8191^2
// float, 10 V(0,nu) cycles and the smoother alone for nu in {2,4,8,16,128};
// (b) the modern solver: 2D 8191^2 and 3D 511^3 FP64, time per V(1,1) and per
// FMG solve, DOF/s, and bytes against the byte models of anchors-multigrid.md
// §5 and the copy bandwidth measured in the same run; (c) the streaming
// (out-of-core) thesis mode: 8191^2, 10 V(0,nu) cycles with a device budget of
// a quarter of the problem, and the thesis's transfer-rate table (four paths,
// write / read / both, Q = 1..4).
#pragma once
#include <memory>

#include "bench/harness.hpp"

namespace tessera::bench {

struct MgBenchOptions {
  long n2d = 8191;     ///< thesis and modern 2D side
  long n3d = 511;      ///< modern 3D side (c*2^k-1: 511 = 2^9-1 stands in for 512)
  bool quick = false;  ///< nu in {2,16} only
  TimingOptions timing{1, 5};
  bool streaming = true;          ///< the streaming rows and the transfer table
  double budget_fraction = 0.25;  ///< streaming device budget / problem bytes
};

DeviceReport run_mg(const std::shared_ptr<Device>& device, const MgBenchOptions& opt);

/// Published thesis figures (i5-750 vs HD 6870, 8191^2, 10 cycles), seconds.
struct ThesisMgFigure {
  int nu;
  double cpu_s, gpu_s;
};
constexpr ThesisMgFigure kThesisMgFigures[] = {{2, 7.56, 4.2}, {16, 36.38, 6.06}};

/// The thesis's transfer table (§5.2.2, HD 6870 on PCIe 2.0, 4 queues), GB/s.
struct ThesisTransferFigure {
  const char* path;
  double write, read, both;
};
constexpr ThesisTransferFigure kThesisTransferFigures[] = {{"rect", 0.93, 2.17, 1.43},
                                                           {"pinned", 5.91, 6.1, 6.0},
                                                           {"contiguous", 3.16, 4.09, 3.82},
                                                           {"staged", 3.96, 4.13, 3.97}};

}  // namespace tessera::bench
