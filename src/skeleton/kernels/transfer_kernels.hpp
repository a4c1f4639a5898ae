// Rectangular (up to 3-D, strided) byte copies on one device and between a
// device and compact host memory: the halo exchange's only device operations
// (faces of padded boxes are strided regions; no pack kernels are needed).
// Declared once per backend tag; transfer_cpu.cpp, transfer_opencl.cpp,
// transfer_cuda.cpp implement them with memcpy loops, clEnqueue*Rect and
// cudaMemcpy3DAsync.
#pragma once
#include <cstddef>

#include "core/device.hpp"
#include "core/dispatch.hpp"

namespace tessera::skeleton::kernels {

/// A region of a buffer: `slices` slices of `rows` rows of `width` bytes,
/// starting `offset` bytes into the buffer. Compact host memory has
/// row_pitch = width and slice_pitch = width * rows.
struct Rect {
  std::size_t offset = 0, row_pitch = 0, slice_pitch = 0;
  std::size_t width = 0, rows = 1, slices = 1;
  std::size_t bytes() const { return width * rows * slices; }
  bool contiguous() const {
    return (rows == 1 || row_pitch == width) && (slices == 1 || slice_pitch == width * rows);
  }
};

#define TS_SKEL_TRANSFER_DECLARE(Tag)                                                       \
  /* src and dst on the same device, in q's order */                                        \
  void copy_rect(Tag, Queue& q, const void* src, const Rect& s, void* dst, const Rect& d);  \
  /* device region -> compact host memory */                                                \
  void read_rect(Tag, Queue& q, const void* src, const Rect& s, void* host, bool blocking); \
  /* compact host memory -> device region */                                                \
  void write_rect(Tag, Queue& q, void* dst, const Rect& d, const void* host, bool blocking);

TS_SKEL_TRANSFER_DECLARE(CpuTag)
TS_SKEL_TRANSFER_DECLARE(OpenCLTag)
TS_SKEL_TRANSFER_DECLARE(CudaTag)
#undef TS_SKEL_TRANSFER_DECLARE

}  // namespace tessera::skeleton::kernels
