#include "sparse/kernels/spmv_cusparse.hpp"

#include <cuComplex.h>
#include <cusparse.h>

#include <complex>
#include <type_traits>

#include "backends/cuda/cuda_check.hpp"
#include "backends/cuda/cuda_device.hpp"
#include "core/enum_names.hpp"
#include "core/error.hpp"
#include "sparse/convert.hpp"
#include "sparse/device_upload.hpp"

namespace tessera::sparse::vendor {

namespace {

void check(cusparseStatus_t s, const char* call, std::string_view what) {
  if (s != CUSPARSE_STATUS_SUCCESS)
    throw BackendError("cuSPARSE", call, static_cast<std::int64_t>(s), cusparseGetErrorString(s),
                       std::string(what));
}

template <class V>
cudaDataType data_type() {
  if constexpr (std::is_same_v<V, float>)
    return CUDA_R_32F;
  else if constexpr (std::is_same_v<V, double>)
    return CUDA_R_64F;
  else if constexpr (std::is_same_v<V, std::complex<float>>)
    return CUDA_C_32F;
  else
    return CUDA_C_64F;
}

constexpr std::array<std::string_view, 4> kKernelNames{"cusparse-csr-alg1", "cusparse-csr-alg2",
                                                       "cusparse-sell", "cusparse-bsrmv"};
static_assert(kKernelNames.size() == std::size_t(CusparseKernel::bsr) + 1);
}  // namespace

std::string_view to_string(CusparseKernel k) { return enum_name(k, kKernelNames); }

template <Scalar V>
struct CusparseSpmv<V>::State {
  std::shared_ptr<Device> device;
  CusparseKernel kernel = CusparseKernel::csr_alg1;
  cusparseHandle_t handle = nullptr;
  cusparseSpMatDescr_t mat = nullptr;
  cusparseMatDescr_t legacy = nullptr;
  Buffer<index_t> ptr, col;
  Buffer<V> val;
  Buffer<unsigned char> work;
  size64 rows = 0, cols = 0, block_rows = 0, block_cols = 0, nblocks = 0;
  int block = 1;
  double bytes = 0;
  std::size_t work_size = static_cast<std::size_t>(-1);  ///< workspace bytes; -1: not prepared yet
  cusparseDnVecDescr_t vx = nullptr, vy = nullptr;  ///< kept between calls (no host work per call)
};

template <Scalar V>
CusparseSpmv<V>::CusparseSpmv(std::shared_ptr<Device> device, const Csr<V>& a, CusparseKernel k)
    : s_(std::make_unique<State>()) {
  if (device->backend() != Backend::cuda) throw UsageError("cuSPARSE runs on CUDA devices only");
  if (k == CusparseKernel::bsr) throw UsageError("cuSPARSE bsrmv needs a BCSR matrix");
  s_->device = device;
  s_->kernel = k;
  s_->rows = a.rows;
  s_->cols = a.cols;
  cuda::DeviceGuard guard(cuda::device_of(*device).ordinal());
  check(cusparseCreate(&s_->handle), "cusparseCreate", "cuSPARSE baseline");
  if (k == CusparseKernel::sell) {
    const Sell<V> s = to_sell(a, {32, 1});
    s_->ptr = upload_nonempty(device, s.slice_ptr);
    s_->col = upload_nonempty(device, s.col);
    s_->val = upload_nonempty(device, s.val);
    s_->bytes =
        static_cast<double>(s.val.size() * sizeof(V) + (s.col.size() + s.slice_ptr.size()) * 4);
    check(cusparseCreateSlicedEll(&s_->mat, a.rows, a.cols, a.nnz(),
                                  static_cast<int64_t>(s.val.size()), 32, s_->ptr.handle(),
                                  s_->col.handle(), s_->val.handle(), CUSPARSE_INDEX_32I,
                                  CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, data_type<V>()),
          "cusparseCreateSlicedEll", "cuSPARSE SELL baseline");
  } else {
    s_->ptr = upload_nonempty(device, a.row_ptr);
    s_->col = upload_nonempty(device, a.col);
    s_->val = upload_nonempty(device, a.val);
    s_->bytes =
        static_cast<double>(a.val.size() * sizeof(V) + (a.col.size() + a.row_ptr.size()) * 4);
    check(cusparseCreateCsr(&s_->mat, a.rows, a.cols, a.nnz(), s_->ptr.handle(), s_->col.handle(),
                            s_->val.handle(), CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                            CUSPARSE_INDEX_BASE_ZERO, data_type<V>()),
          "cusparseCreateCsr", "cuSPARSE CSR baseline");
  }
}

template <Scalar V>
CusparseSpmv<V>::CusparseSpmv(std::shared_ptr<Device> device, const Bcsr<V>& a)
    : s_(std::make_unique<State>()) {
  if (device->backend() != Backend::cuda) throw UsageError("cuSPARSE runs on CUDA devices only");
  if (a.block.r != a.block.c || a.rows % a.block.r || a.cols % a.block.c)
    throw UsageError("cuSPARSE bsrmv needs square blocks that divide the matrix");
  s_->device = device;
  s_->kernel = CusparseKernel::bsr;
  s_->rows = a.rows;
  s_->cols = a.cols;
  s_->block = a.block.r;
  s_->block_rows = a.block_rows();
  s_->block_cols = a.block_cols();
  s_->nblocks = a.nblocks();
  // bsrmv has no row map: one row pointer entry per block row
  std::vector<index_t> full(static_cast<std::size_t>(a.block_rows() + 1), 0);
  for (size64 sb = 0; sb < a.stored_block_rows(); ++sb)
    full[static_cast<std::size_t>(mapped_row(a.block_row_map, sb)) + 1] =
        a.row_ptr[sb + 1] - a.row_ptr[sb];
  for (std::size_t i = 1; i < full.size(); ++i) full[i] += full[i - 1];
  const Bcsr<V> rm =
      a.block.layout == BlockLayout::row_major ? a : with_layout(a, BlockLayout::row_major);
  s_->ptr = upload_nonempty(device, full);
  s_->col = upload_nonempty(device, rm.col);
  s_->val = upload_nonempty(device, rm.val);
  s_->bytes = static_cast<double>(rm.val.size() * sizeof(V) + (rm.col.size() + full.size()) * 4);
  cuda::DeviceGuard guard(cuda::device_of(*device).ordinal());
  check(cusparseCreate(&s_->handle), "cusparseCreate", "cuSPARSE baseline");
  check(cusparseCreateMatDescr(&s_->legacy), "cusparseCreateMatDescr", "cuSPARSE bsrmv baseline");
}

template <Scalar V>
CusparseSpmv<V>::~CusparseSpmv() {
  if (s_->vx) cusparseDestroyDnVec(s_->vx);
  if (s_->vy) cusparseDestroyDnVec(s_->vy);
  if (s_->mat) cusparseDestroySpMat(s_->mat);
  if (s_->legacy) cusparseDestroyMatDescr(s_->legacy);
  if (s_->handle) cusparseDestroy(s_->handle);
}

template <Scalar V>
double CusparseSpmv<V>::matrix_bytes() const {
  return s_->bytes;
}

template <Scalar V>
void CusparseSpmv<V>::run(const Buffer<V>& x, Buffer<V>& y) {
  auto& q = cuda::queue_of(s_->device->queue());
  cuda::DeviceGuard guard(q.ordinal());
  check(cusparseSetStream(s_->handle, q.native()), "cusparseSetStream", "cuSPARSE baseline");
  const V one(1), zero(0);
  if (s_->kernel == CusparseKernel::bsr) {
    const int mb = static_cast<int>(s_->block_rows), nb = static_cast<int>(s_->block_cols);
    const int nnzb = static_cast<int>(s_->nblocks), bd = s_->block;
    const auto* rp = static_cast<const int*>(s_->ptr.handle());
    const auto* ci = static_cast<const int*>(s_->col.handle());
    auto call = [&](auto fn, auto t) {
      using T = decltype(t);
      check(
          fn(s_->handle, CUSPARSE_DIRECTION_ROW, CUSPARSE_OPERATION_NON_TRANSPOSE, mb, nb, nnzb,
             reinterpret_cast<const T*>(&one), s_->legacy, static_cast<const T*>(s_->val.handle()),
             rp, ci, bd, static_cast<const T*>(x.handle()), reinterpret_cast<const T*>(&zero),
             static_cast<T*>(y.handle())),
          "cusparse<t>bsrmv", "cuSPARSE bsrmv baseline");
    };
    if constexpr (std::is_same_v<V, float>)
      call(cusparseSbsrmv, float{});
    else if constexpr (std::is_same_v<V, double>)
      call(cusparseDbsrmv, double{});
    else if constexpr (std::is_same_v<V, std::complex<float>>)
      call(cusparseCbsrmv, cuComplex{});
    else
      call(cusparseZbsrmv, cuDoubleComplex{});
    return;
  }
  if (!s_->vx) {
    check(cusparseCreateDnVec(&s_->vx, s_->cols, x.handle(), data_type<V>()), "cusparseCreateDnVec",
          "x");
    check(cusparseCreateDnVec(&s_->vy, s_->rows, y.handle(), data_type<V>()), "cusparseCreateDnVec",
          "y");
  } else {
    check(cusparseDnVecSetValues(s_->vx, x.handle()), "cusparseDnVecSetValues", "x");
    check(cusparseDnVecSetValues(s_->vy, y.handle()), "cusparseDnVecSetValues", "y");
  }
  cusparseDnVecDescr_t vx = s_->vx, vy = s_->vy;
  const cusparseSpMVAlg_t alg = s_->kernel == CusparseKernel::csr_alg1   ? CUSPARSE_SPMV_CSR_ALG1
                                : s_->kernel == CusparseKernel::csr_alg2 ? CUSPARSE_SPMV_CSR_ALG2
                                                                         : CUSPARSE_SPMV_SELL_ALG1;
  if (s_->work_size ==
      static_cast<std::size_t>(-1)) {  // first call: workspace and preprocessing, once
    std::size_t size = 0;
    check(cusparseSpMV_bufferSize(s_->handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, s_->mat, vx,
                                  &zero, vy, data_type<V>(), alg, &size),
          "cusparseSpMV_bufferSize", "cuSPARSE baseline");
    s_->work = Buffer<unsigned char>(s_->device, std::max<std::size_t>(size, 1));
    s_->work_size = size;
    check(cusparseSpMV_preprocess(s_->handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, s_->mat, vx,
                                  &zero, vy, data_type<V>(), alg, s_->work.handle()),
          "cusparseSpMV_preprocess", "cuSPARSE baseline");
  }
  check(cusparseSpMV(s_->handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, s_->mat, vx, &zero, vy,
                     data_type<V>(), alg, s_->work.handle()),
        "cusparseSpMV", "cuSPARSE baseline");
}

#define TS_INSTANTIATE(V) template class CusparseSpmv<V>;
TESSERA_SPARSE_FOR_EACH_SCALAR(TS_INSTANTIATE)
#undef TS_INSTANTIATE

}  // namespace tessera::sparse::vendor
