#include "lbm/distributed.hpp"

#include <algorithm>
#include <cstring>
#include <type_traits>

#include <fmt/format.h>

#include "core/dispatch.hpp"
#include "core/error.hpp"
#include "lbm/kernels/lbm_flags.h"
#include "lbm/kernels/lbm_kernels.hpp"
#include "lbm/kernels/lbm_point.hpp"
#include "skeleton/field.hpp"

namespace tessera::lbm {

namespace {

bool is_wall(std::uint8_t f) { return TS_LBM_IS_WALL(f); }

PartGeometry geometry(const skeleton::PartLayout& L) {
  return {long(L.extent(0)), long(L.extent(1)),        long(L.extent(2)), long(L.sy),
          long(L.sz),        long(L.component_stride), long(L.origin()),  long(L.owned.lo[2])};
}

}  // namespace

// Storage-typed state behind the type-erased interface.
struct DistributedSolver::Impl {
  Config config;
  StepParams params;
  KernelVariant variant;
  long t = 0;
  std::vector<std::uint8_t> flags;  // global, with the near-wall marks
  virtual ~Impl() = default;
  virtual int parts() const = 0;
  virtual int rank() const = 0;
  virtual void set_flags() = 0;
  virtual void initialize(const Fields* f, double rho0, const std::array<double, 3>& u0) = 0;
  virtual void step() = 0;
  virtual void synchronize() = 0;
  virtual std::vector<double> incoming() = 0;
  /// The gathered lattice the next step reads (Q*N storage values, x fastest) as bytes, and back.
  virtual std::vector<std::uint8_t> raw() = 0;
  virtual void restore(const std::vector<std::uint8_t>& bytes) = 0;
  virtual const skeleton::ExchangeStats& stats() const = 0;
  /// Interpolated bounce-back on `links` (usable_links of the global lattice).
  virtual void set_links(std::vector<WallLink> links) = 0;
  /// The kept links and their f*_d(n) - w_d of the last step (real units),
  /// or none before the first step since set_links, initialize or restore.
  virtual LinkSent link_view(std::vector<double>& sent) = 0;
  virtual const std::vector<WallLink>& kept_links() const = 0;
  virtual void flush() = 0;
};

namespace {

template <class S>
struct TypedImpl final : DistributedSolver::Impl {
  skeleton::Field<S> a, b;
  skeleton::Field<std::uint8_t> fl;
  skeleton::ExchangeRequest crossing;

  TypedImpl(const skeleton::Team& team, const Config& c)
      : a(team, skeleton::extents_3d(c.grid.nx, c.grid.ny, c.grid.nz), q_of(c.lattice),
          options(team)),
        b(team, skeleton::extents_3d(c.grid.nx, c.grid.ny, c.grid.nz), q_of(c.lattice),
          options(team)),
        fl(team, skeleton::extents_3d(c.grid.nx, c.grid.ny, c.grid.nz), 1, options(team)) {
    config = c;
    params = c.step_params();
    variant = c.variant();
    // pull streaming: the lower neighbour needs the populations with c_z > 0
    // of a part's top layer, the upper one those with c_z < 0 of its bottom
    crossing.per_face = true;
    crossing.periodic = {false, false, true};
    point::with_variant(variant.q, 32, [&](auto var) {
      using V = decltype(var);
      for (int i = 1; i < V::q; ++i) {
        if (V::cz(i) > 0) crossing.to_upper[2].push_back(i);
        if (V::cz(i) < 0) crossing.to_lower[2].push_back(i);
      }
      return 0;
    });
  }
  // Interpolated bounce-back (lbm_point.h ts_lbm_interpolate_link_pull).
  // A step's output is corrected at the start of the next step (or before
  // the state is read: flush), once the exchange has brought the halos
  // that links of a part's first and last layers read: per part the links
  // of the inner layers ([0]) run with the inner update, those of the
  // boundary layers ([1]) after the halos arrived.
  struct LinkSet {
    long count = 0;
    Bytes code, coef, sent;
    std::vector<std::size_t> index;  // into `links`
  };
  std::vector<WallLink> links;
  std::vector<std::array<LinkSet, 2>> link_sets;  // per local part
  bool pending = false;                           // the last step's output is not corrected yet
  bool fresh = true;  // no correction since the links or the state were set

