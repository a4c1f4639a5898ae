// CPU launcher of vector add. A CPU has no programmer-managed local memory
// (its caches stage every access by themselves), so all variants run this one
// loop; the benchmark shows that the GPUs' staged variants buy nothing either.
#include "backends/cpu/cpu_device.hpp"
#include "dense/kernels/dense_point.hpp"
#include "dense/kernels/vecadd_kernels.hpp"

namespace tessera::dense::kernels {

template <class T>
void vector_add(CpuTag, Queue&, VecAddVariant, const Buffer<T>& a, const Buffer<T>& b,
                Buffer<T>& c) {
  const T* ap = cpu::ptr<T>(a.handle());
  const T* bp = cpu::ptr<T>(b.handle());
  T* cp = cpu::ptr<T>(c.handle());
  const auto n = static_cast<std::ptrdiff_t>(c.size());
#pragma omp parallel for simd schedule(static)
  for (std::ptrdiff_t i = 0; i < n; ++i) cp[i] = point::ts_ew_add(T(0), ap[i], bp[i]);
}

#define TS_INSTANTIATE(T)                                                                        \
  template void vector_add<T>(CpuTag, Queue&, VecAddVariant, const Buffer<T>&, const Buffer<T>&, \
                              Buffer<T>&);
TS_INSTANTIATE(float)
TS_INSTANTIATE(double)
#undef TS_INSTANTIATE

}  // namespace tessera::dense::kernels
