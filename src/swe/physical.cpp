#include "swe/physical.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "core/dispatch.hpp"
#include "core/error.hpp"
#include "core/interrupt.hpp"
#include "swe/advance_loop.hpp"
#include "swe/kernels/swe_kernels.hpp"
#include "swe/kernels/swe_point.hpp"

namespace tessera::swe {

void validate(const PhysCase& c, const PhysOptions& o) {
  if (c.nx < 2 || c.ny < 2)
    throw UsageError(fmt::format("--nx {} --ny {}: the grid needs at least 2x2 cells", c.nx, c.ny));
  if (static_cast<double>(c.nx) * static_cast<double>(c.ny) >= 4294967295.0)
    throw UsageError("grid too large: cells are numbered in 32 bits");
  if (!(c.dx > 0) || !(c.dy > 0)) throw UsageError("cell sizes must be positive");
  const std::size_t n = static_cast<std::size_t>(c.nx * c.ny);
  for (const auto* f : {&c.z, &c.h, &c.hu, &c.hv})
    if (f->size() != n)
      throw UsageError(
          fmt::format("case {}: a field holds {} values, the grid has {}", c.name, f->size(), n));
  for (std::size_t k = 0; k < n; ++k) {
    if (!std::isfinite(c.z[k]) || !std::isfinite(c.h[k]) || !std::isfinite(c.hu[k]) ||
        !std::isfinite(c.hv[k]))
      throw UsageError(
          fmt::format("case {}: non-finite value at cell ({}, {})", c.name, k / c.ny, k % c.ny));
    if (c.h[k] < 0)
      throw UsageError(fmt::format("case {}: negative depth {} at cell ({}, {})", c.name, c.h[k],
                                   k / c.ny, k % c.ny));
  }
  for (int a = 0; a < 4; a += 2)
    if ((c.bc[a] == Bc::periodic) != (c.bc[a + 1] == Bc::periodic))
      throw UsageError("periodic boundaries must be set on both opposite sides");
  if (!(o.cfl > 0) || o.cfl > 1.0)
    throw UsageError(
        fmt::format("--cfl {}: this CFL number would be unstable: the time step uses the "
                    "2D rate (|u|+c)/dx + (|v|+c)/dy and needs 0 < cfl <= 1 "
                    "(0.45 recommended, <= 0.5 keeps depths positive)",
                    o.cfl));
  if (o.fixed_dt < 0) throw UsageError("fixed dt must be positive");
  if (c.manning < 0) throw UsageError("Manning coefficient must be >= 0");
  if (!c.manning_map.empty()) {
    if (c.manning_map.size() != n)
      throw UsageError(fmt::format("case {}: the Manning map holds {} values, the grid has {}",
                                   c.name, c.manning_map.size(), n));
    for (std::size_t k = 0; k < n; ++k)
      if (!(c.manning_map[k] >= 0) || !std::isfinite(c.manning_map[k]))
        throw UsageError(fmt::format("case {}: Manning n {} at cell ({}, {}): expected >= 0",
                                     c.name, c.manning_map[k], k / c.ny, k % c.ny));
  }
}

namespace {

// The bed's ghost cells (constant over the run; an exchange face's are
// overwritten by the distributed solver's halo exchange): mirrored or
// wrapped, or, on normal-depth and discharge cells (a side's kind or its
// segment's), extrapolated along the slope of the two cells next to the side.
template <class T>
void fill_z_ghosts(const PhysGrid& g, const PhysParams<T>& p, T zwall, std::vector<T>& z) {
  auto kind = [&](int s, long k) {
    return k >= p.seg_lo[s] && k < p.seg_hi[s] ? p.seg_bc[s] : p.bc[s];
  };
  // ghost m of the cell at storage index `in` (first interior), `step` away
  // from the side (into the domain), `from` the mirror/wrap source. Sides
  // that continue the terrain (normal-depth outlets, discharge inlets)
  // extend the bed along the slope of the two cells next to them: with the
  // mirror, a sloping channel's inflow cell saw half its slope in the
  // centred bed source and second order's steady depth was off by 6 %
  // (docs/swe.md, MacDonald with rain). A discharge inlet's ghost is only
  // ever raised (the bed descending into the domain): lowered below the
  // first cell by more than its depth (a step up into the domain, a rough
  // DEM) it would be dry and let nothing in. Level sides keep the mirror:
  // their ghost depth is the level minus the ghost bed, which a rough DEM's
  // extrapolated noise would turn into a surge. Next to NODATA (z >= zwall)
  // every side mirrors: 1000 m walls are not a slope.
  auto fill = [&](int s, long k, long ghost, long in, long step, long from, long m) {
    const int b = kind(s, k);
    const T slope = z[in] - z[in + step];
    if ((b != TS_SWE_BC_NORMAL_DEPTH && b != TS_SWE_BC_DISCHARGE) || !(z[in] < zwall) ||
        !(z[in + step] < zwall) || (b == TS_SWE_BC_DISCHARGE && !(slope > T(0)))) {
      z[ghost] = z[from];
      return;
    }
    z[ghost] = z[in] + T(m) * slope;
  };
  for (long j = 0; j < g.ny; ++j)
    for (long m = 1; m <= 2; ++m) {
      const long J = j + 2;
      fill(0, j, (2 - m) * g.w + J, 2 * g.w + J, g.w,
           ts_swe_ghost_source(p.bc[0], 0, g.nx, m) * g.w + J, m);
      fill(1, j, (g.nx + 1 + m) * g.w + J, (g.nx + 1) * g.w + J, -g.w,
           ts_swe_ghost_source(p.bc[1], 1, g.nx, m) * g.w + J, m);
    }
  for (long i = -2; i < g.nx + 2; ++i) {  // columns, corners included (never read)
    const long r = (i + 2) * g.w;
    for (long m = 1; m <= 2; ++m) {
      fill(2, i, r + 2 - m, r + 2, 1, r + ts_swe_ghost_source(p.bc[2], 0, g.ny, m), m);
      fill(3, i, r + g.ny + 1 + m, r + g.ny + 1, -1, r + ts_swe_ghost_source(p.bc[3], 1, g.ny, m),
           m);
    }
  }
}

template <class T, class V>
std::vector<T> to_storage(const PhysGrid& g, const std::vector<V>& v) {
  std::vector<T> s(g.size(), T(0));
  for (long i = 0; i < g.nx; ++i)
    for (long j = 0; j < g.ny; ++j) s[g.at(i, j)] = T(v[i * g.ny + j]);
  return s;
}

template <class T>
std::vector<T> interior(const PhysGrid& g, const std::vector<T>& s) {
  std::vector<T> v(static_cast<std::size_t>(g.nx * g.ny));
  for (long i = 0; i < g.nx; ++i)
    for (long j = 0; j < g.ny; ++j) v[i * g.ny + j] = s[g.at(i, j)];
  return v;
}

}  // namespace

template <class T>
PhysSolver<T>::PhysSolver(std::shared_ptr<Device> device, const PhysCase& c, const PhysOptions& o)
    : device_(std::move(device)),
      grid_{c.nx, c.ny, (c.ny + 2 * PhysGrid::ghosts + 31) / 32 * 32},
      opt_(o),
      dx_(c.dx),
      dy_(c.dy) {
  validate(c, o);
  prm_.dx = T(c.dx);
  prm_.dy = T(c.dy);
  prm_.g = T(c.g);
  prm_.manning = T(c.manning);
  prm_.cfl = T(o.cfl);
  prm_.fixed_dt = T(o.fixed_dt);
  prm_.h_dry = T(o.h_dry >= 0 ? o.h_dry : (std::is_same_v<T, float> ? 1e-6 : 1e-12));
  if (o.columns != 1 && o.columns != 3)
    throw UsageError(
        "GPU first-order update must be 1 (one column per work-item, every face) or 3 (one column, faces shared)");
  prm_.columns = o.columns;
  for (int s = 0; s < 4; ++s) {
    prm_.bc[s] = int(c.bc[s]);
    prm_.bc_value[s] = T(c.bc_value[s]);
  }
  const std::size_t n = grid_.size();
  forcing_ = c.forcing;
  row0_ = c.row0;
  forcing_.set_segments(prm_, 0.0, 0.0, row0_, grid_.nx);  // their kinds shape the bed's ghosts
  prm_.min_rate = discharge_rate_floor(c, prm_);
  auto z = to_storage<T>(grid_, c.z);
  fill_z_ghosts(grid_, prm_, T(c.z_nodata), z);
  zb_ = Buffer<T>(device_, n);
  zb_.copy_from_host(z);
  for (Fields<T>* f : {&a_, &b_}) {
    f->z = Buffer<T>(device_, n);
    f->qx = Buffer<T>(device_, n);
    f->qy = Buffer<T>(device_, n);
  }
  const auto h = to_storage<T>(grid_, c.h), hu = to_storage<T>(grid_, c.hu),
             hv = to_storage<T>(grid_, c.hv);
  a_.z.copy_from_host(h);
  a_.qx.copy_from_host(hu);
  a_.qy.copy_from_host(hv);
  b_.z.copy_from_host(h);  // ghosts and corners of b get their values from a's copy
  b_.qx.copy_from_host(hu);
  b_.qy.copy_from_host(hv);
  // the first step's rate, from the initial state with the kernels' function
  std::uint32_t r0 = 0;
  for (long i = 0; i < grid_.nx; ++i)
    for (long j = 0; j < grid_.ny; ++j) {
      const long k = grid_.at(i, j);
      r0 = std::max(r0, point::ts_swe_rate_bits(point::ts_swe_rate(prm_.g, prm_.h_dry, prm_.dx,
                                                                   prm_.dy, h[k], hu[k], hv[k])));
    }
  scalars_ = Buffer<T>(device_, slot::nscalars);
  scalars_.copy_from_host(std::vector<T>{T(0), T(0), T(0)});
  flags_ = Buffer<std::uint32_t>(device_, slot::nflags);
  flags_.copy_from_host(std::vector<std::uint32_t>{r0, 0u, 0u, slot::none, slot::none});
  const bool map = !c.manning_map.empty();
  if (map) prm_.manning = T(-1);  // the kernels read the map (ts_swe_manning)
  nmap_ = Buffer<T>(device_, map ? n : 1);
  nmap_.copy_from_host(map ? to_storage<T>(grid_, c.manning_map) : std::vector<T>(1, T(0)));
  zwall_ = T(c.z_nodata);
  infil_ = Buffer<T>(device_, forcing_.losses.model != LossModel::none ? n : 1);
  infil_.copy_from_host(std::vector<T>(infil_.size(), T(0)));
  prm_.skip_dry = o.skip_dry && o.order == Order::first;
  rainf_ = Buffer<T>(device_, forcing_.rain_times.empty() ? 1 : n);
  rainf_.copy_from_host(std::vector<T>(rainf_.size(), T(0)));
  if (forcing_.any()) set_sources(0.0, 0.0);
  tally_ = c.tally;
  for (Bc b : c.bc) tally_ = tally_ || ts_swe_open_side(int(b));
  for (int s = 0; s < 4; ++s)
    tally_ = tally_ || (prm_.seg_lo[s] < prm_.seg_hi[s] && ts_swe_open_side(prm_.seg_bc[s]));
  const std::size_t faces = tally_ ? std::size_t(2 * (grid_.nx + grid_.ny)) : 1;
  flow_ = Buffer<T>(device_, faces);
  flow_comp_ = Buffer<T>(device_, faces);
  flow_.copy_from_host(std::vector<T>(faces, T(0)));
  flow_comp_.copy_from_host(std::vector<T>(faces, T(0)));
  // the cross-sections' faces whose first cell lies in this grid's rows
  sections_ = c.sections;
  std::vector<std::uint64_t> enc;
  std::size_t k = 0;
  for (const Section& sec : sections_)
    for (const SectionFace& f : sec.faces) {
      if (f.i >= row0_ && f.i < row0_ + grid_.nx) {
        enc.push_back(std::uint64_t(grid_.at(f.i - row0_, f.j)) << 2 | std::uint64_t(f.y) << 1 |
                      std::uint64_t(f.sign < 0));
        sec_index_.push_back(k);
      }
      ++k;
    }
  const std::size_t nsec = std::max<std::size_t>(1, enc.size());
  enc.resize(nsec, 0);
  sec_faces_ = Buffer<std::uint64_t>(device_, nsec);
  sec_faces_.copy_from_host(enc);
  sec_acc_ = Buffer<T>(device_, nsec);
  sec_comp_ = Buffer<T>(device_, nsec);
  sec_acc_.copy_from_host(std::vector<T>(nsec, T(0)));
  sec_comp_.copy_from_host(std::vector<T>(nsec, T(0)));
  // dry skipping: the shared-face update's tiles; pinned where the
  // boundaries or the sources bring water the flags do not see
  {
    const auto [tx, ty] = kernels::shared_tiles<T>(grid_);
    tiles_ = Buffer<std::uint32_t>(device_, std::size_t(4 * tx * ty));
    reset_tiles();
  }
  // the maximum maps start from the initial state at t = 0
  maxmap_ = Buffer<T>(device_, o.track_max ? 4 * n : 1);
  std::vector<T> m(maxmap_.size(), T(0));
  if (o.track_max)
    for (std::size_t k = 0; k < n; ++k) {
      T tarr = T(-1);
      point::ts_swe_track(T(0), T(o.arrival_depth), prm_.h_dry, h[k], hu[k], hv[k], &m[k],
                          &m[k + n], &m[k + 2 * n], &tarr);
      m[k + 3 * n] = tarr;
    }
  maxmap_.copy_from_host(m);
}

template <class T>
long PhysSolver<T>::dry_tiles() const {
  const auto [tx, ty] = kernels::shared_tiles<T>(grid_);
  const auto w = tiles_.to_vector();
  const std::uint32_t steps = flags_.to_vector()[slot::steps];
  const std::size_t T_ = std::size_t(tx * ty), set = std::size_t((steps + 2u) % 3u) * T_;
  long n = 0;
  for (std::size_t k = 0; k < T_; ++k) n += w[set + k] == 0u;
  return n;
}

template <class T>
void PhysSolver<T>::reset_tiles() {
  const auto [tx, ty] = kernels::shared_tiles<T>(grid_);
  const long T_ = tx * ty;
  std::vector<std::uint32_t> w(std::size_t(4 * T_), 1u);  // every set wet
  std::vector<std::uint32_t> pin(std::size_t(T_), 0u);
  const long cols =
      std::is_same_v<T, float> ? TS_SWE_SHARED_BLOCK_F - 2 : TS_SWE_SHARED_BLOCK_D - 2;
  const long rows = kernels::phys_strip_rows(grid_);
  auto pin_cells = [&](long i0, long i1, long j0, long j1) {  // interior rows i, columns j
    for (long y = std::max(0L, i0 / rows); y <= std::min(ty - 1, (i1 - 1) / rows); ++y)
      for (long x = std::max(0L, j0 / cols); x <= std::min(tx - 1, (j1 - 1) / cols); ++x)
        pin[std::size_t(y * tx + x)] = 1u;
  };
  for (int s = 0; s < 4; ++s) {
    int k = prm_.bc[s];
    bool seg = prm_.seg_lo[s] < prm_.seg_hi[s];
    const bool inflowing = [&](int b) {
      return b == TS_SWE_BC_LEVEL || b == TS_SWE_BC_DISCHARGE || b == TS_SWE_BC_PERIODIC ||
             b == TS_SWE_BC_EXCHANGE;
    }(k) || (seg && (prm_.seg_bc[s] == TS_SWE_BC_LEVEL || prm_.seg_bc[s] == TS_SWE_BC_DISCHARGE));
    if (!inflowing) continue;
    if (s == 0) pin_cells(0, 1, 0, grid_.ny);
    if (s == 1) pin_cells(grid_.nx - 1, grid_.nx, 0, grid_.ny);
    if (s == 2) pin_cells(0, grid_.nx, 0, 1);
    if (s == 3) pin_cells(0, grid_.nx, grid_.ny - 1, grid_.ny);
  }
  for (const Inflow& in : forcing_.inflows)  // global rows: this grid's part
    if (in.i1 > row0_ && in.i0 < row0_ + grid_.nx)
      pin_cells(std::max(in.i0, row0_) - row0_, std::min(in.i1, row0_ + grid_.nx) - row0_, in.j0,
                in.j1);
  std::copy(pin.begin(), pin.end(), w.begin() + std::ptrdiff_t(3 * T_));
  tiles_.copy_from_host(w);
}

template <class T>
void PhysSolver<T>::tally(const Fields<T>& f, T weight) {
  const int order = opt_.order == Order::first ? 1 : 2;
  dispatch(*device_, [&](auto tag) {
    if (tally_)
      kernels::tally_boundaries(tag, device_->queue(), grid_, prm_, order, weight, zb_, f, scalars_,
                                flow_, flow_comp_);
    if (!sec_index_.empty()) {
      const ts_swe_secp<T> a{long(sec_index_.size()), grid_.w, prm_.g, prm_.h_dry, weight, order};
      kernels::tally_sections(tag, device_->queue(), a, sec_faces_, zb_, f, scalars_, sec_acc_,
                              sec_comp_);
    }
  });
}

template <class T>
std::vector<T> PhysSolver<T>::section_tallies(bool comp) const {
  std::vector<T> all(section_faces(sections_), T(0));
  if (sec_index_.empty()) return all;
  const auto mine = (comp ? sec_comp_ : sec_acc_).to_vector();
  for (std::size_t k = 0; k < sec_index_.size(); ++k) all[sec_index_[k]] = mine[k];
  return all;
}

template <class T>
std::vector<double> PhysSolver<T>::section_volumes() const {
  const std::vector<T> t = section_tallies(false);
  return swe::section_volumes(sections_, std::vector<double>(t.begin(), t.end()), dx_, dy_);
}

template <class T>
std::array<double, 4> PhysSolver<T>::boundary_inflow() const {
  std::array<double, 4> v{0, 0, 0, 0};
  if (!tally_) return v;
  const auto acc = flow_.to_vector();
  const long n[4] = {grid_.ny, grid_.ny, grid_.nx, grid_.nx};
  std::size_t k = 0;
  for (int s = 0; s < 4; ++s) {
    double sum = 0;
    for (long f = 0; f < n[s]; ++f) sum += double(acc[k++]);
    v[std::size_t(s)] = sum * (s < 2 ? dy_ : dx_);
  }
  return v;
}

template <class T>
void PhysSolver<T>::set_sources(double a, double b) {
  forcing_.set_segments(prm_, a, b, row0_, grid_.nx);
  sources_.clear();
  const Losses& L = forcing_.losses;
  // rain wets every cell: no skipping while it falls in [a, b]
  const double mid = 0.5 * (a + b);
  const long frame = forcing_.rain_frame(a, b);
  prm_.skip_dry =
      opt_.skip_dry && opt_.order == Order::first &&
      !(forcing_.rain && forcing_.rain->at(std::min(mid, forcing_.rain->t.back())) > 0) &&
      !(frame >= 0 && forcing_.rain_frame_max[std::size_t(frame)] > 0);
  // the global launches (every part bounds dt alike), then this grid's rows
  const auto launches = forcing_.launches(a, b, row0_ + grid_.nx, grid_.ny, dx_, dy_);
  prm_.max_dt = T(forcing_.max_dt(launches, a, b, double(prm_.g), double(prm_.cfl), dx_, dy_));
  for (const SourceLaunch& l : launches) {
    const long i0 = std::max(l.i0, row0_), i1 = std::min(l.i1, row0_ + grid_.nx);
    if (i0 >= i1) continue;  // another part's rows
    ts_swe_src<T> p{};
    p.ny = grid_.ny, p.w = grid_.w;
    p.i0 = i0 - row0_, p.ni = i1 - i0, p.j0 = l.j0, p.nj = l.j1 - l.j0;
    p.g = prm_.g, p.hdry = prm_.h_dry, p.dx = prm_.dx, p.dy = prm_.dy;
    p.rate = T(l.rate), p.slope = T(l.slope), p.ta = T(l.ta), p.zwall = zwall_;
    p.losses = l.whole_grid ? int(L.model) : 0;
    p.field = l.frame >= 0;
    if (l.frame >= 0 && l.frame != rain_frame_) {  // this grid's rows of the frame
      const std::vector<double>& fr = forcing_.rain_frames[std::size_t(l.frame)];
      const std::vector<double> mine(fr.begin() + std::ptrdiff_t(row0_ * grid_.ny),
                                     fr.begin() + std::ptrdiff_t((row0_ + grid_.nx) * grid_.ny));
      rainf_.copy_from_host(to_storage<T>(grid_, mine));
      rain_frame_ = l.frame;
    }
    p.loss = T(L.rate), p.ks = T(L.ks), p.suction = T(L.psi * L.dtheta);
    sources_.push_back(p);
  }
}

template <class T>
void PhysSolver<T>::add_sources() {
  dispatch(*device_, [&](auto tag) {
    for (const ts_swe_src<T>& p : sources_)
      kernels::add_sources(tag, device_->queue(), p, zb_, rainf_, a_, infil_, scalars_, flags_);
  });
}

template <class T>
void PhysSolver<T>::step() {
  Queue& q = device_->queue();
  dispatch(*device_, [&](auto tag) {
    kernels::phys_ghosts(tag, q, grid_, prm_, zb_, a_, scalars_, flags_, true);
    if (opt_.order == Order::first) {
      tally(a_, T(1));
      kernels::phys_update(tag, q, grid_, prm_, zb_, nmap_, a_, b_, scalars_, flags_, tiles_);
    } else {
      tally(a_, T(0.5));
      kernels::phys_stage(tag, q, grid_, prm_, zb_, nmap_, a_, a_, b_, 0, scalars_, flags_);
      kernels::phys_ghosts(tag, q, grid_, prm_, zb_, b_, scalars_, flags_, false);
      tally(b_, T(0.5));
      kernels::phys_stage(tag, q, grid_, prm_, zb_, nmap_, a_, b_, a_, 1, scalars_, flags_);
    }
  });
  if (opt_.order == Order::first) std::swap(a_, b_);
  if (!sources_.empty()) add_sources();
  track();
}

template <class T>
void PhysSolver<T>::track() {
  if (!opt_.track_max) return;
  dispatch(*device_, [&](auto tag) {
    kernels::track_maxima(tag, device_->queue(), grid_, prm_, T(opt_.arrival_depth), a_, scalars_,
                          maxmap_);
  });
}

template <class T>
MaxMaps PhysSolver<T>::max_maps() const {
  MaxMaps out;
  if (!opt_.track_max) return out;
  const auto m = maxmap_.to_vector();
  const std::size_t n = grid_.size();
  std::vector<double>* dst[4] = {&out.depth, &out.time_of_max, &out.speed, &out.arrival};
  for (int b = 0; b < 4; ++b)
    for (long i = 0; i < grid_.nx; ++i)
      for (long j = 0; j < grid_.ny; ++j)
        dst[b]->push_back(double(m[std::size_t(b) * n + std::size_t(grid_.at(i, j))]));
  return out;
}

template <class T>
Health PhysSolver<T>::health() const {
  std::vector<T> s(slot::nscalars);
  std::vector<std::uint32_t> f(slot::nflags);
  scalars_.copy_to_host(s);
  flags_.copy_to_host(f);
  Health h;
  h.steps = f[slot::steps];
  h.time = double(s[slot::time]);
  h.dt = double(s[slot::dt]);
  h.signal = interrupted();
  if (f[slot::bad_cell] != slot::none) {
    h.bad = true;
    h.bad_step = f[slot::bad_step] != slot::none ? long(f[slot::bad_step]) : h.steps;
    h.bad_i = long(f[slot::bad_cell]) / grid_.ny;
    h.bad_j = long(f[slot::bad_cell]) % grid_.ny;
  }
  return h;
}

template <class T>
Health PhysSolver<T>::advance_to(double t, const std::function<void(const Health&)>& on_check) {
  auto advance = [&](double b) {  // to b, as the device stores it
    std::vector<T> s(slot::nscalars);
    scalars_.copy_to_host(s);
    s[slot::target] = T(b);
    scalars_.copy_from_host(s);
    return detail::advance_loop(
        T(b), opt_.check_every, opt_.align_every, [&] { step(); }, [&] { return health(); },
        on_check);
  };
  if (!forcing_.any()) return advance(t);
  return advance_in_rows<T, Health>(
      forcing_, health().time, t, [&](double a, double b) { set_sources(a, b); }, advance);
}

template <class T>
void PhysSolver<T>::run_steps(long n) {
  std::vector<T> s(slot::nscalars);
  scalars_.copy_to_host(s);
  s[slot::target] = std::numeric_limits<T>::max();
  scalars_.copy_from_host(s);
  for (long k = 0; k < n; ++k) step();
}

template <class T>
HostFields PhysSolver<T>::state() const {
  HostFields out{grid_.nx, grid_.ny, {}, {}, {}};
  for (auto [buf, dst] : {std::pair{&a_.z, &out.h}, {&a_.qx, &out.hu}, {&a_.qy, &out.hv}}) {
    const auto v = buf->to_vector();
    dst->resize(static_cast<std::size_t>(grid_.nx * grid_.ny));
    for (long i = 0; i < grid_.nx; ++i)
      for (long j = 0; j < grid_.ny; ++j) (*dst)[i * grid_.ny + j] = double(v[grid_.at(i, j)]);
  }
  return out;
}

double water_volume(const std::vector<double>& h, double dx, double dy) {
  double m = 0;
  for (double d : h) m += d;
  return m * dx * dy;
}

template <class T>
double PhysSolver<T>::mass() const {
  return water_volume(state().h, dx_, dy_);
}

template <class T>
std::vector<std::array<double, 3>> PhysSolver<T>::probe(
    const std::vector<std::pair<long, long>>& cells) const {
  std::vector<std::array<double, 3>> out;
  Queue& q = device_->queue();
  for (const auto& [i, j] : cells) {
    std::array<double, 3> v{};
    const std::size_t at = std::size_t(grid_.at(i - row0_, j)) * sizeof(T);
    const Buffer<T>* f[3] = {&a_.z, &a_.qx, &a_.qy};
    for (int k = 0; k < 3; ++k) {
      T x{};
      q.read(f[k]->handle(), at, &x, sizeof x, true);
      v[std::size_t(k)] = double(x);
    }
    out.push_back(v);
  }
  return out;
}

template <class T>
double PhysSolver<T>::infiltrated() const {
  if (forcing_.losses.model == LossModel::none) return 0.0;
  const auto f = infil_.to_vector();
  double m = 0;
  for (long i = 0; i < grid_.nx; ++i)
    for (long j = 0; j < grid_.ny; ++j) m += double(f[grid_.at(i, j)]);
  return m * dx_ * dy_;
}

template <class T>
PhysSolverState<T> PhysSolver<T>::save_state() const {
  PhysSolverState<T> s;
  s.nx = grid_.nx;
  s.ny = grid_.ny;
  s.h = interior(grid_, a_.z.to_vector());
  s.hu = interior(grid_, a_.qx.to_vector());
  s.hv = interior(grid_, a_.qy.to_vector());
  s.z = interior(grid_, zb_.to_vector());
  const auto sc = scalars_.to_vector();
  const auto fl = flags_.to_vector();
  s.dt = sc[slot::dt];
  s.time = sc[slot::time];
  s.target = sc[slot::target];
  s.rate[0] = fl[slot::rate0];
  s.rate[1] = fl[slot::rate1];
  s.steps = fl[slot::steps];
  s.bad_cell = fl[slot::bad_cell];
  s.bad_step = fl[slot::bad_step];
  if (forcing_.losses.model != LossModel::none) s.infil = interior(grid_, infil_.to_vector());
  if (tally_) {
    s.flow = flow_.to_vector();
    s.flow_comp = flow_comp_.to_vector();
  }
  if (!sections_.empty()) {
    s.section_flow = section_tallies(false);
    s.section_comp = section_tallies(true);
  }
  if (opt_.track_max) {
    const MaxMaps m = max_maps();
    for (const auto* v : {&m.depth, &m.time_of_max, &m.speed, &m.arrival})
      for (double x : *v) s.maxmap.push_back(T(x));
  }
  return s;
}

template <class T>
void PhysSolver<T>::restore_state(const PhysSolverState<T>& s) {
  const std::size_t n = static_cast<std::size_t>(grid_.nx * grid_.ny);
  if (s.nx != grid_.nx || s.ny != grid_.ny)
    throw UsageError(fmt::format("a {}x{} state cannot continue on a {}x{} grid", s.nx, s.ny,
                                 grid_.nx, grid_.ny));
  for (const auto* f : {&s.h, &s.hu, &s.hv, &s.z})
    if (f->size() != n)
      throw Error(
          fmt::format("internal: a state field holds {} values, the grid {}", f->size(), n));
  auto z = to_storage<T>(grid_, s.z);
  fill_z_ghosts(grid_, prm_, zwall_, z);
  zb_.copy_from_host(z);
  const auto h = to_storage<T>(grid_, s.h), hu = to_storage<T>(grid_, s.hu),
             hv = to_storage<T>(grid_, s.hv);
  for (Fields<T>* f : {&a_, &b_}) {  // as the constructor: b's ghosts from a's copy
    f->z.copy_from_host(h);
    f->qx.copy_from_host(hu);
    f->qy.copy_from_host(hv);
  }
  scalars_.copy_from_host(std::vector<T>{s.dt, s.time, s.target});
  reset_tiles();  // b is a's copy again: every tile computes its first two steps
  // what the checkpoint holds of the sources' and boundaries' state (its
  // config equals this run's: the same losses, the same open sides)
  if (forcing_.losses.model != LossModel::none && s.infil.size() == n)
    infil_.copy_from_host(to_storage<T>(grid_, s.infil));
  const std::size_t faces = std::size_t(2 * (grid_.nx + grid_.ny));
  if (tally_ && s.flow.size() == faces && s.flow_comp.size() == faces) {
    flow_.copy_from_host(s.flow);
    flow_comp_.copy_from_host(s.flow_comp);
  }
  const std::size_t sf = section_faces(sections_);
  if (s.section_flow.size() != sf || s.section_comp.size() != sf)
    throw UsageError(fmt::format(
        "the checkpoint holds {} cross-section faces, this run's --section lines make {}",
        s.section_flow.size(), sf));
  if (!sec_index_.empty()) {  // this grid's faces
    std::vector<T> acc(sec_index_.size()), comp(sec_index_.size());
    for (std::size_t k = 0; k < sec_index_.size(); ++k) {
      acc[k] = s.section_flow[sec_index_[k]];
      comp[k] = s.section_comp[sec_index_[k]];
    }
    sec_acc_.copy_from_host(acc);
    sec_comp_.copy_from_host(comp);
  }
  if (opt_.track_max && s.maxmap.size() == 4 * n) {
    const std::size_t size = grid_.size();
    std::vector<T> m(4 * size, T(0));
    for (std::size_t b = 0; b < 4; ++b) {
      const std::vector<T> block(s.maxmap.begin() + std::ptrdiff_t(b * n),
                                 s.maxmap.begin() + std::ptrdiff_t((b + 1) * n));
      const auto st = to_storage<T>(grid_, block);
      std::copy(st.begin(), st.end(), m.begin() + std::ptrdiff_t(b * size));
    }
    maxmap_.copy_from_host(m);
  }
  flags_.copy_from_host(
      std::vector<std::uint32_t>{s.rate[0], s.rate[1], s.steps, s.bad_cell, s.bad_step});
}

template <class T>
T discharge_rate_floor(const PhysCase& c, const PhysParams<T>& p) {
  T floor = T(0);
  auto add = [&](int side, Bc kind, double value) {
    const T q = T(value);
    if (kind != Bc::discharge || !(q > T(0))) return;
    const T hc = point::ts_swe_critical_depth(p.g, q);
    floor = std::max(floor, side < 2 ? point::ts_swe_rate(p.g, p.h_dry, p.dx, p.dy, hc, q, T(0))
                                     : point::ts_swe_rate(p.g, p.h_dry, p.dx, p.dy, hc, T(0), q));
  };
  for (int s = 0; s < 4; ++s) add(s, c.bc[s], c.bc_value[s]);
  for (const BcSegment& g : c.forcing.segments) add(g.side, g.kind, g.value);
  return floor;
}

template float discharge_rate_floor(const PhysCase&, const PhysParams<float>&);
template double discharge_rate_floor(const PhysCase&, const PhysParams<double>&);
template class PhysSolver<float>;
template class PhysSolver<double>;

}  // namespace tessera::swe
