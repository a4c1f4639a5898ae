// CUDA launchers of the multigrid kernels: one thread per interior point of
// the level being written; the mathematics and stencil gathers are in
// mg_point.h.
#include "backends/cuda/cuda_check.hpp"
#include "backends/cuda/cuda_device.hpp"
#include "mg/kernels/mg_kernels.hpp"
#include "mg/kernels/mg_point.hpp"

#include "core/kernels/portable.h"  // at file scope: before each_precision.h

namespace tessera::mg::tiles {
#define TS_POINT_HEADER "mg/kernels/mg_tiles.h"
#include "core/kernels/each_precision.h"
}  // namespace tessera::mg::tiles

namespace tessera::mg::kernels {

namespace {

using namespace point;

// The level written, by value in kernel parameters.
struct Level {
  long nx, ny, nz, sx, sy;
  int dim;
};

Level level(const Dims& d) { return {d.nx, d.ny, d.dim == 3 ? d.nz : 1, d.sx(), d.sy(), d.dim}; }

struct Point {
  long i, j, k, c;
  bool inside;
};
__device__ Point point_of(const Level& L) {
  Point p;
  p.i = long(blockIdx.x) * blockDim.x + threadIdx.x;
  p.j = long(blockIdx.y) * blockDim.y + threadIdx.y;
  p.k = blockIdx.z;
  p.inside = p.i < L.nx && p.j < L.ny;
  p.c = TS_MG_IDX(p.i, p.j, p.k, L.sx, L.sy, L.dim == 3 ? 1 : 0);
  return p;
}

template <class T>
__global__ void thesis_jacobi_k(Level L, const T* __restrict__ b, const T* __restrict__ xs, T* xd) {
  Point p = point_of(L);
  if (!p.inside) return;
  const long c = p.c;
  xd[c] = ts_mg_thesis_jacobi(b[c], xs[c - 1], xs[c + 1], xs[c - L.sx], xs[c + L.sx]);
}

template <class T>
__global__ void thesis_residual_k(Level L, const T* __restrict__ b, const T* __restrict__ x, T* r) {
  Point p = point_of(L);
  if (!p.inside) return;
  const long c = p.c;
  r[c] = ts_mg_thesis_residual(b[c], x[c], x[c - 1], x[c + 1], x[c - L.sx], x[c + L.sx]);
}

template <class T>
__global__ void thesis_restrict_k(Level L, long fsx, long fsy, const T* __restrict__ src, T* bc) {
  Point p = point_of(L);
  if (p.inside) bc[p.c] = ts_mg_thesis_restrict_at(src, p.i, p.j, fsx, fsy);
}

template <class T>
__global__ void thesis_prolong_k(Level L, long csx, long csy, bool accumulate, T* xf,
                                 const T* __restrict__ xc) {
  Point p = point_of(L);
  if (!p.inside) return;
  const T v = ts_mg_thesis_prolong_at(xc, p.i, p.j, csx, csy);
  xf[p.c] = accumulate ? xf[p.c] + v : v;
}

template <class T>
__global__ void jacobi_k(Level L, T omega, const T* __restrict__ b, const T* __restrict__ xs,
                         T* xd) {
  Point p = point_of(L);
  if (!p.inside) return;
  xd[p.c] = ts_mg_jacobi_at(b, xs, p.c, L.sx, L.sy, L.dim, omega);
}

template <class T>
__global__ void gauss_seidel_color_k(Level L, int color, int zero, const T* __restrict__ b, T* x) {
  Point p = point_of(L);
  if (!p.inside || ((p.i + p.j + p.k) & 1) != color) return;
  x[p.c] = ts_mg_gauss_seidel_at(b, x, p.c, L.sx, L.sy, L.dim, zero);
}

// The storage pitches of a level (Dims::px, py, ph; ph 0: natural layout).
struct Pitch {
  long x, y, h;
};
Pitch pitch(const Dims& d) { return {d.px(), d.py(), d.ph()}; }

// r in the natural layout of L; b and x in storage s.
template <class T>
__global__ void residual_k(Level L, Pitch s, const T* __restrict__ b, const T* __restrict__ x,
                           T* r) {
  Point p = point_of(L);
  if (p.inside) r[p.c] = ts_mg_residual_any(b, x, p.i, p.j, p.k, s.x, s.y, s.h, L.dim);
}

// L: the coarse level (natural sizes); cs, fs: the coarse and fine storage.
template <class T>
__global__ void restrict_residual_k(Level L, Pitch cs, Pitch fs, int red_only,
                                    const T* __restrict__ b, const T* __restrict__ x, T* bc) {
  Point p = point_of(L);
  if (p.inside)
    bc[ts_mg_index(p.i, p.j, p.k, cs.x, cs.y, cs.h, L.dim)] =
        ts_mg_restrict_residual_at(b, x, p.i, p.j, p.k, fs.x, fs.y, fs.h, L.dim, red_only);
}

// Natural fine level L, every point (color -1) or one colour's.
template <class T>
__global__ void prolong_add_k(Level L, Pitch cs, int color, T* xf, const T* __restrict__ ec) {
  Point p = point_of(L);
  if (!p.inside || (color >= 0 && ((p.i + p.j + p.k) & 1) != color)) return;
  xf[p.c] = xf[p.c] + ts_mg_prolong_at(ec, p.i, p.j, p.k, cs.x, cs.y, cs.h, L.dim);
}

// natural (L) <-> split (s)
template <class T>
__global__ void convert_split_k(Level L, Pitch s, bool to_split, const T* __restrict__ src,
                                T* dst) {
  Point p = point_of(L);
  if (!p.inside) return;
  const long q = ts_mg_at3(p.i, p.j, p.k, s.x, s.y, s.h);
  if (to_split)
    dst[q] = src[p.c];
  else
    dst[p.c] = src[q];
}

// Split levels: one thread per slot of a row of one colour (mg_grid.h),
// marching planes k0 .. k1 - 1 (kernels::Tuning::slot_planes); the level's
// sizes and storage pitches.
struct Slot {
  long m, j, k0, k1;
  bool inside;
};
__device__ Slot slot_of(long ny, long nz, int planes) {
  Slot s;
  s.m = long(blockIdx.x) * blockDim.x + threadIdx.x;
  s.j = long(blockIdx.y) * blockDim.y + threadIdx.y;
  s.k0 = long(blockIdx.z) * planes;
  s.k1 = s.k0 + planes < nz ? s.k0 + planes : nz;
  s.inside = s.j < ny;
  return s;
}

// f(k) for the planes of slot q, in order; the loop kept rolled (unrolled,
// the red sweep below took 48 registers in FP64 instead of 40)
template <class F>
__device__ void for_each_plane(const Slot& q, F f) {
  if (!q.inside) return;
#pragma unroll 1
  for (long k = q.k0; k < q.k1; ++k) f(k);
}

template <class T>
__global__ void gauss_seidel_split_k(long nx, long ny, long nz, Pitch s, int planes, int color,
                                     int zero, const T* __restrict__ b, T* x) {
  const Slot q = slot_of(ny, nz, planes);
  for_each_plane(q, [&](long k) {
    ts_mg_gauss_seidel_split(b, x, q.m, q.j, k, color, zero, nx, s.x, s.y, s.h);
  });
}

// The red half-sweep reading x + P e at its black neighbours (mg_point.h);
// cs: the coarse level's storage pitches.
// Bounded to six groups of 256 per SM (40 registers, unspilled), the
// occupancy of the one-plane kernel before the march over planes.
template <class T>
__global__ void __launch_bounds__(256, 6)
    gauss_seidel_red_prolonged_k(long nx, long ny, long nz, Pitch s, int planes, Pitch cs,
                                 const T* __restrict__ b, T* x, const T* __restrict__ ec) {
  const Slot q = slot_of(ny, nz, planes);
  for_each_plane(q, [&](long k) {
    ts_mg_gauss_seidel_red_prolonged(b, x, ec, q.m, q.j, k, nx, s.x, s.y, s.h, cs.x, cs.y, cs.h);
  });
}

// Split levels: x += P e at one colour's points, one thread per slot
template <class T>
__global__ void prolong_slot_k(long nx, long ny, long nz, Pitch s, int planes, Pitch cs, int color,
                               T* x, const T* __restrict__ ec) {
  const Slot q = slot_of(ny, nz, planes);
  for_each_plane(q, [&](long k) {
    ts_mg_prolong_slot(x, ec, q.m, q.j, k, color, nx, s.x, s.y, s.h, cs.x, cs.y, cs.h);
  });
}

// 3D prolongation by coarse cells (mg_point.h): one thread per cell column
// (I, J), I = -1 .. cnx - 1, marching `cells` cells; f: the fine level.
// MinBlocks 12 bounds it to 40 registers (28 bytes of spills in FP64)
// against the compiler's 52 (kernels::Tuning::prolong_min_blocks).
template <class T, int MinBlocks>
__global__ void __launch_bounds__(TS_MG_PX* TS_MG_PY, MinBlocks)
    prolong_cells_k(Level f, Pitch fs, Level c, Pitch cs, int colours, int cells, T* x,
                    const T* __restrict__ ec) {
  const long I = long(blockIdx.x) * blockDim.x + threadIdx.x - 1;
  const long J = long(blockIdx.y) * blockDim.y + threadIdx.y - 1;
  const long K0 = long(blockIdx.z) * cells - 1;
  if (I >= c.nx || J >= c.ny) return;
  ts_mg_prolong_cells(x, ec, I, J, K0, K0 + cells < c.nz ? K0 + cells : c.nz, colours, f.nx, f.ny,
                      f.nz, fs.x, fs.y, fs.h, cs.x, cs.y, cs.h);
}

// Prolong: the coarse-grid correction fused in (a template argument, so that
// the plain sweep is compiled without its registers). Registers allow four
// groups of 256 per SM (60); bounds of five or six groups spill and were
// slower (511^3 FP64 on an H100: 1.82 ms, 2.35 with five, 3.90 with six).
template <class T, int Prolong>
__global__ void __launch_bounds__(TS_MG_FX* TS_MG_FY, 1024 / (TS_MG_FX * TS_MG_FY))
    gauss_seidel_fused_k(Level L, long csx, long csy, const T* __restrict__ b,
                         const T* __restrict__ xo, T* __restrict__ xn, const T* __restrict__ ec) {
  constexpr int plane = TS_MG_FX * TS_MG_FY * TS_MG_FR;
  __shared__ T old[2 * plane], red[plane];
  tiles::ts_mg_rbgs_fused_tile(b, xo, xn, ec, Prolong, csx, csy, L.nx, L.ny, L.nz, L.sx, L.sy,
                               int(threadIdx.x), int(threadIdx.y), long(blockIdx.x),
                               long(blockIdx.y), long(blockIdx.z), old, red);
}

// 3D residual + restriction, one block per coarse tile (mg_tiles.h). Six
// groups per SM, as many as its local memory allows: 40 registers, no
// spills (the compiler's choice, 48, gives five; a bound of one let it take
// 66 and three groups: 1.39 ms against 1.15 at 511^3 FP64 on an H100).
// FineSplit, CoarseSplit: the levels' storage, RedOnly: the red points'
// residuals only, fixed per instantiation.
template <class T, int FineSplit, int CoarseSplit, int RedOnly>
__global__ void __launch_bounds__(TS_MG_RX* TS_MG_RY, 6)
    restrict_residual_tile_k(Level C, Pitch cs, long fnx, long fny, Pitch fs, int lean, int planes,
                             const T* __restrict__ b, const T* __restrict__ x, T* bc) {
  __shared__ T R[3 * TS_MG_RPLANE];
  tiles::ts_mg_restrict_residual_tile(b, x, bc, fnx, fny, fs.x, fs.y, FineSplit, fs.h, C.nx, C.ny,
                                      C.nz, cs.x, cs.y, CoarseSplit, cs.h, RedOnly, lean, planes,
                                      int(threadIdx.x), int(threadIdx.y), long(blockIdx.x),
                                      long(blockIdx.y), long(blockIdx.z), R);
}

template <class T>
const T* cp(const Buffer<T>& b) {
  return cuda::ptr<T>(b.handle());
}
template <class T>
T* mp(Buffer<T>& b) {
  return cuda::ptr<T>(b.handle());
}

// Launches `kernel` over the interior of `d` on q's stream.
template <class K, class... Args>
void launch(Queue& q, const Dims& d, const char* name, K kernel, Args... args) {
  auto& cq = cuda::queue_of(q);
  cuda::DeviceGuard guard(cq.ordinal());
  Level L = level(d);
  dim3 block(32, d.dim == 3 ? 4 : 8, 1);
  dim3 grid(unsigned((L.nx + block.x - 1) / block.x), unsigned((L.ny + block.y - 1) / block.y),
            unsigned(L.nz));
  kernel<<<grid, block, 0, cq.native()>>>(L, args...);
  cuda::check_launch(name);
}

// Launches `kernel` over the slots of the rows of split level `d` (one
// slot per thread, each marching Tuning::slot_planes planes).
template <class K, class... Args>
void launch_slots(Queue& q, const Dims& d, const char* name, K kernel, Args... args) {
  auto& cq = cuda::queue_of(q);
  cuda::DeviceGuard guard(cq.ordinal());
  const unsigned rows = unsigned(checked_tuning().slot_rows);
  const dim3 block(256 / rows, rows, 1);
  const int planes = checked_tuning().slot_planes;
  const dim3 grid(unsigned((slots(d) + block.x - 1) / block.x),
                  unsigned((d.ny + block.y - 1) / block.y), unsigned((d.nz + planes - 1) / planes));
  kernel<<<grid, block, 0, cq.native()>>>(d.nx, d.ny, d.nz, pitch(d), planes, args...);
  cuda::check_launch(name);
}

}  // namespace

template <class T>
void thesis_jacobi(CudaTag, Queue& q, const Dims& d, const Buffer<T>& b, const Buffer<T>& xs,
                   Buffer<T>& xd) {
  launch(q, d, "mg thesis_jacobi", thesis_jacobi_k<T>, cp(b), cp(xs), mp(xd));
}
template <class T>
void thesis_residual(CudaTag, Queue& q, const Dims& d, const Buffer<T>& b, const Buffer<T>& x,
                     Buffer<T>& r) {
  launch(q, d, "mg thesis_residual", thesis_residual_k<T>, cp(b), cp(x), mp(r));
}
template <class T>
void thesis_restrict(CudaTag, Queue& q, const Dims& fine, const Buffer<T>& src, const Dims& coarse,
                     Buffer<T>& bc) {
  launch(q, coarse, "mg thesis_restrict", thesis_restrict_k<T>, fine.sx(), fine.sy(), cp(src),
         mp(bc));
}
template <class T>
void thesis_prolong(CudaTag, Queue& q, const Dims& fine, Buffer<T>& xf, const Dims& coarse,
                    const Buffer<T>& xc, bool accumulate) {
  launch(q, fine, "mg thesis_prolong", thesis_prolong_k<T>, coarse.sx(), coarse.sy(), accumulate,
         mp(xf), cp(xc));
}
template <class T>
void jacobi(CudaTag, Queue& q, const Dims& d, T omega, const Buffer<T>& b, const Buffer<T>& xs,
            Buffer<T>& xd) {
  launch(q, d, "mg jacobi", jacobi_k<T>, omega, cp(b), cp(xs), mp(xd));
}
template <class T>
void gauss_seidel_color(CudaTag, Queue& q, const Dims& d, int color, const Buffer<T>& b,
                        Buffer<T>& x, bool zero) {
  if (d.split)
    return launch_slots(q, d, "mg gauss_seidel_split", gauss_seidel_split_k<T>, color, int(zero),
                        cp(b), mp(x));
  launch(q, d, "mg gauss_seidel_color", gauss_seidel_color_k<T>, color, int(zero), cp(b), mp(x));
}
template <class T>
void gauss_seidel_red_prolonged(CudaTag, Queue& q, const Dims& d, const Buffer<T>& b, Buffer<T>& x,
                                const Dims& coarse, const Buffer<T>& ec) {
  require_split_pair(d, coarse, "gauss_seidel_red_prolonged");
  launch_slots(q, d, "mg gauss_seidel_red_prolonged", gauss_seidel_red_prolonged_k<T>,
               pitch(coarse), cp(b), mp(x), cp(ec));
}
template <class T>
void gauss_seidel_fused(CudaTag, Queue& q, const Dims& d, const Buffer<T>& b, const Buffer<T>& xo,
                        Buffer<T>& xn, const Buffer<T>* ec, const Dims* coarse) {
  auto& cq = cuda::queue_of(q);
  cuda::DeviceGuard guard(cq.ordinal());
  dim3 block(TS_MG_FX, TS_MG_FY, 1);
  const FusedGrid g = fused_grid(d);
  dim3 grid(unsigned(g.x), unsigned(g.y), unsigned(g.z));
  auto kernel = ec ? gauss_seidel_fused_k<T, 1> : gauss_seidel_fused_k<T, 0>;
  kernel<<<grid, block, 0, cq.native()>>>(level(d), coarse ? coarse->sx() : 0,
                                          coarse ? coarse->sy() : 0, cp(b), cp(xo), mp(xn),
                                          ec ? cp(*ec) : cp(xo));
  cuda::check_launch("mg gauss_seidel_fused");
}

template <class T>
void residual(CudaTag, Queue& q, const Dims& d, const Buffer<T>& b, const Buffer<T>& x,
              Buffer<T>& r) {
  launch(q, d.natural(), "mg residual", residual_k<T>, pitch(d), cp(b), cp(x), mp(r));
}
template <class T>
void restrict_residual(CudaTag, Queue& q, const Dims& fine, const Buffer<T>& b, const Buffer<T>& x,
                       const Dims& coarse, Buffer<T>& bc, bool red_only) {
  if (tiled_restriction(fine, coarse)) {
    auto& cq = cuda::queue_of(q);
    cuda::DeviceGuard guard(cq.ordinal());
    const Level C = level(coarse);
    const int planes = checked_tuning().restrict_planes;
    const dim3 block(TS_MG_RX, TS_MG_RY, 1);
    const dim3 grid(unsigned((C.nx + TS_MG_RX - 1) / TS_MG_RX),
                    unsigned((C.ny + TS_MG_RY - 1) / TS_MG_RY),
                    unsigned((C.nz + planes - 1) / planes));
    using Kernel = void (*)(Level, Pitch, long, long, Pitch, int, int, const T*, const T*, T*);
    static const Kernel kernels[2][2][2] = {
        {{restrict_residual_tile_k<T, 0, 0, 0>, restrict_residual_tile_k<T, 0, 0, 1>},
         {restrict_residual_tile_k<T, 0, 1, 0>, restrict_residual_tile_k<T, 0, 1, 1>}},
        {{restrict_residual_tile_k<T, 1, 0, 0>, restrict_residual_tile_k<T, 1, 0, 1>},
         {restrict_residual_tile_k<T, 1, 1, 0>, restrict_residual_tile_k<T, 1, 1, 1>}}};
    const Kernel kernel = kernels[fine.split][coarse.split][red_only];
    kernel<<<grid, block, 0, cq.native()>>>(C, pitch(coarse), fine.nx, fine.ny, pitch(fine),
                                            int(lean_restriction(fine)), planes, cp(b), cp(x),
                                            mp(bc));
    return cuda::check_launch("mg restrict_residual_tile");
  }
  launch(q, coarse.natural(), "mg restrict_residual", restrict_residual_k<T>, pitch(coarse),
         pitch(fine), int(red_only), cp(b), cp(x), mp(bc));
}
template <class T>
void prolong_add(CudaTag, Queue& q, const Dims& fine, Buffer<T>& xf, const Dims& coarse,
                 const Buffer<T>& ec, int color) {
  if (fine.split && checked_tuning().prolong_slots) {
    require_cube_offsets(coarse, "prolong_slot");
    for (int c : {0, 1})
      if (color < 0 || color == c)
        launch_slots(q, fine, "mg prolong_slot", prolong_slot_k<T>, pitch(coarse), c, mp(xf),
                     cp(ec));
    return;
  }
  if (fine.split) {
    auto& cq = cuda::queue_of(q);
    cuda::DeviceGuard guard(cq.ordinal());
    const Level c = level(coarse);
    const int cells = checked_tuning().prolong_cells;
    const dim3 block(TS_MG_PX, TS_MG_PY, 1);
    const dim3 grid(unsigned((c.nx + 1 + TS_MG_PX - 1) / TS_MG_PX),
                    unsigned((c.ny + 1 + TS_MG_PY - 1) / TS_MG_PY),
                    unsigned((c.nz + 1 + cells - 1) / cells));
    auto kernel =
        checked_tuning().prolong_min_blocks == 12 ? prolong_cells_k<T, 12> : prolong_cells_k<T, 1>;
    kernel<<<grid, block, 0, cq.native()>>>(level(fine), pitch(fine), c, pitch(coarse),
                                            color < 0 ? 3 : 1 << color, cells, mp(xf), cp(ec));
    return cuda::check_launch("mg prolong_cells");
  }
  launch(q, fine, "mg prolong_add", prolong_add_k<T>, pitch(coarse), color, mp(xf), cp(ec));
}
template <class T>
void convert_split(CudaTag, Queue& q, const Dims& d, const Buffer<T>& src, Buffer<T>& dst,
                   bool to_split) {
  launch(q, d.natural(), "mg convert_split", convert_split_k<T>, pitch(d.as_split()), to_split,
         cp(src), mp(dst));
}

#define TS_INSTANTIATE(T)                                                                          \
  template void thesis_jacobi<T>(CudaTag, Queue&, const Dims&, const Buffer<T>&, const Buffer<T>&, \
                                 Buffer<T>&);                                                      \
  template void thesis_residual<T>(CudaTag, Queue&, const Dims&, const Buffer<T>&,                 \
                                   const Buffer<T>&, Buffer<T>&);                                  \
  template void thesis_restrict<T>(CudaTag, Queue&, const Dims&, const Buffer<T>&, const Dims&,    \
                                   Buffer<T>&);                                                    \
  template void thesis_prolong<T>(CudaTag, Queue&, const Dims&, Buffer<T>&, const Dims&,           \
                                  const Buffer<T>&, bool);                                         \
  template void jacobi<T>(CudaTag, Queue&, const Dims&, T, const Buffer<T>&, const Buffer<T>&,     \
                          Buffer<T>&);                                                             \
  template void gauss_seidel_color<T>(CudaTag, Queue&, const Dims&, int, const Buffer<T>&,         \
                                      Buffer<T>&, bool);                                           \
  template void gauss_seidel_red_prolonged<T>(CudaTag, Queue&, const Dims&, const Buffer<T>&,      \
                                              Buffer<T>&, const Dims&, const Buffer<T>&);          \
  template void gauss_seidel_fused<T>(CudaTag, Queue&, const Dims&, const Buffer<T>&,              \
                                      const Buffer<T>&, Buffer<T>&, const Buffer<T>*,              \
                                      const Dims*);                                                \
  template void residual<T>(CudaTag, Queue&, const Dims&, const Buffer<T>&, const Buffer<T>&,      \
                            Buffer<T>&);                                                           \
  template void restrict_residual<T>(CudaTag, Queue&, const Dims&, const Buffer<T>&,               \
                                     const Buffer<T>&, const Dims&, Buffer<T>&, bool);             \
  template void prolong_add<T>(CudaTag, Queue&, const Dims&, Buffer<T>&, const Dims&,              \
                               const Buffer<T>&, int);                                             \
  template void convert_split<T>(CudaTag, Queue&, const Dims&, const Buffer<T>&, Buffer<T>&, bool);
TS_INSTANTIATE(float)
TS_INSTANTIATE(double)
#undef TS_INSTANTIATE

}  // namespace tessera::mg::kernels
