#include "lbm/geometry/voxelize.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>

#include <fmt/format.h>

#include "core/dispatch.hpp"
#include "core/error.hpp"
#include "lbm/kernels/voxel_kernels.hpp"
#include "lbm/kernels/voxel_point.hpp"

namespace tessera::lbm::geometry {

namespace {

constexpr long kTile = TS_VOXEL_TILE;
constexpr double kSubcell = double(1L << TS_VOXEL_SUBCELL_BITS);
constexpr long kRange = 1L << TS_VOXEL_RANGE_BITS;

// A pass's axes: rays along `ray`, cross-section (u, v), a cyclic order of
// (x, y, z); the pass's lattice is (n[ray], n[u], n[v]), its mask index
// r + n[ray] * (u + n[u] * v).
struct Axes {
  int ray, u, v;
};
constexpr Axes kAlongX{0, 1, 2}, kAlongY{1, 2, 0}, kAlongZ{2, 0, 1};

std::array<long, 3> sides(const Grid& g) { return {g.nx, g.ny, g.nz}; }

void check_grid(const Grid& g) {
  for (long n : sides(g))
    if (n < 1 || n > kRange)
      throw UsageError(fmt::format("voxelize: a lattice of {} x {} x {} cells: each side 1 to {}",
                                   g.nx, g.ny, g.nz, kRange));
}

void check_mesh(const Triangles& mesh) {
  if (mesh.empty()) throw UsageError("voxelize: the mesh has no triangles");
  if (mesh.xyz.size() % 9 != 0)
    throw Error(fmt::format("voxelize: {} coordinates are not 9 per triangle", mesh.xyz.size()));
  if (mesh.size() > 0x7fffffffu)
    throw Error(fmt::format("voxelize: {} triangles; at most 2^31 - 1", mesh.size()));
  for (std::size_t i = 0; i < mesh.xyz.size(); ++i) {
    const double c = mesh.xyz[i];
    if (!(std::fabs(c) < double(kRange)))  // also NaN
      throw Error(fmt::format(
          "voxelize: coordinate {} of vertex {} of triangle {} is {}: vertices must be finite and "
          "within {} cells of the origin (the exact ray tests' range)",
          "xyz"[i % 3], i / 3 % 3, i / 9, c, kRange));
  }
}

// The triangles a pass's rays can cross, their cross-sections in integer
// units of 2^-TS_VOXEL_SUBCELL_BITS cells (rounded to nearest even), and
// the tiles' lists (CSR) of the triangles whose bounding box reaches them.
struct Binned {
  ts_voxel_grid g{};
  std::vector<int> yz;
  std::vector<double> x;
  std::vector<long> tile_start;
  std::vector<int> tile_tris;
};

// The rays lo .. hi (cells, inclusive) whose centres lie in [qlo, qhi]
// (quantized), within [0, n).
std::array<long, 2> rays_within(long qlo, long qhi, long n) {
  const long lo = -((-qlo) >> TS_VOXEL_SUBCELL_BITS);  // ceil (arithmetic shifts)
  const long hi = qhi >> TS_VOXEL_SUBCELL_BITS;        // floor
  return {std::max(lo, 0L), std::min(hi, n - 1)};
}

Binned bin(const Triangles& mesh, const Grid& grid, Axes a) {
  const auto n = sides(grid);
  Binned b;
  const long tiles_u = (n[a.u] + kTile - 1) / kTile, tiles_v = (n[a.v] + kTile - 1) / kTile;
  b.g = ts_voxel_grid{n[a.ray], n[a.u], n[a.v], tiles_u};
  struct Tiles {
    long u0, u1, v0, v1;
  };
  std::vector<Tiles> reach;
  for (std::size_t t = 0; t < mesh.size(); ++t) {
    const double* p = &mesh.xyz[9 * t];
    long q[6];
    for (int k = 0; k < 3; ++k) {
      q[2 * k] = static_cast<long>(std::nearbyint(p[3 * k + a.u] * kSubcell));
      q[2 * k + 1] = static_cast<long>(std::nearbyint(p[3 * k + a.v] * kSubcell));
    }
    if (voxel_point::ts_voxel_edge(q[0], q[1], q[2], q[3], q[4], q[5]) == 0)
      continue;  // parallel to the rays: never crossed
    const auto [u0, u1] =
        rays_within(std::min({q[0], q[2], q[4]}), std::max({q[0], q[2], q[4]}), n[a.u]);
    const auto [v0, v1] =
        rays_within(std::min({q[1], q[3], q[5]}), std::max({q[1], q[3], q[5]}), n[a.v]);
    if (u0 > u1 || v0 > v1) continue;  // passes by every ray
    for (long c : q) b.yz.push_back(static_cast<int>(c));
    for (int k = 0; k < 3; ++k) b.x.push_back(p[3 * k + a.ray]);
    reach.push_back({u0 / kTile, u1 / kTile, v0 / kTile, v1 / kTile});
  }
  b.tile_start.assign(static_cast<std::size_t>(tiles_u * tiles_v + 1), 0);
  for (const Tiles& r : reach)
    for (long tv = r.v0; tv <= r.v1; ++tv)
      for (long tu = r.u0; tu <= r.u1; ++tu) ++b.tile_start[std::size_t(tu + tiles_u * tv + 1)];
  for (std::size_t i = 1; i < b.tile_start.size(); ++i) b.tile_start[i] += b.tile_start[i - 1];
  b.tile_tris.resize(static_cast<std::size_t>(b.tile_start.back()));
  std::vector<long> next(b.tile_start.begin(), b.tile_start.end() - 1);
  for (std::size_t t = 0; t < reach.size(); ++t) {
    const Tiles& r = reach[t];
    for (long tv = r.v0; tv <= r.v1; ++tv)
      for (long tu = r.u0; tu <= r.u1; ++tu)
        b.tile_tris[std::size_t(next[std::size_t(tu + tiles_u * tv)]++)] = static_cast<int>(t);
  }
  // a buffer holds at least one element; the kernel reads none of an empty list
  if (b.yz.empty()) {
    b.yz.assign(6, 0);
    b.x.assign(3, 0.0);
  }
  if (b.tile_tris.empty()) b.tile_tris.assign(1, 0);
  return b;
}

template <class T>
Buffer<T> upload(const std::shared_ptr<Device>& d, const std::vector<T>& v) {
  Buffer<T> b(d, v.size());
  b.copy_from_host(v);
  return b;
}

void run_pass(const Binned& b, Buffer<std::uint8_t>& mask, Buffer<int>& counts) {
  const auto& d = mask.device_ptr();
  const auto yz = upload(d, b.yz);
  const auto x = upload(d, b.x);
  const auto tile_start = upload(d, b.tile_start);
  const auto tile_tris = upload(d, b.tile_tris);
  dispatch(*d, [&](auto tag) {
    kernels::voxel_pass(tag, d->queue(), b.g, yz, x, tile_start, tile_tris, mask, counts);
  });
}

// One pass's mask and crossing counts, on the host.
struct Pass {
  std::vector<std::uint8_t> mask;
  std::vector<int> counts;
};
Pass cast(const Triangles& mesh, const Grid& grid, const std::shared_ptr<Device>& device, Axes a) {
  const Binned b = bin(mesh, grid, a);
  Buffer<std::uint8_t> mask(device, static_cast<std::size_t>(grid.cells()));
  Buffer<int> counts(device, static_cast<std::size_t>(b.g.ny * b.g.nz));
  run_pass(b, mask, counts);
  return {mask.to_vector(), counts.to_vector()};
}

// The cells of the odd rays along x decided by the rays along y and z
// through them (voxelize.hpp); Error where some stay undecided.
void resolve_odd_rays(const Triangles& mesh, const Grid& grid,
                      const std::shared_ptr<Device>& device, Pass& px, VoxelReport& report) {
  const long nx = grid.nx, ny = grid.ny, nz = grid.nz;
  const Pass py = cast(mesh, grid, device, kAlongY), pz = cast(mesh, grid, device, kAlongZ);
  long undecided_rays = 0, ex = 0, ey = 0, ez = 0;
  for (long z = 0; z < nz; ++z)
    for (long y = 0; y < ny; ++y) {
      if (px.counts[std::size_t(y + ny * z)] % 2 == 0) continue;
      ++report.odd_rays;
      bool undecided = false;
      for (long x = 0; x < nx; ++x) {
        int in = 0, out = 0;
        if (py.counts[std::size_t(z + nz * x)] % 2 == 0)
          ++(py.mask[std::size_t(y + ny * (z + nz * x))] ? in : out);
        if (pz.counts[std::size_t(x + nx * y)] % 2 == 0)
          ++(pz.mask[std::size_t(z + nz * (x + nx * y))] ? in : out);
        if (in == out) {
          if (!undecided && undecided_rays == 0) ex = x, ey = y, ez = z;
          undecided = true;
          continue;
        }
        px.mask[std::size_t(x + nx * (y + ny * z))] = in > out ? 1 : 0;
        ++report.resolved_cells;
      }
      undecided_rays += undecided;
    }
  if (undecided_rays > 0)
    throw Error(fmt::format(
        "voxelize: the mesh is not closed: {} rays along x cross it an odd number of times, and "
        "on {} of them rays along y and z cannot decide every cell either (e.g. the ray at y = "
        "{}, z = {}, its cell x = {}); close the mesh's holes",
        report.odd_rays, undecided_rays, ey, ez, ex));
}

}  // namespace

void cast_rays_x(const Triangles& mesh, const Grid& grid, Buffer<std::uint8_t>& mask,
                 Buffer<int>& counts) {
  check_grid(grid);
  check_mesh(mesh);
  if (mask.size() != std::size_t(grid.cells()) || counts.size() != std::size_t(grid.ny * grid.nz))
    throw Error(fmt::format(
        "cast_rays_x: a mask of {} and counts of {} elements for a lattice of {} x {} x {}",
        mask.size(), counts.size(), grid.nx, grid.ny, grid.nz));
  run_pass(bin(mesh, grid, kAlongX), mask, counts);
}

std::vector<std::uint8_t> voxelize(const Triangles& mesh, const Grid& grid,
                                   const std::shared_ptr<Device>& device, VoxelReport* report) {
  check_grid(grid);
  check_mesh(mesh);
  Pass px = cast(mesh, grid, device, kAlongX);
  VoxelReport r;
  if (std::any_of(px.counts.begin(), px.counts.end(), [](int c) { return c % 2 != 0; }))
    resolve_odd_rays(mesh, grid, device, px, r);
  if (report) {
    report->odd_rays += r.odd_rays;
    report->resolved_cells += r.resolved_cells;
  }
  return std::move(px.mask);
}

std::vector<std::uint8_t> voxelize(std::span<const Triangles> bodies, const Grid& grid,
                                   const std::shared_ptr<Device>& device, VoxelReport* report) {
  if (bodies.empty()) throw UsageError("voxelize: no bodies");
  std::vector<std::uint8_t> all = voxelize(bodies[0], grid, device, report);
  for (std::size_t b = 1; b < bodies.size(); ++b) {
    const auto one = voxelize(bodies[b], grid, device, report);
    for (std::size_t n = 0; n < all.size(); ++n) all[n] |= one[n];
  }
  return all;
}

}  // namespace tessera::lbm::geometry
