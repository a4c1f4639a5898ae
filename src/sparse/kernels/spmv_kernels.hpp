// The SpMV launchers, declared once per backend tag (CpuTag, OpenCLTag,
// CudaTag). Definitions: spmv_cpu.cpp, spmv_opencl.cpp (+ spmv.cl),
// spmv_cuda.cu; the arithmetic of all of them is spmv_point.h. The front end
// (device_spmv.cpp) checks sizes, devices and kernel/format compatibility
// before calling them; each launcher handles the kernels of one format and
// writes every entry of y.
#pragma once
#include "core/buffer.hpp"
#include "core/dispatch.hpp"
#include "sparse/device_formats.hpp"
#include "sparse/device_matrix.hpp"
#include "sparse/kernels/spmv_point.hpp"

namespace tessera::sparse::kernels {

// The arrays behind buffers as the CPU and CUDA kernels take them (a buffer's
// handle is its address there).
template <class V>
const point::kernel_value_t<V>* in(const Buffer<V>& b) {
  return point::values<V>(static_cast<const void*>(b.handle()));
}
template <class V>
point::kernel_value_t<V>* out(const Buffer<V>& b) {
  return point::values<V>(b.handle());
}
inline const index_t* idx(const Buffer<index_t>& b) {
  return static_cast<const index_t*>(b.handle());
}

#define TS_SPMV_DECLARE(Tag)                                                                    \
  template <class V>                                                                            \
  void csr(Tag, Queue& q, const DeviceCsr<V>& a, Kernel k, const Buffer<V>& x, Buffer<V>& y);   \
  template <class V>                                                                            \
  void ell(Tag, Queue& q, const DeviceEll<V>& a, Kernel k, const Buffer<V>& x, Buffer<V>& y);   \
  template <class V>                                                                            \
  void sell(Tag, Queue& q, const DeviceSell<V>& a, Kernel k, const Buffer<V>& x, Buffer<V>& y); \
  template <class V>                                                                            \
  void bcsr(Tag, Queue& q, const DeviceBcsr<V>& a, Kernel k, const Buffer<V>& x, Buffer<V>& y); \
  template <class V>                                                                            \
  void bell(Tag, Queue& q, const DeviceBell<V>& a, Kernel k, const Buffer<V>& x, Buffer<V>& y); \
  /* y = 0 (rows of mapped formats that no stored row writes) */                                \
  template <class V>                                                                            \
  void fill_zero(Tag, Queue& q, Buffer<V>& y);

TS_SPMV_DECLARE(CpuTag)
TS_SPMV_DECLARE(OpenCLTag)
TS_SPMV_DECLARE(CudaTag)
#undef TS_SPMV_DECLARE

/// Threads per row for csr-vector: the power of two nearest the mean row
/// length, 1..32 (short rows waste no lanes, long rows get a whole warp).
int csr_vector_lanes(size64 rows, size64 nnz);

}  // namespace tessera::sparse::kernels
