// The hand-written baseline of the skeleton benchmark: the 7-point heat and
// 27-point blur stencils (same per-point functions, skel_examples_stencil.h)
// on an (n+2)^3 array whose ghost layer holds the neutral value, no skeleton
// machinery (no halo logic, no frame kernel, no functor indirection).
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

/// A 7-point neighbourhood whose z-column is held in registers (NativeWalk::march).
template <class T>
struct ColumnAccess {
  using value_type = T;
  const T* p;  // the cell being computed (in-plane neighbours are loaded)
  index_t sy;
  T below, centre, above;
  TS_FN T operator()(int dx, int dy, int dz) const {
    return dz < 0 ? below : dz > 0 ? above : (dx == 0 && dy == 0) ? centre : p[dy * sy + dx];
  }
  TS_FN index_t pos(int) const { return 0; }
};

/// How the CUDA kernel walks z (the CPU loops compute the same values either way):
///   runs   TS_SKEL_Z_CELLS consecutive cells per thread, all computed before any
///          is stored: the launch shape of the skeleton's box kernel;
///   march  7-point only: a thread marches a column of planes and keeps the
///          centre and its z-neighbours in registers (each plane is loaded once
///          by its own thread): the textbook hand-tuned stencil.
enum class NativeWalk { runs, march };

/// Throws UsageError unless (points, walk) is a baseline that exists.
void check_native(int points, NativeWalk walk);

#define TS_SKEL_NATIVE_DECLARE(Tag)                                                              \
  /* points: 7 (heat7) or 27 (blur27); in/out: (n+2)^3 arrays, interior written */               \
  template <class T>                                                                             \
  void native_stencil(Tag, Queue& q, int points, const Buffer<T>& in, Buffer<T>& out, index_t n, \
                      NativeWalk walk = NativeWalk::runs);
TS_SKEL_NATIVE_DECLARE(CpuTag)
TS_SKEL_NATIVE_DECLARE(OpenCLTag)
TS_SKEL_NATIVE_DECLARE(CudaTag)
#undef TS_SKEL_NATIVE_DECLARE

}  // namespace tessera::skeleton::kernels
