// The shallow-water kernels, declared once per backend (CpuTag, OpenCLTag,
// CudaTag). Definitions: swe_cpu.cpp, swe_opencl.cpp (+ swe.cl), swe_cuda.cu.
#pragma once
#include <cstddef>
#include <cstdint>

#include "core/buffer.hpp"
#include "core/dispatch.hpp"
#include "swe/grid.hpp"

namespace tessera::swe::kernels {

#define TS_SWE_DECLARE(Tag)                                                                       \
  /* thesis model: one step's update of the interior, src -> dst (src == dst: in place) */        \
  template <class T>                                                                              \
  void thesis_update(Tag, Queue& q, const ThesisGrid& g, ThesisKernel kind, WorkGroup wg, T k,    \
                     const Fields<T>& src, Fields<T>& dst);                                       \
  /* thesis model: the reflective ghost frame, rows then columns; vector_rows: */                 \
  /* V1f4's whole-row copies four values at a time (g.w a multiple of 4) */                       \
  template <class T>                                                                              \
  void thesis_ghosts(Tag, Queue& q, const ThesisGrid& g, Fields<T>& f, bool vector_rows);         \
  /* the "Max" work-group of the device (thesis §4.2 rule) */                                    \
  WorkGroup max_work_group(Tag, Device& d);                                                       \
  /* physical model: boundary ghosts + device-side dt bookkeeping (one launch) */                 \
  template <class T>                                                                              \
  void phys_ghosts(Tag, Queue& q, const PhysGrid& g, const PhysParams<T>& p, const Buffer<T>& zb, \
                   Fields<T>& f, Buffer<T>& scalars, Buffer<std::uint32_t>& flags,                \
                   bool bookkeeping);                                                             \
  /* physical model: first-order update src -> dst with the fused wave-speed max */               \
  template <class T>                                                                              \
  void phys_update(Tag, Queue& q, const PhysGrid& g, const PhysParams<T>& p, const Buffer<T>& zb, \
                   const Fields<T>& src, Fields<T>& dst, Buffer<T>& scalars,                      \
                   Buffer<std::uint32_t>& flags);                                                 \
  /* physical model, second order: one RK2 stage, dst = a*base + (1-a)*(src + dt L(src)) */       \
  template <class T>                                                                              \
  void phys_stage(Tag, Queue& q, const PhysGrid& g, const PhysParams<T>& p, const Buffer<T>& zb,  \
                  const Fields<T>& base, const Fields<T>& src, Fields<T>& dst, int stage,         \
                  Buffer<T>& scalars, Buffer<std::uint32_t>& flags);                              \
  /* self-check of core/kernels/ieee_fast.h: samples first .. first+count-1 */                    \
  /* (ieee_check.h) added to counts[4]; count <= 2^31 */                                          \
  template <class T>                                                                              \
  void ieee_check(Tag, Queue& q, std::uint64_t first, std::uint64_t count,                        \
                  Buffer<std::uint32_t>& counts);

/* Rows per work-item of the GPU first-order updates: long strips on large
 * grids (fewer re-read rows at strip edges, fewer atomics), short ones on
 * small grids (enough work-groups); settled, docs/swe-history.md. */
long phys_strip_rows(const PhysGrid& g);

/* How many rows ahead of its current row a work-item of the shared-face
 * update asks the next rows into the cache (0: none; loads are issued four
 * rows ahead anyway): TS_SWE_PREFETCH_ROWS, or TESSERA_SWE_PREFETCH=N (0 to
 * 64; still open on the H200, docs/swe-history.md). */
int phys_prefetch_rows();

TS_SWE_DECLARE(CpuTag)
TS_SWE_DECLARE(OpenCLTag)
TS_SWE_DECLARE(CudaTag)
#undef TS_SWE_DECLARE

/* Explicit instantiations of every templated kernel for one backend tag and
 * value type; each launcher file ends with TS_SWE_INSTANTIATE(Tag, float) and
 * TS_SWE_INSTANTIATE(Tag, double). */
#define TS_SWE_INSTANTIATE(Tag, T)                                                               \
  template void thesis_update<T>(Tag, Queue&, const ThesisGrid&, ThesisKernel, WorkGroup, T,     \
                                 const Fields<T>&, Fields<T>&);                                  \
  template void thesis_ghosts<T>(Tag, Queue&, const ThesisGrid&, Fields<T>&, bool);              \
  template void phys_ghosts<T>(Tag, Queue&, const PhysGrid&, const PhysParams<T>&,               \
                               const Buffer<T>&, Fields<T>&, Buffer<T>&, Buffer<std::uint32_t>&, \
                               bool);                                                            \
  template void phys_update<T>(Tag, Queue&, const PhysGrid&, const PhysParams<T>&,               \
                               const Buffer<T>&, const Fields<T>&, Fields<T>&, Buffer<T>&,       \
                               Buffer<std::uint32_t>&);                                          \
  template void phys_stage<T>(Tag, Queue&, const PhysGrid&, const PhysParams<T>&,                \
                              const Buffer<T>&, const Fields<T>&, const Fields<T>&, Fields<T>&,  \
                              int, Buffer<T>&, Buffer<std::uint32_t>&);                          \
  template void ieee_check<T>(Tag, Queue&, std::uint64_t, std::uint64_t, Buffer<std::uint32_t>&);

}  // namespace tessera::swe::kernels
