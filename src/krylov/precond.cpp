// Block-diagonal inversion for the (block) Jacobi preconditioner.
#include "krylov/precond.hpp"

#include <cmath>

#include "krylov/gauss_jordan.hpp"
#include "krylov/gmres.hpp"
#include "krylov/ilu0.hpp"

namespace tessera::krylov {

template <Scalar V>
std::vector<V> invert_diagonal_blocks(const sparse::Csr<V>& a, int bs) {
  using W = detail::wide_t<V>;
  if (bs < 1) throw UsageError("krylov: block size must be >= 1 (got " + std::to_string(bs) + ")");
  if (a.rows != a.cols)
    throw Error("krylov: Jacobi needs a square matrix (got " + std::to_string(a.rows) + " x " +
                std::to_string(a.cols) + ")");
  const auto b = static_cast<std::size_t>(bs);
  const auto n = static_cast<std::size_t>(a.rows);
  if (n % b)
    throw Error("krylov: block Jacobi with " + std::to_string(bs) + "x" + std::to_string(bs) +
                " blocks needs rows divisible by " + std::to_string(bs) + " (the matrix has " +
                std::to_string(n) + ")");
  // an inf or NaN anywhere would stop the inversion as if a block were
  // singular: named here instead
  for (std::size_t i = 0; i < n; ++i)
    for (auto p = static_cast<std::size_t>(a.row_ptr[i]);
         p < static_cast<std::size_t>(a.row_ptr[i + 1]); ++p)
      if (!std::isfinite(std::abs(W(a.val[p]))))
        throw Error("krylov: " + std::string(bs == 1 ? "Jacobi" : "block Jacobi") +
                    ": the matrix entry in row " + std::to_string(i) + ", column " +
                    std::to_string(a.col[p]) + " is not finite");
  std::vector<V> out(n * b);
  std::vector<W> blk(b * b), inv(b * b);
  for (std::size_t br = 0; br < n / b; ++br) {
    std::fill(blk.begin(), blk.end(), W(0));
    double scale = 0;
    for (std::size_t r = 0; r < b; ++r) {
      const std::size_t row = br * b + r;
      for (auto p = static_cast<std::size_t>(a.row_ptr[row]);
           p < static_cast<std::size_t>(a.row_ptr[row + 1]); ++p) {
        const auto c = static_cast<std::size_t>(a.col[p]);
        if (c >= br * b && c < br * b + b) {
          blk[r * b + (c - br * b)] = W(a.val[p]);
          scale = std::max(scale, std::abs(W(a.val[p])));
        }
      }
    }
    // Block rows without any stored entry (TRACE's ghost cells): their
    // unknowns stay untouched by the system, so M maps them to zero.
    if (a.row_ptr[br * b] == a.row_ptr[br * b + b]) {
      for (std::size_t k = 0; k < b * b; ++k) out[br * b * b + k] = V(0);
      continue;
    }
    if (gauss_jordan(blk, inv, b, scale) < b)
      throw Error("krylov: " +
                  std::string(bs == 1
                                  ? "Jacobi: zero diagonal entry in row " + std::to_string(br)
                                  : "block Jacobi: the " + std::to_string(bs) + "x" +
                                        std::to_string(bs) + " diagonal block of block row " +
                                        std::to_string(br) + " (rows " + std::to_string(br * b) +
                                        ".." + std::to_string(br * b + b - 1) + ") is singular"));
    for (std::size_t k = 0; k < b * b; ++k) out[br * b * b + k] = detail::narrow<V>(inv[k]);
  }
  return out;
}

template <Scalar V>
BlockJacobi<V>::BlockJacobi(std::shared_ptr<Device> device, const sparse::Csr<V>& a, int bs)
    : device_(device),
      n_(static_cast<std::size_t>(a.rows)),
      bs_(bs),
      host_inverse_(invert_diagonal_blocks(a, bs)),
      inverse_(device, host_inverse_.size()),
      ops_(device, n_, 1) {
  inverse_.copy_from_host(host_inverse_);
}

template <Scalar V>
std::unique_ptr<LinearOperator<V>> make_preconditioner(const std::string& name,
                                                       std::shared_ptr<Device> device,
                                                       const sparse::Csr<V>& a, int block) {
  if (name == "none") return nullptr;
  if (name == "jacobi") return std::make_unique<BlockJacobi<V>>(std::move(device), a, 1);
  if (name == "block-jacobi") return std::make_unique<BlockJacobi<V>>(std::move(device), a, block);
  if (name == "ilu0")
    return std::make_unique<Ilu0<V>>(std::move(device), a, block);  // block: rows per group
  throw UsageError("unknown preconditioner '" + name + "' (none, jacobi, block-jacobi or ilu0)");
}

#define TS_INSTANTIATE(V)                                                        \
  template std::unique_ptr<LinearOperator<V>> make_preconditioner<V>(            \
      const std::string&, std::shared_ptr<Device>, const sparse::Csr<V>&, int);  \
  template std::vector<V> invert_diagonal_blocks<V>(const sparse::Csr<V>&, int); \
  template class BlockJacobi<V>;
TESSERA_SPARSE_FOR_EACH_SCALAR(TS_INSTANTIATE)
#undef TS_INSTANTIATE

}  // namespace tessera::krylov
