// ILU(0): the incomplete LU factorisation that keeps A's sparsity pattern (no
// fill-in), as a preconditioner z = U^{-1} L^{-1} r.
//
// Factorised once on the host in double (complex<double>) arithmetic, then L
// (unit diagonal), U and U's inverted diagonal rounded to the working
// precision. The triangular solves run on the device with level scheduling
// (Anderson & Saad 1989; Naumov 2011 on GPUs) on groups of `group`
// consecutive rows (TRACE: its 5 x 5 blocks): a group whose dependencies
// outside itself all lie in earlier levels belongs to the next level, and
// each level is one launch with a work-group per group. A row subtracts the
// terms whose columns lie outside its group first, then those inside it,
// each part in stored order (krylov_point.h, ts_kry_tri_row), and applies
// the diagonal as a product with the inverted value: the outside terms of a
// group's rows are formed in parallel, only the few inside terms in
// sequence, and every backend returns the bits of the host reference
// `ilu0_solve_host` for the same grouping (group 1: plain stored order).
#pragma once
#include <memory>
#include <vector>

#include "krylov/operator.hpp"
#include "sparse/formats.hpp"

namespace tessera::krylov {

/// The factors and their level schedules, on the host.
template <Scalar V>
struct Ilu0Factors {
  std::size_t n = 0;
  sparse::Csr<V>
      lower;  ///< strictly lower part: L's multipliers (L has a unit diagonal); columns ascending
  sparse::Csr<V> upper;     ///< strictly upper part of U; columns ascending
  std::vector<V> inv_diag;  ///< 1 / u_ii; 0 for rows without any entry (TRACE's ghost cells)
  /// Rows per group of the level schedules: group g holds the rows from
  /// g*group up to (not including) min(n, (g+1)*group), solved one after
  /// another within the group (ascending forward, descending backward).
  int group = 1;
  /// Groups ordered by level (ascending within a level); level l is groups
  /// [levels[l], levels[l+1]). Lower: forward solve; upper: backward solve.
  std::vector<sparse::index_t> lower_groups, lower_levels, upper_groups, upper_levels;
};

/// Factorises a square matrix (duplicate entries are summed, columns sorted)
/// and schedules its solves on groups of `group` rows (>= 1).
/// Errors name the row: no diagonal entry in a row that has entries, or a
/// pivot that vanishes (|u_ii| <= 1e-14 * the row's largest |a_ij|) or is not
/// finite. Rows without any entry are mapped to zero, as block Jacobi does.
template <Scalar V>
Ilu0Factors<V> ilu0_factor(const sparse::Csr<V>& a, int group = 1);

/// z = U^{-1} L^{-1} r on the host, row by row (groups of f.group rows, the
/// terms in the order above): the reference the device solves equal bitwise.
template <Scalar V>
std::vector<V> ilu0_solve_host(const Ilu0Factors<V>& f, const std::vector<V>& r);

/// The ILU(0) preconditioner on a device.
template <Scalar V>
class Ilu0 final : public LinearOperator<V> {
 public:
  /// group: rows per group of the level schedule (TRACE's block size 5
  /// gives a fifth of the launches). The group size sets the order of each
  /// row's sums (terms outside the group first), so the bits depend on it;
  /// every backend equals ilu0_solve_host for the same group size.
  Ilu0(std::shared_ptr<Device> device, const sparse::Csr<V>& a, int group = 1);
  std::size_t size() const override { return n_; }
  const std::shared_ptr<Device>& device() const override { return device_; }
  void apply(const Buffer<V>& x, Buffer<V>& y) override;
  /// Launches per application (forward and backward levels).
  std::size_t levels() const { return lower_levels_.size() + upper_levels_.size() - 2; }
  const Ilu0Factors<V>& factors() const { return f_; }

 private:
  struct Triangle {
    Buffer<sparse::index_t> ptr, col, groups;
    Buffer<V> val;
  };
  Triangle upload(const sparse::Csr<V>& part, const std::vector<sparse::index_t>& groups);
  void solve(const Triangle& t, const std::vector<sparse::index_t>& levels, bool backward,
             const Buffer<V>* inv_diag, const Buffer<V>& b, Buffer<V>& x);

  std::shared_ptr<Device> device_;
  std::size_t n_;
  Ilu0Factors<V> f_;
  std::vector<sparse::index_t> lower_levels_, upper_levels_;
  Triangle lower_, upper_;
  Buffer<V> inv_diag_, tmp_;
};

}  // namespace tessera::krylov
