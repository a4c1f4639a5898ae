// Linear operators for the Krylov solvers: anything that applies y = A*x to
// device buffers (a sparse matrix in any format/kernel of the sparse module, a
// matrix-free stencil, a preconditioner such as a multigrid cycle).
//
// Value types: float, double, std::complex<float>, std::complex<double>.
// apply() is asynchronous on the device's queue like every tessera operation;
// x and y live on device() and do not alias; y is overwritten.
#pragma once
#include <functional>
#include <memory>
#include <utility>

#include "core/buffer.hpp"
#include "core/error.hpp"
#include "sparse/device_matrix.hpp"
#include "sparse/types.hpp"

namespace tessera::krylov {

using sparse::Scalar;

template <Scalar V>
class LinearOperator {
 public:
  virtual ~LinearOperator() = default;
  /// Rows = columns (the solvers need square operators).
  virtual std::size_t size() const = 0;
  virtual const std::shared_ptr<Device>& device() const = 0;
  virtual void apply(const Buffer<V>& x, Buffer<V>& y) = 0;
};

/// A device sparse matrix as an operator (its own SpMV kernel).
template <Scalar V>
class MatrixOperator final : public LinearOperator<V> {
 public:
  explicit MatrixOperator(std::shared_ptr<const sparse::DeviceMatrix<V>> a) : a_(std::move(a)) {
    if (a_->rows() != a_->cols())
      throw Error("krylov: the matrix is " + std::to_string(a_->rows()) + " x " +
                  std::to_string(a_->cols()) + "; the solvers need a square matrix");
  }
  std::size_t size() const override { return static_cast<std::size_t>(a_->rows()); }
  const std::shared_ptr<Device>& device() const override { return a_->device_ptr(); }
  void apply(const Buffer<V>& x, Buffer<V>& y) override { sparse::spmv(*a_, x, y); }
  const sparse::DeviceMatrix<V>& matrix() const { return *a_; }

 private:
  std::shared_ptr<const sparse::DeviceMatrix<V>> a_;
};

/// A matrix-free operator: any callable applying y = A*x on the device.
template <Scalar V>
class FunctionOperator final : public LinearOperator<V> {
 public:
  using Fn = std::function<void(const Buffer<V>&, Buffer<V>&)>;
  FunctionOperator(std::shared_ptr<Device> device, std::size_t n, Fn fn)
      : device_(std::move(device)), n_(n), fn_(std::move(fn)) {}
  std::size_t size() const override { return n_; }
  const std::shared_ptr<Device>& device() const override { return device_; }
  void apply(const Buffer<V>& x, Buffer<V>& y) override { fn_(x, y); }

 private:
  std::shared_ptr<Device> device_;
  std::size_t n_;
  Fn fn_;
};

}  // namespace tessera::krylov
