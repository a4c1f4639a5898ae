// The multigrid kernels, declared once per backend (CpuTag, OpenCLTag,
// CudaTag). Definitions: mg_cpu.cpp, mg_opencl.cpp (+ mg.cl), mg_cuda.cu.
// All arrays use the halo layout of mg_grid.h, a 3D level with `split` set
// its colour-split form (red and black points stored apart, mg_point.h);
// kernels write interior points only, so halos stay zero.
#pragma once
#include <cstddef>

#include "core/buffer.hpp"
#include "core/dispatch.hpp"
#include "mg/kernels/mg_grid.h"

namespace tessera::mg {

/// The shape of one level: nx × ny (× nz) interior points, 2D or 3D.
struct Dims {
  long nx = 1, ny = 1, nz = 1;
  int dim = 2;
  /// 3D only: the red and the black points stored apart, each colour's
  /// points of a row in hx() slots (mg_point.h, ts_mg_at3). A red-black sweep
  /// then streams 24 bytes per point in FP64 (model E) from two plain kernels.
  bool split = false;
  long sx() const { return nx + 2; }           ///< natural layout: x pitch
  long sy() const { return sx() * (ny + 2); }  ///< natural layout: plane pitch
  int kh() const { return dim == 3 ? 1 : 0; }
  long points() const { return nx * ny * (dim == 3 ? nz : 1); }
  /// Split layout: slots per row and colour (the halo ring included).
  long hx() const { return (nx + 3) / 2; }
  /// Split layout: elements per colour (black starts there).
  long half() const { return hx() * (ny + 2) * (nz + 2); }
  /// Pitches of the storage in use: x, plane, colour (0: natural layout).
  long px() const { return split ? hx() : sx(); }
  long py() const { return split ? hx() * (ny + 2) : sy(); }
  long ph() const { return split ? half() : 0; }
  std::size_t storage() const {
    return static_cast<std::size_t>(split ? 2 * half() : sy() * (dim == 3 ? nz + 2 : 1));
  }
  /// The same level in the natural / the split layout.
  Dims natural() const { return with_split(false); }
  Dims as_split() const { return with_split(true); }
  Dims with_split(bool s) const {
    Dims d = *this;
    d.split = s;
    return d;
  }
};

namespace kernels {

/// Slots per row and colour that can hold an interior point of split level
/// `d` (X = i + 1 <= nx sits in slot X >> 1): the slot kernels' x extent. The
/// last of the hx() slots holds only the halo (odd nx), so launching hx()
/// would idle a third of the threads at 511 (257 slots, blocks of 128).
inline long slots(const Dims& d) { return (d.nx >> 1) + 1; }

/// Work-groups of the fused red-black sweep over `d` (mg_tiles.h): regions of
/// TS_MG_FX x TS_MG_FY * TS_MG_FR columns overlapping by the two-cell ring,
/// TS_MG_TILE_Z planes each.
struct FusedGrid {
  long x, y, z;
};
FusedGrid fused_grid(const Dims& d);

/// Launch shapes of the device kernels that leave every result's bits as
/// they are, process-wide, so that `tessera bench mg-kernels` can sweep
/// them in one build. Defaults from `tessera bench mg-kernels` on an H200 at 511^3 FP64
/// (docs/mg-history.md): the prolongation to black points took 0.61 / 0.57 / 0.53 ms
/// with 1 / 8 / 16 cells per work-item and 40 registers, 0.57 ms with 16 and
/// the compiler's 52; the restriction 0.66-0.69 ms from 4 to 32 planes.
struct Tuning {
  int prolong_cells = TS_MG_PZ;    ///< cells each work-item of the cell prolongation marches
  int restrict_planes = TS_MG_RZ;  ///< coarse planes each group of the tiled restriction marches
  /// CUDA: the cell prolongation compiled for 12 groups of 128 per SM (40
  /// registers, 28 bytes of spills in FP64); 1: the compiler's choice (52)
  int prolong_min_blocks = 12;
  /// split levels: prolong one colour by slots (one work-item per fine
  /// point, as the sweeps; ts_mg_prolong_slot) instead of by coarse cells
  /// (ts_mg_prolong_cells, shaped by the two fields above). H200, 511^3
  /// FP64 to black points: 0.41 against 0.53 ms (CUDA), 0.43 against 0.56
  /// (NVIDIA OpenCL). Used where the correction is not read inside the red
  /// sweep (Options::prolong_in_red_sweep): FMG, V(nu, 0)
  bool prolong_slots = true;
  /// the tiled restriction of a split level's red residuals: both fine
  /// planes of a coarse plane in one loop (fewer idle work-items), each
  /// point a 32-bit offset (ts_mg_red_residual_planes_split). H200, 511^3
  /// FP64: CUDA 0.61-0.62 ms against 0.68-0.69, NVIDIA OpenCL 0.67 against 0.81
  bool restrict_lean = true;
  /// rows (j) per work-group of the kernels over a split level's slots
  /// (256 work-items: 256 / rows slots of each row); 1, 2, 4 or 8
  int slot_rows = 8;
  /// planes (k) each work-item of those kernels marches, so that its group
  /// finds the planes k - 1 and k + 1 of its neighbours in L1 from the steps
  /// before. With one plane per work-item Nsight Compute (H200) found the
  /// colour sweep L2-bound (93% of L2 throughput, 63% of DRAM, L1 hit rate
  /// 32%) and the red sweep with the correction L1-bound (86%). H200, 511^3
  /// FP64, CUDA, 8 planes and 8 rows: a colour sweep 0.41 ms (91% of copy)
  /// against 0.50, the red sweep with the correction 0.64 against 0.71-0.78,
  /// V(1,1) 2.97 against 3.25 ms
  int slot_planes = 8;
  /// coarse levels of at least this many points are restricted by tiles
  /// (tests set 0 to run the tiles on small grids)
  long tiled_min_points = TS_MG_TILED_MIN_POINTS;
};
Tuning& tuning();
/// tuning(), checked by the launchers: a count below 1 or a register bound
/// other than 1 or 12 (the two CUDA builds) is a UsageError naming the field.
const Tuning& checked_tuning();

/// Checks that `coarse` is the 3D coarsening of split level `fine` (what
/// gauss_seidel_red_prolonged needs) and that the coarse offsets its point
/// functions take in 32 bits (two planes and two rows, ts_mg_near_cube) fit;
/// an Error naming `what` otherwise.
void require_split_pair(const Dims& fine, const Dims& coarse, const char* what);
/// The second check alone (the prolongation by slots)
void require_cube_offsets(const Dims& coarse, const char* what);

/// Whether the tiled restriction takes the lean loop (Tuning::restrict_lean)
/// for a split fine level: it offsets rows of the group's region in 32 bits,
/// so a level with rows too long for that takes the other loop (same bits).
inline bool lean_restriction(const Dims& fine) {
  return checked_tuning().restrict_lean && (2 * TS_MG_RY + 1) * fine.px() <= 2147483647L;
}

/// Devices restrict 3D levels by tiles (mg_tiles.h) from
/// Tuning::tiled_min_points coarse points, by coarse points below.
inline bool tiled_restriction(const Dims& fine, const Dims& coarse) {
  return fine.dim == 3 && coarse.nx * coarse.ny * coarse.nz >= checked_tuning().tiled_min_points;
}

// Split levels (Dims::split): gauss_seidel_color, residual (r in the natural
// layout), restrict_residual (the coarse level may be split only when the
// fine one is) and prolong_add take either layout; the fused sweep and the
// thesis kernels take the natural one only.
#define TS_MG_DECLARE(Tag)                                                                        \
  /* thesis mode, 2D */                                                                           \
  template <class T>                                                                              \
  void thesis_jacobi(Tag, Queue& q, const Dims& d, const Buffer<T>& b, const Buffer<T>& xs,       \
                     Buffer<T>& xd);                                                              \
  template <class T>                                                                              \
  void thesis_residual(Tag, Queue& q, const Dims& d, const Buffer<T>& b, const Buffer<T>& x,      \
                       Buffer<T>& r);                                                             \
  template <class T>                                                                              \
  void thesis_restrict(Tag, Queue& q, const Dims& fine, const Buffer<T>& src, const Dims& coarse, \
                       Buffer<T>& bc);                                                            \
  template <class T>                                                                              \
  void thesis_prolong(Tag, Queue& q, const Dims& fine, Buffer<T>& xf, const Dims& coarse,         \
                      const Buffer<T>& xc, bool accumulate);                                      \
  /* modern mode, 2D and 3D */                                                                    \
  template <class T>                                                                              \
  void jacobi(Tag, Queue& q, const Dims& d, T omega, const Buffer<T>& b, const Buffer<T>& xs,     \
              Buffer<T>& xd);                                                                     \
  /* zero: x is zero on entry (the neighbour sums are +0 and not read; only                    \
   * for the first colour of a sweep, whose other colour is still zero) */  \
  template <class T>                                                                              \
  void gauss_seidel_color(Tag, Queue& q, const Dims& d, int color, const Buffer<T>& b,            \
                          Buffer<T>& x, bool zero = false);                                       \
  /* split level: the red half-sweep reading x + P ec at its black neighbours                   \
   * (mg_point.h; black x stays uncorrected: the black sweep overwrites it unread) */ \
  template <class T>                                                                              \
  void gauss_seidel_red_prolonged(Tag, Queue& q, const Dims& d, const Buffer<T>& b, Buffer<T>& x, \
                                  const Dims& coarse, const Buffer<T>& ec);                       \
  /* both colours in one pass, 3D, x_old -> x_new; with ec: x_old + P ec */                       \
  template <class T>                                                                              \
  void gauss_seidel_fused(Tag, Queue& q, const Dims& d, const Buffer<T>& b, const Buffer<T>& xo,  \
                          Buffer<T>& xn, const Buffer<T>* ec, const Dims* coarse);                \
  template <class T>                                                                              \
  void residual(Tag, Queue& q, const Dims& d, const Buffer<T>& b, const Buffer<T>& x,             \
                Buffer<T>& r);                                                                    \
  /* red_only: the black points' residuals taken as zero (after a red-black                     \
   * sweep ending with black; mg_point.h, ts_mg_restrict_residual_at) */ \
  template <class T>                                                                              \
  void restrict_residual(Tag, Queue& q, const Dims& fine, const Buffer<T>& b, const Buffer<T>& x, \
                         const Dims& coarse, Buffer<T>& bc, bool red_only);                       \
  /* color: -1 every fine point, 0 or 1 only that colour's (a split level                      \
   * before its red-black sweep needs only black corrected: red is overwritten unread) */  \
  template <class T>                                                                              \
  void prolong_add(Tag, Queue& q, const Dims& fine, Buffer<T>& xf, const Dims& coarse,            \
                   const Buffer<T>& ec, int color);                                               \
  /* a split level's data between the layouts: to_split natural -> split, else back */            \
  template <class T>                                                                              \
  void convert_split(Tag, Queue& q, const Dims& d, const Buffer<T>& src, Buffer<T>& dst,          \
                     bool to_split);

TS_MG_DECLARE(CpuTag)
TS_MG_DECLARE(OpenCLTag)
TS_MG_DECLARE(CudaTag)
#undef TS_MG_DECLARE

}  // namespace kernels
}  // namespace tessera::mg
