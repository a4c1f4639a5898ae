// The per-cell operations of the skeletons for the C++ backends (CPU loops and
// CUDA kernels): small structs, passed by value into the kernel, whose
// operator()(x, y, z) computes one cell (local owned coordinates) by calling
// the user's functor. The CPU runs them in OpenMP loops (skel_cpu.hpp), CUDA
// in the kernels of skel_cuda.cuh; their mathematics is the user's.
#pragma once
#include <cstdint>
#include <type_traits>

#include "core/kernels/portable.h"
#include "skeleton/extents.hpp"
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

/// No user boundary function.
struct NoBoundaryFunction {
  template <class T>
  TS_FN T operator()(index_t, index_t, index_t, const T& neutral) const {
    return neutral;
  }
};

/// Where a boundary cell's neighbourhood leaves the domain: per-axis modes.
template <class T>
struct BoundarySpec {
  int mode[3];
  int has_halo[3];  // the axis is decomposed: a periodic read goes to the halo
  index_t n[3];     // global extents
  T neutral;
};

/// A read outside the domain under the boundary modes (what GhostFillOp stores in each ghost cell): applies the
/// boundary mode of each axis; only this accessor has branches.
template <class T, class B>
struct BoundaryAccess {
  using value_type = T;
  const T* origin;  // local owned (0, 0, 0)
  index_t sy, sz;
  index_t g[3];   // global coordinates of the cell being computed
  index_t lo[3];  // global coordinates of local (0, 0, 0)
  // By value: the address of a CUDA kernel parameter (the op) would be a
  // generic pointer the compiler must assume anything of.
  BoundarySpec<T> spec;
  B user;
  TS_FN index_t pos(int a) const { return g[a]; }
  // Axis by axis as documented (tests' reference_read): the first axis
  // outside the domain whose mode yields a value of its own (neutral, user)
  // decides, and the user function sees the axes before it already wrapped.
  // Two sets of coordinates: w, the documented ones, and c, where the value
  // is loaded from (a periodic axis with a halo keeps c outside: the halo
  // holds the wrap). The load is issued whatever the modes say, from an
  // address clamped into the domain, and the value chosen afterwards.
  TS_FN T operator()(int dx, int dy, int dz) const {
    index_t w0 = g[0] + dx, w1 = g[1] + dy, w2 = g[2] + dz;
    index_t c0 = w0, c1 = w1, c2 = w2;
    index_t u0 = 0, u1 = 0, u2 = 0;  // what the user function sees
    int m = -1;
    resolve(0, w0, c0, m, w0, w1, w2, u0, u1, u2);
    resolve(1, w1, c1, m, w0, w1, w2, u0, u1, u2);
    resolve(2, w2, c2, m, w0, w1, w2, u0, u1, u2);
    const T v = origin[(c2 - lo[2]) * sz + (c1 - lo[1]) * sy + (c0 - lo[0])];
    if (m < 0) return v;
    return m == int(BoundaryMode::user) ? user(u0, u1, u2, spec.neutral) : spec.neutral;
  }
  /// Applies axis a's mode to its documented coordinate w and load
  /// coordinate c. The first axis whose mode yields a value (neutral, user)
  /// sets m and the user's coordinates; its coordinates are then clamped,
  /// only to keep the load inside.
  TS_FN void resolve(int a, index_t& w, index_t& c, int& m, const index_t& w0, const index_t& w1,
                     const index_t& w2, index_t& u0, index_t& u1, index_t& u2) const {
    const index_t n = spec.n[a];
    if (w >= 0 && w < n) return;
    switch (spec.mode[a]) {
      case int(BoundaryMode::neutral):
      case int(BoundaryMode::user):
        if (m < 0) {
          m = spec.mode[a];
          u0 = w0;
          u1 = w1;
          u2 = w2;
        }
        c = w = w < 0 ? 0 : n - 1;
        return;
      case int(BoundaryMode::periodic):
        w = w < 0 ? w + n : w - n;
        if (!spec.has_halo[a]) c = w;  // else c stays outside: the halo holds the wrap
        return;
      case int(BoundaryMode::clamp):
        c = w = w < 0 ? 0 : n - 1;
        return;
      default:
        c = w = w < 0 ? -w : 2 * (n - 1) - w;
        return;  // mirror (edge not repeated)
    }
  }
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
/// boundary modes (BoundaryAccess at offset 0). Its reads resolve to cells
/// inside the domain or in halos the exchange filled, never to other ghosts.
/// F, the stencil the fill serves, only names the instantiation: CUDA code is
/// instantiated per stencil (TS_SKEL_CUDA_STENCIL(F, T, B)), so a program
/// that enabled its stencil and boundary function has the fill too.
template <class F, class T, class B>
struct GhostFillOp {
  using functor = F;
  using boundary = B;
  B user;
  BoundarySpec<T> spec;
  View<T> field;
  Index3 lo;
  TS_FN void operator()(index_t x, index_t y, index_t z) const {
    const index_t g0 = lo[0] + x, g1 = lo[1] + y, g2 = lo[2] + z;
    if (!(ghost(g0, 0) || ghost(g1, 1) || ghost(g2, 2))) return;  // a halo cell: the exchange's
    // The first axis outside with a mode that yields a value of its own
    // decides (as in BoundaryAccess): neutral stores without a load.
    const int m = constant(g0, 0)   ? spec.mode[0]
                  : constant(g1, 1) ? spec.mode[1]
                  : constant(g2, 2) ? spec.mode[2]
                                    : -1;
    if (m == int(BoundaryMode::neutral)) {
      field.at(x, y, z) = spec.neutral;
      return;
    }
    const BoundaryAccess<T, B> s{field.origin,          field.sy, field.sz, {g0, g1, g2},
                                 {lo[0], lo[1], lo[2]}, spec,     user};
    field.at(x, y, z) = s(0, 0, 0);
  }
  /// Outside along axis a with the neutral or user mode.
  TS_FN bool constant(index_t g, int a) const {
    return (g < 0 || g >= spec.n[a]) &&
           (spec.mode[a] == int(BoundaryMode::neutral) || spec.mode[a] == int(BoundaryMode::user));
  }
  TS_FN bool ghost(index_t g, int a) const {
    return (g < 0 || g >= spec.n[a]) &&
           !(spec.has_halo[a] && spec.mode[a] == int(BoundaryMode::periodic));
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

}  // namespace tessera::skeleton::kernels
