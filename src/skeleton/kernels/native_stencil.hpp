// The hand-written baseline of the skeleton benchmark: the 7-point heat and
// 27-point blur stencils (same per-point functions, skel_examples_stencil.h)
// on an (n+2)^3 array whose ghost layer holds the neutral value, one thread
// per interior cell, no skeleton machinery (no halo logic, no frame kernel).
#pragma once
#include "core/buffer.hpp"
#include "core/dispatch.hpp"
#include "skeleton/extents.hpp"

namespace tessera::skeleton::kernels {

/// Reads a padded array directly: what a hand-written kernel does.
template <class T>
struct RawAccess {
  using value_type = T;
  const T* p;
  index_t sy, sz;
  TS_FN const T& operator()(int dx, int dy, int dz) const { return p[dz * sz + dy * sy + dx]; }
  TS_FN index_t pos(int) const { return 0; }
};

#define TS_SKEL_NATIVE_DECLARE(Tag)                                                                  \
  /* points: 7 (heat7) or 27 (blur27); in/out: (n+2)^3 arrays, interior written */                  \
  template <class T>                                                                                 \
  void native_stencil(Tag, Queue& q, int points, const Buffer<T>& in, Buffer<T>& out, index_t n);
TS_SKEL_NATIVE_DECLARE(CpuTag)
TS_SKEL_NATIVE_DECLARE(OpenCLTag)
TS_SKEL_NATIVE_DECLARE(CudaTag)
#undef TS_SKEL_NATIVE_DECLARE

}  // namespace tessera::skeleton::kernels
