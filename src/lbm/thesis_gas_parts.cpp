#include "lbm/thesis_gas_parts.hpp"

#include <chrono>
#include <cstring>

#include <fmt/format.h>

#include "core/dispatch.hpp"
#include "core/error.hpp"
#include "lbm/kernels/thesis_gas_kernels.hpp"
#include "lbm/kernels/thesis_gas_point.hpp"
#include "core/embedded_sources.hpp"
#include "lbm/thesis_gas_stencil.hpp"
#include "skeleton/field.hpp"
#include "skeleton/skeletons.hpp"

namespace tessera::lbm {

namespace {
using Cell = ThesisCell;

// z-slabs with a one-layer halo; mapStencil also wants a ghost layer along x
// and y (it fills those from the boundary mode), allocated here at once.
skeleton::FieldOptions slabs(const skeleton::Team& team, ThesisGasImpl impl) {
  skeleton::FieldOptions o;
  o.parts = {1, 1, team.total_parts()};
  o.halo =
      impl == ThesisGasImpl::map_stencil ? skeleton::Index3{1, 1, 1} : skeleton::Index3{0, 0, 1};
  return o;
}
}  // namespace

ThesisGasImpl parse_thesis_impl(const std::string& s) {
  if (s == "native") return ThesisGasImpl::native;
  if (s == "mapstencil") return ThesisGasImpl::map_stencil;
  throw UsageError("unknown thesis-gas implementation '" + s + "' (expected native or mapstencil)");
}
const char* to_string(ThesisGasImpl i) {
  return i == ThesisGasImpl::native ? "native" : "mapstencil";
}

skeleton::Portable<ThesisGasStencil> thesis_gas_stencil() {
  return skeleton::portable(
      ThesisGasStencil{},
      skeleton::ClFunction{expand_includes("lbm/kernels/thesis_gas_stencil.h"),
                           "ts_thesis_gas_stencil", "lbm/kernels/thesis_gas_stencil.h",
                           "-cl-fp32-correctly-rounded-divide-sqrt"});
}

struct ThesisGasParts::Impl {
  skeleton::Field<Cell> a, b;
  skeleton::Portable<ThesisGasStencil> muesli = thesis_gas_stencil();
  Impl(const skeleton::Team& team, const Grid& g, ThesisGasImpl impl)
      : a(team, skeleton::extents_3d(g.nx, g.ny, g.nz), 1, slabs(team, impl)),
        b(team, skeleton::extents_3d(g.nx, g.ny, g.nz), 1, slabs(team, impl)) {}
};

ThesisGasParts::ThesisGasParts(skeleton::Team team, Grid g, ThesisGasImpl impl)
    : grid_(g), impl_kind_(impl) {
  if (g.nx < 1 || g.ny < 1 || g.nz < team.total_parts())
    throw UsageError(fmt::format("thesis-gas {}x{}x{} cannot be split into {} z-slabs", g.nx, g.ny,
                                 g.nz, team.total_parts()));
  const long layers = (g.nz + team.total_parts() - 1) / team.total_parts() + 2;
  const long ghost = impl == ThesisGasImpl::map_stencil ? 2 : 0;
  const std::uint64_t need =
      2ull * std::uint64_t((g.nx + ghost) * (g.ny + ghost) * layers) * thesis::kCellBytes;
  for (int p = 0; p < team.local_parts(); ++p) {
    const std::uint64_t have = team.device(p).info().global_mem_bytes;
    if (have && need > have)
      throw OutOfMemory(fmt::format("{} for a slab of the thesis's {}x{}x{} gas simulation",
                                    team.device(p).id(), g.nx, g.ny, g.nz),
                        need, have);
  }
  impl_ = std::make_unique<Impl>(team, g, impl);
}

ThesisGasParts::~ThesisGasParts() = default;
int ThesisGasParts::parts() const noexcept { return impl_->a.parts(); }

void ThesisGasParts::generate() {
  std::vector<float> cells(std::size_t(grid_.cells()) * thesis::kQ);
  for (long z = 0; z < grid_.nz; ++z)
    for (long y = 0; y < grid_.ny; ++y)
      for (long x = 0; x < grid_.nx; ++x)
        thesis_point::ts_thesis_generate(cells.data(), x, y, z, grid_.nx, grid_.ny, grid_.nz,
                                         thesis::kQ, 1);
  set_frame(cells);
}

void ThesisGasParts::set_frame(const std::vector<float>& cells) {
  if (cells.size() != std::size_t(grid_.cells()) * thesis::kQ)
    throw Error(fmt::format("thesis-gas frame of {} floats given, the lattice holds {}",
                            cells.size(), std::size_t(grid_.cells()) * thesis::kQ));
  std::vector<Cell> c(std::size_t(grid_.cells()));
  std::memcpy(c.data(), cells.data(), cells.size() * sizeof(float));
  impl_->a.scatter(c);
  t_ = 0;
}

std::vector<float> ThesisGasParts::frame() {
  for (int p = 0; p < parts(); ++p) impl_->a.device(p).synchronize();
  const std::vector<Cell> c = impl_->a.gather();
  std::vector<float> out(c.size() * thesis::kQ);
  std::memcpy(out.data(), c.data(), out.size() * sizeof(float));
  return out;
}

void ThesisGasParts::import_frame(const std::filesystem::path& path) {
  set_frame(thesis::read_frame(path, grid_));
}

void ThesisGasParts::export_frame(const std::filesystem::path& path) {
  thesis::write_frame(path, frame());
}

void ThesisGasParts::step(long n) {
  const float omega = thesis_omega();
  auto& a = impl_->a;
  auto& b = impl_->b;
  using clock = std::chrono::steady_clock;
  if (impl_kind_ == ThesisGasImpl::map_stencil) {
    const auto st = skeleton::Stencil::uniform(1, skeleton::BoundaryMode::neutral);
    for (long s = 0; s < n; ++s, ++t_) {
      const auto t0 = clock::now();
      skeleton::map_stencil(impl_->muesli, a, b, st,
                            Cell{});  // Muesli's PLCube: the zero cell outside
      for (int p = 0; p < b.parts(); ++p) b.device(p).synchronize();
      const double dt = std::chrono::duration<double>(clock::now() - t0).count();
      a.swap(b);
      total_s_ += dt;
      kernel_s_ += dt;
    }
    return;
  }
  for (long s = 0; s < n; ++s, ++t_) {
    const auto t0 = clock::now();
    a.exchange();  // whole cells, one layer (the thesis's halo copy)
    for (int p = 0; p < a.parts(); ++p) a.device(p).synchronize();
    const auto t1 = clock::now();
    for (int p = 0; p < a.parts(); ++p) {
      const skeleton::PartLayout& L = a.layout(p);
      const PartGeometry g{long(L.extent(0)), long(L.extent(1)), long(L.extent(2)),
                           long(L.sy),        long(L.sz),        long(L.component_stride),
                           long(L.origin())};
      Device& d = a.device(p);
      dispatch(d, [&](auto tag) {
        kernels::thesis_update_part(tag, d, d.queue(), grid_, g, long(L.owned.lo[2]),
                                    a.buffer(p).handle(), b.buffer(p).handle(), omega);
      });
    }
    for (int p = 0; p < a.parts(); ++p) a.device(p).synchronize();
    const auto t2 = clock::now();
    a.mark_device_written();
    b.mark_device_written();
    a.swap(b);
    total_s_ += std::chrono::duration<double>(t2 - t0).count();
    kernel_s_ += std::chrono::duration<double>(t2 - t1).count();
  }
}

}  // namespace tessera::lbm
