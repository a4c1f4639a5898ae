#include "sparse/device_run.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <optional>
#include <random>

#include <fmt/format.h>

#include "core/error.hpp"
#include "sparse/convert.hpp"
#include "sparse/kernel_choice.hpp"
#include "sparse/spmv.hpp"

namespace tessera::sparse {

namespace {

template <Scalar V>
std::vector<V> random_x(size64 n) {
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<V> x(static_cast<std::size_t>(n));
  for (auto& v : x) {
    if constexpr (is_complex_v<V>)
      v = V(static_cast<real_t<V>>(u(rng)), static_cast<real_t<V>>(u(rng)));
    else
      v = static_cast<V>(u(rng));
  }
  return x;
}

/// Largest |y - ref| / bound over the rows (INFINITY for a NaN).
template <Scalar V>
double worst_error(const SpmvReference<V>& ref, const std::vector<V>& y) {
  double worst = 0;
  for (std::size_t i = 0; i < y.size(); ++i) {
    const double err = static_cast<double>(magnitude(y[i] - ref.y[i]));
    if (std::isnan(err)) return INFINITY;
    if (err > 0) worst = std::max(worst, ref.bound[i] > 0 ? err / ref.bound[i] : INFINITY);
  }
  return worst;
}

}  // namespace

template <Scalar V>
SpmvReference<V> spmv_reference(const HostMatrix<V>& m) {
  // A CSR view (the bound needs every stored entry's row) made once.
  const Csr<V> a = m.is_block ? to_csr(m.block, Zeros::keep) : m.csr;
  const std::vector<V> x = random_x<V>(a.cols);
  SpmvReference<V> ref;
  ref.y = multiply(a, x);
  ref.bound.resize(static_cast<std::size_t>(a.rows));
  const double eps = std::numeric_limits<real_t<V>>::epsilon();
  for (size64 i = 0; i < a.rows; ++i) {
    double s = 0;
    for (index_t p = a.row_ptr[i]; p < a.row_ptr[i + 1]; ++p)
      s += static_cast<double>(magnitude(a.val[p])) * static_cast<double>(magnitude(x[a.col[p]]));
    ref.bound[i] = s * eps * static_cast<double>(a.row_ptr[i + 1] - a.row_ptr[i] + 2);
  }
  return ref;
}

double SpmvRunResult::gflops_stored(bool complex) const {
  return ms_per_spmv() > 0
             ? (complex ? 8.0 : 2.0) * static_cast<double>(stored) / ms_per_spmv() * 1e-6
             : 0;
}
double SpmvRunResult::gflops_true(bool complex) const {
  return ms_per_spmv() > 0
             ? (complex ? 8.0 : 2.0) * static_cast<double>(nonzeros) / ms_per_spmv() * 1e-6
             : 0;
}

Kernel resolve_kernel(const SpmvRunOptions& opt) {
  std::optional<Format> format;
  if (!opt.format.empty()) {
    for (Format f : {Format::csr, Format::ell, Format::sell, Format::bcsr, Format::bell}) {
      std::string name(to_string(f));
      for (char& ch : name) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      if (name == opt.format) format = f;
    }
    if (!format)
      throw UsageError(fmt::format("unknown format '{}' (csr, ell, sell, bcsr, bell)", opt.format));
  }
  if (opt.kernel == "auto" && format)
    throw UsageError(fmt::format(
        "--kernel auto chooses the format too: give a kernel of --format {} by name", opt.format));
  if (opt.kernel.empty()) return default_kernel(format.value_or(Format::csr));
  const Kernel k = parse_kernel(opt.kernel);
  if (format && *format != format_of(k))
    throw UsageError(fmt::format("kernel {} works on {} matrices, not --format {}", opt.kernel,
                                 to_string(format_of(k)), opt.format));
  return k;
}

template <Scalar V>
SpmvRunResult run_spmv(const std::shared_ptr<Device>& device, const HostMatrix<V>& m,
                       const SpmvRunOptions& opt, const SpmvReference<V>* reference) {
  const bool automatic = opt.kernel == "auto" || (opt.kernel.empty() && opt.format.empty());
  if (automatic) resolve_kernel(opt);  // refuses auto with a format
  const Backend be = device->backend();
  const KernelChoice choice = automatic ? (m.is_block ? choose_kernel(m.block, be, opt.device)
                                                      : choose_kernel(m.csr, be, opt.device))
                                        : KernelChoice{};
  const Kernel k = automatic ? choice.kernel : resolve_kernel(opt);
  const DeviceOptions& dopt = automatic ? choice.options : opt.device;
  if (!available(k, device->backend()))
    throw UsageError(fmt::format("kernel {} does not exist on {}", to_string(k), device->id()));
  auto upload = [&] {
    return m.is_block ? DeviceMatrix<V>(device, m.block, k, dopt)
                      : DeviceMatrix<V>(device, m.csr, k, dopt);
  };
  std::vector<DeviceMatrix<V>> copies;
  copies.reserve(64);  // `a` below stays valid
  copies.push_back(upload());
  const DeviceMatrix<V>& a = copies.front();
  const std::vector<V> x = random_x<V>(a.cols());
  Buffer<V> xb(device, x.size()), yb(device, static_cast<std::size_t>(a.rows()));
  xb.copy_from_host(x);
  SpmvRunResult r;
  r.matrix = m.name;
  r.kernel = std::string(to_string(k));
  r.choice = choice.reason;
  r.device = device->id();
  r.value_type = is_complex_v<V> ? fmt::format("complex<{}>", sizeof(V) == 8 ? "float" : "double")
                                 : (sizeof(V) == 4 ? "float" : "double");
  r.rows = a.rows();
  r.cols = a.cols();
  r.stored = a.stored_entries();
  r.nonzeros = a.nonzeros();
  r.model_bytes = a.model_bytes(k);
  r.spmvs_per_run = std::max(1, opt.spmvs_per_run);
  if (opt.verify) {
    std::vector<V> nan(yb.size(), V(std::numeric_limits<real_t<V>>::quiet_NaN()));
    yb.copy_from_host(nan);
    spmv(a, xb, yb, k);
    const std::vector<V> y = yb.to_vector();
    std::optional<SpmvReference<V>> own;
    if (!reference) reference = &own.emplace(spmv_reference(m));
    if (reference->y.size() != y.size())
      throw Error(fmt::format("SpMV check of {}: the reference has {} rows, the device matrix {}",
                              m.name, reference->y.size(), y.size()));
    r.max_error = worst_error(*reference, y);
    r.verified = r.max_error <= 1.0;
    if (!r.verified)
      throw Error(
          fmt::format("SpMV {} on {} of {}: result differs from the host reference ({}x the bound)",
                      r.kernel, r.device, r.matrix, r.max_error));
  }
  const double bytes = std::max(1.0, static_cast<double>(a.matrix_bytes()));
  const int wanted = static_cast<int>(std::min(64.0, std::ceil(opt.working_set_bytes / bytes)));
  while (static_cast<int>(copies.size()) < wanted) copies.push_back(upload());
  r.copies = static_cast<int>(copies.size());
  long next = 0;
  PinnedBuffer<V> hx, hy;
  r.transfers = opt.transfer_vectors;
  if (r.transfers) {
    hx = PinnedBuffer<V>(device, x.size());
    hy = PinnedBuffer<V>(device, yb.size());
    std::copy(x.begin(), x.end(), hx.data());
  }
  Queue& q = device->queue();
  r.timing = time_runs(
      q,
      [&](int) {
        for (int s = 0; s < r.spmvs_per_run; ++s) {
          if (r.transfers) xb.write_async(hx, q);
          spmv(copies[static_cast<std::size_t>(next++ % r.copies)], xb, yb, k);
          if (r.transfers) yb.read_async(hy, q);
        }
      },
      opt.timing);
  return r;
}

nlohmann::json to_json(const SpmvRunResult& r, bool complex) {
  return {{"matrix", r.matrix},
          {"kernel", r.kernel},
          {"kernel_choice", r.choice.empty() ? "given" : "auto: " + r.choice},
          {"device", r.device},
          {"value_type", r.value_type},
          {"rows", r.rows},
          {"cols", r.cols},
          {"stored_entries", r.stored},
          {"nonzeros", r.nonzeros},
          {"spmvs_per_run", r.spmvs_per_run},
          {"matrix_copies", r.copies},
          {"vector_transfers", r.transfers},
          {"median_ms", r.timing.median_ms},
          {"min_ms", r.timing.min_ms},
          {"ms_per_spmv", r.ms_per_spmv()},
          {"gflops_stored", r.gflops_stored(complex)},
          {"gflops_true", r.gflops_true(complex)},
          {"model_bytes", r.model_bytes},
          {"gbps", r.gbps()},
          {"verified", r.verified},
          {"max_error_over_bound", r.max_error}};
}

#define TS_INSTANTIATE(V)                                                                  \
  template SpmvReference<V> spmv_reference<V>(const HostMatrix<V>&);                       \
  template SpmvRunResult run_spmv<V>(const std::shared_ptr<Device>&, const HostMatrix<V>&, \
                                     const SpmvRunOptions&, const SpmvReference<V>*);
TESSERA_SPARSE_FOR_EACH_SCALAR(TS_INSTANTIATE)
#undef TS_INSTANTIATE

}  // namespace tessera::sparse
