#include "lbm/config.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

#include <fmt/format.h>

#include "core/error.hpp"
#include "lbm/kernels/lbm_kernels.hpp"

namespace tessera::lbm {

namespace {
std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return char(std::tolower(c)); });
  return s;
}
double norm(const std::array<double, 3>& v) {
  return std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
}
}  // namespace

unsigned KernelVariant::group_x() const {
  return store_bits == 16 ? kGroupFp16s : store_bits == 32 ? kGroupFp32 : kGroupFp64;
}

unsigned KernelVariant::max_registers(double peak_gbps) const {
  if (store_bits != 16) return 0;
  return peak_gbps >= kWideMemoryGbps ? kCapFp16sWideMemory : kCapFp16s;
}

int q_of(Lattice l) { return l == Lattice::d2q9 ? 9 : l == Lattice::d3q19 ? 19 : 27; }
std::string to_string(Lattice l) {
  return l == Lattice::d2q9 ? "D2Q9" : l == Lattice::d3q19 ? "D3Q19" : "D3Q27";
}
std::string to_string(Collision c) { return c == Collision::bgk ? "BGK" : "TRT"; }
std::string to_string(Precision p) {
  return p == Precision::fp32 ? "FP32" : p == Precision::fp16s ? "FP16S" : "FP64";
}

Lattice parse_lattice(const std::string& s) {
  const std::string l = lower(s);
  if (l == "d2q9") return Lattice::d2q9;
  if (l == "d3q19") return Lattice::d3q19;
  if (l == "d3q27") return Lattice::d3q27;
  throw UsageError("--lattice '" + s + "': unknown lattice (expected D2Q9, D3Q19 or D3Q27)");
}
Collision parse_collision(const std::string& s) {
  const std::string l = lower(s);
  if (l == "bgk" || l == "srt") return Collision::bgk;
  if (l == "trt") return Collision::trt;
  throw UsageError("--collision '" + s + "': unknown collision model (expected bgk or trt)");
}
Precision parse_precision(const std::string& s) {
  const std::string l = lower(s);
  if (l == "fp32" || l == "float") return Precision::fp32;
  if (l == "fp16s" || l == "fp16") return Precision::fp16s;
  if (l == "fp64" || l == "double") return Precision::fp64;
  throw UsageError("--precision '" + s +
                   "': unknown storage precision (expected fp32, fp16s or fp64)");
}

double mach(double speed) { return speed * std::sqrt(3.0); }

void set_trt_magic(Config& c, double lambda, const std::string& given_as) {
  if (c.collision != Collision::trt)
    throw UsageError(fmt::format("{} {}: it sets TRT's odd relaxation; the run's collision is {}",
                                 given_as, lambda, to_string(c.collision)));
  if (!(lambda > 0 && std::isfinite(lambda)))
    throw UsageError(
        fmt::format("{} {}: TRT's Lambda must be a finite number > 0", given_as, lambda));
  c.trt_magic = lambda;
}

double trt_magic_open(double tau, double speed) {
  const double lambda_plus = tau - 0.5, grid_re = std::fabs(speed) / (lambda_plus / 3.0);
  // (the 1e-6: g computed from tau = 3 u d / Re + 1/2 lands a few ulps off an integer)
  // clamped in double: tau at 1/2 makes grid_re infinite (int of inf is undefined)
  const double halvings = std::min(60.0, std::ceil(std::max(0.0, grid_re - 10.0 - 1e-6)));
  const double measured = std::ldexp(1.0 / 12.0, -int(std::isnan(halvings) ? 60.0 : halvings));
  return std::max(measured, lambda_plus * lambda_plus);
}

KernelVariant Config::variant() const {
  return {q_of(lattice), precision == Precision::fp16s  ? 16
                         : precision == Precision::fp32 ? 32
                                                        : 64};
}

std::string describe(const InletProfile& p) {
  std::string s = p.axes == 0 ? "uniform" : "parabolic";
  for (int a = 0; a < 3; ++a)
    if (p.axes >> a & 1) s += fmt::format(" {} {:.17g}..{:.17g}", "xyz"[a], p.lo[a], p.hi[a]);
  if (p.normal != 0)
    s += fmt::format(", inward normal {}{}", p.normal < 0 ? "-" : "+",
                     "xyz"[std::abs(p.normal) - 1]);
  return s;
}

StepParams Config::step_params() const {
  StepParams p;
  p.omega_p = 1.0 / tau;
  p.trt = collision == Collision::trt;
  // TRT: Lambda = (1/omega+ - 1/2)(1/omega- - 1/2) fixes the odd rate
  p.omega_m = p.trt ? 1.0 / (trt_magic / (tau - 0.5) + 0.5) : p.omega_p;
  for (int a = 0; a < 3; ++a) {
    p.force[a] = force[a];
    p.u_wall[a] = u_wall[a];
    p.u_in[a] = u_in[a];
  }
  p.inlet = inlet;
  p.rho_out = rho_out;
  return p;
}

std::uint64_t Config::state_bytes() const {
  const auto v = variant();
  return std::uint64_t(grid.cells()) * (std::uint64_t(v.q) * v.store_bytes() + 1);
}

void Config::validate() const {
  if (grid.nx < 1 || grid.ny < 1 || grid.nz < 1)
    throw UsageError(
        fmt::format("grid {}x{}x{}: every side must be at least 1", grid.nx, grid.ny, grid.nz));
  if (lattice == Lattice::d2q9 && grid.nz != 1)
    throw UsageError(fmt::format("D2Q9 needs nz = 1 (got {})", grid.nz));
  if (!(tau > 0.5))
    throw UsageError(fmt::format(
        "tau = {} is unstable: BGK/TRT need tau > 0.5 (viscosity (tau-1/2)/3 > 0)", tau));
  if (collision == Collision::trt && !(trt_magic > 0))
    throw UsageError("TRT magic parameter must be > 0");
  for (auto [name, v] : {std::pair{"wall", u_wall}, std::pair{"inlet", u_in}}) {
    if (mach(norm(v)) > kMaxMach)
      throw UsageError(fmt::format(
          "{} velocity |u| = {:.4g} is Mach {:.3f} > {}: the lattice Boltzmann model is "
          "only valid at low Mach numbers (lower the velocity, refine the grid)",
          name, norm(v), mach(norm(v)), kMaxMach));
  }
  if (!(rho_out > 0)) throw UsageError("outlet density must be > 0");
  if (inlet.normal < -3 || inlet.normal > 3)
    throw UsageError(fmt::format("inlet normal {} (+-1, +-2, +-3 or 0)", inlet.normal));
  if (inlet.axes < 0 || inlet.axes > 7)
    throw UsageError(fmt::format("inlet profile axes {} (a set of x, y, z: 0 to 7)", inlet.axes));
  for (int a = 0; a < 3; ++a)
    if ((inlet.axes >> a & 1) &&
        !(inlet.lo[a] < inlet.hi[a] && std::isfinite(inlet.lo[a]) && std::isfinite(inlet.hi[a])))
      throw UsageError(fmt::format("inlet profile along axis {}: walls at {} and {} (low < high)",
                                   "xyz"[a], inlet.lo[a], inlet.hi[a]));
}

}  // namespace tessera::lbm
