// The thesis's gas simulation kernels, declared once per backend. Cells are
// float[19] (AoS, x fastest); the mathematics is in thesis_gas_point.h.
#pragma once
#include "core/buffer.hpp"
#include "core/dispatch.hpp"
#include "lbm/kernels/lbm_kernels.hpp"

namespace tessera::lbm::kernels {

#define TS_THESIS_DECLARE(Tag)                                                                                      \
  /* one step: dst = collide(pull(src)), the native A-B kernel */                                                 \
  void thesis_update(Tag, Queue& q, const Grid& g, const Buffer<float>& src, Buffer<float>& dst, float omega);   \
  /* the initial state (generate) */                                                                              \
  void thesis_generate(Tag, Queue& q, const Grid& g, Buffer<float>& dst);                                          \
  /* one step of the owned cells of one part of a distributed lattice (global nx, ny, nz; handles of cells) */    \
  void thesis_update_part(Tag, Device& d, Queue& q, const Grid& global, const PartGeometry& part, long gz0,        \
                          const void* src, void* dst, float omega);

TS_THESIS_DECLARE(CpuTag)
TS_THESIS_DECLARE(OpenCLTag)
TS_THESIS_DECLARE(CudaTag)
#undef TS_THESIS_DECLARE

}  // namespace tessera::lbm::kernels
