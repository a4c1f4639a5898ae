// cuSPARSE SpMV as the vendor baseline of `tessera bench spmv` (CUDA devices
// only; built when CUDA::cusparse exists, TESSERA_HAVE_CUSPARSE):
//   csr-alg1, csr-alg2  generic API, CUSPARSE_SPMV_CSR_ALG1 / ALG2
//   sell                generic API, sliced ELL, CUSPARSE_SPMV_SELL_ALG1
//   bsr                 legacy cusparse<t>bsrmv (square blocks)
// The matrix is uploaded once in cuSPARSE's own layout; y = A*x (beta 0).
#pragma once
#include <memory>
#include <string_view>

#include "core/buffer.hpp"
#include "sparse/formats.hpp"

namespace tessera::sparse::vendor {

enum class CusparseKernel { csr_alg1, csr_alg2, sell, bsr };
std::string_view to_string(CusparseKernel k);

template <Scalar V>
class CusparseSpmv {
 public:
  /// csr-alg1/2 and sell from the CSR matrix; bsr needs square blocks: from
  /// a BCSR matrix (block row map expanded, row-major blocks).
  CusparseSpmv(std::shared_ptr<Device> device, const Csr<V>& a, CusparseKernel k);
  CusparseSpmv(std::shared_ptr<Device> device, const Bcsr<V>& a);
  ~CusparseSpmv();
  CusparseSpmv(const CusparseSpmv&) = delete;
  CusparseSpmv& operator=(const CusparseSpmv&) = delete;

  void run(const Buffer<V>& x, Buffer<V>& y);
  /// Bytes of the matrix in cuSPARSE's layout (values + indices).
  double matrix_bytes() const;

  struct State;

 private:
  std::unique_ptr<State> s_;
};

}  // namespace tessera::sparse::vendor
