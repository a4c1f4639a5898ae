// The thesis-exact multigrid ("Realisierung eines Mehrgitterverfahrens in
// OpenCL"): 2D unscaled 5-point system, V(0,nu) cycle with undamped Jacobi,
// the 7-point restriction and its transpose, coarsening m -> floor(m/2) down
// to 1x1 solved as x = b/4, simplified restriction/prolongation on coarse
// levels. Every backend runs the same operations in the same order, so CPU,
// OpenCL and CUDA results are bitwise identical (float32 as in the thesis).
#pragma once
#include <memory>
#include <vector>

#include "core/buffer.hpp"
#include "mg/kernels/mg_kernels.hpp"
#include "mg/layout.hpp"

namespace tessera::mg {

template <class T>
class ThesisMultigrid {
 public:
  /// w × h interior unknowns; the thesis supports w, h of the form 2^k - 1
  /// (anything else is rejected: its transfers are only consistent for odd
  /// sizes at every level).
  ThesisMultigrid(std::shared_ptr<Device> device, long w, long h, int nu);

  /// w*h values, row-major
  void set_rhs(const std::vector<T>& b) { upload_interior(levels_[0].b, levels_[0].d, b); }
  void set_solution(const std::vector<T>& x) { upload_interior(levels_[0].xs, levels_[0].d, x); }
  std::vector<T> solution() const { return download_interior(levels_[0].xs, levels_[0].d); }
  /// One V(0,nu) cycle, as cpu_multigrid.
  void cycle();
  /// nu Jacobi steps on the finest level only (the thesis's smoother benchmark).
  void smooth(int steps);
  /// ||b - A x||_2 on the finest level (canonical-order reduction).
  double residual_norm();
  int levels() const { return static_cast<int>(levels_.size()); }
  const Dims& dims(int level) const { return levels_[static_cast<std::size_t>(level)].d; }
  Device& device() const { return *device_; }

 private:
  struct Level {
    Dims d;
    Buffer<T> b, xs, xd;  // xs: current approximation, xd: Jacobi target / residual
  };
  void cycle(std::size_t n);
  void jacobi_steps(Level& L, int steps);

  std::shared_ptr<Device> device_;
  int nu_;
  std::vector<Level> levels_;
};

}  // namespace tessera::mg
