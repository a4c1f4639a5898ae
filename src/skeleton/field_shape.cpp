// The non-template part of Field<T>: layouts, exchange, host <-> device copies
// of the owned box.
#include <chrono>

#include <fmt/format.h>

#include "skeleton/field.hpp"
#include "skeleton/kernels/transfer_kernels.hpp"

namespace tessera::skeleton::detail {

FieldShape::FieldShape(Team team, const Extents& global, int components, const FieldOptions& o)
    : team_(std::move(team)),
      decomposition_(global, team_.total_parts(), o.parts),
      components_(components),
      halo_(o.halo) {
  if (components < 1)
    throw UsageError(fmt::format("a field needs at least one component, not {}", components));
  for (int a = 0; a < 3; ++a)
    if (halo_[a] < 0) throw UsageError("halo widths must not be negative");
  layouts_ = make_layouts(decomposition_, team_, components_, halo_);
  engine_ = make_engine(team_);
}

const PartLayout& FieldShape::layout(int local) const {
  if (local < 0 || local >= team_.local_parts())
    throw Error(fmt::format("part {} requested, this rank has {}", local, team_.local_parts()));
  return layouts_[static_cast<std::size_t>(team_.first_part() + local)];
}

void FieldShape::set_halo(const Index3& halo) {
  halo_ = halo;
  layouts_ = make_layouts(decomposition_, team_, components_, halo_);
}

void FieldShape::exchange(std::vector<PartStorage>& parts, std::size_t elem_bytes,
                          const ExchangeRequest& r, const PartHook* inner, const PartHook* outer) {
  const auto rounds = plan_exchange(decomposition_, layouts_, r);
  stats_ = {};
  const auto t0 = std::chrono::steady_clock::now();
  engine_->run(team_, parts, elem_bytes, rounds, inner, outer, stats_);
  stats_.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void FieldShape::check_same_shape(const FieldShape& o, const char* what) const {
  if (!(extents() == o.extents()) || decomposition_.grid() != o.decomposition_.grid() ||
      team_.total_parts() != o.team_.total_parts())
    throw Error(fmt::format(
        "{}: containers differ in shape ({} in {}x{}x{} blocks vs {} in {}x{}x{} blocks)", what,
        extents().to_string(), decomposition_.grid()[0], decomposition_.grid()[1],
        decomposition_.grid()[2], o.extents().to_string(), o.decomposition_.grid()[0],
        o.decomposition_.grid()[1], o.decomposition_.grid()[2]));
}

kernels::Rect rect_of(const PartLayout& L, const Box& b, int c, std::size_t eb) {
  kernels::Rect r;
  r.offset = static_cast<std::size_t>(L.offset(b.lo[0], b.lo[1], b.lo[2], c)) * eb;
  r.row_pitch = static_cast<std::size_t>(L.sy) * eb;
  r.slice_pitch = static_cast<std::size_t>(L.sz) * eb;
  r.width = static_cast<std::size_t>(b.extent(0)) * eb;
  r.rows = static_cast<std::size_t>(b.extent(1));
  r.slices = static_cast<std::size_t>(b.extent(2));
  return r;
}

void copy_owned(Device& device, void* handle, const PartLayout& L, std::size_t eb, void* host,
                bool to_device) {
  Box local;
  for (int a = 0; a < 3; ++a) local.hi[a] = L.owned.extent(a);
  const std::size_t plane = static_cast<std::size_t>(L.owned.volume()) * eb;
  for (int c = 0; c < L.components; ++c) {
    const kernels::Rect r = rect_of(L, local, c, eb);
    char* h = static_cast<char*>(host) + c * plane;
    dispatch(device, [&](auto tag) {
      if (to_device)
        kernels::write_rect(tag, device.queue(), handle, r, h, true);
      else
        kernels::read_rect(tag, device.queue(), handle, r, h, true);
    });
  }
}

}  // namespace tessera::skeleton::detail
