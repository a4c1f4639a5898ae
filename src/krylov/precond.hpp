// Preconditioners as operators z = M r: point Jacobi (bs = 1) and block
// Jacobi (the inverses of the bs x bs diagonal blocks, e.g. TRACE's 5 x 5
// BCSR blocks), applied on the device by the block_diag kernel; ILU(0) is
// ilu0.hpp; make_preconditioner picks one by name.
#pragma once
#include <memory>
#include <string>

#include "krylov/operator.hpp"
#include "krylov/vector_ops.hpp"
#include "sparse/formats.hpp"

namespace tessera::krylov {

template <Scalar V>
class BlockJacobi final : public LinearOperator<V> {
 public:
  /// Inverts the diagonal blocks of `a` (rows a multiple of bs) on the host in
  /// double precision with partial pivoting. Error naming the block row when
  /// one is singular (bs = 1: a zero diagonal entry). Block rows without any
  /// stored entry (TRACE's ghost cells) get a zero block.
  BlockJacobi(std::shared_ptr<Device> device, const sparse::Csr<V>& a, int bs);
  std::size_t size() const override { return n_; }
  const std::shared_ptr<Device>& device() const override { return device_; }
  void apply(const Buffer<V>& x, Buffer<V>& y) override { ops_.block_diag(bs_, inverse_, x, y); }
  int block_size() const { return bs_; }
  /// The inverted blocks on the device (the fused CG applies a point
  /// diagonal, bs = 1, inside its update).
  const Buffer<V>& inverse() const { return inverse_; }
  /// The inverted blocks (bs*bs per block row, row-major), for tests.
  const std::vector<V>& host_inverse() const { return host_inverse_; }

 private:
  std::shared_ptr<Device> device_;
  std::size_t n_;
  int bs_;
  std::vector<V> host_inverse_;
  Buffer<V> inverse_;
  DeviceVectorOps<V> ops_;
};

/// The preconditioner named `name` for the matrix `a` on `device`: "none"
/// (null), "jacobi", "block-jacobi" (`block` x `block` blocks) or "ilu0"
/// (its solves scheduled on groups of `block` rows);
/// anything else is a UsageError listing these (`tessera solve` and the
/// Python package both build theirs here).
template <Scalar V>
std::unique_ptr<LinearOperator<V>> make_preconditioner(const std::string& name,
                                                       std::shared_ptr<Device> device,
                                                       const sparse::Csr<V>& a, int block);

/// The inverse blocks (bs*bs per block row) of a's block diagonal; exposed for
/// tests and the thesis-mode reference.
template <Scalar V>
std::vector<V> invert_diagonal_blocks(const sparse::Csr<V>& a, int bs);

}  // namespace tessera::krylov
