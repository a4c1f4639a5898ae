// The skeletons on distributed fields: map, zip (with Index and InPlace
// variants), fold and mapStencil. One part per device; every part runs the
// same per-cell operation (skel_ops.hpp) on its owned cells, so results do not
// depend on the decomposition (mapStencil reads halos refreshed by the
// exchange and ghost layers filled from the boundary modes).
// The containers DA/DM/DC (containers.hpp) are thin, Muesli-named wrappers.
#pragma once
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "skeleton/field.hpp"
#include "skeleton/kernels/skel_launch.hpp"
#include "skeleton/kernels/skel_opencl.hpp"
#include "skeleton/stencil.hpp"
#include "skeleton/user_function.hpp"

namespace tessera::skeleton {

namespace detail {

template <class T>
kernels::View<T> view(Field<std::remove_const_t<T>>& f, int p) {
  return kernels::view_of<T>(static_cast<T*>(f.buffer(p).handle()), f.layout(p));
}

template <class T>
kernels::cl::ClView cl_view(Field<T>& f, int p) {
  static_assert(ClType<T>::name != nullptr || sizeof(T) == 0,
                "this element type has no OpenCL C name: specialise skeleton::ClType<T>");
  const PartLayout& L = f.layout(p);
  return {f.buffer(p).handle(),   L.origin(), L.sy, L.sz, L.component_stride, ClType<T>::name,
          ClType<T>::declaration, sizeof(T)};
}

inline Box owned_local(const PartLayout& L) {
  Box b;
  for (int a = 0; a < 3; ++a) b.hi[a] = L.owned.extent(a);
  return b;
}

inline kernels::BoxList one_box(const Box& b) {
  kernels::BoxList l;
  l.box[0] = b;
  l.count = 1;
  return l;
}

[[noreturn]] void throw_no_cxx(const char* skeleton, const Device& d);
void check_same(const FieldShape& a, const FieldShape& b, const char* what);
void check_stencil(const FieldShape& in, const Stencil& s, bool has_user_boundary);

}  // namespace detail

/// out = f(a) (K = map), f(index..., a) (map_index), f(a, b) (zip) or
/// f(index..., a, b) (zip_index) on every cell and component; `out` may be
/// `a` (InPlace). D: index arity (1 DA, 2 DM, 3 DC; 0 for map and zip).
template <kernels::MapKind K, int D, class Fn, class T, class U, class R>
void apply_map(const Fn& fn, Field<T>& a, Field<U>* b, Field<R>& out, const char* what) {
  using UF = detail::UserFn<Fn>;
  detail::check_same(a.shape(), out.shape(), what);
  if (b) detail::check_same(a.shape(), b->shape(), what);
  a.require_device();
  if (b) b->require_device();
  for (int p = 0; p < a.parts(); ++p) {
    Device& dev = a.device(p);
    const PartLayout& L = a.layout(p);
    if (dev.backend() == Backend::opencl) {
      if constexpr (UF::has_cl) {
        kernels::cl::ClView vb = b ? detail::cl_view(*b, p) : detail::cl_view(a, p);
        kernels::cl::map(dev, dev.queue(), UF::cl(fn), K, D, detail::cl_view(a, p),
                         b ? &vb : nullptr, detail::cl_view(out, p), detail::owned_local(L),
                         L.owned.lo, L.components);
      } else {
        kernels::no_cxx_on_opencl(what);
      }
    } else {
      if constexpr (UF::has_cxx) {
        using F = std::decay_t<decltype(UF::cxx(fn))>;
        kernels::View<const U> vb{};
        if (b) vb = detail::view<const U>(*b, p);
        const kernels::MapOp<F, T, U, R, K, D> op{UF::cxx(fn), detail::view<const T>(a, p),
                                                  vb,          detail::view<R>(out, p),
                                                  L.owned.lo,  L.components};
        kernels::run_boxes(dev, dev.queue(), detail::one_box(detail::owned_local(L)), op, what);
      } else {
        detail::throw_no_cxx(what, dev);
      }
    }
  }
  out.mark_owned_written();
}

/// out = f(stencil around each cell of in); in and out distinct, one
/// component. `user` is the boundary function for BoundaryMode::user (a C++
/// functor f(x, y, z, neutral), a ClFunction, or a Portable of both).
template <class Fn, class T, class B = NoBoundaryFunction>
void map_stencil(const Fn& fn, Field<T>& in, Field<T>& out, const Stencil& st, const T& neutral,
                 const B& user = {}) {
  using UF = detail::UserFn<Fn>;
  using UB = detail::UserFn<B>;
  const char* what = "mapStencil";
  if (&in == &out)
    throw UsageError("mapStencil: input and output must differ (use mapStencilInPlace)");
  detail::check_same(in.shape(), out.shape(), what);
  if (in.components() != 1)
    throw UsageError(
        fmt::format("mapStencil: a {}-component field; the skeleton reads one component (use "
                    "Field::exchange with a native kernel for several)",
                    in.components()));
  const bool has_user = !std::is_same_v<B, NoBoundaryFunction>;
  // Every axis gets a layer of `radius` cells around the owned box: a halo
  // (from the neighbours, by the exchange) along decomposed axes, a ghost
  // layer (from the boundary modes, by the fill) along the others and at the
  // global boundary. The stencil then reads plain memory everywhere, as a
  // hand-written kernel on a padded array does. One part exchanges nothing:
  // the fill also wraps its periodic axes.
  const bool one_part = in.team().total_parts() == 1;
  ExchangeRequest req;
  for (int a = 0; a < 3; ++a) {
    req.width[a] = in.decomposition().decomposed(a) ? st.radius[a] : 0;
    req.periodic[a] = st.mode[a] == BoundaryMode::periodic;
  }
  in.ensure_halo(st.radius);
  detail::check_stencil(in.shape(), st, has_user);
  kernels::BoundarySpec<T> spec{};
  for (int a = 0; a < 3; ++a) {
    spec.bounds.mode[a] = static_cast<int>(st.mode[a]);
    spec.bounds.has_halo[a] = !one_part && in.decomposition().decomposed(a) ? 1 : 0;
    spec.bounds.n[a] = in.extents().n[a];
  }
  spec.neutral = neutral;
  // fill = true: the ghost cells of `in` (its shell); else the stencil on `boxes`.
  auto launch = [&](int p, Queue& q, bool fill, const kernels::BoxList& boxes) {
    if (boxes.volume() == 0) return;
    Device& dev = in.device(p);
    const Index3 lo = in.layout(p).owned.lo;
    if (dev.backend() == Backend::opencl) {
      if constexpr (UF::has_cl) {
        kernels::cl::ClBoundary cb{};
        cb.bounds = spec.bounds;
        cb.neutral.resize(sizeof(T));
        std::memcpy(cb.neutral.data(), &neutral, sizeof(T));
        if constexpr (UB::has_cl) cb.user = &UB::cl(user);
        kernels::cl::stencil(dev, q, UF::cl(fn), cb, fill, detail::cl_view(in, p),
                             detail::cl_view(out, p), boxes, lo);
      } else {
        kernels::no_cxx_on_opencl(what);
      }
    } else if (fill) {
      if constexpr (UF::has_cxx && UB::has_cxx) {
        using F = std::decay_t<decltype(UF::cxx(fn))>;
        using BC = std::decay_t<decltype(UB::cxx(user))>;
        const kernels::GhostFillOp<F, T, BC> op{UB::cxx(user), spec, detail::view<T>(in, p), lo};
        kernels::run_boxes(dev, q, boxes, op, what);
      } else if constexpr (!UF::has_cxx) {
        detail::throw_no_cxx(what, dev);
      } else {
        detail::throw_no_cxx("mapStencil boundary function", dev);
      }
    } else {
      if constexpr (UF::has_cxx) {
        using F = std::decay_t<decltype(UF::cxx(fn))>;
        const kernels::StencilInnerOp<F, T> op{UF::cxx(fn), detail::view<const T>(in, p),
                                               detail::view<T>(out, p), lo};
        kernels::run_boxes(dev, q, boxes, op, what);
      } else {
        detail::throw_no_cxx(what, dev);
      }
    }
  };
  auto shell = [&](int p) {
    const InnerOuter s = in.layout(p).shell();
    kernels::BoxList l;
    for (int i = 0; i < s.outer_count; ++i) l.box[i] = s.outer[i];
    l.count = s.outer_count;
    return l;
  };
  // Ghost layers of neutral boundaries hold a constant that nothing but a
  // reallocation, a periodic exchange or a native kernel overwrites: filled
  // once, remembered by the field.
  bool constant = true;
  for (int a = 0; a < 3; ++a) constant = constant && st.mode[a] == BoundaryMode::neutral;
  std::string ghosts;
  if (constant) {
    ghosts.assign("neutral ", 8);
    ghosts.append(reinterpret_cast<const char*>(&neutral), sizeof(T));
  }
  const bool fill = ghosts.empty() || in.ghosts() != ghosts;
  out.require_device();
  in.require_device();
  if (fill) in.set_ghosts("");  // whatever happens next, the old ghosts are gone
  if (one_part) {
    Queue& q = in.device(0).queue();
    if (fill) launch(0, q, true, shell(0));
    launch(0, q, false, detail::one_box(detail::owned_local(in.layout(0))));
  } else {
    // While the halos travel, every cell that reads none computes: with the
    // ghost layers already in place, all but the slabs along decomposed axes;
    // when they must be filled (which may read halos), only the cells that
    // read no ghost either. Then the fill and the rest.
    Index3 shrink = st.radius;
    if (!fill)
      for (int a = 0; a < 3; ++a)
        if (!in.decomposition().decomposed(a)) shrink[a] = 0;
    in.exchange(
        req,
        [&](int p, Queue& q) {
          launch(p, q, false, detail::one_box(in.layout(p).split(shrink).inner));
        },
        [&](int p, Queue& q) {
          if (fill) launch(p, q, true, shell(p));
          const InnerOuter io = in.layout(p).split(shrink);
          kernels::BoxList frame;
          for (int i = 0; i < io.outer_count; ++i) frame.box[i] = io.outer[i];
          frame.count = io.outer_count;
          launch(p, q, false, frame);
        });
  }
  in.set_ghosts(ghosts);
  out.mark_owned_written();
}

namespace detail {

/// Canonical fold of `rows` rows (see RowsReduce) on one device, to one value
/// per row in `out` (rows values); intermediate chunk levels as needed.
/// `chunks_only`: stop after the first level (rows x ceil(len / chunk) values).
template <class Fn, class T>
void reduce_rows(const Fn& fn, Device& dev, const void* handle, index_t origin, index_t len,
                 index_t rows_y, index_t sy, index_t sz, index_t rows, Buffer<T>& out,
                 bool chunks_only = false) {
  using UF = UserFn<Fn>;
  Buffer<T> level;
  const void* src = handle;
  for (;;) {
    const index_t chunks = (len + TS_REDUCE_CHUNK - 1) / TS_REDUCE_CHUNK;
    Buffer<T> next(dev.shared_from_this(),
                   static_cast<std::size_t>(std::max<index_t>(rows * chunks, 1)));
    if (dev.backend() == Backend::opencl) {
      if constexpr (UF::has_cl) {
        const kernels::cl::ClView v{const_cast<void*>(src), origin,   sy, sz, 0, ClType<T>::name,
                                    ClType<T>::declaration, sizeof(T)};
        kernels::cl::reduce_rows(dev, dev.queue(), UF::cl(fn), v, len, rows_y, rows, next.handle(),
                                 chunks);
      } else {
        kernels::no_cxx_on_opencl("fold");
      }
    } else {
      if constexpr (UF::has_cxx) {
        using F = std::decay_t<decltype(UF::cxx(fn))>;
        const kernels::RowsReduce<F, T> op{
            UF::cxx(fn), static_cast<const T*>(src) + origin, len,   rows_y, sy,
            sz,          static_cast<T*>(next.handle()),      chunks};
        kernels::run_reduce_rows(dev, dev.queue(), op, rows);
      } else {
        throw_no_cxx("fold", dev);
      }
    }
    level = std::move(next);
    if (chunks == 1 || chunks_only) break;
    src = level.handle();
    origin = 0;
    len = chunks;
    rows_y = rows;
    sy = chunks;
    sz = 0;
  }
  out = std::move(level);
}

}  // namespace detail

/// Folds every cell with f in the canonical order, which depends only on the
/// global extents: each x-row is cut into global chunks of portable.h's
/// TS_REDUCE_CHUNK elements (256 "threads" x 16, halving tree), the chunks of
/// a row are folded the same way, then the rows in global order (z, y). Every
/// part folds the chunks it holds whole on its device; a chunk that a part
/// boundary cuts (x split off the chunk grid) is assembled from its pieces on
/// the host and folded on device 0. So the result has the same bits on every
/// backend and for every decomposition, over devices and MPI ranks.
template <class Fn, class T>
T fold(const Fn& fn, Field<T>& f) {
  if (f.components() != 1) throw UsageError("fold: one-component fields only");
  f.require_device();
  constexpr index_t K = TS_REDUCE_CHUNK;
  const index_t nx = f.extents().n[0], ny = f.extents().n[1];
  const index_t C = (nx + K - 1) / K;       // chunks per row
  const index_t R = ny * f.extents().n[2];  // rows
  struct Whole {                            // the fold of a chunk a part holds whole
    index_t row, chunk;
    T value;
  };
  struct Strip {  // a row's elements [lo, hi) that lie in chunks cut by a part boundary
    index_t row, lo, hi;
  };
  std::vector<Whole> wholes;
  std::vector<Strip> strips;
  std::vector<T> values;  // the strips' elements, strip after strip
  for (int p = 0; p < f.parts(); ++p) {
    const PartLayout& L = f.layout(p);
    const index_t xlo = L.owned.lo[0], xhi = L.owned.hi[0], ey = L.owned.extent(1),
                  rows = ey * L.owned.extent(2);
    auto row_id = [&](index_t r) { return (L.owned.lo[2] + r / ey) * ny + L.owned.lo[1] + r % ey; };
    auto row_at = [&](index_t r) { return L.origin() + (r / ey) * L.sz + (r % ey) * L.sy; };
    // whole chunks: [a, b) on the chunk grid (the row's last chunk may be short)
    index_t a = (xlo + K - 1) / K * K, b = xhi == nx ? nx : xhi / K * K;
    if (a >= b) a = b = xhi;
    if (a < b) {
      Buffer<T> partial;
      detail::reduce_rows(fn, f.device(p), f.buffer(p).handle(), L.origin() + (a - xlo), b - a, ey,
                          L.sy, L.sz, rows, partial, true);
      const std::vector<T> h = partial.to_vector();
      const index_t cc = (b - a + K - 1) / K;
      for (index_t r = 0; r < rows; ++r)
        for (index_t k = 0; k < cc; ++k) {
          Whole w;
          std::memset(&w, 0, sizeof w);  // no uninitialised padding through MPI
          w.row = row_id(r), w.chunk = a / K + k, w.value = h[std::size_t(r * cc + k)];
          wholes.push_back(w);
        }
    }
    // the cut chunks' elements, [xlo, a) and [b, xhi) of every row: read row by
    // row when few, else with one copy of the part (an x-split with rows
    // shorter than a chunk cuts every element)
    const std::pair<index_t, index_t> cut_ranges[2] = {{xlo, a}, {b, xhi}};
    index_t pieces = 0;
    for (const auto& [lo, hi] : cut_ranges) pieces += lo < hi ? rows : 0;
    if (!pieces) continue;
    std::vector<T> whole_part;
    if (pieces > 64) whole_part = f.buffer(p).to_vector();
    for (index_t r = 0; r < rows; ++r)
      for (const auto& [lo, hi] : cut_ranges) {
        if (lo >= hi) continue;
        strips.push_back({row_id(r), lo, hi});
        const index_t at = row_at(r) + (lo - xlo);
        const std::size_t n = std::size_t(hi - lo), off = values.size();
        values.resize(off + n);
        if (pieces > 64)
          std::copy_n(whole_part.begin() + std::ptrdiff_t(at), n,
                      values.begin() + std::ptrdiff_t(off));
        else
          f.device(p).queue().read(f.buffer(p).handle(), std::size_t(at) * sizeof(T),
                                   values.data() + off, n * sizeof(T), true);
      }
  }
  if (Comm* comm = f.team().comm()) {
    auto gather = [&](auto& v) {
      using E = typename std::decay_t<decltype(v)>::value_type;
      const auto bytes = comm->allgather(v.data(), v.size() * sizeof(E));
      v.resize(bytes.size() / sizeof(E));
      std::memcpy(v.data(), bytes.data(), bytes.size());
    };
    gather(wholes);
    gather(strips);
    gather(values);  // rank after rank, as the strips
  }
  // the table of chunk folds of every row; the cut chunks are assembled from
  // their strips and folded on device 0, the full-length ones in one launch
  // and the rows' short last chunks in another
  std::vector<T> table(std::size_t(R * C));
  for (const Whole& w : wholes) table[std::size_t(w.row * C + w.chunk)] = w.value;
  Device& dev = f.device(0);
  const index_t short_len = nx - (C - 1) * K;
  struct Batch {
    index_t len;
    std::vector<index_t> keys;  // row * C + chunk
    std::vector<T> data;        // len elements per chunk
  } batch[2] = {{K, {}, {}}, {short_len, {}, {}}};
  std::vector<index_t> slot(std::size_t(R * C), -1);
  std::size_t at = 0;
  for (const Strip& st : strips)
    for (index_t x = st.lo; x < st.hi; ++x, ++at) {
      const index_t c = x / K, key = st.row * C + c;
      Batch& bt = batch[c == C - 1 && short_len < K ? 1 : 0];
      if (slot[std::size_t(key)] < 0) {
        slot[std::size_t(key)] = index_t(bt.keys.size());
        bt.keys.push_back(key);
        bt.data.resize(bt.keys.size() * std::size_t(bt.len));
      }
      bt.data[std::size_t(slot[std::size_t(key)] * bt.len + (x - c * K))] = values[at];
    }
  for (Batch& bt : batch) {
    if (bt.keys.empty()) continue;
    const auto n = index_t(bt.keys.size());
    Buffer<T> in(dev.shared_from_this(), bt.data.size()), folded;
    in.copy_from_host(bt.data);
    detail::reduce_rows(fn, dev, in.handle(), 0, bt.len, n, bt.len, 0, n, folded, true);
    const std::vector<T> h = folded.to_vector();
    for (index_t k = 0; k < n; ++k) table[std::size_t(bt.keys[std::size_t(k)])] = h[std::size_t(k)];
  }
  // the chunks of each row, then the rows
  Buffer<T> t(dev.shared_from_this(), table.size()), rows;
  t.copy_from_host(table);
  if (C > 1) detail::reduce_rows(fn, dev, t.handle(), 0, C, R, C, 0, R, rows);
  Buffer<T> result;
  detail::reduce_rows(fn, dev, (C > 1 ? rows : t).handle(), 0, R, 1, 0, 0, 1, result);
  return result.to_vector()[0];
}

}  // namespace tessera::skeleton
