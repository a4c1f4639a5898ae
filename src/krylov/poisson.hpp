// The multigrid module's Poisson problem as Krylov operators: the unscaled
// 5/7-point operator (diag*u - sum of neighbours, Dirichlet) applied matrix
// free in mg's halo layout, and one mg cycle as the preconditioner z = M r.
// Vectors have Dims::storage() entries with a zero halo (the operator keeps
// the halo of its output zero, so every Krylov vector's halo stays zero).
#pragma once
#include <memory>

#include "krylov/operator.hpp"
#include "mg/solver.hpp"

namespace tessera::krylov {

template <class T>
class PoissonOperator final : public LinearOperator<T> {
 public:
  PoissonOperator(std::shared_ptr<Device> device, const mg::Dims& d);
  std::size_t size() const override { return d_.storage(); }
  const std::shared_ptr<Device>& device() const override { return device_; }
  /// y = A x: y zeroed, y = 0 - A x by mg's residual kernel with b = 0, negated.
  void apply(const Buffer<T>& x, Buffer<T>& y) override;

 private:
  std::shared_ptr<Device> device_;
  mg::Dims d_;
  Buffer<T> zero_;
};

/// One cycle of an mg::Solver (its options: V-cycle, smoother, ...) from zero.
template <class T>
class MultigridPreconditioner final : public LinearOperator<T> {
 public:
  MultigridPreconditioner(std::shared_ptr<Device> device, const mg::Dims& d, mg::Options o = {})
      : device_(device), n_(d.storage()), solver_(std::move(device), d, o) {}
  std::size_t size() const override { return n_; }
  const std::shared_ptr<Device>& device() const override { return device_; }
  void apply(const Buffer<T>& r, Buffer<T>& z) override { solver_.apply(r, z); }
  mg::Solver<T>& solver() { return solver_; }

 private:
  std::shared_ptr<Device> device_;
  std::size_t n_;
  mg::Solver<T> solver_;
};

}  // namespace tessera::krylov
