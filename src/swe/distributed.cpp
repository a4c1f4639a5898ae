#include "swe/distributed.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>
#include <utility>

#include <fmt/format.h>

#include "core/dispatch.hpp"
#include "core/error.hpp"
#include "core/interrupt.hpp"
#include "swe/kernels/swe_hll_consts.h"
#include "swe/advance_loop.hpp"
#include "skeleton/field.hpp"
#include "swe/kernels/swe_kernels.hpp"

namespace tessera::swe {

namespace {

// Every rank's `mine`, concatenated in rank order (`mine` itself without MPI).
template <class V>
std::vector<V> gather_all(skeleton::Comm* comm, std::vector<V> mine) {
  if (!comm) return mine;
  const auto bytes = comm->allgather(mine.data(), mine.size() * sizeof(V));
  std::vector<V> all(bytes.size() / sizeof(V));
  std::memcpy(all.data(), bytes.data(), all.size() * sizeof(V));
  return all;
}

// The rows [i0, i0 + n) of a case, with Bc::exchange on the faces that meet
// another part.
PhysCase slab_case(const PhysCase& c, long i0, long n, bool lo_internal, bool hi_internal) {
  PhysCase s;
  s.name = c.name;
  s.nx = n;
  s.ny = c.ny;
  s.dx = c.dx;
  s.dy = c.dy;
  s.x0 = c.x0 + double(i0) * c.dx;
  s.y0 = c.y0;
  s.crs_wkt = c.crs_wkt;
  const auto first = static_cast<std::ptrdiff_t>(i0 * c.ny),
             last = static_cast<std::ptrdiff_t>((i0 + n) * c.ny);
  s.z.assign(c.z.begin() + first, c.z.begin() + last);
  s.h.assign(c.h.begin() + first, c.h.begin() + last);
  s.hu.assign(c.hu.begin() + first, c.hu.begin() + last);
  s.hv.assign(c.hv.begin() + first, c.hv.begin() + last);
  for (int k = 0; k < 4; ++k) {
    s.bc[k] = c.bc[k];
    s.bc_value[k] = c.bc_value[k];
  }
  if (lo_internal) s.bc[x_lo] = Bc::exchange;
  if (hi_internal) s.bc[x_hi] = Bc::exchange;
  s.manning = c.manning;
  if (!c.manning_map.empty())
    s.manning_map.assign(c.manning_map.begin() + first, c.manning_map.begin() + last);
  s.g = c.g;
  s.t_end = c.t_end;
  s.z_nodata = c.z_nodata;
  s.forcing = c.forcing;    // global rows: each part launches its own
  s.sections = c.sections;  // global rows: each part tallies its own faces
  s.row0 = c.row0 + i0;
  for (int k = 0; k < 4; ++k) s.tally = s.tally || ts_swe_open_side(int(c.bc[k]));
  for (const BcSegment& g : c.forcing.segments) s.tally = s.tally || ts_swe_open_side(int(g.kind));
  return s;
}

}  // namespace

template <class T>
DistributedPhysSolver<T>::DistributedPhysSolver(skeleton::Team team, const PhysCase& c,
                                                const PhysOptions& o)
    : team_(std::move(team)),
      nx_(c.nx),
      ny_(c.ny),
      dx_(c.dx),
      dy_(c.dy),
      opt_(o),
      sections_(c.sections) {
  validate(c, o);
  for (Bc b : c.bc)
    if (b == Bc::exchange)
      throw UsageError("boundary kind 'exchange' is internal to the distributed solver");
  const int P = team_.total_parts();
  if (c.nx < 2L * P)
    throw UsageError(fmt::format(
        "{} rows (nx) cannot be split into {} x-slabs: every slab needs at least 2 rows "
        "(the 2 ghost rows of the MUSCL stencil); use at most {} parts",
        c.nx, P, c.nx / 2));
  const bool periodic_x = c.bc[x_lo] == Bc::periodic && P > 1;
  for (int l = 0; l < team_.local_parts(); ++l) {
    const int g = team_.first_part() + l;
    parts_.push_back(std::make_unique<PhysSolver<T>>(
        team_.device_ptr(l),
        slab_case(c, first_row(g), rows(g), g > 0 || periodic_x, g < P - 1 || periodic_x), o));
  }
  // the discharge ghosts' rate floor of the whole case (a part's own sides
  // miss the others': its steps would differ)
  const T floor = discharge_rate_floor(c, parts_[0]->prm_);
  for (auto& p : parts_) p->prm_.min_rate = floor;
  // the skeleton's view of one field: a 2-D (w, nx) array, x-slabs of the
  // slow axis with 2 halo rows, exactly PhysGrid's storage
  const long w = parts_[0]->grid_.w;
  skeleton::FieldOptions fo;
  fo.halo = {0, 2, 0};
  shape_ =
      std::make_unique<skeleton::detail::FieldShape>(team_, skeleton::extents_2d(w, c.nx), 1, fo);
  for (int l = 0; l < team_.local_parts(); ++l) {
    const skeleton::PartLayout& L = shape_->layout(l);
    const PhysGrid& g = parts_[std::size_t(l)]->grid_;
    if (L.sy != g.w || L.padded[1] != g.nx + 2 * PhysGrid::ghosts ||
        L.elements() != skeleton::index_t(g.size()) ||
        L.owned.lo[1] != first_row(team_.first_part() + l))
      throw Error("internal: swe slab layout differs from the skeleton's");
  }
  request_.periodic = {false, periodic_x, false};
  exchange(2);  // the bathymetry's ghost rows, once
}

template <class T>
DistributedPhysSolver<T>::~DistributedPhysSolver() = default;
template <class T>
DistributedPhysSolver<T>::DistributedPhysSolver(DistributedPhysSolver&&) noexcept = default;

template <class T>
int DistributedPhysSolver<T>::parts() const noexcept {
  return team_.total_parts();
}
template <class T>
int DistributedPhysSolver<T>::local_parts() const noexcept {
  return team_.local_parts();
}
template <class T>
long DistributedPhysSolver<T>::first_row(int g) const {
  return long(skeleton::Decomposition::block_begin(nx_, team_.total_parts(), g));
}
template <class T>
long DistributedPhysSolver<T>::rows(int g) const {
  return first_row(g + 1) - first_row(g);
}
template <class T>
const skeleton::ExchangeStats& DistributedPhysSolver<T>::last_exchange() const {
  return shape_->last_exchange();
}

template <class T>
void DistributedPhysSolver<T>::exchange(int which) {
  // h, hu, hv (or z): one exchange per buffer, only the 2 rows that cross
  const int fields = which == 2 ? 1 : 3;
  for (int f = 0; f < fields; ++f) {
    std::vector<skeleton::detail::PartStorage> s;
    for (int l = 0; l < local_parts(); ++l) {
      PhysSolver<T>& p = *parts_[std::size_t(l)];
      Fields<T>& st = which == 1 ? p.b_ : p.a_;
      const Buffer<T>& b = which == 2 ? p.zb_ : f == 0 ? st.z : f == 1 ? st.qx : st.qy;
      s.push_back({&team_.device(l), b.handle(), shape_->layout(l)});
    }
    shape_->exchange(s, sizeof(T), request_, nullptr, nullptr);
  }
}

template <class T>
void DistributedPhysSolver<T>::reduce_rates() {
  // the rate slots: the one the next bookkeeping reads holds each part's own
  // maximum, the other the previous global one (equal everywhere); integer
  // max of non-negative float bits is exact and order-free
  std::vector<std::array<std::uint32_t, 2>> r(parts_.size());
  for (std::size_t l = 0; l < parts_.size(); ++l)
    parts_[l]->device_->queue().read(parts_[l]->flags_.handle(), 0, r[l].data(), sizeof r[l], true);
  std::array<std::uint32_t, 2> m{0, 0};
  for (const auto& v : r) m = {std::max(m[0], v[0]), std::max(m[1], v[1])};
  if (skeleton::Comm* comm = team_.comm()) {
    const auto all = comm->allgather(m.data(), sizeof m);
    for (std::size_t k = 0; k + sizeof m <= all.size(); k += sizeof m) {
      std::array<std::uint32_t, 2> v;
      std::memcpy(v.data(), all.data() + k, sizeof v);
      m = {std::max(m[0], v[0]), std::max(m[1], v[1])};
    }
  }
  for (std::size_t l = 0; l < parts_.size(); ++l)
    if (r[l] != m)
      parts_[l]->device_->queue().write(parts_[l]->flags_.handle(), 0, m.data(), sizeof m, true);
}

template <class T>
void DistributedPhysSolver<T>::step() {
  if (!(opt_.fixed_dt > 0)) reduce_rates();  // a fixed dt ignores the rates
  const bool first = opt_.order == Order::first;
  exchange(0);
  for (auto& p : parts_) {
    Queue& q = p->device_->queue();
    dispatch(*p->device_, [&](auto tag) {
      kernels::phys_ghosts(tag, q, p->grid_, p->prm_, p->zb_, p->a_, p->scalars_, p->flags_, true);
      p->tally(p->a_, first ? T(1) : T(0.5));
      if (first)
        kernels::phys_update(tag, q, p->grid_, p->prm_, p->zb_, p->nmap_, p->a_, p->b_, p->scalars_,
                             p->flags_, p->tiles_);
      else
        kernels::phys_stage(tag, q, p->grid_, p->prm_, p->zb_, p->nmap_, p->a_, p->a_, p->b_, 0,
                            p->scalars_, p->flags_);
    });
  }
  auto sources = [&] {  // and the maximum maps: the step's end
    for (auto& p : parts_) {
      if (!p->sources_.empty()) p->add_sources();
      p->track();
    }
  };
  if (first) {
    for (auto& p : parts_) std::swap(p->a_, p->b_);
    return sources();
  }
  exchange(1);
  for (auto& p : parts_) {
    Queue& q = p->device_->queue();
    dispatch(*p->device_, [&](auto tag) {
      kernels::phys_ghosts(tag, q, p->grid_, p->prm_, p->zb_, p->b_, p->scalars_, p->flags_, false);
      p->tally(p->b_, T(0.5));
      kernels::phys_stage(tag, q, p->grid_, p->prm_, p->zb_, p->nmap_, p->a_, p->b_, p->a_, 1,
                          p->scalars_, p->flags_);
    });
  }
  sources();
}

template <class T>
void DistributedPhysSolver<T>::set_target(T target) {
  for (auto& p : parts_) {
    std::vector<T> s(slot::nscalars);
    p->scalars_.copy_to_host(s);
    s[slot::target] = target;
    p->scalars_.copy_from_host(s);
  }
}

template <class T>
void DistributedPhysSolver<T>::set_scheme(Order order, int columns) {
  opt_.order = order;
  for (auto& p : parts_) p->set_scheme(order, columns);
}

template <class T>
void DistributedPhysSolver<T>::synchronize() const {
  for (int l = 0; l < local_parts(); ++l) team_.device(l).synchronize();
}

template <class T>
Health DistributedPhysSolver<T>::health() const {
  using I = long long;
  constexpr I none = std::numeric_limits<I>::max();
  std::array<I, 2> bad{none, none};  // (step, global cell): the smallest is the first
  Health h;
  for (int l = 0; l < local_parts(); ++l) {
    const PhysSolver<T>& p = *parts_[std::size_t(l)];
    std::vector<T> s(slot::nscalars);
    std::vector<std::uint32_t> f(slot::nflags);
    p.scalars_.copy_to_host(s);
    p.flags_.copy_to_host(f);
    if (l == 0) {
      h.steps = f[slot::steps];
      h.time = double(s[slot::time]);
      h.dt = double(s[slot::dt]);
    }
    if (f[slot::bad_cell] != slot::none) {
      const I step = f[slot::bad_step] != slot::none ? I(f[slot::bad_step]) : I(f[slot::steps]);
      const I cell = I(f[slot::bad_cell]) + I(first_row(team_.first_part() + l)) * I(ny_);
      bad = std::min(bad, std::array<I, 2>{step, cell});
    }
  }
  h.signal = interrupted();
  if (skeleton::Comm* comm = team_.comm()) {
    // one exchange for both: the first bad cell of any rank, and a signal any
    // rank received (mpirun delivers it to the ranks at different moments;
    // agreeing here makes every rank stop, and save, at the same check)
    const std::array<I, 3> mine{bad[0], bad[1], I(h.signal)};
    const auto all = comm->allgather(mine.data(), sizeof mine);
    for (std::size_t k = 0; k + sizeof mine <= all.size(); k += sizeof mine) {
      std::array<I, 3> v;
      std::memcpy(v.data(), all.data() + k, sizeof v);
      bad = std::min(bad, std::array<I, 2>{v[0], v[1]});
      h.signal = std::max(h.signal, int(v[2]));
    }
  }
  if (bad[0] != none) {
    h.bad = true;
    h.bad_step = long(bad[0]);
    h.bad_i = long(bad[1] / ny_);
    h.bad_j = long(bad[1] % ny_);
  }
  return h;
}

template <class T>
Health DistributedPhysSolver<T>::advance_to(double t,
                                            const std::function<void(const Health&)>& on_check) {
  auto advance = [&](double b) {
    set_target(T(b));
    return detail::advance_loop(
        T(b), opt_.check_every, opt_.align_every, [&] { step(); }, [&] { return health(); },
        on_check);
  };
  const Forcing& f = parts_[0]->forcing_;
  if (!f.any()) return advance(t);
  return advance_in_rows<T, Health>(
      f, health().time, t,
      [&](double a, double b) {
        for (auto& p : parts_) p->set_sources(a, b);
      },
      advance);
}

template <class T>
void DistributedPhysSolver<T>::run_steps(long n) {
  set_target(std::numeric_limits<T>::max());
  for (long k = 0; k < n; ++k) step();
}

template <class T>
HostFields DistributedPhysSolver<T>::state() const {
  // per part [h | hu | hv] of its rows, concatenated in global part order
  std::vector<double> mine;
  for (const auto& p : parts_) {
    const HostFields f = p->state();
    for (const auto* v : {&f.h, &f.hu, &f.hv}) mine.insert(mine.end(), v->begin(), v->end());
  }
  const std::vector<double> all = gather_all(team_.comm(), std::move(mine));
  HostFields out{nx_, ny_, {}, {}, {}};
  const std::size_t N = static_cast<std::size_t>(nx_ * ny_);
  out.h.resize(N);
  out.hu.resize(N);
  out.hv.resize(N);
  std::size_t at = 0;
  for (int g = 0; g < parts(); ++g) {
    const std::size_t n = static_cast<std::size_t>(rows(g) * ny_),
                      o = static_cast<std::size_t>(first_row(g) * ny_);
    for (auto* v : {&out.h, &out.hu, &out.hv}) {
      if (at + n > all.size()) throw Error("internal: swe gathered state is short");
      std::copy_n(all.begin() + std::ptrdiff_t(at), n, v->begin() + std::ptrdiff_t(o));
      at += n;
    }
  }
  return out;
}

template <class T>
PhysSolverState<T> DistributedPhysSolver<T>::save_state() const {
  // per part [h | hu | hv | z] of its rows in global part order (as state()),
  // and per rank one summary of the rates and the first bad (step, cell)
  using I = long long;
  constexpr I none = std::numeric_limits<I>::max();
  struct Summary {
    std::uint32_t rate[2];
    I bad_key[2];  // (step the cell went bad, global cell): the smallest is the first
    std::uint32_t bad_step;
  };
  Summary sum{{0, 0}, {none, none}, slot::none};
  std::vector<T> mine;
  PhysSolverState<T> out;
  bool has_infil = false, has_flow = false, has_max = false;
  for (int l = 0; l < local_parts(); ++l) {
    const PhysSolverState<T> p = parts_[std::size_t(l)]->save_state();
    for (const auto* v : {&p.h, &p.hu, &p.hv, &p.z}) mine.insert(mine.end(), v->begin(), v->end());
    // every part has the same extras (the same case): the infiltrated depth
    // of its rows, its faces' tallies
    for (const auto* v :
         {&p.infil, &p.flow, &p.flow_comp, &p.maxmap, &p.section_flow, &p.section_comp})
      mine.insert(mine.end(), v->begin(), v->end());
    if (l == 0) {
      has_max = !p.maxmap.empty();
      has_infil = !p.infil.empty();
      has_flow = !p.flow.empty();
      out.dt = p.dt;
      out.time = p.time;
      out.target = p.target;
      out.steps = p.steps;
    }
    sum.rate[0] = std::max(sum.rate[0], p.rate[0]);
    sum.rate[1] = std::max(sum.rate[1], p.rate[1]);
    if (p.bad_cell != slot::none) {
      const I key[2] = {p.bad_step != slot::none ? I(p.bad_step) : I(p.steps),
                        I(p.bad_cell) + I(first_row(team_.first_part() + l)) * I(ny_)};
      if (std::make_pair(key[0], key[1]) < std::make_pair(sum.bad_key[0], sum.bad_key[1])) {
        sum.bad_key[0] = key[0];
        sum.bad_key[1] = key[1];
        sum.bad_step = p.bad_step;
      }
    }
  }
  const std::vector<T> all = gather_all(team_.comm(), std::move(mine));
  std::vector<Summary> sums{sum};
  if (skeleton::Comm* comm = team_.comm()) {
    const auto sb = comm->allgather(&sum, sizeof sum);
    sums.resize(sb.size() / sizeof(Summary));
    std::memcpy(sums.data(), sb.data(), sums.size() * sizeof(Summary));
  }
  out.nx = nx_;
  out.ny = ny_;
  const std::size_t N = static_cast<std::size_t>(nx_ * ny_);
  for (auto* v : {&out.h, &out.hu, &out.hv, &out.z}) v->resize(N);
  if (has_infil) out.infil.resize(N);
  const std::size_t faces = std::size_t(2 * (nx_ + ny_));
  if (has_flow) out.flow.assign(faces, T(0)), out.flow_comp.assign(faces, T(0));
  if (has_max) out.maxmap.resize(4 * N);
  const std::size_t sf = section_faces(sections_);
  out.section_flow.assign(sf, T(0));
  out.section_comp.assign(sf, T(0));
  std::size_t at = 0;
  auto take = [&](std::size_t n) {
    if (at + n > all.size()) throw Error("internal: swe gathered state is short");
    at += n;
    return all.begin() + std::ptrdiff_t(at - n);
  };
  for (int g = 0; g < parts(); ++g) {
    const std::size_t n = static_cast<std::size_t>(rows(g) * ny_),
                      o = static_cast<std::size_t>(first_row(g) * ny_);
    for (auto* v : {&out.h, &out.hu, &out.hv, &out.z})
      std::copy_n(take(n), n, v->begin() + std::ptrdiff_t(o));
    if (has_infil) std::copy_n(take(n), n, out.infil.begin() + std::ptrdiff_t(o));
    // a part's faces: x_lo's ny, x_hi's ny (zero where the side is an
    // exchange), then y_lo's and y_hi's for its rows
    const std::size_t ny = std::size_t(ny_), r = std::size_t(rows(g)),
                      r0 = std::size_t(first_row(g)), gx = std::size_t(nx_);
    for (auto* v : {&out.flow, &out.flow_comp}) {
      if (!has_flow) break;
      const auto f = take(2 * ny + 2 * r);
      for (std::size_t k = 0; k < 2 * ny; ++k) (*v)[k] += f[std::ptrdiff_t(k)];
      std::copy_n(f + std::ptrdiff_t(2 * ny), r, v->begin() + std::ptrdiff_t(2 * ny + r0));
      std::copy_n(f + std::ptrdiff_t(2 * ny + r), r, v->begin() + std::ptrdiff_t(2 * ny + gx + r0));
    }
    for (std::size_t b = 0; b < 4 && has_max; ++b)  // the part's four blocks
      std::copy_n(take(n), n, out.maxmap.begin() + std::ptrdiff_t(b * N + o));
    // the sections' faces: every part's vector has them all, 0 where another
    // part tallies the face
    for (auto* v : {&out.section_flow, &out.section_comp}) {
      const auto f = take(sf);
      for (std::size_t k = 0; k < sf; ++k) (*v)[k] += f[std::ptrdiff_t(k)];
    }
  }
  I first[2] = {none, none};
  for (const Summary& s : sums) {
    out.rate[0] = std::max(out.rate[0], s.rate[0]);
    out.rate[1] = std::max(out.rate[1], s.rate[1]);
    if (std::make_pair(s.bad_key[0], s.bad_key[1]) < std::make_pair(first[0], first[1])) {
      first[0] = s.bad_key[0];
      first[1] = s.bad_key[1];
      out.bad_cell = std::uint32_t(s.bad_key[1]);
      out.bad_step = s.bad_step;
    }
  }
  return out;
}

template <class T>
void DistributedPhysSolver<T>::restore_state(const PhysSolverState<T>& s) {
  if (s.nx != nx_ || s.ny != ny_)
    throw UsageError(
        fmt::format("a {}x{} state cannot continue on a {}x{} grid", s.nx, s.ny, nx_, ny_));
  const std::size_t N = static_cast<std::size_t>(nx_ * ny_);
  for (const auto* f : {&s.h, &s.hu, &s.hv, &s.z})
    if (f->size() != N)
      throw Error(
          fmt::format("internal: a state field holds {} values, the grid {}", f->size(), N));
  for (int l = 0; l < local_parts(); ++l) {
    const int g = team_.first_part() + l;
    const long r0 = first_row(g), n = rows(g);
    PhysSolverState<T> mine;
    mine.nx = n;
    mine.ny = ny_;
    const auto b = std::ptrdiff_t(r0 * ny_), e = std::ptrdiff_t((r0 + n) * ny_);
    mine.h.assign(s.h.begin() + b, s.h.begin() + e);
    mine.hu.assign(s.hu.begin() + b, s.hu.begin() + e);
    mine.hv.assign(s.hv.begin() + b, s.hv.begin() + e);
    mine.z.assign(s.z.begin() + b, s.z.begin() + e);
    mine.dt = s.dt;
    mine.time = s.time;
    mine.target = s.target;
    mine.rate[0] = s.rate[0];  // the global maxima: what reduce_rates would leave
    mine.rate[1] = s.rate[1];
    mine.steps = s.steps;
    if (s.bad_cell != slot::none && long(s.bad_cell) >= r0 * ny_ &&
        long(s.bad_cell) < (r0 + n) * ny_) {
      mine.bad_cell = std::uint32_t(long(s.bad_cell) - r0 * ny_);
      mine.bad_step = s.bad_step;
    }
    if (s.infil.size() == N) mine.infil.assign(s.infil.begin() + b, s.infil.begin() + e);
    if (s.maxmap.size() == 4 * N)
      for (std::size_t k = 0; k < 4; ++k)
        mine.maxmap.insert(mine.maxmap.end(), s.maxmap.begin() + std::ptrdiff_t(k * N) + b,
                           s.maxmap.begin() + std::ptrdiff_t(k * N) + e);
    const std::size_t faces = std::size_t(2 * (nx_ + ny_)), ny = std::size_t(ny_);
    for (auto [from, to] : {std::pair{&s.flow, &mine.flow}, {&s.flow_comp, &mine.flow_comp}}) {
      if (from->size() != faces) continue;
      to->assign(2 * ny + 2 * std::size_t(n), T(0));
      if (g == 0) std::copy_n(from->begin(), ny, to->begin());  // x_lo: the first part's
      if (g == parts() - 1)                                     // x_hi: the last part's
        std::copy_n(from->begin() + std::ptrdiff_t(ny), ny, to->begin() + std::ptrdiff_t(ny));
      for (int side = 0; side < 2; ++side)
        std::copy_n(from->begin() + std::ptrdiff_t(2 * ny + std::size_t(side * nx_ + r0)), n,
                    to->begin() + std::ptrdiff_t(2 * ny + std::size_t(side * n)));
    }
    mine.section_flow = s.section_flow;  // each part takes its own faces
    mine.section_comp = s.section_comp;
    parts_[std::size_t(l)]->restore_state(mine);
  }
  exchange(2);  // the bed's ghost rows across internal faces
}

template <class T>
std::vector<std::array<double, 3>> DistributedPhysSolver<T>::probe(
    const std::vector<std::pair<long, long>>& cells) const {
  // each cell from the part that holds its row; NaN where this rank has none
  std::vector<double> mine(3 * cells.size(), std::nan(""));
  for (int l = 0; l < local_parts(); ++l) {
    const long r0 = first_row(team_.first_part() + l), n = rows(team_.first_part() + l);
    for (std::size_t k = 0; k < cells.size(); ++k)
      if (cells[k].first >= r0 && cells[k].first < r0 + n) {
        const auto v = parts_[std::size_t(l)]->probe({cells[k]})[0];
        std::copy(v.begin(), v.end(), mine.begin() + std::ptrdiff_t(3 * k));
      }
  }
  const std::vector<double> all = gather_all(team_.comm(), std::move(mine));
  std::vector<std::array<double, 3>> out(cells.size());
  for (std::size_t at = 0; at < all.size(); ++at)
    if (!std::isnan(all[at])) out[(at / 3) % cells.size()][at % 3] = all[at];
  return out;
}

template <class T>
MaxMaps DistributedPhysSolver<T>::max_maps() const {
  const PhysSolverState<T> s = save_state();  // gathered (collective)
  MaxMaps m;
  const std::size_t N = s.h.size();
  std::vector<double>* dst[4] = {&m.depth, &m.time_of_max, &m.speed, &m.arrival};
  if (s.maxmap.size() == 4 * N)
    for (std::size_t b = 0; b < 4; ++b)
      dst[b]->assign(s.maxmap.begin() + std::ptrdiff_t(b * N),
                     s.maxmap.begin() + std::ptrdiff_t((b + 1) * N));
  return m;
}

template <class T>
double DistributedPhysSolver<T>::infiltrated() const {
  std::vector<double> mine;  // per local part, summed in global part order
  for (const auto& p : parts_) mine.push_back(p->infiltrated());
  const std::vector<double> all = gather_all(team_.comm(), std::move(mine));
  double m = 0;
  for (double v : all) m += v;
  return m;
}

template <class T>
std::vector<double> DistributedPhysSolver<T>::section_volumes() const {
  const std::size_t sf = section_faces(sections_);
  std::vector<T> mine;  // every local part's tallies, all faces each
  for (const auto& p : parts_) {
    const auto v = p->section_tallies(false);
    mine.insert(mine.end(), v.begin(), v.end());
  }
  const std::vector<T> all = gather_all(team_.comm(), std::move(mine));
  // one part tallies each face, the others hold 0: the sum is that part's
  std::vector<double> acc(sf, 0.0);
  for (std::size_t k = 0; k < all.size(); ++k) acc[k % std::max<std::size_t>(sf, 1)] += all[k];
  return swe::section_volumes(sections_, acc, dx_, dy_);
}

template <class T>
std::array<double, 4> DistributedPhysSolver<T>::boundary_inflow() const {
  std::vector<double> mine;  // 4 per local part, summed in global part order
  for (const auto& p : parts_) {
    const auto v = p->boundary_inflow();
    mine.insert(mine.end(), v.begin(), v.end());
  }
  const std::vector<double> all = gather_all(team_.comm(), std::move(mine));
  std::array<double, 4> m{0, 0, 0, 0};
  for (std::size_t k = 0; k < all.size(); ++k) m[k % 4] += all[k];
  return m;
}

template <class T>
double DistributedPhysSolver<T>::mass() const {
  return water_volume(state().h, dx_, dy_);
}

template class DistributedPhysSolver<float>;
template class DistributedPhysSolver<double>;

}  // namespace tessera::swe