  void correct(int p, Queue& q, int which) {
    LinkSet& ls = link_sets[std::size_t(p)][std::size_t(which)];
    Device& d = a.device(p);
    dispatch(d, [&](auto tag) {
      kernels::interpolate_links_pull(tag, d, q, variant, geometry(a.layout(p)), ls.count,
                                      ls.code.handle(), ls.coef.handle(), a.buffer(p).handle(),
                                      ls.sent.handle());
    });
  }

  const std::vector<WallLink>& kept_links() const override { return links; }

  void flush() override {
    if (!pending) return;
    a.exchange(
        crossing, [&](int p, Queue& q) { correct(p, q, 0); },
        [&](int p, Queue& q) { correct(p, q, 1); });
    a.mark_device_written();
    pending = false;
    fresh = false;
  }

  void set_links(std::vector<WallLink> kept) override {
    flush();  // the last step's correction, with the links it ran with
    links = std::move(kept);
    link_sets.clear();
    link_sets.resize(std::size_t(a.parts()));
    pending = false;
    fresh = true;
    const Grid g = config.grid;
    std::vector<std::array<std::vector<long>, 2>> code(link_sets.size());
    for (std::size_t k = 0; k < links.size(); ++k) {
      const long n = links[k].cell, z = n / (g.nx * g.ny);
      for (int p = 0; p < a.parts(); ++p) {
        const skeleton::PartLayout& L = a.layout(p);
        const long z0 = long(L.owned.lo[2]), nz = long(L.extent(2));
        if (z < z0 || z >= z0 + nz) continue;
        const int which = z == z0 || z == z0 + nz - 1 ? 1 : 0;
        code[std::size_t(p)][std::size_t(which)].push_back(
            link_code(n - z0 * g.nx * g.ny, links[k]));
        link_sets[std::size_t(p)][std::size_t(which)].index.push_back(k);
      }
    }
    for (int p = 0; p < a.parts(); ++p)
      for (int which = 0; which < 2; ++which) {
        LinkSet& ls = link_sets[std::size_t(p)][std::size_t(which)];
        const auto& c = code[std::size_t(p)][std::size_t(which)];
        ls.count = long(c.size());
        if (c.empty()) continue;
        std::vector<WallLink> mine;
        for (std::size_t k : ls.index) mine.push_back(links[k]);
        const auto dev = a.team().device_ptr(p);
        ls.code = Bytes(dev, c.size() * sizeof(long));
        ls.code.copy_from_host(
            std::vector<std::uint8_t>(reinterpret_cast<const std::uint8_t*>(c.data()),
                                      reinterpret_cast<const std::uint8_t*>(c.data() + c.size())));
        const auto coef = link_coefficient_bytes(mine, variant.real_bytes() == 8);
        ls.coef = Bytes(dev, coef.size());
        ls.coef.copy_from_host(coef);
        ls.sent = Bytes(dev, c.size() * variant.real_bytes());
      }
  }

  LinkSent link_view(std::vector<double>& sent) override {
    flush();
    if (links.empty() || fresh) return {};
    sent.assign(links.size(), 0.0);
    for (auto& sets : link_sets)
      for (LinkSet& ls : sets) {
        if (ls.count == 0) continue;
        const auto v = link_sent_values(ls.sent.to_vector(), variant.real_bytes() == 8,
                                        variant.store_bits == 16 ? TS_LBM_HALF_SCALE : 1.0);
        for (std::size_t k = 0; k < v.size(); ++k) sent[ls.index[k]] = v[k];
      }
    if (skeleton::Comm* comm = a.team().comm()) {
      // each link is one part's, on one rank (the others hold 0): the sum
      // over the ranks is its value, exactly
      const auto all = comm->allgather(sent.data(), sent.size() * sizeof(double));
      std::fill(sent.begin(), sent.end(), 0.0);
      for (std::size_t r = 0; r + sent.size() * sizeof(double) <= all.size();
           r += sent.size() * sizeof(double))
        for (std::size_t k = 0; k < sent.size(); ++k) {
          double v;
          std::memcpy(&v, all.data() + r + k * sizeof(double), sizeof v);
          sent[k] += v;
        }
    }
    return LinkSent{links, sent};
  }

