// CUDA launchers of the streaming-mode kernels (mg_stream_kernel_list.h) and
// its rectangular copies (cudaMemcpy2DAsync: truly asynchronous from pinned
// host memory, staged by the driver from pageable memory).
#include <string>

#include "core/launch/launch_cuda.cuh"
#include "mg/kernels/mg_stream_kernels.hpp"

namespace tessera::mg::stream::kernels {

using namespace point;
TS_MGS_KERNELS(TS_CUDA_KERNEL)

void write_rect(CudaTag, Device&, Queue& q, void* block, std::size_t dev_off, std::size_t dev_pitch,
                const void* host, std::size_t host_pitch, std::size_t width, std::size_t rows) {
  if (!rows || !width) return;
  auto& cq = cuda::queue_of(q);
  cuda::DeviceGuard guard(cq.ordinal());
  cuda::cuda_check(
      cudaMemcpy2DAsync(static_cast<char*>(block) + dev_off, dev_pitch, host, host_pitch, width,
                        rows, cudaMemcpyHostToDevice, cq.native()),
      "cudaMemcpy2DAsync",
      "writing " + std::to_string(rows) + " rows of " + std::to_string(width) + " bytes");
}

void read_rect(CudaTag, Device&, Queue& q, const void* block, std::size_t dev_off,
               std::size_t dev_pitch, void* host, std::size_t host_pitch, std::size_t width,
               std::size_t rows) {
  if (!rows || !width) return;
  auto& cq = cuda::queue_of(q);
  cuda::DeviceGuard guard(cq.ordinal());
  cuda::cuda_check(
      cudaMemcpy2DAsync(host, host_pitch, static_cast<const char*>(block) + dev_off, dev_pitch,
                        width, rows, cudaMemcpyDeviceToHost, cq.native()),
      "cudaMemcpy2DAsync",
      "reading " + std::to_string(rows) + " rows of " + std::to_string(width) + " bytes");
}

void flush(CudaTag, Queue&) {}  // CUDA submits every call at once

}  // namespace tessera::mg::stream::kernels
