// Muesli's distributed containers: DA<T> (1-D array), DM<T> (2-D matrix),
// DC<T> (3-D cube) over a Team, with the skeletons as members under Muesli's
// names (map, mapIndex, mapInPlace, mapIndexInPlace, zip..., fold,
// mapStencil, mapStencilInPlace). Index functors receive global coordinates:
// DA f(i, v), DM f(x, y, v), DC f(x, y, z, v) (x fastest in memory).
#pragma once
#include <memory>

#include "skeleton/skeletons.hpp"

namespace tessera::skeleton {

template <class T, int D>
class Distributed {
 public:
  using value_type = T;
  static constexpr int dims = D;

  Field<T>& field() noexcept { return field_; }
  const Field<T>& field() const noexcept { return field_; }
  const Extents& extents() const noexcept { return field_.extents(); }
  index_t size() const noexcept { return extents().volume(); }

  // ---- map ----
  template <class Fn, class R>
  void map(const Fn& f, Distributed<R, D>& out) {
    apply_map<kernels::MapKind::map, 0>(f, field_, static_cast<Field<T>*>(nullptr), out.field(),
                                        "map");
  }
  template <class Fn>
  void mapInPlace(const Fn& f) {
    apply_map<kernels::MapKind::map, 0>(f, field_, static_cast<Field<T>*>(nullptr), field_,
                                        "mapInPlace");
  }
  template <class Fn, class R>
  void mapIndex(const Fn& f, Distributed<R, D>& out) {
    apply_map<kernels::MapKind::map_index, D>(f, field_, static_cast<Field<T>*>(nullptr),
                                              out.field(), "mapIndex");
  }
  template <class Fn>
  void mapIndexInPlace(const Fn& f) {
    apply_map<kernels::MapKind::map_index, D>(f, field_, static_cast<Field<T>*>(nullptr), field_,
                                              "mapIndexInPlace");
  }
  // ---- zip (b must have the same extents and decomposition) ----
  template <class U, class Fn, class R>
  void zip(Distributed<U, D>& b, const Fn& f, Distributed<R, D>& out) {
    apply_map<kernels::MapKind::zip, 0>(f, field_, &b.field(), out.field(), "zip");
  }
  template <class U, class Fn>
  void zipInPlace(Distributed<U, D>& b, const Fn& f) {
    apply_map<kernels::MapKind::zip, 0>(f, field_, &b.field(), field_, "zipInPlace");
  }
  template <class U, class Fn, class R>
  void zipIndex(Distributed<U, D>& b, const Fn& f, Distributed<R, D>& out) {
    apply_map<kernels::MapKind::zip_index, D>(f, field_, &b.field(), out.field(), "zipIndex");
  }
  template <class U, class Fn>
  void zipIndexInPlace(Distributed<U, D>& b, const Fn& f) {
    apply_map<kernels::MapKind::zip_index, D>(f, field_, &b.field(), field_, "zipIndexInPlace");
  }
  // ---- fold ----
  template <class Fn>
  T fold(const Fn& f) {
    return skeleton::fold(f, field_);
  }
  // ---- mapStencil ----
  template <class Fn, class B = NoBoundaryFunction>
  void mapStencil(const Fn& f, Distributed& out, const Stencil& s, const T& neutral = T{},
                  const B& user = {}) {
    map_stencil(f, field_, out.field_, s, neutral, user);
  }
  /// In place through a library-owned second buffer (swapped after the call).
  template <class Fn, class B = NoBoundaryFunction>
  void mapStencilInPlace(const Fn& f, const Stencil& s, const T& neutral = T{},
                         const B& user = {}) {
    if (!scratch_ || !(scratch_->extents() == extents()))
      scratch_ = std::make_unique<Field<T>>(field_.team(), extents(), 1, options_);
    // Both buffers get the stencil's halo now, so that swapping them never
    // leaves the next input without one (which would mean a reallocation).
    field_.ensure_halo(s.radius);
    scratch_->ensure_halo(s.radius, /*keep_contents=*/false);  // the stencil writes all of it
    map_stencil(f, field_, *scratch_, s, neutral, user);
    field_.swap(*scratch_);
  }

  // ---- coherence (Muesli: updateHost / updateDevice) ----
  void to_host() { field_.to_host(); }
  void to_device() { field_.to_device(); }
  std::vector<T> gather() { return field_.gather(); }
  void scatter(std::span<const T> all) { field_.scatter(all); }
  void fill(const T& v) { field_.fill(v); }

 protected:
  Distributed(Team team, const Extents& e, const FieldOptions& o)
      : options_(o), field_(std::move(team), e, 1, o) {}

 private:
  FieldOptions options_;
  Field<T> field_;
  std::unique_ptr<Field<T>> scratch_;
};

template <class T>
class DA : public Distributed<T, 1> {
 public:
  DA(Team team, index_t n, const FieldOptions& o = {})
      : Distributed<T, 1>(std::move(team), extents_1d(n), o) {}
  DA(Team team, index_t n, const T& fill, const FieldOptions& o = {}) : DA(std::move(team), n, o) {
    this->fill(fill);
  }
};

template <class T>
class DM : public Distributed<T, 2> {
 public:
  DM(Team team, index_t nx, index_t ny, const FieldOptions& o = {})
      : Distributed<T, 2>(std::move(team), extents_2d(nx, ny), o) {}
  DM(Team team, index_t nx, index_t ny, const T& fill, const FieldOptions& o = {})
      : DM(std::move(team), nx, ny, o) {
    this->fill(fill);
  }
};

template <class T>
class DC : public Distributed<T, 3> {
 public:
  DC(Team team, index_t nx, index_t ny, index_t nz, const FieldOptions& o = {})
      : Distributed<T, 3>(std::move(team), extents_3d(nx, ny, nz), o) {}
  DC(Team team, index_t nx, index_t ny, index_t nz, const T& fill, const FieldOptions& o = {})
      : DC(std::move(team), nx, ny, nz, o) {
    this->fill(fill);
  }
};

}  // namespace tessera::skeleton
