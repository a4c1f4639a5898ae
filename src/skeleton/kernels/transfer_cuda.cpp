// CUDA rectangular copies: cudaMemcpyAsync when the region is contiguous,
// cudaMemcpy3DAsync (pitched) otherwise. Peer copies between GPUs live in
// halo_engine_cuda.cpp.
#include <fmt/format.h>

#include <cuda_runtime.h>

#include "backends/cuda/cuda_check.hpp"
#include "backends/cuda/cuda_device.hpp"
#include "skeleton/kernels/transfer_cuda.hpp"

namespace tessera::skeleton::kernels {

namespace {
cudaPitchedPtr pitched(const void* base, const Rect& r) {
  const std::size_t rp = r.row_pitch ? r.row_pitch : r.width;
  const std::size_t sp = r.slice_pitch ? r.slice_pitch : rp * r.rows;
  return make_cudaPitchedPtr(const_cast<void*>(base), rp, rp, sp / rp);
}
cudaPos pos(const Rect& r) {
  const std::size_t rp = r.row_pitch ? r.row_pitch : r.width;
  const std::size_t sp = r.slice_pitch ? r.slice_pitch : rp * r.rows;
  return make_cudaPos(r.offset % sp % rp, r.offset % sp / rp, r.offset / sp);
}
}  // namespace

void cuda_rect_copy(cudaStream_t stream, const void* src, const Rect& s, void* dst, const Rect& d,
                    const char* what) {
  if (!s.bytes()) return;
  if (s.contiguous() && d.contiguous()) {
    cuda::cuda_check(cudaMemcpyAsync(static_cast<char*>(dst) + d.offset,
                                     static_cast<const char*>(src) + s.offset, s.bytes(),
                                     cudaMemcpyDefault, stream),
                     "cudaMemcpyAsync", fmt::format("{} ({} bytes)", what, s.bytes()));
    return;
  }
  cudaMemcpy3DParms p{};
  p.srcPtr = pitched(src, s);
  p.srcPos = pos(s);
  p.dstPtr = pitched(dst, d);
  p.dstPos = pos(d);
  p.extent = make_cudaExtent(s.width, s.rows, s.slices);
  p.kind = cudaMemcpyDefault;
  cuda::cuda_check(cudaMemcpy3DAsync(&p, stream), "cudaMemcpy3DAsync",
                   fmt::format("{} ({} bytes, strided)", what, s.bytes()));
}

namespace {
void copy(Queue& q, const void* src, const Rect& s, void* dst, const Rect& d, const char* what) {
  auto& cq = cuda::queue_of(q);
  cuda::DeviceGuard g(cq.ordinal());
  cuda_rect_copy(cq.native(), src, s, dst, d, what);
}
}  // namespace

void copy_rect(CudaTag, Queue& q, const void* src, const Rect& s, void* dst, const Rect& d) {
  copy(q, src, s, dst, d, "copying a halo face");
}
void read_rect(CudaTag, Queue& q, const void* src, const Rect& s, void* host, bool blocking) {
  copy(q, src, s, host, compact_rect(s), "reading a region to the host");
  if (blocking) q.synchronize();
}
void write_rect(CudaTag, Queue& q, void* dst, const Rect& d, const void* host, bool blocking) {
  copy(q, host, compact_rect(d), dst, d, "writing a region from the host");
  if (blocking) q.synchronize();
}

}  // namespace tessera::skeleton::kernels
