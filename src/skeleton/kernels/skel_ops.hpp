// The per-cell operations of the skeletons for the C++ backends (CPU loops and
// CUDA kernels): small structs, passed by value into the kernel, whose
// operator()(x, y, z) computes one cell (local owned coordinates) by calling
// the user's functor; BoxRuns and BoxListItems turn them into the functors
// the one launcher runs (launch::cpu_for_cells, core/launch/functor_cuda.cuh).
// Their mathematics is the user's, and the boundary modes' skel_boundary.h's.
#pragma once
#include <concepts>
#include <cstdint>
#include <type_traits>

#include "core/kernels/portable.h"
#include "core/launch/launch.hpp"
#include "skeleton/extents.hpp"
#include "skeleton/kernels/skel_access.h"  // TS_SKEL_Z_CELLS
#include "skeleton/kernels/skel_boundary.h"
#include "skeleton/layout.hpp"

namespace tessera::skeleton::kernels {

/// One part's storage of one field as a kernel sees it: `origin` points at
/// local owned cell (0, 0, 0) of component 0.
template <class T>
struct View {
  T* origin = nullptr;
  index_t sy = 0, sz = 0, cs = 0;  ///< strides of y, z and components
  TS_FN T& at(index_t x, index_t y, index_t z, int c = 0) const {
    return origin[c * cs + z * sz + y * sy + x];
  }
};

template <class T>
View<T> view_of(T* base, const PartLayout& L) {
  return {base + L.origin(), L.sy, L.sz, L.component_stride};
}

/// Boxes of cells to run over (local coordinates): one box, or up to six (a
/// frame around an inner box, or the ghost shell around the owned box) in one launch.
struct BoxList {
  Box box[6];
  int count = 0;
  index_t volume() const {
    index_t v = 0;
    for (int i = 0; i < count; ++i) v += box[i].volume();
    return v;
  }
};

enum class MapKind { map, map_index, zip, zip_index };

// The functor call with the index arity of the container (DA: i, DM: x, y,
// DC: x, y, z), Muesli's Index variants.
template <int D>
struct IndexCall;
template <>
struct IndexCall<1> {
  template <class F, class... V>
  TS_FN static auto call(const F& f, index_t x, index_t, index_t, const V&... v) {
    return f(x, v...);
  }
};
template <>
struct IndexCall<2> {
  template <class F, class... V>
  TS_FN static auto call(const F& f, index_t x, index_t y, index_t, const V&... v) {
    return f(x, y, v...);
  }
};
template <>
struct IndexCall<3> {
  template <class F, class... V>
  TS_FN static auto call(const F& f, index_t x, index_t y, index_t z, const V&... v) {
    return f(x, y, z, v...);
  }
};

/// map / mapIndex / zip / zipIndex (InPlace: `out` aliases `a`), every
/// component of the field.
template <class F, class T, class U, class R, MapKind K, int D>
struct MapOp {
  using functor = F;
  F f;
  View<const T> a;
  View<const U> b;  // zip only
  View<R> out;
  Index3 lo;  // global coordinates of local (0, 0, 0)
  int components;
  TS_FN void operator()(index_t x, index_t y, index_t z) const {
    for (int c = 0; c < components; ++c) store(x, y, z, compute(x, y, z, c), c);
  }
  // The split the CUDA box kernel uses to compute a run of cells (x, y, z + u)
  // before storing any (their loads in flight together; see skel_cuda.cuh):
  // where fast_run() says so, compute_run() + store_run() replace operator().
  using result = R;
  TS_FN bool fast_run(index_t, index_t, index_t, int) const { return components == 1; }
  TS_FN R compute_run(index_t x, index_t y, index_t z, int u) const { return compute(x, y, z + u); }
  TS_FN void store_run(index_t x, index_t y, index_t z, int u, const R& v) const {
    store(x, y, z + u, v);
  }
  TS_FN R compute(index_t x, index_t y, index_t z, int c = 0) const {
    const T& va = a.at(x, y, z, c);
    if constexpr (K == MapKind::map) {
      return f(va);
    } else if constexpr (K == MapKind::map_index) {
      return IndexCall<D>::call(f, lo[0] + x, lo[1] + y, lo[2] + z, va);
    } else if constexpr (K == MapKind::zip) {
      return f(va, b.at(x, y, z, c));
    } else {
      return IndexCall<D>::call(f, lo[0] + x, lo[1] + y, lo[2] + z, va, b.at(x, y, z, c));
    }
  }
  TS_FN void store(index_t x, index_t y, index_t z, const R& v, int c = 0) const {
    out.at(x, y, z, c) = v;
  }
};

/// The neighbour accessor of a stencil's cells: plain loads, no branches (the
/// ghost layers around the owned box hold what the boundary modes say).
template <class T>
struct InnerAccess {
  using value_type = T;
  const T* p;  // the cell being computed
  index_t sy, sz;
  index_t gx, gy, gz;
  TS_FN const T& operator()(int dx, int dy, int dz) const { return p[dz * sz + dy * sy + dx]; }
  TS_FN index_t pos(int a) const { return a == 0 ? gx : a == 1 ? gy : gz; }
};

/// Whether the skeleton operations of functor F were instantiated for CUDA
/// (in a .cu file, skel_cuda.cuh); TS_SKEL_CUDA_ENABLE(F) in a header the
/// calling code sees says so. Without it a C++ functor runs on the CPU, and
/// on a CUDA device the skeleton says what is missing instead of failing to link.
template <class F>
struct CudaEnabled : std::false_type {};
#define TS_SKEL_CUDA_ENABLE(F) \
  template <>                  \
  struct tessera::skeleton::kernels::CudaEnabled<F> : std::true_type {};

enum class BoundaryMode : int { neutral = 0, periodic = 1, clamp = 2, mirror = 3, user = 4 };
static_assert(int(BoundaryMode::neutral) == TS_SKEL_NEUTRAL &&
                  int(BoundaryMode::periodic) == TS_SKEL_PERIODIC &&
                  int(BoundaryMode::clamp) == TS_SKEL_CLAMP &&
                  int(BoundaryMode::mirror) == TS_SKEL_MIRROR &&
                  int(BoundaryMode::user) == TS_SKEL_USER,
              "skel_boundary.h numbers the modes as BoundaryMode does");

/// No user boundary function.
struct NoBoundaryFunction {
  template <class T>
  TS_FN T operator()(index_t, index_t, index_t, const T& neutral) const {
    return neutral;
  }
};

/// Where a stencil's neighbourhood leaves the domain: per-axis modes
/// (skel_boundary.h) and the neutral value.
template <class T>
struct BoundarySpec {
  ts_skel_bounds bounds;
  T neutral;
};

/// mapStencil, interior cells.
template <class F, class T>
struct StencilInnerOp {
  using functor = F;
  F f;
  View<const T> in;
  View<T> out;
  Index3 lo;
  TS_FN void operator()(index_t x, index_t y, index_t z) const {
    store_run(x, y, z, 0, compute_run(x, y, z, 0));
  }
  using result = T;
  TS_FN bool fast_run(index_t, index_t, index_t, int) const { return true; }
  // Cell (x, y, z + u) addressed from the run's first cell: the neighbour
  // addresses of the run's cells then fold to the same expressions, and the
  // compiler loads each shared neighbour once (as in the hand-written kernel).
  TS_FN T compute_run(index_t x, index_t y, index_t z, int u) const {
    const InnerAccess<T> s{
        &in.at(x, y, z) + u * in.sz, in.sy, in.sz, lo[0] + x, lo[1] + y, lo[2] + z + u};
    return f(s);
  }
  TS_FN void store_run(index_t x, index_t y, index_t z, int u, const T& v) const {
    (&out.at(x, y, z))[u * out.sz] = v;
  }
};

/// Fills the ghost cells of a stencil's input (local coordinates in the shell
/// around the owned box) that lie outside the global domain along an axis
/// without a halo wrap: each gets what a stencil would read there under the
/// boundary modes (skel_boundary.h's ts_skel_fill_source).
/// F, the stencil the fill serves, only names the instantiation: CUDA code is
/// instantiated per stencil (TS_SKEL_CUDA_STENCIL(F, T, B)), so a program
/// that enabled its stencil and boundary function has the fill too.
template <class F, class T, class B>
struct GhostFillOp {
  using functor = F;
  using boundary = B;
  B user;
  // By value: the address of a CUDA kernel parameter (the op) would be a
  // generic pointer the compiler must assume anything of.
  BoundarySpec<T> spec;
  View<T> field;
  Index3 lo;
  TS_FN void operator()(index_t x, index_t y, index_t z) const {
    const index_t g[3] = {lo[0] + x, lo[1] + y, lo[2] + z};
    index_t c[3], u[3] = {0, 0, 0};
    const ts_skel_bounds b = spec.bounds;
    const int m = ts_skel_fill_source(&b, g, c, u);
    if (m == TS_SKEL_NOT_GHOST) return;  // a halo cell: the exchange's
    field.at(x, y, z) = m == TS_SKEL_NEUTRAL ? spec.neutral
                        : m == TS_SKEL_USER  ? user(u[0], u[1], u[2], spec.neutral)
                                             : field.at(c[0] - lo[0], c[1] - lo[1], c[2] - lo[2]);
  }
};

/// fold: the canonical order of each row (see fold() in skeletons.hpp).
template <class F, class T>
struct RowsReduce {
  using functor = F;
  F f;
  const T* in;
  index_t len;     // elements per row
  index_t rows_y;  // rows per "plane" (for the offset below)
  index_t sy, sz;  // row r starts at (r / rows_y) * sz + (r % rows_y) * sy
  T* out;          // out[r * chunks + k]: chunk k of row r
  index_t chunks;  // ceil(len / TS_REDUCE_CHUNK)
  TS_FN const T* row(index_t r) const { return in + (r / rows_y) * sz + (r % rows_y) * sy; }
};

/// An op whose cells can be computed in runs before any is stored.
template <class Op>
concept SplitOp = requires(const Op& op, typename Op::result v) {
  { op.fast_run(index_t{}, index_t{}, index_t{}, int{}) } -> std::same_as<bool>;
  op.compute_run(index_t{}, index_t{}, index_t{}, int{});
  op.store_run(index_t{}, index_t{}, index_t{}, int{}, v);
};

/// One box as cells of runs of TS_SKEL_Z_CELLS consecutive z (skel_access.h
/// says why): cell (i, j, r) of the launch is the run from (lo + i, lo + j,
/// lo + r * TS_SKEL_Z_CELLS), computed before stored where the op's
/// fast_run() allows, else cell by cell.
template <class Op>
struct BoxRuns {
  Op op;
  Box b;
  TS_FN void operator()(long i, long j, long r) const {
    constexpr int U = TS_SKEL_Z_CELLS;
    const index_t x = b.lo[0] + i, y = b.lo[1] + j, z = b.lo[2] + r * U;
    if constexpr (SplitOp<Op>) {
      if (z + U <= b.hi[2] && op.fast_run(x, y, z, U)) {
        typename Op::result v[U];
        TS_UNROLL
        for (int u = 0; u < U; ++u) v[u] = op.compute_run(x, y, z, u);
        TS_UNROLL
        for (int u = 0; u < U; ++u) op.store_run(x, y, z, u, v[u]);
        return;
      }
    }
    for (index_t k = z; k < z + U && k < b.hi[2]; ++k) op(x, y, k);
  }
  /// The launch: blocks of 32 x 8 cells on GPUs.
  launch::Cells cells() const {
    return {b.extent(0), b.extent(1), (b.extent(2) + TS_SKEL_Z_CELLS - 1) / TS_SKEL_Z_CELLS, 32, 8};
  }
};

/// Several boxes (a frame or the ghost shell) as items: item i is the i-th
/// cell of the boxes in order, x fastest, indexed in I.
template <class Op>
struct BoxListItems {
  Op op;
  BoxList l;
  template <class I>
  TS_FN void operator()(I i) const {
    int k = 0;
    while (i >= I(l.box[k].volume())) i -= I(l.box[k++].volume());
    const Box& b = l.box[k];
    const I ex = I(b.extent(0)), ey = I(b.extent(1));
    const I row = i / ex;
    op(b.lo[0] + index_t(i - row * ex), b.lo[1] + index_t(row % ey), b.lo[2] + index_t(row / ey));
  }
};

}  // namespace tessera::skeleton::kernels
