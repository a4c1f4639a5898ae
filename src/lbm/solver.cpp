#include "lbm/solver.hpp"

#include <cmath>
#include <functional>
#include <unordered_map>

#include <fmt/format.h>

#include "core/dispatch.hpp"
#include "core/error.hpp"
#include "lbm/kernels/lbm_point.hpp"

namespace tessera::lbm {

namespace {

bool is_wall(std::uint8_t f) { return TS_LBM_IS_WALL(f); }

/// For every cell n of g in order (x fastest): cell(n); then, unless n is a
/// wall, link(Variant{}, n, i, m) for each link i >= 1 of l's lattice (the
/// variant with store_bits storage), m the neighbour of n along i (periodic).
template <class Cell, class Link>
void for_each_link(const Grid& g, Lattice l, int store_bits, const std::vector<std::uint8_t>& flags,
                   Cell&& cell, Link&& link) {
  point::with_variant(q_of(l), store_bits, [&](auto var) {
    using V = decltype(var);
    for (long z = 0; z < g.nz; ++z)
      for (long y = 0; y < g.ny; ++y)
        for (long x = 0; x < g.nx; ++x) {
          const long n = x + g.nx * (y + g.ny * z);
          cell(n);
          if (is_wall(flags[n])) continue;
          for (int i = 1; i < V::q; ++i) {
            const long xx = (x + V::cx(i) + g.nx) % g.nx, yy = (y + V::cy(i) + g.ny) % g.ny,
                       zz = (z + V::cz(i) + g.nz) % g.nz;
            link(var, n, i, xx + g.nx * (yy + g.ny * zz));
          }
        }
    return 0;
  });
}

}  // namespace

void mark_near_wall(const Grid& g, Lattice l, std::vector<std::uint8_t>& flags) {
  for_each_link(
      g, l, 32, flags, [&](long n) { flags[n] &= std::uint8_t(~TS_LBM_NEAR_WALL); },
      [&](auto, long n, int, long m) {
        if (is_wall(flags[m])) flags[n] |= TS_LBM_NEAR_WALL;
      });
}

void check_fits(const Config& c, const Device& dev) {
  const std::uint64_t need = c.state_bytes();
  const std::uint64_t have = dev.info().global_mem_bytes;
  if (have && need > have)
    throw OutOfMemory(
        fmt::format("{} for a {}x{}x{} {} {} lattice ({} B per cell)", dev.id(), c.grid.nx,
                    c.grid.ny, c.grid.nz, to_string(c.lattice), to_string(c.precision),
                    c.variant().q * c.variant().store_bytes() + 1),
        need, have);
}

Solver::Solver(std::shared_ptr<Device> device, Config config)
    : device_(std::move(device)), config_(config) {
  config_.validate();
  params_ = config_.step_params();
  variant_ = config_.variant();
  check_fits(config_, *device_);
  const std::size_t N = static_cast<std::size_t>(grid().cells());
  f_ = Bytes(device_, N * std::size_t(variant_.q) * variant_.store_bytes());
  flags_dev_ = Bytes(device_, N);
  set_flags(std::vector<std::uint8_t>(N, TS_LBM_FLUID));
}

void Solver::set_flags(std::vector<std::uint8_t> flags) {
  if (flags.size() != static_cast<std::size_t>(grid().cells()))
    throw Error(fmt::format("lbm: {} flags given for {} cells", flags.size(), grid().cells()));
  mark_near_wall(grid(), config_.lattice, flags);
  flags_ = std::move(flags);
  flags_dev_.copy_from_host(flags_);
  force_links_cached_.clear();
  set_links({});
}

void Solver::set_links(std::span<const WallLink> links) {
  links_ = usable_links(grid(), variant_.q, flags_, links);
  links_fresh_ = true;
  const std::size_t L = links_.size();
  link_code_ = Bytes();
  link_coef_ = Bytes();
  link_sent_ = Bytes();
  if (L == 0) return;
  std::vector<long> code;
  for (const WallLink& l : links_) code.push_back(link_code(l.cell, l));
  link_code_ = Bytes(device_, L * sizeof(long));
  link_code_.copy_from_host(
      std::vector<std::uint8_t>(reinterpret_cast<const std::uint8_t*>(code.data()),
                                reinterpret_cast<const std::uint8_t*>(code.data() + L)));
  const auto coef = link_coefficient_bytes(links_, variant_.real_bytes() == 8);
  link_coef_ = Bytes(device_, coef.size());
  link_coef_.copy_from_host(coef);
  link_sent_ = Bytes(device_, L * variant_.real_bytes());
}

std::vector<double> Solver::link_sent() const {
  return link_sent_values(link_sent_.to_vector(), variant_.real_bytes() == 8,
                          variant_.store_bits == 16 ? TS_LBM_HALF_SCALE : 1.0);
}

void Solver::initialize(double rho0, const std::array<double, 3>& u0) {
  if (mach(std::sqrt(u0[0] * u0[0] + u0[1] * u0[1] + u0[2] * u0[2])) > kMaxMach)
    throw UsageError("initial velocity exceeds Mach " + std::to_string(kMaxMach));
  dispatch(*device_, [&](auto tag) {
    kernels::initialize(tag, device_->queue(), variant_, grid(), f_, flags_dev_, nullptr, rho0,
                        u0.data());
  });
  t_ = 0;
  links_fresh_ = true;
}

void Solver::initialize(const Fields& in) {
  const std::size_t N = static_cast<std::size_t>(grid().cells());
  if (in.rho.size() != N || in.ux.size() != N || in.uy.size() != N || in.uz.size() != N)
    throw Error(fmt::format("lbm: initial fields must hold {} values each", N));
  Bytes fields(device_, 4 * N * variant_.real_bytes());
  std::vector<std::uint8_t> host(fields.size());
  auto fill = [&](auto* out) {
    for (std::size_t n = 0; n < N; ++n) {
      out[n] = in.rho[n];
      out[N + n] = in.ux[n];
      out[2 * N + n] = in.uy[n];
      out[3 * N + n] = in.uz[n];
    }
  };
  if (variant_.real_bytes() == 8)
    fill(reinterpret_cast<double*>(host.data()));
  else
    fill(reinterpret_cast<float*>(host.data()));
  fields.copy_from_host(host);
  const double u0[3] = {0, 0, 0};
  dispatch(*device_, [&](auto tag) {
    kernels::initialize(tag, device_->queue(), variant_, grid(), f_, flags_dev_, &fields, 1.0, u0);
  });
  device_->synchronize();
  t_ = 0;
  links_fresh_ = true;
}

void Solver::step(long steps) {
  dispatch(*device_, [&](auto tag) {
    for (long s = 0; s < steps; ++s, ++t_) {
      kernels::stream_collide(tag, device_->queue(), variant_, grid(), f_, flags_dev_, t_, params_);
      kernels::interpolate_links(tag, device_->queue(), variant_, grid(), f_, long(links_.size()),
                                 link_code_, link_coef_, link_sent_, t_);
    }
  });
  if (steps > 0) links_fresh_ = false;
}

Fields Solver::fields() {
  const std::size_t N = static_cast<std::size_t>(grid().cells());
  Bytes out(device_, 4 * N * variant_.real_bytes());
  dispatch(*device_, [&](auto tag) {
    kernels::moments(tag, device_->queue(), variant_, grid(), f_, flags_dev_, t_, params_, out);
  });
  const auto host = out.to_vector();
  Fields r{grid(), std::vector<double>(N), std::vector<double>(N), std::vector<double>(N),
           std::vector<double>(N)};
  auto take = [&](const auto* v) {
    for (std::size_t n = 0; n < N; ++n) {
      r.rho[n] = v[n];
      r.ux[n] = v[N + n];
      r.uy[n] = v[2 * N + n];
      r.uz[n] = v[3 * N + n];
    }
  };
  if (variant_.real_bytes() == 8)
    take(reinterpret_cast<const double*>(host.data()));
  else
    take(reinterpret_cast<const float*>(host.data()));
  return r;
}

std::vector<std::uint8_t> Solver::raw_populations() const { return f_.to_vector(); }

void Solver::restore(const std::vector<std::uint8_t>& populations,
                     const std::vector<std::uint8_t>& flags, long t) {
  if (populations.size() != f_.size())
    throw Error(fmt::format("lbm: state of {} bytes given, the lattice holds {}",
                            populations.size(), f_.size()));
  if (flags.size() != flags_.size())
    throw Error(fmt::format("lbm: {} flags given for {} cells", flags.size(), flags_.size()));
  set_links({});  // links belong to flags: set them again after a restore
  flags_ = flags;
  force_links_cached_.clear();
  mark_near_wall(grid(), config_.lattice, flags_);  // recomputed: a file's marks are not trusted
  flags_dev_.copy_from_host(flags_);
  f_.copy_from_host(populations);
  t_ = t;
  links_fresh_ = true;  // the links' sent populations are not in a checkpoint
}

std::vector<double> Solver::incoming_of(const std::vector<std::uint8_t>& raw) const {
  const Grid g = grid();
  const std::size_t N = static_cast<std::size_t>(g.cells());
  return point::with_variant(variant_.q, variant_.store_bits, [&](auto var) {
    using V = decltype(var);
    const auto prm = kernels::detail::params<typename V::real>(params_);
    const auto* f = reinterpret_cast<const typename V::store*>(raw.data());
    std::vector<double> in(std::size_t(V::q) * N, 0.0);
    typename V::real fin[V::q];
    for (long z = 0; z < g.nz; ++z)
      for (long y = 0; y < g.ny; ++y)
        for (long x = 0; x < g.nx; ++x) {
          const long n = x + g.nx * (y + g.ny * z);
          if (is_wall(flags_[n])) continue;
          V::load_in(f, flags_.data(), x, y, z, g.nx, g.ny, g.nz, int(t_ & 1), &prm, fin);
          for (int i = 0; i < V::q; ++i) in[std::size_t(i) * N + n] = double(fin[i]);
        }
    return in;
  });
}

std::vector<double> Solver::incoming() { return incoming_of(raw_populations()); }

double Solver::mass() { return mass_of(incoming(), flags_, variant_.q); }

LinkSent Solver::link_view(std::vector<double>& sent) const {
  if (links_.empty() || links_fresh_) return {};
  sent = link_sent();
  return LinkSent{links_, sent};
}

std::array<double, 3> Solver::body_force() {
  std::vector<double> sent;
  return body_force_of(incoming(), flags_, grid(), config_.lattice, link_view(sent));
}

std::vector<std::array<double, 3>> Solver::body_forces(const std::vector<std::uint8_t>& body_of,
                                                       std::size_t bodies) {
  if (bodies == 0) return {};
  // the links into the bodies, once per flags and bodies; then the incoming
  // populations of their cells only (a sample of a 2D channel of 580,000
  // cells cost 80 ms with every cell's)
  if (force_links_cached_ != body_of) {
    force_links_ = force_links(grid(), config_.lattice, flags_, body_of);
    force_links_cached_ = body_of;
  }
  const Grid g = grid();
  const auto raw = raw_populations();
  std::vector<double> sent;
  return point::with_variant(variant_.q, variant_.store_bits, [&](auto var) {
    using V = decltype(var);
    const auto prm = kernels::detail::params<typename V::real>(params_);
    const auto* f = reinterpret_cast<const typename V::store*>(raw.data());
    typename V::real fin[V::q];
    long at = -1;
    return forces_on_links(
        force_links_, bodies, config_.lattice, link_view(sent), [&](int i, long n) {
          if (n != at) {
            V::load_in(f, flags_.data(), n % g.nx, (n / g.nx) % g.ny, n / (g.nx * g.ny), g.nx, g.ny,
                       g.nz, int(t_ & 1), &prm, fin);
            at = n;
          }
          return double(fin[i]);
        });
  });
}

double mass_of(const std::vector<double>& in, const std::vector<std::uint8_t>& flags, int q) {
  const std::size_t N = flags.size();
  double m = 0;
  for (std::size_t n = 0; n < N; ++n) {
    if (is_wall(flags[n])) continue;
    double s = 1;
    for (int i = 0; i < q; ++i) s += in[std::size_t(i) * N + n];
    m += s;
  }
  return m;
}

std::array<double, 3> body_force_of(const std::vector<double>& in,
                                    const std::vector<std::uint8_t>& flags, const Grid& g,
                                    Lattice l, LinkSent links) {
  std::vector<std::uint8_t> one(flags.size());
  for (std::size_t n = 0; n < flags.size(); ++n)
    one[n] = is_wall(flags[n]) && (flags[n] & TS_LBM_BODY) ? 1 : 0;
  return body_forces_of(in, flags, one, 1, g, l, links)[0];
}

std::vector<ForceLink> force_links(const Grid& g, Lattice l, const std::vector<std::uint8_t>& flags,
                                   const std::vector<std::uint8_t>& body_of) {
  std::vector<ForceLink> links;
  for_each_link(
      g, l, 64, flags, [](long) {},
      [&](auto, long n, int i, long m) {
        const std::uint8_t b = body_of[std::size_t(m)];
        if (b != 0 && is_wall(flags[std::size_t(m)])) links.push_back({n, i, b});
      });
  return links;
}

std::vector<std::array<double, 3>> forces_on_links(
    const std::vector<ForceLink>& links, std::size_t bodies, Lattice l, LinkSent sent_links,
    const std::function<double(int, long)>& incoming) {
  std::vector<std::array<double, 3>> F(bodies, {0, 0, 0});
  if (sent_links.sent.size() != sent_links.links.size())
    throw Error(fmt::format("lbm: {} sent populations for {} links", sent_links.sent.size(),
                            sent_links.links.size()));
  std::unordered_map<long, double> sent;  // by 32 n + d
  for (std::size_t k = 0; k < sent_links.links.size(); ++k)
    sent.emplace(32 * sent_links.links[k].cell + sent_links.links[k].dir, sent_links.sent[k]);
  point::with_variant(q_of(l), 64, [&](auto var) {
    using V = decltype(var);
    for (const ForceLink& k : links) {
      // link i leaves n into the body; the population bounced back is i's
      // opposite (pairs: i odd <-> i+1), which carries out_i reversed
      const int back = (k.i & 1) ? k.i + 1 : k.i - 1;
      const double came = incoming(back, k.n) + V::w(k.i);
      const auto s = sent.empty() ? sent.end() : sent.find(32 * k.n + k.i);
      const double both = came + (s == sent.end() ? came : s->second + V::w(k.i));
      auto& f = F[std::size_t(k.body) - 1];
      f[0] += both * V::cx(k.i);
      f[1] += both * V::cy(k.i);
      f[2] += both * V::cz(k.i);
    }
    return 0;
  });
  return F;
}

std::vector<std::array<double, 3>> body_forces_of(const std::vector<double>& in,
                                                  const std::vector<std::uint8_t>& flags,
                                                  const std::vector<std::uint8_t>& body_of,
                                                  std::size_t bodies, const Grid& g, Lattice l,
                                                  LinkSent links) {
  const std::size_t N = flags.size();
  return forces_on_links(force_links(g, l, flags, body_of), bodies, l, links,
                         [&](int i, long n) { return in[std::size_t(i) * N + std::size_t(n)]; });
}

}  // namespace tessera::lbm
