// Field<T>: a distributed, multi-component field of trivially copyable T over
// a Team (devices of this process x MPI ranks). The storage DA/DM/DC and every
// skeleton use, and the entry point for native kernels (src/skeleton/README.md):
//
//   skeleton::Field<float> f(team, skeleton::extents_3d(nx, ny, nz), /*components*/ 19,
//                            {.halo = {0, 0, 1}});
//   for (int p = 0; p < f.parts(); ++p) {
//     const PartLayout& L = f.layout(p);  // owned box, halo, strides
//     Buffer<float>& b = f.buffer(p);     // ONE contiguous [halo|owned|halo] block
//   }
//   f.exchange(request, inner, outer);    // halos move while `inner` runs
//
// Coherence is explicit (Muesli's model): the device copy is authoritative
// after a skeleton or native kernel wrote it; to_host() downloads every local
// part into the host mirror, to_device() uploads the mirror.
#pragma once
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/buffer.hpp"
#include "core/error.hpp"
#include "skeleton/decomposition.hpp"
#include "skeleton/halo_exchange.hpp"
#include "skeleton/layout.hpp"
#include "skeleton/team.hpp"

namespace tessera::skeleton {

struct FieldOptions {
  /// Blocks along x, y, z (product = team.total_parts()); all zero: every
  /// part along the slowest meaningful axis.
  std::array<int, 3> parts{0, 0, 0};
  /// Width per axis of the halo (decomposed axes) or ghost layer (the others).
  Index3 halo{0, 0, 0};
};

namespace detail {
/// The non-template part of a field: decomposition, layouts, exchange engine.
class FieldShape {
 public:
  FieldShape(Team team, const Extents& global, int components, const FieldOptions& o);
  const Team& team() const noexcept { return team_; }
  const Decomposition& decomposition() const noexcept { return decomposition_; }
  const Extents& extents() const noexcept { return decomposition_.global(); }
  int components() const noexcept { return components_; }
  Index3 halo() const noexcept { return halo_; }
  const PartLayout& layout(int local) const;
  const std::vector<PartLayout>& all_layouts() const noexcept { return layouts_; }
  /// Re-lays out the parts with a wider halo (storage is the caller's business).
  void set_halo(const Index3& halo);
  void exchange(std::vector<PartStorage>& parts, std::size_t elem_bytes, const ExchangeRequest& r,
                const PartHook* inner, const PartHook* outer);
  const ExchangeStats& last_exchange() const noexcept { return stats_; }
  /// Throws Error unless `o` has the same global extents, decomposition and
  /// team size (`what` names the operation for the message).
  void check_same_shape(const FieldShape& o, const char* what) const;

 private:
  Team team_;
  Decomposition decomposition_;
  int components_;
  Index3 halo_;
  std::vector<PartLayout> layouts_;  // every part of every rank
  std::shared_ptr<ExchangeEngine> engine_;
  ExchangeStats stats_;
};

/// Copies the owned box between a compact host array and a padded device
/// buffer (blocking), one component plane at a time.
void copy_owned(Device& device, void* handle, const PartLayout& L, std::size_t elem_bytes,
                void* host, bool to_device);
}  // namespace detail

template <class T>
class Field {
  static_assert(std::is_trivially_copyable_v<T>,
                "distributed containers hold trivially copyable T");

 public:
  using value_type = T;

  Field(Team team, const Extents& global, int components = 1, const FieldOptions& options = {})
      : shape_(std::make_shared<detail::FieldShape>(std::move(team), global, components, options)) {
    allocate();
  }
  Field(Field&&) noexcept = default;
  Field& operator=(Field&&) noexcept = default;

  const Team& team() const noexcept { return shape_->team(); }
  const Decomposition& decomposition() const noexcept { return shape_->decomposition(); }
  const Extents& extents() const noexcept { return shape_->extents(); }
  int components() const noexcept { return shape_->components(); }
  /// Parts (= devices) on this rank.
  int parts() const noexcept { return team().local_parts(); }
  const PartLayout& layout(int local) const { return shape_->layout(local); }
  Buffer<T>& buffer(int local) { return buffers_.at(static_cast<std::size_t>(local)); }
  const Buffer<T>& buffer(int local) const { return buffers_.at(static_cast<std::size_t>(local)); }
  Device& device(int local) const { return team().device(local); }
  Index3 halo() const noexcept { return shape_->halo(); }
  const detail::FieldShape& shape() const noexcept { return *shape_; }

