#include "lbm/thesis_gas_parts.hpp"

#include <chrono>
#include <cstring>

#include <fmt/format.h>

#include "core/dispatch.hpp"
#include "core/error.hpp"
#include "lbm/kernels/thesis_gas_kernels.hpp"
#include "lbm/kernels/thesis_gas_point.hpp"
#include "skeleton/field.hpp"

namespace tessera::lbm {

namespace {
struct Cell {  // the thesis's cell_t = array<float, 19>
  float f[thesis::kQ];
};
static_assert(sizeof(Cell) == thesis::kCellBytes);

skeleton::FieldOptions slabs(const skeleton::Team& team) {
  skeleton::FieldOptions o;
  o.parts = {1, 1, team.total_parts()};
  o.halo = {0, 0, 1};
  return o;
}
}  // namespace

struct ThesisGasParts::Impl {
  skeleton::Field<Cell> a, b;
  Impl(const skeleton::Team& team, const Grid& g)
      : a(team, skeleton::extents_3d(g.nx, g.ny, g.nz), 1, slabs(team)),
        b(team, skeleton::extents_3d(g.nx, g.ny, g.nz), 1, slabs(team)) {}
};

ThesisGasParts::ThesisGasParts(skeleton::Team team, Grid g) : grid_(g) {
  if (g.nx < 1 || g.ny < 1 || g.nz < team.total_parts())
    throw UsageError(fmt::format("thesis-gas {}x{}x{} cannot be split into {} z-slabs", g.nx, g.ny, g.nz,
                                 team.total_parts()));
  const long layers = (g.nz + team.total_parts() - 1) / team.total_parts() + 2;
  const std::uint64_t need = 2ull * std::uint64_t(g.nx * g.ny * layers) * thesis::kCellBytes;
  for (int p = 0; p < team.local_parts(); ++p) {
    const std::uint64_t have = team.device(p).info().global_mem_bytes;
    if (have && need > have)
      throw OutOfMemory(fmt::format("{} for a slab of the thesis's {}x{}x{} gas simulation", team.device(p).id(), g.nx,
                                    g.ny, g.nz),
                        need, have);
  }
  impl_ = std::make_unique<Impl>(team, g);
}

ThesisGasParts::~ThesisGasParts() = default;
int ThesisGasParts::parts() const noexcept { return impl_->a.parts(); }

void ThesisGasParts::generate() {
  std::vector<float> cells(std::size_t(grid_.cells()) * thesis::kQ);
  for (long z = 0; z < grid_.nz; ++z)
    for (long y = 0; y < grid_.ny; ++y)
      for (long x = 0; x < grid_.nx; ++x)
        thesis_point::ts_thesis_generate(cells.data(), x, y, z, grid_.nx, grid_.ny, grid_.nz, thesis::kQ, 1);
  set_frame(cells);
}

void ThesisGasParts::set_frame(const std::vector<float>& cells) {
  if (cells.size() != std::size_t(grid_.cells()) * thesis::kQ)
    throw Error(fmt::format("thesis-gas frame of {} floats given, the lattice holds {}", cells.size(),
                            std::size_t(grid_.cells()) * thesis::kQ));
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

void ThesisGasParts::import_frame(const std::filesystem::path& path) { set_frame(thesis::read_frame(path, grid_)); }

void ThesisGasParts::export_frame(const std::filesystem::path& path) { thesis::write_frame(path, frame()); }

void ThesisGasParts::step(long n) {
  const float omega = thesis_omega();
  auto& a = impl_->a;
  auto& b = impl_->b;
  using clock = std::chrono::steady_clock;
  for (long s = 0; s < n; ++s, ++t_) {
    const auto t0 = clock::now();
    a.exchange();  // whole cells, one layer (the thesis's halo copy)
    for (int p = 0; p < a.parts(); ++p) a.device(p).synchronize();
    const auto t1 = clock::now();
    for (int p = 0; p < a.parts(); ++p) {
      const skeleton::PartLayout& L = a.layout(p);
      const PartGeometry g{long(L.extent(0)), long(L.extent(1)), long(L.extent(2)), long(L.sy),
                                    long(L.sz), long(L.component_stride), long(L.origin())};
      Device& d = a.device(p);
      dispatch(d, [&](auto tag) {
        kernels::thesis_update_part(tag, d, d.queue(), grid_, g, long(L.owned.lo[2]), a.buffer(p).handle(),
                                    b.buffer(p).handle(), omega);
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
