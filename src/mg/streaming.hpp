// The thesis's streaming (out-of-core) multigrid (§5, "Realisierung eines
// Mehrgitterverfahrens in OpenCL"): every level's x and b live in host
// memory; each operation streams tiles ("slices") through a fixed
// device-memory budget over Q in-order queues round-robin, so transfers of
// one tile overlap computation of others. Same cycle and the same per-point
// operations in the same order as ThesisMultigrid (the whole grid resident
// on the device), hence bitwise equal results for any tiling.
//
// Per cycle: fused restriction passes (residual + up to `depth` levels of
// eq. 2.4 per device visit, every level's tile read back), the 1x1 solve,
// then per level one fused prolongation + nu-step smoothing pass (redundant
// halos: one upload and one download per tile for nu steps). Geometry:
// streaming_plan.hpp; transfers: streaming_transfer.hpp.
#pragma once
#include <cstddef>
#include <memory>
#include <vector>

#include "mg/kernels/mg_kernels.hpp"
#include "mg/kernels/mg_stream_kernels.hpp"
#include "mg/streaming_plan.hpp"
#include "mg/streaming_transfer.hpp"

namespace tessera::mg {

struct StreamingOptions {
  /// Device memory for tiles, bytes: Q slots of three equal blocks (as the
  /// thesis). 0: half the device's memory, at most what the problem needs.
  std::size_t budget_bytes = 0;
  int queues = 4;
  stream::TransferPath transfer = stream::TransferPath::staged;
  /// Output tile of the smoother (points); 0: the largest that fits.
  long tile_w = 0, tile_h = 0;
  /// Levels restricted per device visit; 0: as many as fit.
  int depth = 0;
  /// Cross-cycle fusion (§5.5): the finest smoothing of one cycle and the
  /// first restriction pass of the next in one device visit (when it fits).
  bool fuse_cycles = true;
  /// Smooth with the thesis's local-memory row cache (kernel_smoothing_cache,
  /// mg_stream_cache.h): the same bits as the plain Jacobi kernel.
  bool row_cache = false;
};

template <class T>
class StreamingMultigrid {
 public:
  /// w × h interior unknowns, sides 2^k - 1 (as ThesisMultigrid). Throws
  /// UsageError when the budget cannot hold even one tile of some operation.
  StreamingMultigrid(std::shared_ptr<Device> device, long w, long h, int nu,
                     StreamingOptions opt = {});

  void set_rhs(const std::vector<T>& b);  ///< w*h values, row-major
  void set_solution(const std::vector<T>& x);
  std::vector<T> solution() const;
  /// One V(0,nu) cycle.
  void cycle();
  /// `steps` Jacobi steps on the finest level (one streamed pass).
  void smooth(int steps);
  /// ||b - A x||_2 on the finest level, computed on the host in double.
  double residual_norm() const;

  int levels() const { return static_cast<int>(levels_.size()); }
  const Dims& dims(int level) const { return levels_[static_cast<std::size_t>(level)].d; }
  long tile_w() const { return tile_w_; }
  long tile_h() const { return tile_h_; }
  /// Restriction levels per pass actually used (the first pass's).
  int depth() const { return passes_.empty() ? 0 : passes_.front().depth; }
  /// Whether cycles fuse the finest smoothing with the next restriction.
  bool fuses_cycles() const { return fused_cw_ > 0; }
  std::size_t device_bytes() const;   ///< device memory of the blocks
  std::size_t problem_bytes() const;  ///< host memory of every level's b, x, x'
  const stream::TransferCounts& transfers() const { return streamer_->counts(); }
  Device& device() const { return *device_; }

 private:
  struct Level {
    Dims d;
    stream::HostArray<T> b, xs, xd;  // halo layout of mg_grid.h (sx = nx + 2)
  };
  struct Pass {
    int from, depth;
    long cw, ch;  // coarse tile size on level from + depth
  };
  /// nu Jacobi steps on level n into xd, then swap; with `from_coarse`, the
  /// prolongation of level n + 1 first (+= on the finest, = elsewhere).
  void smooth_pass(std::size_t n, int nu, bool from_coarse);
  void restriction_pass(const Pass& p);
  void fused_finest_pass();
  struct SmoothTile {
    stream::TileArray a[2], b;  // x ping-pong (blocks 0, 1) and b (block 2)
    int result;                 // the block holding x after the last step
  };
  /// Uploads and smoothing of one tile with output ti x tj (downloads are the caller's).
  SmoothTile enqueue_smoothing(stream::Slot<T>& s, std::size_t n, int nu, bool from_coarse,
                               stream::Span ti, stream::Span tj);
  /// `depth` restrictions of src0 (level `from`) into `block`, every level's
  /// owned points read back.
  void enqueue_pyramid(stream::Slot<T>& s, int from, int depth, stream::Span ti, stream::Span tj,
                       const stream::TileArray& src0, int block);
  long required_smoothing(long m, long t, int nu, bool coarse) const;
  void plan(const StreamingOptions& opt);

  std::shared_ptr<Device> device_;
  int nu_;
  bool row_cache_;  // StreamingOptions::row_cache
  std::vector<Level> levels_;
  std::vector<Pass> passes_;
  long tile_w_ = 0, tile_h_ = 0;
  long fused_cw_ = 0, fused_ch_ = 0;  // cross-cycle fusion tiles (0: off or does not fit)
  bool restricted_ = false;           // the first restriction pass is done for the current x
  std::unique_ptr<stream::Streamer<T>> streamer_;
};

}  // namespace tessera::mg