  static skeleton::FieldOptions options(const skeleton::Team& team) {
    skeleton::FieldOptions o;
    o.parts = {1, 1, team.total_parts()};
    o.halo = {0, 0, 1};
    return o;
  }
  int parts() const override { return a.parts(); }
  int rank() const override { return a.team().rank(); }

  void set_flags() override {
    fl.scatter(flags);
    skeleton::ExchangeRequest all;
    all.periodic = {false, false, true};
    fl.exchange(all);
  }

  void initialize(const Fields* f, double rho0, const std::array<double, 3>& u0) override {
    const Grid g = config.grid;
    const std::size_t N = static_cast<std::size_t>(g.cells());
    point::with_variant(variant.q, variant.store_bits, [&](auto var) {
      using V = decltype(var);
      using R = typename V::real;
      if constexpr (!std::is_same_v<typename V::store, S>) {
        throw Error("internal: lbm storage type mismatch");
      } else {
        std::vector<S> global(std::size_t(V::q) * N);
        for (std::size_t n = 0; n < N; ++n) {
          if (f)
            V::init_pull(global.data(), long(n), long(N), R(f->rho[n]), R(f->ux[n]), R(f->uy[n]),
                         R(f->uz[n]));
          else
            V::init_pull(global.data(), long(n), long(N), R(rho0), R(u0[0]), R(u0[1]), R(u0[2]));
        }
        a.scatter(global);
        b.scatter(global);
      }
      return 0;
    });
    t = 0;
    pending = false;
    fresh = true;
  }

  void launch(int p, Queue& q, long z0, long z1) {
    const skeleton::PartLayout& L = a.layout(p);
    Device& d = a.device(p);
    dispatch(d, [&](auto tag) {
      kernels::stream_collide_pull(tag, d, q, variant, geometry(L), z0, z1, a.buffer(p).handle(),
                                   b.buffer(p).handle(), fl.buffer(p).handle(), params);
    });
  }

  void step() override {
    const bool correcting = pending;
    a.exchange(
        crossing,
        [&](int p, Queue& q) {  // inner layers: no halo needed
          if (correcting) correct(p, q, 0);
          const long nz = long(a.layout(p).extent(2));
          if (nz > 2) launch(p, q, 1, nz - 1);
        },
        [&](int p, Queue& q) {  // the layers next to the faces, once the halos arrived
          if (correcting) correct(p, q, 1);
          const long nz = long(a.layout(p).extent(2));
          launch(p, q, 0, 1);
          if (nz > 1) launch(p, q, nz - 1, nz);
        });
    a.mark_device_written();
    b.mark_device_written();
    a.swap(b);
    ++t;
    pending = !links.empty();
    if (correcting) fresh = false;
  }

  void synchronize() override {
    for (int p = 0; p < a.parts(); ++p) a.device(p).synchronize();
  }

