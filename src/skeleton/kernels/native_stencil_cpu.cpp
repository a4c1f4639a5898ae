// CPU hand-written baseline stencils (OpenMP over z and y).
#include <fmt/format.h>

#include "backends/cpu/cpu_device.hpp"
#include "skeleton/examples.hpp"
#include "skeleton/kernels/native_stencil.hpp"

namespace tessera::skeleton::kernels {

void check_native(int points, NativeWalk walk) {
  if (points != 7 && points != 27)
    throw UsageError(fmt::format("hand-written stencil: {} points (7 or 27)", points));
  if (walk == NativeWalk::march && points != 7)
    throw UsageError(
        "hand-written stencil: the register march exists for the 7-point stencil only");
}

template <class T>
void native_stencil(CpuTag, Queue&, int points, const Buffer<T>& in, Buffer<T>& out, index_t n,
                    NativeWalk walk) {
  check_native(points, walk);
  const index_t sy = n + 2, sz = sy * sy;
  const T* a = cpu::ptr<const T>(in.handle());
  T* b = cpu::ptr<T>(out.handle());
#pragma omp parallel for collapse(2) schedule(static)
  for (index_t z = 1; z <= n; ++z)
    for (index_t y = 1; y <= n; ++y)
      for (index_t x = 1; x <= n; ++x) {
        const index_t c = z * sz + y * sy + x;
        const RawAccess<T> s{a + c, sy, sz};
        b[c] = points == 7 ? examples::stencil::ts_skel_heat7(s)
                           : examples::stencil::ts_skel_blur27(s);
      }
}

template <class T>
void native_stencil(OpenCLTag, Queue&, int, const Buffer<T>&, Buffer<T>&, index_t, NativeWalk) {
  throw UsageError("the hand-written baseline stencil exists for the CPU and CUDA only");
}

template void native_stencil<float>(CpuTag, Queue&, int, const Buffer<float>&, Buffer<float>&,
                                    index_t, NativeWalk);
template void native_stencil<double>(CpuTag, Queue&, int, const Buffer<double>&, Buffer<double>&,
                                     index_t, NativeWalk);
template void native_stencil<float>(OpenCLTag, Queue&, int, const Buffer<float>&, Buffer<float>&,
                                    index_t, NativeWalk);
template void native_stencil<double>(OpenCLTag, Queue&, int, const Buffer<double>&, Buffer<double>&,
                                     index_t, NativeWalk);

}  // namespace tessera::skeleton::kernels
