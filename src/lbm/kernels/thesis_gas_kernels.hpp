// The thesis's gas simulation kernels, declared once per backend. Cells are
// float[19] (AoS, x fastest) as in the thesis, or the same values as
// structure of arrays; the mathematics is in thesis_gas_point.h.
#pragma once
#include "core/buffer.hpp"
#include "core/dispatch.hpp"
#include "lbm/kernels/lbm_kernels.hpp"

namespace tessera::lbm {

/// Where value i of cell n lives: the thesis's 76-byte cells (aos: n * 19 + i)
/// or the same values as structure of arrays (soa: i * cells + n). Frames are
/// AoS either way; both layouts compute the same bits.
enum class ThesisLayout { aos, soa };

namespace kernels {

/// Element strides (cell, direction) of a layout on grid g.
inline long thesis_cell_stride(ThesisLayout l) { return l == ThesisLayout::aos ? 19 : 1; }
inline long thesis_dir_stride(ThesisLayout l, const Grid& g) {
  return l == ThesisLayout::aos ? 1 : g.cells();
}

#define TS_THESIS_DECLARE(Tag)                                                                            \
  /* one step: dst = collide(pull(src)), the native A-B kernel */                                         \
  void thesis_update(Tag, Queue& q, const Grid& g, const Buffer<float>& src, Buffer<float>& dst,          \
                     float omega, ThesisLayout layout);                                                   \
  /* the initial state (generate) */                                                                      \
  void thesis_generate(Tag, Queue& q, const Grid& g, Buffer<float>& dst, ThesisLayout layout);            \
  /* one step of the owned AoS cells of one part of a distributed lattice (global nx, ny, nz; handles) */ \
  void thesis_update_part(Tag, Device& d, Queue& q, const Grid& global, const PartGeometry& part,         \
                          long gz0, const void* src, void* dst, float omega);

TS_THESIS_DECLARE(CpuTag)
TS_THESIS_DECLARE(OpenCLTag)
TS_THESIS_DECLARE(CudaTag)
#undef TS_THESIS_DECLARE

}  // namespace kernels
}  // namespace tessera::lbm