  // ---- halo exchange ----
  /// Refreshes the halos (blocking with respect to the parts' queues: later
  /// work on them sees the halos).
  void exchange(const ExchangeRequest& r = {}) { exchange_impl(r, nullptr, nullptr); }
  /// Refreshes the halos while `inner(p, queue)` computes what needs none;
  /// `outer(p, queue)` is enqueued once part p's halos arrived.
  void exchange(const ExchangeRequest& r, const PartHook& inner, const PartHook& outer) {
    exchange_impl(r, &inner, &outer);
  }
  const ExchangeStats& last_exchange() const noexcept { return shape_->last_exchange(); }
  /// Widens the halo (or ghost layer) to at least `width` per axis, keeping the
  /// owned cells (device data is authoritative).
  /// keep_contents = false: the caller overwrites every owned cell next (a
  /// stencil's output), so nothing is copied across the reallocation.
  void ensure_halo(const Index3& width, bool keep_contents = true) {
    const Index3 h = halo();
    if (width[0] <= h[0] && width[1] <= h[1] && width[2] <= h[2]) return;
    require_device();
    Index3 w{std::max(width[0], h[0]), std::max(width[1], h[1]), std::max(width[2], h[2])};
    std::vector<std::vector<T>> keep(static_cast<std::size_t>(parts()));
    if (keep_contents)
      for (int p = 0; p < parts(); ++p) keep[p] = download(p);
    auto shape = std::make_shared<detail::FieldShape>(*shape_);
    shape->set_halo(w);
    shape_ = std::move(shape);
    allocate();
    if (keep_contents)
      for (int p = 0; p < parts(); ++p) upload(p, keep[p]);
  }

  // ---- coherence and host mirror ----
  /// Downloads every local part's owned cells into the host mirror.
  void to_host() {
    for (int p = 0; p < parts(); ++p) mirror_[p] = download(p);
    host_valid_ = true;
  }
  /// Uploads the host mirror (owned cells; halos are refreshed by exchange()).
  void to_device() {
    for (int p = 0; p < parts(); ++p) upload(p, mirror_[p]);
    device_valid_ = true;
  }
  /// The host mirror of local part p: its owned box, compact (x fastest),
  /// component-major. Call to_host() first; to_device() after changing it.
  std::vector<T>& host(int local) { return mirror_.at(static_cast<std::size_t>(local)); }
  bool host_current() const noexcept { return host_valid_; }
  /// Native kernels call this after writing: the mirror is stale (and the
  /// ghost layers unknown).
  void mark_device_written() noexcept {
    host_valid_ = false;
    device_valid_ = true;
    ghosts_.clear();
  }
  /// The skeletons call this after writing owned cells only.
  void mark_owned_written() noexcept {
    host_valid_ = false;
    device_valid_ = true;
  }
  /// What the ghost layers hold, as map_stencil describes it (empty: unknown).
  /// Cleared by a reallocation, a periodic exchange and mark_device_written.
  const std::string& ghosts() const noexcept { return ghosts_; }
  void set_ghosts(std::string what) { ghosts_ = std::move(what); }
  /// Marks the mirror as the newer copy (uploaded by the next skeleton).
  void mark_host_written() noexcept {
    device_valid_ = false;
    host_valid_ = true;
  }
  void require_device() {
    if (!device_valid_) to_device();
  }

  /// Every cell of the global field (all ranks), compact, component-major.
  std::vector<T> gather() {
    require_device();
    to_host();
    return detail_gather();
  }
  /// The same on rank 0 only (the others send their parts there and get an
  /// empty vector): what a checkpoint writer needs, without the whole field
  /// in every rank's memory. Collective.
  std::vector<T> gather_to_root() {
    require_device();
    to_host();
    Comm* comm = team().comm();
    if (!comm) return detail_gather();
    std::vector<T> mine;
    for (int p = 0; p < parts(); ++p) mine.insert(mine.end(), mirror_[p].begin(), mirror_[p].end());
    constexpr int kTag = 7001;  // above the halo exchange's (local part) * 8 + face
    if (team().rank() != 0) {
      comm->isend(mine.data(), mine.size() * sizeof(T), 0, kTag);
      comm->wait_all();
      return {};
    }
    const auto& layouts = shape_->all_layouts();
    const int per_rank = parts();
    std::vector<std::vector<T>> from(static_cast<std::size_t>(team().ranks()));
    from[0] = std::move(mine);
    for (int r = 1; r < team().ranks(); ++r) {
      index_t n = 0;
      for (int p = r * per_rank; p < (r + 1) * per_rank; ++p)
        n += layouts[static_cast<std::size_t>(p)].owned.volume() * components();
      from[static_cast<std::size_t>(r)].resize(static_cast<std::size_t>(n));
      comm->irecv(from[static_cast<std::size_t>(r)].data(), static_cast<std::size_t>(n) * sizeof(T),
                  r, kTag);
    }
    comm->wait_all();
    const index_t total = extents().volume();
    std::vector<T> out(static_cast<std::size_t>(total * components()));
    for (int r = 0; r < team().ranks(); ++r) {
      const T* src = from[static_cast<std::size_t>(r)].data();
      for (int p = r * per_rank; p < (r + 1) * per_rank; ++p) {
        const PartLayout& L = layouts[static_cast<std::size_t>(p)];
        for_owned(L, [&](index_t local, index_t gi, int c) {
          out[static_cast<std::size_t>(c * total + gi)] = src[local];
        });
        src += L.owned.volume() * L.components;
      }
    }
    return out;
  }
  /// Sets every owned cell from a global compact component-major array.
  void scatter(std::span<const T> global) {
    const index_t n = extents().volume();
    if (static_cast<index_t>(global.size()) != n * components())
      throw Error("Field::scatter: " + std::to_string(global.size()) +
                  " values given, the field has " + std::to_string(n * components()) + " (" +
                  extents().to_string() + " x " + std::to_string(components()) + " components)");
    for (int p = 0; p < parts(); ++p) {
      const PartLayout& L = layout(p);
      auto& m = mirror_[p];
      m.resize(static_cast<std::size_t>(L.owned.volume() * components()));
      for_owned(L, [&](index_t local, index_t globalIndex, int c) {
        m[static_cast<std::size_t>(local)] = global[static_cast<std::size_t>(c * n + globalIndex)];
      });
    }
    host_valid_ = true;
    to_device();
  }
  void fill(const T& v) {
    for (int p = 0; p < parts(); ++p)
      mirror_[p].assign(static_cast<std::size_t>(layout(p).owned.volume() * components()), v);
    host_valid_ = true;
    to_device();
  }
  /// Swaps storage with a field of the same shape (library double buffering).
  void swap(Field& o) {
    shape_->check_same_shape(*o.shape_, "Field::swap");
    std::swap(shape_, o.shape_);
    std::swap(buffers_, o.buffers_);
    std::swap(mirror_, o.mirror_);
    std::swap(host_valid_, o.host_valid_);
    std::swap(device_valid_, o.device_valid_);
    std::swap(ghosts_, o.ghosts_);
  }

