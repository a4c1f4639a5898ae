// One SpMV configuration run and checked: what `tessera sparse spmv` prints
// and what `tessera bench spmv` records per kernel.
#pragma once
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "core/timing.hpp"
#include "sparse/device_inputs.hpp"
#include "sparse/device_matrix.hpp"

namespace tessera::sparse {

struct SpmvRunOptions {
  /// Kernel name, or "auto" (kernel_choice.hpp); empty: auto, or with a
  /// format that format's default kernel.
  std::string kernel;
  std::string format;  ///< csr|ell|sell|bcsr|bell; checked against the kernel when both are given
  int spmvs_per_run = 1;  ///< SpMVs per timed run (the thesis's tables time 100)
  TimingOptions timing{3, 20};
  DeviceOptions device;
  bool verify = true;  ///< compare with the host reference once
  /// Keep the L2 cache out of the figures: with a working set below this many
  /// bytes, the run cycles through enough uploaded copies of the matrix
  /// (at most 64) that consecutive SpMVs never find their matrix in cache.
  /// 0: one copy. Callers pass a few times DeviceInfo::cache_bytes.
  double working_set_bytes = 0;
  /// The thesis's per-call vector transfers: every SpMV uploads x from pinned
  /// host memory before and downloads y after (on the same queue, so inside
  /// the timing). Not part of model_bytes.
  bool transfer_vectors = false;
};

struct SpmvRunResult {
  std::string matrix, kernel, device, value_type;
  std::string choice;  ///< with auto: why this kernel (kernel_choice.hpp); else empty
  size64 rows = 0, cols = 0, stored = 0, nonzeros = 0;
  double model_bytes = 0;  ///< per SpMV (DeviceMatrix::model_bytes)
  Timing timing;           ///< per timed run of spmvs_per_run SpMVs
  int spmvs_per_run = 1;
  int copies = 1;          ///< matrix copies cycled through (see working_set_bytes)
  bool transfers = false;  ///< x and y crossed the bus on every SpMV
  bool verified = false;
  double max_error = 0;  ///< largest |y - ref| / allowed bound (<= 1 passes)
  double ms_per_spmv() const { return timing.median_ms / spmvs_per_run; }
  /// GFLOP/s counted on stored slots (in-block zeros, padding) and on true
  /// nonzeros: 2 flops per real multiply-add, 8 per complex one.
  double gflops_stored(bool complex) const;
  double gflops_true(bool complex) const;
  double gbps() const { return ms_per_spmv() > 0 ? model_bytes / ms_per_spmv() * 1e-6 : 0; }
};

Kernel resolve_kernel(const SpmvRunOptions& opt);

/// The host product y = A x for the run's x and each row's error bound
/// ((len + 2) eps sum |a||x|, valid for any summation order). Computing it is
/// the slow part of a check on a big matrix; a caller that runs many kernels
/// on one matrix makes it once and passes it to every run_spmv.
template <Scalar V>
struct SpmvReference {
  std::vector<V> y;
  std::vector<double> bound;
};

template <Scalar V>
SpmvReference<V> spmv_reference(const HostMatrix<V>& m);

/// `reference`: from spmv_reference(m), or null to compute it here when
/// opt.verify is set.
template <Scalar V>
SpmvRunResult run_spmv(const std::shared_ptr<Device>& device, const HostMatrix<V>& m,
                       const SpmvRunOptions& opt, const SpmvReference<V>* reference = nullptr);

nlohmann::json to_json(const SpmvRunResult& r, bool complex);

}  // namespace tessera::sparse
