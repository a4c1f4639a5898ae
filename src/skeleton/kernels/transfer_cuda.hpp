// Internal: a rectangular copy on an explicit CUDA stream (the halo engine's
// communication streams are not tessera Queues).
#pragma once
#include <cuda_runtime_api.h>

#include "skeleton/kernels/transfer_kernels.hpp"

namespace tessera::skeleton::kernels {

/// src/dst: device or host pointers (unified addressing), regions as in Rect.
void cuda_rect_copy(cudaStream_t stream, const void* src, const Rect& s, void* dst, const Rect& d,
                    const char* what);
/// The compact host layout of a region.
inline Rect compact_rect(const Rect& r) {
  return {0, r.width, r.width * r.rows, r.width, r.rows, r.slices};
}

}  // namespace tessera::skeleton::kernels
