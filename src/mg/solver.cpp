#include "mg/solver.hpp"

#include <cmath>
#include <utility>

#include "core/enum_names.hpp"
#include "core/error.hpp"
#include "core/registry.hpp"
#include "mg/layout.hpp"

namespace tessera::mg {

namespace {
constexpr std::array<std::string_view, 4> kStatuses{"converged", "max-cycles", "diverged",
                                                    "stagnated"};
static_assert(kStatuses.size() == std::size_t(Status::stagnated) + 1);
}  // namespace

std::string to_string(Status s) { return std::string(enum_name(s, kStatuses, "unknown")); }

double SolveReport::asymptotic_factor() const {
  const std::size_t n = residuals.size();
  if (n < 2) return 0;
  const std::size_t k = std::min<std::size_t>(5, n - 1);
  if (residuals[n - 1 - k] <= 0) return 0;
  return std::pow(residuals[n - 1] / residuals[n - 1 - k], 1.0 / static_cast<double>(k));
}

std::vector<Dims> coarsening_schedule(const Dims& finest, long max_coarsest_points) {
  if (finest.dim != 2 && finest.dim != 3) throw UsageError("multigrid: dimension must be 2 or 3");
  if (finest.nx < 1 || finest.ny < 1 || (finest.dim == 3 && finest.nz < 1))
    throw UsageError("multigrid: grid sides must be >= 1");
  std::vector<Dims> s{finest};
  auto coarsenable = [](long n) { return n >= 3 && (n & 1); };
  for (;;) {
    const Dims& d = s.back();
    if (!coarsenable(d.nx) || !coarsenable(d.ny) || (d.dim == 3 && !coarsenable(d.nz))) break;
    s.push_back(Dims{(d.nx - 1) / 2, (d.ny - 1) / 2, d.dim == 3 ? (d.nz - 1) / 2 : 1, d.dim});
  }
  if (s.back().points() > max_coarsest_points)
    throw UsageError(
        "multigrid: a grid of " + std::to_string(finest.nx) + " x " + std::to_string(finest.ny) +
        (finest.dim == 3 ? " x " + std::to_string(finest.nz) : std::string()) +
        " only coarsens to " + std::to_string(s.back().points()) + " points (limit " +
        std::to_string(max_coarsest_points) + "); choose sides of the form c*2^k - 1 with small c");
  return s;
}

template <class T>
Solver<T>::Solver(std::shared_ptr<Device> device, Dims finest, Options options)
    : device_(std::move(device)),
      opt_(options),
      omega_(
          static_cast<T>(options.omega > 0 ? options.omega : (finest.dim == 3 ? 6.0 / 7.0 : 0.8))),
      reducer_(device_, finest.storage()) {
  if (opt_.pre < 0 || opt_.post < 0 || opt_.pre + opt_.post < 1)
    throw UsageError("multigrid: need at least one smoothing step (pre + post >= 1)");
  if (opt_.host_coarse_points < 0) throw UsageError("multigrid: host_coarse_points must be >= 0");
  if (opt_.split_min_points < 0) throw UsageError("multigrid: split_min_points must be >= 0");
  finest.split = false;
  const std::vector<Dims> schedule = coarsening_schedule(finest, opt_.max_coarsest_points);
  if (opt_.host_coarse_points > 0 && device_->backend() != Backend::cpu)
    for (std::size_t l = 1; l < schedule.size(); ++l)
      if (schedule[l].points() <= opt_.host_coarse_points) {
        host_level_ = l;
        break;
      }
  for (std::size_t l = 0; l < schedule.size(); ++l) {
    Level L{schedule[l], {}, {}, {}};
    // Split levels are the large ones, a prefix of the schedule, never the
    // host's (it copies a level as it is) nor the coarsest (solved by
    // colour sweeps, which would do, but it is too small to gain).
    L.d.split = opt_.split && opt_.smoother == Smoother::rbgs && L.d.dim == 3 &&
                L.d.points() >= opt_.split_min_points && l + 1 < schedule.size() &&
                (host_level_ == 0 || l < host_level_);
    for (Buffer<T>* b : {&L.x, &L.x2, &L.b}) {
      if (b == &L.x2 && L.d.split) continue;  // no ping-pong: a split sweep works in place
      *b = Buffer<T>(device_, L.d.storage());
      dense::fill(*b, T(0));
    }
    levels_.push_back(std::move(L));
  }
  r_ = Buffer<T>(device_, finest.storage());
  dense::fill(r_, T(0));
  if (host_level_ > 0) {
    Options host = opt_;
    host.host_coarse_points = 0;
    host_ = std::make_unique<Solver>(open_device("cpu"), levels_[host_level_].d, host);
  }
}

template <class T>
void Solver<T>::to_finest(const Buffer<T>& natural, Buffer<T>& level) {
  const Dims& d = levels_[0].d;
  if (!d.split) return level.copy_from(natural);
  dispatch(*device_, [&](auto tag) {
    kernels::convert_split(tag, device_->queue(), d, natural, level, true);
  });
}

template <class T>
void Solver<T>::from_finest(const Buffer<T>& level, Buffer<T>& natural) {
  const Dims& d = levels_[0].d;
  if (!d.split) return natural.copy_from(level);
  dense::fill(natural, T(0));  // the halo (the conversion writes the interior)
  dispatch(*device_, [&](auto tag) {
    kernels::convert_split(tag, device_->queue(), d, level, natural, false);
  });
}

template <class T>
void Solver<T>::set_rhs(const std::vector<T>& interior) {
  for (T v : interior)
    if (!std::isfinite(static_cast<double>(v)))
      throw Error("multigrid: the right-hand side contains non-finite values");
  upload_interior(levels_[0].b, levels_[0].d, interior);
}

template <class T>
void Solver<T>::reset() {
  dense::fill(levels_[0].x, T(0));
}

template <class T>
bool Solver<T>::fused_rbgs(const Level& L) const {
  return opt_.fused && !L.d.split && opt_.smoother == Smoother::rbgs && L.d.dim == 3 &&
         L.d.points() >= opt_.fused_min_points;
}

template <class T>
bool Solver<T>::zero_start(std::size_t l) const {
  if (l + 1 == levels_.size()) return true;  // coarse_solve: red-black sweeps
  return opt_.smoother == Smoother::rbgs && opt_.pre > 0 && !fused_rbgs(levels_[l]);
}

template <class T>
void Solver<T>::smooth(Level& L, int steps, const Level* correction, bool x_zero) {
  Queue& q = device_->queue();
  dispatch(*device_, [&](auto tag) {
    for (int s = 0; s < steps; ++s) {
      const Buffer<T>* ec = s == 0 && correction ? &correction->x : nullptr;
      const Dims* cd = ec ? &correction->d : nullptr;
      if (fused_rbgs(L)) {
        if (ec && !opt_.fuse_prolongation) {
          kernels::prolong_add(tag, q, L.d, L.x, *cd, *ec, -1);
          ec = nullptr;
          cd = nullptr;
        }
        kernels::gauss_seidel_fused(tag, q, L.d, L.b, L.x, L.x2, ec, cd);
        std::swap(L.x, L.x2);
        continue;
      }
      if (ec && L.d.split && opt_.smoother == Smoother::rbgs && opt_.prolong_in_red_sweep) {
        kernels::gauss_seidel_red_prolonged(tag, q, L.d, L.b, L.x, *cd, *ec);
        kernels::gauss_seidel_color(tag, q, L.d, 1, L.b, L.x);
        continue;
      }
      // A red-black sweep overwrites red points without reading them: the
      // correction matters at black points only (split levels, where only
      // they are touched; on natural ones the kernel visits every point).
      if (ec) kernels::prolong_add(tag, q, L.d, L.x, *cd, *ec, L.d.split ? 1 : -1);
      if (opt_.smoother == Smoother::jacobi) {
        kernels::jacobi(tag, q, L.d, omega_, L.b, L.x, L.x2);
        std::swap(L.x, L.x2);
      } else {
        kernels::gauss_seidel_color(tag, q, L.d, 0, L.b, L.x, s == 0 && x_zero);
        kernels::gauss_seidel_color(tag, q, L.d, 1, L.b, L.x);
      }
    }
  });
}

template <class T>
void Solver<T>::coarse_solve(Level& L, bool x_zero) {
  Queue& q = device_->queue();
  const int sweeps = L.d.points() == 1 ? 1 : opt_.coarse_sweeps;
  dispatch(*device_, [&](auto tag) {
    for (int s = 0; s < sweeps; ++s) {
      kernels::gauss_seidel_color(tag, q, L.d, 0, L.b, L.x, s == 0 && x_zero);
      kernels::gauss_seidel_color(tag, q, L.d, 1, L.b, L.x);
    }
  });
}

template <class T>
void Solver<T>::host_cycle(CycleType type, bool x_zero, bool b_again) {
  Level& L = levels_[host_level_];
  Level& H = host_->levels_[0];
  if (!b_again) H.b.copy_from(L.b);  // (Buffer::copy_from: straight into host memory)
  if (x_zero)
    dense::fill(H.x, T(0));
  else
    H.x.copy_from(L.x);
  host_->cycle(0, type);
  L.x.copy_from(H.x);
}

template <class T>
void Solver<T>::cycle(std::size_t l, CycleType type, bool x_zero, bool b_again) {
  if (host_ && l == host_level_) {
    host_cycle(type, x_zero, b_again);
    return;
  }
  Level& L = levels_[l];
  // x_zero: the caller has not cleared L.x where the first sweep can start
  // from zero without reading it (zero_start)
  if (l + 1 == levels_.size()) {
    coarse_solve(L, x_zero);
    return;
  }
  Level& C = levels_[l + 1];
  Queue& q = device_->queue();
  smooth(L, opt_.pre, nullptr, x_zero);
  const bool red_only = opt_.red_restriction && opt_.smoother == Smoother::rbgs && opt_.pre > 0;
  dispatch(*device_, [&](auto tag) {
    kernels::restrict_residual(tag, q, L.d, L.b, L.x, C.d, C.b, red_only);
  });
  // C.x = 0, stored only where its first sweep would read it: a red-black
  // sweep from zero computes red from b alone, and black from the new red
  // (the host clears its own)
  if ((!host_ || l + 1 != host_level_) && !zero_start(l + 1)) dense::fill(C.x, T(0));
  cycle(l + 1, type, true);
  if (type == CycleType::W) cycle(l + 1, type, false, true);
  if (type == CycleType::F) cycle(l + 1, CycleType::V, false, true);
  if (opt_.post > 0) {
    smooth(L, opt_.post, &C);  // the correction is added in (or before) the first sweep
  } else {
    dispatch(*device_, [&](auto tag) { kernels::prolong_add(tag, q, L.d, L.x, C.d, C.x, -1); });
  }
}

template <class T>
void Solver<T>::cycle() {
  cycle(0, opt_.cycle);
}

template <class T>
void Solver<T>::fmg() {
  Queue& q = device_->queue();
  // Right-hand sides of every level: full weighting of b (x = 0 there).
  for (std::size_t l = 0; l + 1 < levels_.size(); ++l) {
    dense::fill(levels_[l].x, T(0));
    dispatch(*device_, [&](auto tag) {
      kernels::restrict_residual(tag, q, levels_[l].d, levels_[l].b, levels_[l].x, levels_[l + 1].d,
                                 levels_[l + 1].b, false);
    });
  }
  dense::fill(levels_.back().x, T(0));
  coarse_solve(levels_.back());
  for (std::size_t l = levels_.size() - 1; l-- > 0;) {
    dense::fill(levels_[l].x, T(0));
    dispatch(*device_, [&](auto tag) {
      kernels::prolong_add(tag, q, levels_[l].d, levels_[l].x, levels_[l + 1].d, levels_[l + 1].x,
                           -1);
    });
    cycle(l, opt_.cycle);
  }
}

template <class T>
double Solver<T>::residual_norm() {
  Level& L = levels_[0];
  dispatch(*device_,
           [&](auto tag) { kernels::residual(tag, device_->queue(), L.d, L.b, L.x, r_); });
  return static_cast<double>(reducer_.nrm2(r_));
}

template <class T>
double Solver<T>::rhs_norm() {
  if (!levels_[0].d.split) return static_cast<double>(reducer_.nrm2(levels_[0].b));
  from_finest(levels_[0].b, r_);  // the natural order of the sum: the same bits
  return static_cast<double>(reducer_.nrm2(r_));
}

template <class T>
SolveReport Solver<T>::solve() {
  SolveReport rep;
  rep.rhs_norm = rhs_norm();
  rep.residuals.push_back(residual_norm());
  const double target = opt_.tol * (rep.rhs_norm > 0 ? rep.rhs_norm : 1.0);
  Queue& q = device_->queue();
  int rising = 0, slow = 0;
  while (rep.cycles < opt_.max_cycles && rep.residuals.back() > target) {
    auto start = q.record();
    if (rep.cycles == 0 && opt_.fmg)
      fmg();
    else
      cycle();
    auto stop = q.record();
    rep.seconds += stop->ms_since(*start) * 1e-3;
    ++rep.cycles;
    const double r = residual_norm();
    if (!std::isfinite(r)) {
      rep.residuals.push_back(r);
      rep.status = Status::diverged;
      return rep;
    }
    // Diverging: growing for three cycles and above the start. Stagnating:
    // five cycles in a row reducing by less than 5% each (round-off level,
    // or a smoother that does not smooth).
    rising = r > rep.residuals.back() ? rising + 1 : 0;
    slow = r > 0.95 * rep.residuals.back() ? slow + 1 : 0;
    rep.residuals.push_back(r);
    if (rising >= 3 && r > rep.residuals.front()) {
      rep.status = Status::diverged;
      return rep;
    }
    if (slow >= 5 && r > target) {
      rep.status = Status::stagnated;
      return rep;
    }
  }
  rep.status = rep.residuals.back() <= target ? Status::converged : Status::max_cycles;
  return rep;
}

template <class T>
void Solver<T>::apply(const Buffer<T>& r, Buffer<T>& z) {
  Level& L = levels_[0];
  to_finest(r, L.b);
  dense::fill(L.x, T(0));
  cycle();
  from_finest(L.x, z);
}

template class Solver<float>;
template class Solver<double>;

}  // namespace tessera::mg
