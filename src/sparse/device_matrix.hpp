// Device-resident sparse matrices and the one SpMV entry point, y = A*x.
//
// The API other modules use (Krylov solvers): stable and small.
//
//   auto dev = open_device("cuda:0");
//   DeviceMatrix<double> A(dev, csr);            // upload once (CSR, default kernel)
//   Buffer<double> x(dev, A.cols()), y(dev, A.rows());
//   spmv(A, x, y);                                // y = A*x on dev's queue
//
// Value types: float, double, std::complex<float>, std::complex<double>
// (interleaved re, im on every device); the matrix, x and y share one type.
// y is overwritten completely (rows no stored row writes become 0); x and y
// must live on the matrix's device and must not alias. spmv() is asynchronous
// on the device's queue like every other tessera operation.
//
// Kernels (docs/sparse.md has the table with the thesis's names): each needs
// its format, which DeviceMatrix builds from a host CSR or BCSR matrix when it
// is constructed for that kernel (`DeviceMatrix(dev, csr, Kernel::sell)`). The
// host converters (convert.hpp) do the work; nothing is converted per call,
// except in the thesis's "upload every call" kernels BCSR V1a/V2a, which
// re-upload the matrix on every call as the thesis did.
#pragma once
#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/buffer.hpp"
#include "sparse/device_formats.hpp"
#include "sparse/formats.hpp"

namespace tessera::sparse {

enum class Format { csr, ell, sell, bcsr, bell };
std::string_view to_string(Format f);

enum class Kernel {
  csr_scalar,  ///< one thread per row
  csr_vector,  ///< a sub-warp of 1..32 lanes per row, chosen by the mean row length
  csr_merge,   ///< load-balanced: the merge path over rows and nonzeros, 8 items a work-item
  ell,         ///< thesis ELL: one thread per (row, subsection of L slots) + reduction kernel
  ell_v2,      ///< thesis ELL V2: one thread per row
  sell,        ///< SELL-C-sigma: one thread per row of a slice
  bcsr_v1a,    ///< thesis: one thread per block, matrix uploaded on every call, + reduction
  bcsr_v1b,    ///< the same with the matrix resident
  bcsr_v2a,   ///< thesis: one thread per (block, in-block row), uploaded on every call, + reduction
  bcsr_v2b,   ///< the same with the matrix resident
  bcsr_v3,    ///< thesis V3: V2b on column-major ("permuted") blocks
  bcsr_warp,  ///< one warp per block row, column-major blocks, coalesced
  bell,       ///< thesis BELL: one thread per scalar row, one index load per block
  bell_v2,    ///< thesis BELL V2: one thread per block row (block-row index)
  bell_v3,    ///< thesis BELL V3: BELL with the work-group's x window in local memory
  bell_v4,    ///< thesis CUDA BELL V4: the BELL kernel launched through CUDA (CUDA only)
  bell_sub,   ///< BELL with subsections: several threads per row, reduced in local memory
  bell_bi,  ///< BELL's one thread per scalar row with the block-row index (one 4-byte index per block)
};
std::string_view to_string(Kernel k);
/// "csr-vector", "bcsr-v3", ... (to_string's names); UsageError otherwise.
Kernel parse_kernel(std::string_view name);
std::vector<Kernel> all_kernels();
Format format_of(Kernel k);
/// What spmv(A, x, y) runs for a matrix of this format.
Kernel default_kernel(Format f);
/// The kernel the solvers (tessera solve, bench gmres, the demo and the
/// report) run block matrices with: bell-bi, the fastest tessera kernel on
/// every TRACE case (H200: 2.1x bcsr-warp on case 4; docs/sparse.md).
Kernel block_solver_kernel();
/// The BELL column index a kernel reads (block_row: BELL V2 and bell-bi).
BellIndex bell_index_for(Kernel k);
/// Whether the kernel exists on a backend (CUDA BELL V4 is CUDA only).
bool available(Kernel k, Backend b);

/// bell-sub's most subsections (work-items a row) in a group of 32 rows.
inline constexpr int kBellSubMaxSubsections = 8;

/// Tuning of the formats a kernel needs (defaults are the thesis's or the
/// bandwidth-minded choices; the bench sweeps them).
struct DeviceOptions {
  int block_r = 5, block_c = 5;  ///< block formats built from CSR
  size64 ell_subsection = 20;    ///< thesis L: ELL width rounded up to it, slots per thread
  int sell_slice = 32;           ///< C
  int sell_sort = 1;             ///< sigma
  int csr_lanes = 0;             ///< csr-vector lanes per row; 0: from the mean row length
  int csr_chains =
      0;  ///< csr-vector: lane chains per work-item (a power of two; 0 = 4, capped at lanes; same sums)
  int bell_group_rows = 160;  ///< BELL V3 work-group (thesis: multiple of 5 and 32)
  int bell_sub_slots = 4;     ///< bell-sub: block slots per thread, at least (more where 8
                              ///< subsections of them would not cover the longest row)
};

template <Scalar V>
class DeviceMatrix {
 public:
  /// Uploads `a` in the format of `kernel` (CSR for the default).
  DeviceMatrix(std::shared_ptr<Device> device, const Csr<V>& a, Kernel kernel = Kernel::csr_vector,
               const DeviceOptions& opt = {});
  /// Uploads a BCSR matrix (e.g. TRACE's compressed BCSR) for a block kernel,
  /// without going through CSR; scalar kernels convert it to CSR first,
  /// dropping the zeros inside blocks (as the thesis's BCSR -> ELL did).
  DeviceMatrix(std::shared_ptr<Device> device, const Bcsr<V>& a, Kernel kernel,
               const DeviceOptions& opt = {});

