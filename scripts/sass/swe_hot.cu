// SASS counting harness for the shallow-water shared-face update
// (scripts/sass/swe-hot-count.sh): ts_swe_strip_shared without a Manning map, n a
// kernel argument (0 in `bench swe`: the friction branch is counted but not
// taken there) and the guards' slow paths replaced by a trap, so that the
// loop holds the hot path only. Never built by CMake.
#include "core/kernels/ieee_fast.h"
#include "core/kernels/ieee_check.h"
__device__ inline int hot_ok(float a, float b) {
  if (!ts_fast_ok_f(a, b)) __trap();
  return 1;
}
__device__ inline int hot_ok(double a, double b) {
  if (!ts_fast_ok_d(a, b)) __trap();
  return 1;
}
#undef ts_fast_ok
#define ts_fast_ok hot_ok
namespace hot {
#define ts_real float
#include "swe_strip_forced.h"
#undef ts_real
#define ts_real double
#include "swe_strip_forced.h"
#undef ts_real
}  // namespace hot
template <class T, int MB>
__global__ void __launch_bounds__(128, MB)
    hot_k(T g, T hd, T dx, T dy, T n, const T* sc, const T* Z, const T* N, const T* H, const T* HU,
          const T* HV, T* Hd, T* HUd, T* HVd, long nx, long ny, long w, long strip, int pf,
          unsigned* out) {
  __shared__ __align__(16) T xch[2 * 8 * 128];
  const long j = long(blockIdx.x) * 126 + threadIdx.x - 1, i0 = long(blockIdx.y) * strip;
  const long i1 = min(i0 + strip, nx);
  unsigned rmax = 0u, bad = 0xffffffffu;
  hot::ts_swe_strip_shared(g, hd, dx, dy, 0, n, sc[0], H, HU, HV, Z, N, Hd, HUd, HVd, nx, ny, w, j,
                           i0, i1, int(threadIdx.x), 128, pf, xch, &rmax, &bad);
  atomicMax(out, rmax);
  atomicMin(out + 1, bad);
}
template __global__ void hot_k<float, 8>(float, float, float, float, float, const float*,
                                         const float*, const float*, const float*, const float*,
                                         const float*, float*, float*, float*, long, long, long,
                                         long, int, unsigned*);
template __global__ void hot_k<double, 4>(double, double, double, double, double, const double*,
                                          const double*, const double*, const double*,
                                          const double*, const double*, double*, double*, double*,
                                          long, long, long, long, int, unsigned*);
