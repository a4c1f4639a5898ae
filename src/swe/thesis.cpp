#include "swe/thesis.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include <fmt/format.h>

#include "core/dispatch.hpp"
#include "core/error.hpp"
#include "core/for_each_real.hpp"
#include "swe/kernels/swe_kernels.hpp"
#include "swe/kernels/swe_point.hpp"

namespace tessera::swe {

double thesis_dt(double dx, double zmax, double zmin) {
  if (!(zmax > zmin))
    throw UsageError(
        fmt::format("thesis dt rule dx/sqrt(9.8*(Zmax-Zmin))*0.1 needs Zmax > Zmin "
                    "(got Zmax = {}, Zmin = {}); give --dt",
                    zmax, zmin));
  return dx / std::sqrt(9.8 * (zmax - zmin)) * 0.1;
}

long thesis_steps(double t_end, double dt) { return static_cast<long>(std::ceil(t_end / dt)); }

template <class T>
ThesisState<T> thesis_dam_break(const DamBreak& c) {
  if (c.nx < 1 || c.ny < 1) throw UsageError("thesis grid needs nx, ny >= 1");
  if (!(c.deep > 0) || !(c.shallow > 0))
    throw UsageError(
        fmt::format("the thesis model cannot handle dry cells (it divides by the "
                    "depth Z): depths must be positive, got {} and {}",
                    c.deep, c.shallow));
  ThesisState<T> s(ThesisGrid{c.nx, c.ny, c.ny + 2});
  const double d = c.side / double(c.transposed ? c.ny : c.nx);
  for (long i = 0; i < c.nx + 2; ++i)
    for (long j = 0; j < c.ny + 2; ++j) {
      const long n = c.transposed ? j : i;  // 1-based cell index along the dam's normal
      const double centre = (double(n) - 0.5) * d;
      s.z[s.grid.at(i, j)] = T(centre < c.dam ? c.deep : c.shallow);
    }
  return s;
}

template <class T>
void thesis_fill_ghosts(ThesisState<T>& s) {
  using namespace point;
  const ThesisGrid& g = s.grid;
  for (long j = 0; j < g.ny + 2; ++j)
    ts_swe_thesis_ghost_row(s.z.data(), s.qx.data(), s.qy.data(), g.nx, g.w, j);
  for (long i = 0; i < g.nx + 2; ++i)
    ts_swe_thesis_ghost_col(s.z.data(), s.qx.data(), s.qy.data(), g.ny, g.w, i);
}

template <class T>
void thesis_reference_step(ThesisState<T>& s, T k) {
  using namespace point;
  thesis_fill_ghosts(s);
  ThesisState<T> n = s;  // the thesis's new arrays; their frame is refilled next step
  const ThesisGrid& g = s.grid;
  for (long i = 1; i <= g.nx; ++i)
    for (long j = 1; j <= g.ny; ++j) {
      const long c = g.at(i, j);
      ts_swe_thesis_at(s.z.data(), s.qx.data(), s.qy.data(), c, g.w, k, &n.z[c], &n.qx[c],
                       &n.qy[c]);
    }
  s = std::move(n);
}

template <class T>
double thesis_mass(const ThesisState<T>& s, double dx) {
  double m = 0;
  for (long i = 1; i <= s.grid.nx; ++i)
    for (long j = 1; j <= s.grid.ny; ++j) m += double(s.z[s.grid.at(i, j)]) * dx * dx;
  return m;
}

const std::vector<ThesisVariant>& thesis_variants() {
  using K = ThesisKernel;
  using B = ThesisBuffers;
  static const std::vector<ThesisVariant> v = {
      {"v0-naive", "first OpenCL version: host ghost copies, per-step write/read, copy new->old",
       false, K::global, B::copy},
      {"v1-ghost-kernels", "ghost frame by row/column kernels, device copy new->old", true,
       K::global, B::copy},
      {"v1f4-ghost-kernels",
       "V1 with rows padded to a multiple of 4 and the ghost rows copied as float4 (double4 in double)",
       true, K::global, B::copy, true},
      {"v6-simd4",
       "the float4 SIMD stencil: a work-item computes 4 consecutive cells from 4-vector loads (double4 in double), on V1f4's padded rows and ghost kernels",
       true, K::simd4, B::copy, true},
      {"v2a-local-edge", "local tile, edge neighbours from global; host ghosts", false,
       K::tile_edge, B::copy},
      {"v2b-local-halo", "local tile with halo (Listing 4.1); host ghosts", false, K::tile_halo,
       B::copy},
      {"v3-local-ghost-kernels", "V2b + V1: local tile with halo, ghost kernels", true,
       K::tile_halo, B::copy},
      {"v4-inplace-racy",
       "in-place local tile, host ghosts (races between work-groups; demonstration)", false,
       K::tile_halo, B::in_place},
      {"v5-combined-racy",
       "thesis best: in-place local tile + ghost kernels (races; demonstration)", true,
       K::tile_halo, B::in_place},
      {"v5-pingpong", "V5 made race-free: local tile + ghost kernels, ping-pong buffers", true,
       K::tile_halo, B::ping_pong},
      {"pingpong-global", "global-memory kernel + ghost kernels, ping-pong buffers", true,
       K::global, B::ping_pong},
      {"fused-walls",
       "one launch per step: global kernel with the walls applied in place of ghosts, ping-pong",
       true, K::walls, B::ping_pong},
      {"strip-walls",
       "one launch per step, walls on the fly; each work-item marches a column and divides once per cell (quotients handed to the neighbours in local memory), ping-pong",
       true, K::strip, B::ping_pong},
      {"v7-reduced-items", "one work-item per compute unit looping over rows, ghost kernels", true,
       K::rows, B::ping_pong},
  };
  return v;
}

const ThesisVariant& thesis_variant(std::string_view name) {
  std::string names;
  for (const auto& v : thesis_variants()) {
    if (v.name == name) return v;
    names += (names.empty() ? "" : ", ") + v.name;
  }
  throw UsageError(fmt::format("unknown thesis variant '{}' (known: {})", name, names));
}

WorkGroup parse_work_group(std::string_view spec, Device& device) {
  if (spec == "default" || spec == "null" || spec == "NULL") return {};
  if (spec == "max" || spec == "quarter") {
    WorkGroup m = dispatch(device, [&](auto tag) { return kernels::max_work_group(tag, device); });
    if (spec == "quarter") m = {std::max(1, m.l0 / 2), std::max(1, m.l1 / 2)};
    return m;
  }
  const auto x = spec.find('x');
  int a = 0, b = 0;
  try {
    if (x == std::string_view::npos) throw std::invalid_argument("no x");
    std::size_t pa = 0, pb = 0;
    a = std::stoi(std::string(spec.substr(0, x)), &pa);
    b = std::stoi(std::string(spec.substr(x + 1)), &pb);
    if (pa != x || pb != spec.size() - x - 1) throw std::invalid_argument("trailing");
  } catch (const std::exception&) {
    throw UsageError(
        fmt::format("work-group '{}': expected default, max, quarter or AxB (e.g. 1x256)", spec));
  }
  if (a < 1 || b < 1 || a * b > 4096)
    throw UsageError(fmt::format("work-group '{}': sides must be >= 1 with A*B <= 4096", spec));
  return {a, b};
}

long thesis_round_global(long n, int l) { return n + 2 < l ? l : ((n + 2) / l + 1) * l; }

long thesis_strip_rows(const ThesisGrid& g) {
  // measured on an H200 at 1000^2 (FP32, ms/step): 2 rows 0.0220, 3 0.0191, 4 0.0183,
  // 8 0.0166, 16 0.0178
  return std::clamp<long>(g.nx * g.ny >> 17, 8, 64);  // up to 2^20 cells: 8 rows; 16384^2: 64
}

template <class T>
ThesisSolver<T>::ThesisSolver(std::shared_ptr<Device> device, const ThesisState<T>& initial, T k,
                              const ThesisVariant& variant, WorkGroup wg)
    : device_(std::move(device)),
      grid_(initial.grid),
      dgrid_(initial.grid),
      k_(k),
      variant_(variant),
      wg_(wg),
      host_(initial) {
  // the thesis's float4 layout: the first multiple of 4 strictly above ny + 2
  if (variant.vector_rows) dgrid_.w = (grid_.ny + 2) / 4 * 4 + 4;
  if (variant.vector_rows &&
      !variant.device_ghosts)  // the host-ghost path keeps the w = ny + 2 layout
    throw Error(fmt::format("internal: variant {} pads its rows but fills ghosts on the host",
                            variant.name));
  if (variant.kernel == ThesisKernel::simd4 &&
      !variant.vector_rows)  // its vectors need rows of 4k values
    throw Error(fmt::format("internal: variant {} runs the 4-vector stencil on unpadded rows",
                            variant.name));
  for (T v : initial.z)
    if (!(v > 0))
      throw UsageError(
          "the thesis model cannot handle dry or negative depth (it divides by Z); "
          "use --model physical for wet/dry cases");
  if (variant.buffers == ThesisBuffers::in_place && device_->backend() == Backend::cpu)
    throw UsageError(
        fmt::format("variant {} is a GPU race demonstration; it has no CPU form", variant.name));
  if ((variant.kernel == ThesisKernel::tile_edge || variant.kernel == ThesisKernel::tile_halo) &&
      wg_.is_default())
    wg_ =
        parse_work_group("quarter", *device_);  // tile kernels need a local size; "Max" can exceed
                                                // a kernel's limit (the thesis's NVIDIA failures)
  const std::size_t n = dgrid_.size();
  std::vector<T> nan(n, std::numeric_limits<T>::quiet_NaN());
  for (Fields<T>* f : {&a_, &b_}) {
    f->z = Buffer<T>(device_, n);
    f->qx = Buffer<T>(device_, n);
    f->qy = Buffer<T>(device_, n);
    f->z.copy_from_host(nan);  // poisoned: a cell a kernel forgets shows as NaN
    f->qx.copy_from_host(nan);
    f->qy.copy_from_host(nan);
  }
  upload(initial);
}

// States in and out keep w = ny + 2; the device may pad its rows (dgrid_).
template <class T>
void ThesisSolver<T>::upload(const ThesisState<T>& s) {
  const auto put = [&](const std::vector<T>& v, Buffer<T>& b) {
    if (dgrid_.w == grid_.w) return b.copy_from_host(v);
    std::vector<T> p(dgrid_.size(), std::numeric_limits<T>::quiet_NaN());
    for (long i = 0; i < grid_.nx + 2; ++i)
      std::copy_n(v.begin() + grid_.at(i, 0), grid_.w, p.begin() + dgrid_.at(i, 0));
    b.copy_from_host(p);
  };
  put(s.z, a_.z);
  put(s.qx, a_.qx);
  put(s.qy, a_.qy);
}

template <class T>
void ThesisSolver<T>::step() {
  Queue& q = device_->queue();
  const bool in_place = variant_.buffers == ThesisBuffers::in_place;
  Fields<T>& dst = in_place ? a_ : b_;
  dispatch(*device_, [&](auto tag) {
    if (variant_.kernel == ThesisKernel::walls || variant_.kernel == ThesisKernel::strip) {
      // no frame to fill: the kernel applies the walls
    } else if (variant_.device_ghosts) {
      kernels::thesis_ghosts(tag, q, dgrid_, a_, variant_.vector_rows);
    } else {  // V0: ghosts on the host, the whole state crosses the bus twice per step
      thesis_fill_ghosts(host_);
      a_.z.copy_from_host(host_.z);
      a_.qx.copy_from_host(host_.qx);
      a_.qy.copy_from_host(host_.qy);
    }
    kernels::thesis_update(tag, q, dgrid_, variant_.kernel, wg_, k_, a_, dst);
  });
  if (!variant_.device_ghosts) {
    dst.z.copy_to_host(host_.z);
    dst.qx.copy_to_host(host_.qx);
    dst.qy.copy_to_host(host_.qy);
  }
  if (variant_.buffers == ThesisBuffers::ping_pong) {
    std::swap(a_, b_);
  } else if (!in_place && variant_.device_ghosts) {  // clEnqueueCopyBuffer new -> old
    a_.z.copy_from(b_.z);
    a_.qx.copy_from(b_.qx);
    a_.qy.copy_from(b_.qy);
  }
  ++steps_;
}

template <class T>
void ThesisSolver<T>::restore_state(const ThesisSolverState<T>& s) {
  const ThesisGrid& g = s.fields.grid;
  if (g.nx != grid_.nx || g.ny != grid_.ny || g.w != grid_.w)
    throw UsageError(fmt::format("a {}x{} thesis state cannot continue on a {}x{} grid", g.nx, g.ny,
                                 grid_.nx, grid_.ny));
  for (const auto* f : {&s.fields.z, &s.fields.qx, &s.fields.qy})
    if (f->size() != grid_.size())
      throw Error(fmt::format("internal: a thesis state field holds {} values, the grid {}",
                              f->size(), grid_.size()));
  if (s.k != k_)
    throw UsageError(
        fmt::format("the state was computed with k = dt/(2 dx) = {}, this solver has {}", s.k, k_));
  if (s.steps < 0) throw UsageError("a thesis state with a negative step count");
  host_ = s.fields;
  upload(s.fields);
  steps_ = s.steps;
}

template <class T>
ThesisState<T> ThesisSolver<T>::state() const {
  if (!variant_.device_ghosts) return host_;
  ThesisState<T> s(grid_);
  const auto get = [&](const Buffer<T>& b, std::vector<T>& v) {
    if (dgrid_.w == grid_.w) return b.copy_to_host(v);
    std::vector<T> p(dgrid_.size());
    b.copy_to_host(p);
    for (long i = 0; i < grid_.nx + 2; ++i)
      std::copy_n(p.begin() + dgrid_.at(i, 0), grid_.w, v.begin() + grid_.at(i, 0));
  };
  get(a_.z, s.z);
  get(a_.qx, s.qx);
  get(a_.qy, s.qy);
  return s;
}

#define TS_INSTANTIATE(T)                                        \
  template ThesisState<T> thesis_dam_break<T>(const DamBreak&);  \
  template void thesis_fill_ghosts<T>(ThesisState<T>&);          \
  template void thesis_reference_step<T>(ThesisState<T>&, T);    \
  template double thesis_mass<T>(const ThesisState<T>&, double); \
  template class ThesisSolver<T>;
TS_FOR_EACH_REAL(TS_INSTANTIATE)
#undef TS_INSTANTIATE

}  // namespace tessera::swe