  std::vector<double> incoming() override {
    flush();
    synchronize();
    const std::vector<S> post =
        a.gather();  // outgoing populations of the last step, at their cells
    const Grid g = config.grid;
    const std::size_t N = static_cast<std::size_t>(g.cells());
    return point::with_variant(variant.q, variant.store_bits, [&](auto var) {
      using V = decltype(var);
      std::vector<double> in(std::size_t(V::q) * N, 0.0);
      if constexpr (!std::is_same_v<typename V::store, S>) {
        throw Error("internal: lbm storage type mismatch");
      } else {
        const auto prm = kernels::detail::params<typename V::real>(params);
        typename V::real fin[V::q];
        // the pull of the kernel on the gathered (periodic, unpadded) lattice
        for (long z = 0; z < g.nz; ++z)
          for (long y = 0; y < g.ny; ++y)
            for (long x = 0; x < g.nx; ++x) {
              const long n = x + g.nx * (y + g.ny * z);
              if (is_wall(flags[std::size_t(n)])) continue;
              // a periodic z neighbourhood: the gathered lattice has no halo, so
              // give the padded neighbourhood the wrapped offsets
              V::load_in_pull_global(post.data(), flags.data(), x, y, z, g.nx, g.ny, g.nz, &prm,
                                     fin);
              for (int i = 0; i < V::q; ++i)
                in[std::size_t(i) * N + std::size_t(n)] = double(fin[i]);
            }
      }
      return in;
    });
  }

  std::vector<std::uint8_t> raw() override {
    flush();
    synchronize();
    const std::vector<S> post = a.gather();
    const auto* p = reinterpret_cast<const std::uint8_t*>(post.data());
    return std::vector<std::uint8_t>(p, p + post.size() * sizeof(S));
  }

  void restore(const std::vector<std::uint8_t>& bytes) override {
    std::vector<S> post(bytes.size() / sizeof(S));
    std::memcpy(post.data(), bytes.data(), post.size() * sizeof(S));
    a.scatter(post);  // the halos travel with the next step's exchange
    b.scatter(post);
    pending = false;
    fresh = true;
  }

