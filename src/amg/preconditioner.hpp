// Smoothed-aggregation AMG as a preconditioner (z = M r: one cycle from
// zero) or a solver: the hierarchy of hierarchy.hpp uploaded to a device,
// the cycle run there with the sparse module's SpMV kernels and the Krylov
// module's vector kernels.
//
//   auto amg = amg::Amg<double>(dev, csr, opts);   // setup (host) + upload
//   krylov::solve(op, &amg, b, x, kopts);          // CG, GMRES, BiCGStab
#pragma once
#include <memory>
#include <vector>

#include "amg/hierarchy.hpp"
#include "krylov/operator.hpp"
#include "krylov/vector_ops.hpp"
#include "sparse/device_matrix.hpp"

namespace tessera::amg {

template <Scalar V>
class Amg final : public krylov::LinearOperator<V> {
 public:
  /// Builds the hierarchy of `a` on the host and uploads it (o.block 0:
  /// point rows, b = 1). Errors as build_hierarchy's.
  Amg(std::shared_ptr<Device> device, const Csr<V>& a, const Options& o,
      const Nullspace<V>& b = {});
  /// Uploads a hierarchy built before (the same on every device).
  Amg(std::shared_ptr<Device> device, Hierarchy<V> h, const Options& o);
  std::size_t size() const override { return static_cast<std::size_t>(h_.levels[0].a.rows); }
  const std::shared_ptr<Device>& device() const override { return device_; }
  /// x = one cycle applied to b from a zero guess.
  void apply(const Buffer<V>& b, Buffer<V>& x) override;
  /// x = x + one cycle's correction for b - A x (AMG as a solver).
  void cycle(const Buffer<V>& b, Buffer<V>& x);
  const Hierarchy<V>& hierarchy() const { return h_; }
  const Options& options() const { return o_; }
  /// Seconds spent uploading the hierarchy (after the host setup).
  double upload_seconds() const { return upload_s_; }

 private:
  struct DeviceLevel {
    std::shared_ptr<sparse::DeviceMatrix<V>> a, p, r;
    Buffer<V> dinv, x, b, res, tmp, dir;  // dir: Chebyshev's update
    // Gauss-Seidel: A without its diagonal, 1 / a_ii, the rows by colour
    Buffer<index_t> gs_ptr, gs_col, gs_rows;
    Buffer<V> gs_val, gs_inv_diag;
    std::vector<index_t> color_start;
    std::unique_ptr<krylov::DeviceVectorOps<V>> ops;
    double rho = 0;
    int block = 1;
  };
  void upload();
  void run(std::size_t l, const Buffer<V>& b, Buffer<V>& x, bool zero_guess);
  /// `sweeps` sweeps of the smoother; Gauss-Seidel runs its colours in
  /// order when `forward`, in reverse otherwise.
  void smooth(std::size_t l, const Buffer<V>& b, Buffer<V>& x, bool zero_guess, int sweeps,
              bool forward);
  void gauss_seidel(std::size_t l, const Buffer<V>& b, Buffer<V>& x, bool forward);
  void residual(std::size_t l, const Buffer<V>& b, const Buffer<V>& x, Buffer<V>& r);

  std::shared_ptr<Device> device_;
  Hierarchy<V> h_;
  Options o_;
  std::vector<DeviceLevel> levels_;
  std::shared_ptr<sparse::DeviceMatrix<V>> coarse_;
  double upload_s_ = 0;
};

/// The text `tessera solve` prints for a hierarchy: one line per level
/// (rows, nonzeros, block, rho), the complexities and the setup phases.
template <Scalar V>
std::string describe(const Hierarchy<V>& h);

}  // namespace tessera::amg
