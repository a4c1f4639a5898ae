// The vendor baseline: cuBLAS sgemm/dgemm on the buffers' stream, in the
// default math mode (no TF32 tensor cores, no emulation), so that it does the
// same IEEE FP32/FP64 arithmetic as the hand-written kernels. Compiled only
// when CMake found cuBLAS (TESSERA_HAVE_CUBLAS).
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <map>
#include <mutex>
#include <type_traits>

#include <fmt/format.h>

#include "backends/cuda/cuda_device.hpp"
#include "core/error.hpp"
#include "core/for_each_real.hpp"
#include "dense/kernels/matmul_kernels.hpp"

namespace tessera::dense::kernels {

namespace {

void cublas_check(cublasStatus_t status, const char* call, const std::string& what) {
  if (status != CUBLAS_STATUS_SUCCESS) [[unlikely]]
    throw BackendError("cuBLAS", call, static_cast<std::int64_t>(status),
                       cublasGetStatusName(status), what);
}

// One handle per GPU, created on first use and destroyed at exit. The holder
// is a function-local static built on the first call, which comes after the
// CUDA runtime started on that device (a buffer exists), so exit destroys it
// before the runtime's own teardown (reverse order of registration) and
// compute-sanitizer's leak check sees cuBLAS's workspace freed.
struct Handles {
  std::mutex mutex;
  std::map<int, cublasHandle_t> by_ordinal;
  ~Handles() {
    for (auto& [ordinal, h] : by_ordinal) {
      cudaSetDevice(ordinal);  // errors at exit are not actionable: ignored
      cublasDestroy(h);
    }
  }
};

cublasHandle_t handle_for(int ordinal) {
  static Handles handles;
  std::lock_guard lock(handles.mutex);
  auto it = handles.by_ordinal.find(ordinal);
  if (it != handles.by_ordinal.end()) return it->second;
  cublasHandle_t h = nullptr;
  cublas_check(cublasCreate(&h), "cublasCreate",
               fmt::format("creating a cuBLAS handle on cuda:{}", ordinal));
  if (const cublasStatus_t st = cublasSetMathMode(h, CUBLAS_DEFAULT_MATH);
      st != CUBLAS_STATUS_SUCCESS) {
    cublasDestroy(h);
    cublas_check(st, "cublasSetMathMode", "selecting CUBLAS_DEFAULT_MATH (no TF32)");
  }
  handles.by_ordinal.emplace(ordinal, h);
  return h;
}

}  // namespace

template <class T>
void matmul_vendor(CudaTag, Queue& q, const Buffer<T>& A, const Buffer<T>& B, Buffer<T>& C,
                   MatmulShape s) {
  auto& cq = cuda::queue_of(q);
  cuda::DeviceGuard guard(cq.ordinal());
  cublasHandle_t h = handle_for(cq.ordinal());
  const std::string what =
      fmt::format("C = A*B ({} x {} x {}) on cuda:{}", s.m, s.k, s.n, cq.ordinal());
  cublas_check(cublasSetStream(h, cq.native()), "cublasSetStream", what);
  // cuBLAS is column-major. A row-major matrix is its transpose in column-major
  // terms, so row-major C = A*B is column-major C^T = B^T * A^T: pass B first,
  // with the roles of m and n exchanged and the leading dimensions n, k, n.
  const T one = 1, zero = 0;
  const T* a = cuda::ptr<T>(A.handle());
  const T* b = cuda::ptr<T>(B.handle());
  T* c = cuda::ptr<T>(C.handle());
  if constexpr (std::is_same_v<T, float>)
    cublas_check(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, s.n, s.m, s.k, &one, b, s.n, a, s.k,
                             &zero, c, s.n),
                 "cublasSgemm", what);
  else
    cublas_check(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, s.n, s.m, s.k, &one, b, s.n, a, s.k,
                             &zero, c, s.n),
                 "cublasDgemm", what);
}

#define TS_INSTANTIATE(T)                                                                         \
  template void matmul_vendor<T>(CudaTag, Queue&, const Buffer<T>&, const Buffer<T>&, Buffer<T>&, \
                                 MatmulShape);
TS_FOR_EACH_REAL(TS_INSTANTIATE)
#undef TS_INSTANTIATE

}  // namespace tessera::dense::kernels