 private:
  void allocate() {
    ghosts_.clear();
    buffers_.clear();
    mirror_.assign(static_cast<std::size_t>(parts()), {});
    for (int p = 0; p < parts(); ++p)
      buffers_.emplace_back(team().device_ptr(p), static_cast<std::size_t>(layout(p).elements()));
  }
  std::vector<T> download(int p) {
    const PartLayout& L = layout(p);
    std::vector<T> h(static_cast<std::size_t>(L.owned.volume() * L.components));
    detail::copy_owned(device(p), buffer(p).handle(), L, sizeof(T), h.data(), false);
    return h;
  }
  void upload(int p, std::vector<T>& h) {
    const PartLayout& L = layout(p);
    if (static_cast<index_t>(h.size()) != L.owned.volume() * L.components)
      throw Error("Field::to_device: the host mirror of part " + std::to_string(p) +
                  " has the wrong size (call to_host() or fill() first)");
    detail::copy_owned(device(p), buffer(p).handle(), L, sizeof(T), h.data(), true);
  }
  template <class F>
  void for_owned(const PartLayout& L, F&& f) const {
    const Extents& g = extents();
    const index_t vol = L.owned.volume();
    for (int c = 0; c < L.components; ++c)
      for (index_t z = 0; z < L.owned.extent(2); ++z)
        for (index_t y = 0; y < L.owned.extent(1); ++y)
          for (index_t x = 0; x < L.owned.extent(0); ++x) {
            const index_t gi =
                ((L.owned.lo[2] + z) * g.n[1] + L.owned.lo[1] + y) * g.n[0] + L.owned.lo[0] + x;
            f(c * vol + (z * L.owned.extent(1) + y) * L.owned.extent(0) + x, gi, c);
          }
  }
  std::vector<T> detail_gather() {
    const index_t n = extents().volume();
    std::vector<T> out(static_cast<std::size_t>(n * components()));
    auto place = [&](const PartLayout& L, const T* src) {
      for_owned(L, [&](index_t local, index_t gi, int c) {
        out[static_cast<std::size_t>(c * n + gi)] = src[local];
      });
    };
    if (!team().comm()) {
      for (int p = 0; p < parts(); ++p) place(layout(p), mirror_[p].data());
      return out;
    }
    std::vector<T> mine;
    for (int p = 0; p < parts(); ++p) mine.insert(mine.end(), mirror_[p].begin(), mirror_[p].end());
    auto all = team().comm()->allgather(mine.data(), mine.size() * sizeof(T));
    const auto& layouts = shape_->all_layouts();
    std::size_t at = 0;
    for (const auto& L : layouts) {
      std::vector<T> part(static_cast<std::size_t>(L.owned.volume() * L.components));
      std::memcpy(part.data(), all.data() + at, part.size() * sizeof(T));
      at += part.size() * sizeof(T);
      place(L, part.data());
    }
    return out;
  }
  void exchange_impl(const ExchangeRequest& r, const PartHook* inner, const PartHook* outer) {
    require_device();
    if (r.periodic[0] || r.periodic[1] || r.periodic[2])
      ghosts_.clear();  // wraps land in global-edge halos
    std::vector<detail::PartStorage> s;
    for (int p = 0; p < parts(); ++p) s.push_back({&device(p), buffer(p).handle(), layout(p)});
    shape_->exchange(s, sizeof(T), r, inner, outer);
  }

  std::shared_ptr<detail::FieldShape> shape_;
  std::vector<Buffer<T>> buffers_;
  std::vector<std::vector<T>> mirror_;
  bool host_valid_ = false, device_valid_ = true;
  std::string ghosts_;
};

}  // namespace tessera::skeleton
