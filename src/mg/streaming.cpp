#include "mg/streaming.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "core/error.hpp"
#include "mg/kernels/mg_point.hpp"
#include "mg/kernels/mg_stream_point.hpp"
#include "mg/streaming_plan.hpp"

namespace tessera::mg {

using stream::Span;
using stream::TileArray;

namespace {

bool is_pow2_minus_1(long m) { return m >= 1 && ((m + 1) & m) == 0; }

// The tiles of [0, m) with step t (the last one may be shorter).
std::vector<Span> tiles(long m, long t) {
  std::vector<Span> v;
  for (long o = 0; o < m; o += t) v.push_back({o, std::min(m, o + t)});
  return v;
}

Span ring(Span s) { return {s.b - 1, s.e + 1}; }

// A tile array holding points ai x aj (plus ring) at element `off` of `block`.
TileArray array(void* block, std::size_t off, Span ai, Span aj) {
  return {block, off, ai.n() + 2, ai.b, aj.b};
}

stream::Region region(Span i, Span j) { return {i.b, i.e, j.b, j.e}; }

// Points ci x cj (level coordinates, ring indices allowed) of a host level
// array with pitch sx and of tile array a.
stream::Rect rect(const TileArray& a, Span ci, Span cj, long sx) {
  stream::Rect r;
  r.host_off = static_cast<std::size_t>((cj.b + 1) * sx + (ci.b + 1));
  r.host_pitch = static_cast<std::size_t>(sx);
  r.dev_off = static_cast<std::size_t>(TS_MGS_AT(a.off, a.pitch, a.i0, a.j0, ci.b, cj.b));
  r.dev_pitch = static_cast<std::size_t>(a.pitch);
  r.width = static_cast<std::size_t>(std::max(0L, ci.n()));
  r.rows = static_cast<std::size_t>(std::max(0L, cj.n()));
  return r;
}

// Largest tile-array interior along one axis for the smoother (and the
// coarse tile of the fused prolongation when mc > 0).
std::pair<long, long> smoothing_extent(long m, long t, int nu, long mc) {
  long a = 0, c = 0;
  for (Span o : tiles(m, t)) {
    a = std::max(a, stream::smoothing_region(m, o, nu, 1).n());
    if (mc > 0) c = std::max(c, stream::coarse_span(mc, stream::prolonged_region(m, o, nu)).n());
  }
  return {a, c};
}

// Largest tile-array interior (and coarse tile) along one axis for the
// cross-cycle fused pass: restriction tiles of c points on level `depth`
// (size md), smoothing output = the footprint grown by one.
std::pair<long, long> fused_extent(long m, long mc, long md, int depth, long c, int nu) {
  long a = 0, cc = 0;
  for (Span t : tiles(md, c)) {
    const Span f = stream::restriction_computed(t, depth);
    const Span g{std::max(0L, f.b - 1), std::min(m, f.e + 1)};
    a = std::max(a, stream::smoothing_region(m, g, nu, 1).n());
    cc = std::max(cc, stream::coarse_span(mc, stream::prolonged_region(m, g, nu)).n());
  }
  return {a, cc};
}

// Length of what a restriction tile of c coarsest points computes s levels finer.
long restriction_len(long c, long m_coarsest, int s) {
  return ((std::min(c, m_coarsest) + 1) << s) - 1;
}

}  // namespace

template <class T>
StreamingMultigrid<T>::StreamingMultigrid(std::shared_ptr<Device> device, long w, long h, int nu,
                                          StreamingOptions opt)
    : device_(std::move(device)), nu_(nu), row_cache_(opt.row_cache) {
  if (!is_pow2_minus_1(w) || !is_pow2_minus_1(h))
    throw UsageError("streaming mode needs grid sides of the form 2^k - 1 (got " +
                     std::to_string(w) + " x " + std::to_string(h) + ")");
  if (nu < 1) throw UsageError("streaming mode needs nu >= 1 post-smoothing steps");
  if (opt.queues < 1 || opt.queues > 64) throw UsageError("--queues must be 1..64");
  if (opt.tile_w < 0 || opt.tile_h < 0) throw UsageError("--tile must be positive");
  if (opt.depth < 0) throw UsageError("--depth must be >= 0 (0: as many levels as fit)");
  const bool pinned = opt.transfer == stream::TransferPath::pinned;
  for (long cw = w, ch = h;; cw /= 2, ch /= 2) {
    Level L{Dims{cw, ch, 1, 2}, {}, {}, {}};
    for (auto* a : {&L.b, &L.xs, &L.xd}) *a = stream::HostArray<T>(device_, L.d.storage(), pinned);
    levels_.push_back(std::move(L));
    if (cw / 2 < 1 || ch / 2 < 1) break;
  }
  plan(opt);
}

template <class T>
std::size_t StreamingMultigrid<T>::problem_bytes() const {
  std::size_t n = 0;
  for (const auto& L : levels_) n += 3 * L.d.storage() * sizeof(T);
  return n;
}

template <class T>
std::size_t StreamingMultigrid<T>::device_bytes() const {
  return 3 * std::size_t(streamer_->queues()) * streamer_->block_elems() * sizeof(T);
}

template <class T>
void StreamingMultigrid<T>::plan(const StreamingOptions& opt) {
  std::size_t budget = opt.budget_bytes;
  if (budget == 0) {
    budget = problem_bytes();
    if (device_->info().global_mem_bytes)
      budget = std::min<std::size_t>(budget, device_->info().global_mem_bytes / 2);
  }
  const std::size_t Q = static_cast<std::size_t>(opt.queues);
  const long E = static_cast<long>(budget / (3 * Q * sizeof(T)));
  const std::string budget_words =
      fmt::format("the device budget of {} bytes ({} queues x 3 blocks of {} bytes)", budget, Q,
                  std::size_t(E) * sizeof(T));
  const Dims& d0 = levels_[0].d;
  if (opt.tile_w == 0) {  // the largest square output tile whose smoothing arrays fit a block
    const long t = static_cast<long>(std::sqrt(double(std::max(E, 0L)))) - 2 * nu_;
    if (t < 1)
      throw UsageError(fmt::format(
          "{} is too small for even one tile: nu = {} needs blocks of at least {} bytes",
          budget_words, nu_,
          std::size_t(stream::array_elems(2 * nu_ - 1, 2 * nu_ - 1)) * sizeof(T)));
    tile_w_ = std::min(t, d0.nx);
    tile_h_ = std::min(t, d0.ny);
  } else {
    tile_w_ = opt.tile_w;
    tile_h_ = opt.tile_h ? opt.tile_h : opt.tile_w;
  }
  // every smoothing pass (fused prolongation included) must fit a block
  for (std::size_t n = 0; n < levels_.size(); ++n) {
    const Dims& d = levels_[n].d;
    const bool coarse = n + 1 < levels_.size();
    const int steps = coarse ? nu_ : 1;  // the coarsest level: one step from x = 0
    auto [aw, cw] = smoothing_extent(d.nx, tile_w_, steps, coarse ? levels_[n + 1].d.nx : 0);
    auto [ah, ch] = smoothing_extent(d.ny, tile_h_, steps, coarse ? levels_[n + 1].d.ny : 0);
    const long need =
        std::max(stream::array_elems(aw, ah), coarse ? stream::array_elems(cw, ch) : 0);
    if (need > E)
      throw UsageError(fmt::format(
          "{} is too small for one {} x {} smoothing tile with nu = {} on level {} ({} x {}): a block "
          "must hold {} bytes; raise --budget, or lower --queues or --tile",
          budget_words, tile_w_, tile_h_, nu_, n, d.nx, d.ny, std::size_t(need) * sizeof(T)));
  }
  // restriction passes: `depth` levels per device visit, tiles on the coarsest
  auto restriction_need = [&](int k, int dep, long cw, long ch) {
    const Dims& dc = levels_[std::size_t(k + dep)].d;
    long need =
        stream::array_elems(restriction_len(cw, dc.nx, dep), restriction_len(ch, dc.ny, dep));
    long pyramid = 0;
    for (int s = 0; s < dep; ++s)
      pyramid += stream::array_elems(restriction_len(cw, dc.nx, s), restriction_len(ch, dc.ny, s));
    return std::max(need, pyramid);
  };
  const int last = levels() - 1;
  for (int k = 0; k < last;) {
    const int remaining = last - k;
    const int hi = opt.depth ? std::min(opt.depth, remaining) : remaining;
    const int lo = opt.depth ? hi : 1;
    // A tile of c coarsest points uploads (c + 1) 2^dep - 1 fine points per
    // axis for the c 2^dep it owns: the automatic depth is the deepest that
    // keeps c >= 32 (<= 3% redundant uploads per axis), else c >= 8, else
    // whatever fits.
    auto fitted = [&](int dep, long& cw, long& ch) {
      cw = std::max(1L, tile_w_ >> dep);
      ch = std::max(1L, tile_h_ >> dep);
      while (restriction_need(k, dep, cw, ch) > E && (cw > 1 || ch > 1)) (cw >= ch ? cw : ch) -= 1;
      return restriction_need(k, dep, cw, ch) <= E;
    };
    auto wide = [&](int dep, long cw, long ch, long min_c) {
      const Dims& dc = levels_[std::size_t(k + dep)].d;
      return cw >= std::min(min_c, dc.nx) && ch >= std::min(min_c, dc.ny);
    };
    bool placed = false;
    for (long min_c : {32L, 8L, 1L})
      for (int dep = hi; dep >= lo && !placed; --dep) {
        long cw = 0, ch = 0;
        if ((opt.depth || min_c == 1 ||
             wide(dep, std::max(1L, tile_w_ >> dep), std::max(1L, tile_h_ >> dep), min_c)) &&
            fitted(dep, cw, ch) && (opt.depth || wide(dep, cw, ch, min_c))) {
          passes_.push_back({k, dep, cw, ch});
          k += dep;
          placed = true;
        }
      }
    if (!placed)
      throw UsageError(fmt::format(
          "{} is too small for one restriction tile from level {} with depth {}: a block must hold "
          "{} bytes; raise --budget, or lower --queues or --depth",
          budget_words, k, lo, std::size_t(restriction_need(k, lo, 1, 1)) * sizeof(T)));
  }
  // cross-cycle fusion: the first pass's depth, coarsest tiles as large as fit
  if (opt.fuse_cycles && !passes_.empty()) {
    const int dep = passes_.front().depth;
    const Dims &f = levels_[0].d, &c1 = levels_[1].d, &dc = levels_[std::size_t(dep)].d;
    auto need = [&](long cw, long ch) {
      auto [aw, kw] = fused_extent(f.nx, c1.nx, dc.nx, dep, cw, nu_);
      auto [ah, kh] = fused_extent(f.ny, c1.ny, dc.ny, dep, ch, nu_);
      long pyramid = 0;
      for (int s = 0; s < dep; ++s)
        pyramid +=
            stream::array_elems(restriction_len(cw, dc.nx, s), restriction_len(ch, dc.ny, s));
      return std::max({stream::array_elems(aw, ah), stream::array_elems(kw, kh), pyramid});
    };
    long cw = passes_.front().cw, ch = passes_.front().ch;
    while (need(cw, ch) > E && (cw > 1 || ch > 1)) (cw >= ch ? cw : ch) -= 1;
    if (need(cw, ch) <= E) {
      fused_cw_ = cw;
      fused_ch_ = ch;
    }
  }
  streamer_ =
      std::make_unique<stream::Streamer<T>>(device_, opt.queues, std::size_t(E), opt.transfer);
}

template <class T>
void StreamingMultigrid<T>::set_rhs(const std::vector<T>& b) {
  Level& L = levels_[0];
  if (static_cast<long>(b.size()) != L.d.points())
    throw Error(
        fmt::format("streaming set_rhs: {} values for a {} x {} grid", b.size(), L.d.nx, L.d.ny));
  for (long j = 0; j < L.d.ny; ++j)
    std::memcpy(L.b.data() + TS_MG_IDX(0, j, 0, L.d.sx(), 0, 0), b.data() + j * L.d.nx,
                L.d.nx * sizeof(T));
  restricted_ = false;
}

template <class T>
void StreamingMultigrid<T>::set_solution(const std::vector<T>& x) {
  Level& L = levels_[0];
  if (static_cast<long>(x.size()) != L.d.points())
    throw Error(fmt::format("streaming set_solution: {} values for a {} x {} grid", x.size(),
                            L.d.nx, L.d.ny));
  for (long j = 0; j < L.d.ny; ++j)
    std::memcpy(L.xs.data() + TS_MG_IDX(0, j, 0, L.d.sx(), 0, 0), x.data() + j * L.d.nx,
                L.d.nx * sizeof(T));
  restricted_ = false;
}

template <class T>
std::vector<T> StreamingMultigrid<T>::solution() const {
  const Level& L = levels_[0];
  std::vector<T> x(static_cast<std::size_t>(L.d.points()));
  for (long j = 0; j < L.d.ny; ++j)
    std::memcpy(x.data() + j * L.d.nx, L.xs.data() + TS_MG_IDX(0, j, 0, L.d.sx(), 0, 0),
                L.d.nx * sizeof(T));
  return x;
}

template <class T>
double StreamingMultigrid<T>::residual_norm() const {
  const Level& L = levels_[0];
  const T *b = L.b.data(), *x = L.xs.data();
  const long sx = L.d.sx();
  double s = 0;
  for (long j = 0; j < L.d.ny; ++j)
    for (long i = 0; i < L.d.nx; ++i) {
      const long c = TS_MG_IDX(i, j, 0, sx, 0, 0);
      const double r =
          point::ts_mg_thesis_residual(b[c], x[c], x[c - 1], x[c + 1], x[c - sx], x[c + sx]);
      s += r * r;
    }
  return std::sqrt(s);
}

template <class T>
typename StreamingMultigrid<T>::SmoothTile StreamingMultigrid<T>::enqueue_smoothing(
    stream::Slot<T>& s, std::size_t n, int nu, bool from_coarse, Span ti, Span tj) {
  Level& L = levels_[n];
  const long mw = L.d.nx, mh = L.d.ny, sx = L.d.sx();
  const bool accumulate = n == 0;  // only the finest level keeps its x (+=)
  auto& st = *streamer_;
  Queue& q = *s.queue;
  const Span ai = stream::smoothing_region(mw, ti, nu, 1),
             aj = stream::smoothing_region(mh, tj, nu, 1);
  SmoothTile t{{array(s.block[0].handle(), 0, ai, aj), array(s.block[1].handle(), 0, ai, aj)},
               array(s.block[2].handle(), 0, ai, aj),
               nu % 2};
  if (!from_coarse || accumulate)
    st.upload(s, L.xs.data(), rect(t.a[0], ring(ai), ring(aj), sx), 0);
  st.upload(s, L.b.data(), rect(t.b, ai, aj, sx), 2);
  dispatch(*device_, [&](auto tag) {
    if (from_coarse) {  // the prolongation, recomputed over everything step 1 reads
      const Level& C = levels_[n + 1];
      const Span pi = stream::prolonged_region(mw, ti, nu),
                 pj = stream::prolonged_region(mh, tj, nu);
      const Span ci = stream::coarse_span(C.d.nx, pi), cj = stream::coarse_span(C.d.ny, pj);
      const TileArray xc = array(s.block[1].handle(), 0, ci, cj);
      st.upload(s, C.xs.data(), rect(xc, ring(ci), ring(cj), C.d.sx()), 1);
      if (!accumulate) stream::kernels::zero_ring<T>(tag, *device_, q, t.a[0], ai.n(), aj.n());
      stream::kernels::prolong<T>(tag, *device_, q, region(pi, pj), t.a[0], xc, accumulate);
    }
    // block 1 (coarse tile until now) becomes the Jacobi target: its ring
    // must hold the zero boundary where the tile touches the domain's edge
    stream::kernels::zero_ring<T>(tag, *device_, q, t.a[1], ai.n(), aj.n());
    for (int step = 1; step <= nu; ++step) {
      const int from = (step - 1) % 2;
      const stream::Region r = region(stream::smoothing_region(mw, ti, nu, step),
                                      stream::smoothing_region(mh, tj, nu, step));
      if (row_cache_)
        stream::kernels::jacobi_cache<T>(tag, *device_, q, r, t.b, t.a[from], t.a[1 - from]);
      else
        stream::kernels::jacobi<T>(tag, *device_, q, r, t.b, t.a[from], t.a[1 - from]);
    }
  });
  return t;
}

template <class T>
void StreamingMultigrid<T>::enqueue_pyramid(stream::Slot<T>& s, int from, int depth, Span ti,
                                            Span tj, const TileArray& src0, int block) {
  const Dims& dc = levels_[std::size_t(from + depth)].d;
  std::size_t off = 0;
  TileArray src = src0;
  for (int e = 1; e <= depth; ++e) {
    Level& C = levels_[std::size_t(from + e)];
    const int sdown = depth - e;
    const Span ci = stream::restriction_computed(ti, sdown),
               cj = stream::restriction_computed(tj, sdown);
    const TileArray c = array(s.block[block].handle(), off, ci, cj);
    off += std::size_t(stream::array_elems(ci.n(), cj.n()));
    dispatch(*device_, [&](auto tag) {
      stream::kernels::restrict_tile<T>(tag, *device_, *s.queue, region(ci, cj), src, c);
    });
    const Span oi = stream::restriction_owned(ti, sdown, C.d.nx, ti.e == dc.nx),
               oj = stream::restriction_owned(tj, sdown, C.d.ny, tj.e == dc.ny);
    streamer_->download(s, block, rect(c, oi, oj, C.d.sx()), C.b.data());
    src = c;
  }
}

template <class T>
void StreamingMultigrid<T>::smooth_pass(std::size_t n, int nu, bool from_coarse) {
  Level& L = levels_[n];
  auto& st = *streamer_;
  for (Span tj : tiles(L.d.ny, tile_h_))
    for (Span ti : tiles(L.d.nx, tile_w_)) {
      auto& s = st.next();
      const SmoothTile t = enqueue_smoothing(s, n, nu, from_coarse, ti, tj);
      st.download(s, t.result, rect(t.a[t.result], ti, tj, L.d.sx()), L.xd.data());
    }
  st.drain();
  std::swap(L.xs, L.xd);  // swap(&x_off0, &x_off1)
}

template <class T>
void StreamingMultigrid<T>::fused_finest_pass() {
  // Cross-cycle fusion (§5.5): the finest prolongation + smoothing of this
  // cycle and the residual + restriction of the next in one device visit.
  // Tiles are the first restriction pass's; each smooths the footprint F
  // grown by one (what the residual of F reads), writes back the points it
  // owns, and restricts the residual of the smoothed x.
  Level& L = levels_[0];
  const Pass& p = passes_.front();
  const Dims& dc = levels_[std::size_t(p.depth)].d;
  auto& st = *streamer_;
  for (Span tj : tiles(dc.ny, fused_ch_))
    for (Span ti : tiles(dc.nx, fused_cw_)) {
      auto& s = st.next();
      const Span fi = stream::restriction_computed(ti, p.depth),
                 fj = stream::restriction_computed(tj, p.depth);
      const Span gi{std::max(0L, fi.b - 1), std::min(L.d.nx, fi.e + 1)},
          gj{std::max(0L, fj.b - 1), std::min(L.d.ny, fj.e + 1)};
      const SmoothTile t = enqueue_smoothing(s, 0, nu_, true, gi, gj);
      const Span oi = stream::restriction_owned(ti, p.depth, L.d.nx, ti.e == dc.nx),
                 oj = stream::restriction_owned(tj, p.depth, L.d.ny, tj.e == dc.ny);
      st.download(s, t.result, rect(t.a[t.result], oi, oj, L.d.sx()), L.xd.data());
      dispatch(*device_, [&](auto tag) {  // residual of the new x, in place over b
        stream::kernels::residual<T>(tag, *device_, *s.queue, region(fi, fj), t.b, t.a[t.result],
                                     t.b);
      });
      enqueue_pyramid(s, 0, p.depth, ti, tj, t.b, 1 - t.result);  // the other x block is free now
    }
  st.drain();
  std::swap(L.xs, L.xd);
}

template <class T>
void StreamingMultigrid<T>::restriction_pass(const Pass& p) {
  const Level& F = levels_[std::size_t(p.from)];
  const Dims& dc = levels_[std::size_t(p.from + p.depth)].d;
  auto& st = *streamer_;
  for (Span tj : tiles(dc.ny, p.ch))
    for (Span ti : tiles(dc.nx, p.cw)) {
      auto& s = st.next();
      const Span fi = stream::restriction_computed(ti, p.depth),
                 fj = stream::restriction_computed(tj, p.depth);
      const TileArray x = array(s.block[0].handle(), 0, fi, fj),
                      b = array(s.block[1].handle(), 0, fi, fj);
      st.upload(s, F.b.data(), rect(b, fi, fj, F.d.sx()), 1);
      if (p.from == 0) {  // residual d = b - A x in place over b (kernel_calculate_error)
        st.upload(s, F.xs.data(), rect(x, ring(fi), ring(fj), F.d.sx()), 0);
        dispatch(*device_, [&](auto tag) {
          stream::kernels::residual<T>(tag, *device_, *s.queue, region(fi, fj), b, x, b);
        });
      }
      enqueue_pyramid(s, p.from, p.depth, ti, tj, b, 2);
    }
  st.drain();
}

template <class T>
void StreamingMultigrid<T>::cycle() {
  for (std::size_t i = 0; i < passes_.size(); ++i)
    if (i > 0 || !restricted_) restriction_pass(passes_[i]);
  restricted_ = false;
  Level& C = levels_.back();  // coarsest: clear, one Jacobi step from 0 gives x = b/4
  std::memset(static_cast<void*>(C.xs.data()), 0, C.xs.size() * sizeof(T));
  smooth_pass(levels_.size() - 1, 1, false);
  for (std::size_t n = levels_.size() - 1; n-- > 1;) smooth_pass(n, nu_, true);
  if (levels_.size() < 2) return;
  if (fused_cw_ > 0) {
    fused_finest_pass();
    restricted_ = true;  // the next cycle's first restriction pass is done
  } else {
    smooth_pass(0, nu_, true);
  }
}

template <class T>
void StreamingMultigrid<T>::smooth(int steps) {
  if (steps < 1) return;
  auto [aw, cw] = smoothing_extent(levels_[0].d.nx, tile_w_, steps, 0);
  auto [ah, ch] = smoothing_extent(levels_[0].d.ny, tile_h_, steps, 0);
  if (stream::array_elems(aw, ah) > long(streamer_->block_elems()))
    throw UsageError(
        fmt::format("the device budget is too small for {} smoothing steps on {} x {} tiles", steps,
                    tile_w_, tile_h_));
  smooth_pass(0, steps, false);
  restricted_ = false;
}

template class StreamingMultigrid<float>;
template class StreamingMultigrid<double>;

}  // namespace tessera::mg