  const skeleton::ExchangeStats& stats() const override { return a.last_exchange(); }
};

}  // namespace

DistributedSolver::DistributedSolver(skeleton::Team team, Config config) {
  config.validate();
  if (config.lattice == Lattice::d2q9)
    throw UsageError(
        "--streaming ab / --gpus N: the distributed solver splits z: use a 3D lattice (--lattice D3Q19 or D3Q27)");
  if (config.grid.nz < team.total_parts())
    throw UsageError(fmt::format("{} z-layers cannot be split over {} parts", config.grid.nz,
                                 team.total_parts()));
  for (int p = 0; p < team.local_parts(); ++p) {
    Config share = config;
    share.grid.nz = (config.grid.nz + team.total_parts() - 1) / team.total_parts() + 2;
    check_fits(share, team.device(p));
  }
  switch (config.variant().store_bits) {
    case 16:
      impl_ = std::make_unique<TypedImpl<std::uint16_t>>(team, config);
      break;
    case 32:
      impl_ = std::make_unique<TypedImpl<float>>(team, config);
      break;
    default:
      impl_ = std::make_unique<TypedImpl<double>>(team, config);
      break;
  }
  set_flags(std::vector<std::uint8_t>(static_cast<std::size_t>(config.grid.cells()), TS_LBM_FLUID));
}

DistributedSolver::~DistributedSolver() = default;
DistributedSolver::DistributedSolver(DistributedSolver&&) noexcept = default;

const Config& DistributedSolver::config() const noexcept { return impl_->config; }
long DistributedSolver::time() const noexcept { return impl_->t; }
const std::vector<std::uint8_t>& DistributedSolver::flags() const noexcept { return impl_->flags; }
int DistributedSolver::parts() const noexcept { return impl_->parts(); }
int DistributedSolver::rank() const noexcept { return impl_->rank(); }

void DistributedSolver::set_flags(std::vector<std::uint8_t> flags) {
  if (flags.size() != static_cast<std::size_t>(impl_->config.grid.cells()))
    throw Error(
        fmt::format("lbm: {} flags given for {} cells", flags.size(), impl_->config.grid.cells()));
  mark_near_wall(impl_->config.grid, impl_->config.lattice, flags);
  impl_->flush();  // the last step's correction, before its links go
  impl_->flags = std::move(flags);
  impl_->set_flags();
  impl_->set_links({});
}

const std::vector<WallLink>& DistributedSolver::links() const noexcept {
  return impl_->kept_links();
}

void DistributedSolver::set_links(std::span<const WallLink> links) {
  impl_->set_links(usable_links(impl_->config.grid, impl_->variant.q, impl_->flags, links));
}

void DistributedSolver::initialize(double rho0, const std::array<double, 3>& u0) {
  impl_->initialize(nullptr, rho0, u0);
}
void DistributedSolver::initialize(const Fields& f) {
  const std::size_t N = static_cast<std::size_t>(impl_->config.grid.cells());
  if (f.rho.size() != N || f.ux.size() != N || f.uy.size() != N || f.uz.size() != N)
    throw Error(fmt::format("lbm: initial fields must hold {} values each", N));
  impl_->initialize(&f, 1, {0, 0, 0});
}
void DistributedSolver::step(long steps) {
  for (long s = 0; s < steps; ++s) impl_->step();
}
void DistributedSolver::synchronize() { impl_->synchronize(); }
std::vector<double> DistributedSolver::incoming() { return impl_->incoming(); }
const skeleton::ExchangeStats& DistributedSolver::last_exchange() const { return impl_->stats(); }

Fields DistributedSolver::fields() {
  const auto in = incoming();
  const Grid g = impl_->config.grid;
  const std::size_t N = static_cast<std::size_t>(g.cells());
  Fields r{g, std::vector<double>(N), std::vector<double>(N), std::vector<double>(N),
           std::vector<double>(N)};
  point::with_variant(impl_->variant.q, impl_->variant.store_bits, [&](auto var) {
    using V = decltype(var);
    const auto prm = kernels::detail::params<typename V::real>(impl_->params);
    typename V::real fin[V::q];
    for (std::size_t n = 0; n < N; ++n) {
      if (is_wall(impl_->flags[n])) continue;
      for (int i = 0; i < V::q; ++i) fin[i] = typename V::real(in[std::size_t(i) * N + n]);
      typename V::real rho, ux, uy, uz;
      V::velocity(fin, &prm, &rho, &ux, &uy, &uz);
      r.rho[n] = rho;
      r.ux[n] = ux;
      r.uy[n] = uy;
      r.uz[n] = uz;
    }
    return 0;
  });
  return r;
}

double DistributedSolver::mass() { return mass_of(incoming(), impl_->flags, impl_->variant.q); }

std::array<double, 3> DistributedSolver::body_force() {
  std::vector<double> sent;
  const LinkSent links = impl_->link_view(sent);
  return body_force_of(incoming(), impl_->flags, impl_->config.grid, impl_->config.lattice, links);
}

std::vector<std::array<double, 3>> DistributedSolver::body_forces(
    const std::vector<std::uint8_t>& body_of, std::size_t bodies) {
  if (bodies == 0) return {};
  std::vector<double> sent;
  const LinkSent links = impl_->link_view(sent);
  return body_forces_of(incoming(), impl_->flags, body_of, bodies, impl_->config.grid,
                        impl_->config.lattice, links);
}

std::vector<std::uint8_t> DistributedSolver::raw_populations() { return impl_->raw(); }

void DistributedSolver::restore(const std::vector<std::uint8_t>& populations,
                                const std::vector<std::uint8_t>& flags, long t) {
  const auto N = static_cast<std::size_t>(impl_->config.grid.cells());
  const std::size_t want =
      N * std::size_t(impl_->variant.q) * std::size_t(impl_->variant.store_bytes());
  if (populations.size() != want)
    throw Error(fmt::format("lbm: state of {} bytes given, the lattice holds {}",
                            populations.size(), want));
  if (flags.size() != N)
    throw Error(fmt::format("lbm: {} flags given for {} cells", flags.size(), N));
  impl_->set_links({});  // links belong to flags: set them again after a restore
  impl_->flags = flags;
  mark_near_wall(impl_->config.grid, impl_->config.lattice,
                 impl_->flags);  // recomputed: a file's marks are not trusted
  impl_->set_flags();
  impl_->restore(populations);
  impl_->t = t;
}

}  // namespace tessera::lbm
