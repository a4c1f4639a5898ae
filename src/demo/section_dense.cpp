// Demo section: the OpenCL lecture's matrix product, naive against tiled
// (16 x 16 tiles through local memory), next to the lecture's 9.2x (GTX 670,
// n = 1024, float), with the register-blocked kernel and cuBLAS where built.
#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include <fmt/format.h>

#include "bench/harness.hpp"
#include "core/progress.hpp"
#include "demo/section.hpp"
#include "dense/matmul.hpp"

namespace tessera::demo {

namespace {

constexpr double kLectureNaiveMs = 156, kLectureTiledMs = 17;  // GTX 670, n = 1024, float

}  // namespace

SectionResult run_dense(const Context& c) {
  SectionResult r = section("dense", "Dense matrix product (lecture: naive vs tiled)");
  const std::size_t n = c.pick<std::size_t>(512, 1024, 1024);
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-1, 1);
  std::vector<float> ha(n * n), hb(n * n);
  for (auto& v : ha) v = u(rng);
  for (auto& v : hb) v = u(rng);
  Buffer<float> A(c.device, n * n), B(c.device, n * n), Cn(c.device, n * n), Ct(c.device, n * n),
      Cx(c.device, n * n);
  A.copy_from_host(ha);
  B.copy_from_host(hb);
  // CPU runs of the naive product take seconds at n = 1024: one timed run there
  const bench::TimingOptions timing =
      c.pick(bench::TimingOptions{1, 3}, bench::TimingOptions{0, 1}, bench::TimingOptions{1, 10});
  using V = dense::MatmulVariant;
  std::vector<V> variants{V::naive, V::tiled, V::register_blocked};
  if (dense::matmul_available(V::vendor, *c.device)) variants.push_back(V::vendor);
  Progress bar("dense", int(variants.size()));
  std::vector<double> ms;
  for (V v : variants) {
    bar.step(std::string(dense::to_string(v)));
    Buffer<float>& C = v == V::naive ? Cn : v == V::tiled ? Ct : Cx;
    ms.push_back(bench::time_runs(
                     c.device->queue(), [&](int) { dense::matmul(A, B, C, n, n, n, v); }, timing)
                     .median_ms);
  }
  const auto cn = Cn.to_vector(), ct = Ct.to_vector();
  // tiled against naive; both against a double-precision host product on
  // 64 sampled entries with the forward error bound n * 2^-24 * sum |a||b|.
  double max_diff = 0;
  for (std::size_t k = 0; k < n * n; ++k)
    max_diff = std::max(max_diff, double(std::fabs(cn[k] - ct[k])));
  double worst_ratio = 0;
  std::uniform_int_distribution<std::size_t> pick(0, n - 1);
  for (int s = 0; s < 64; ++s) {
    const std::size_t i = pick(rng), j = pick(rng);
    double ref = 0, mag = 0;
    for (std::size_t k = 0; k < n; ++k) {
      ref += double(ha[i * n + k]) * double(hb[k * n + j]);
      mag += std::fabs(double(ha[i * n + k]) * double(hb[k * n + j]));
    }
    const double bound = double(n) * std::ldexp(1.0, -24) * mag;
    for (const auto* cm : {&cn, &ct})
      worst_ratio = std::max(worst_ratio, std::fabs(double((*cm)[i * n + j]) - ref) / bound);
  }
  const double speedup = ms[1] > 0 ? ms[0] / ms[1] : 0.0;
  const double flops = 2.0 * double(n) * double(n) * double(n);
  r.correct = worst_ratio <= 1.0 && max_diff <= 0;
  r.summary = fmt::format(
      "n = {}, float: naive {:.3f} ms, tiled {:.3f} ms: {:.1f}x (lecture: 9.2x); register-blocked "
      "{:.3g} GFLOP/s",
      n, ms[0], ms[1], speedup, flops / ms[2] * 1e-6);
  r.check = fmt::format(
      "tiled and naive agree bitwise (max difference {:g}); 64 sampled entries of both within {:.2g} "
      "of the forward error bound n 2^-24 sum|a||b| against a double-precision host product (must be <= 1)",
      max_diff, worst_ratio);
  Table t{"Today against the lecture (GTX 670, n = 1024, float)",
          {"kernel", "n", "time", "GFLOP/s", "original study"},
          {}};
  for (std::size_t k = 0; k < variants.size(); ++k) {
    std::string ref = "-";
    if (variants[k] == V::naive) ref = fmt::format("{:.0f} ms", kLectureNaiveMs);
    if (variants[k] == V::tiled)
      ref = fmt::format("{:.0f} ms (9.2x over naive); here {:.1f}x", kLectureTiledMs, speedup);
    t.rows.push_back({std::string(dense::to_string(variants[k])), fmt::format("{}", n),
                      fmt::format("{:.3f} ms", ms[k]), fmt::format("{:.1f}", flops / ms[k] * 1e-6),
                      ref});
  }
  r.tables.push_back(t);
  r.commands = {fmt::format("tessera bench dense --size {} --precision float --device {}", n,
                            c.device->id())};
  return r;
}

}  // namespace tessera::demo