  size64 rows() const { return rows_; }
  size64 cols() const { return cols_; }
  Format format() const { return format_; }
  Kernel kernel() const { return kernel_; }
  Device& device() const { return *device_; }
  const std::shared_ptr<Device>& device_ptr() const { return device_; }
  /// Stored value slots (padding and in-block zeros included) and the
  /// nonzeros among them.
  size64 stored_entries() const { return stored_; }
  size64 nonzeros() const { return nonzeros_; }
  /// Bytes of the device arrays of the format (values + indices).
  size64 matrix_bytes() const { return matrix_bytes_; }
  /// Bytes one call of `k` moves under the byte model of docs/sparse.md:
  /// the arrays k reads, x read once, y written once (plus zeroing y and the
  /// partial sums of the two-kernel variants, plus the matrix upload of the
  /// "every call" variants as host-to-device bytes).
  double model_bytes(Kernel k) const;

  /// The device arrays (for the launchers in kernels/).
  using Arrays =
      std::variant<DeviceCsr<V>, DeviceEll<V>, DeviceSell<V>, DeviceBcsr<V>, DeviceBell<V>>;
  const Arrays& arrays() const { return data_; }

 private:
  void init(const Bcsr<V>& a, Kernel kernel, const DeviceOptions& opt);
  void init(const Csr<V>& a, Kernel kernel, const DeviceOptions& opt);

  std::shared_ptr<Device> device_;
  Format format_ = Format::csr;
  Kernel kernel_ = Kernel::csr_vector;
  size64 rows_ = 0, cols_ = 0, stored_ = 0, nonzeros_ = 0, matrix_bytes_ = 0;
  Arrays data_;
};

/// y = A*x with the kernel A was built for.
template <Scalar V>
void spmv(const DeviceMatrix<V>& a, const Buffer<V>& x, Buffer<V>& y);
/// y = A*x with kernel k, which must work on A's format (UsageError otherwise;
/// the BCSR and BELL kernels also need the block layout / index flavour the
/// matrix was built with, see DeviceMatrix's constructor).
template <Scalar V>
void spmv(const DeviceMatrix<V>& a, const Buffer<V>& x, Buffer<V>& y, Kernel k);

}  // namespace tessera::sparse
