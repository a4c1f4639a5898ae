// CUDA instantiations of the skeleton operations for the built-in user
// functions (examples.hpp), so that .cpp code (tests, `tessera skel-demo`,
// the benchmark) and the Python module (zip and fold of add, max and axpy)
// can run them on GPUs. A user's own functor gets the same lines in the
// user's .cu file. A combination called but not listed here is an undefined
// symbol: the Python module's build refuses one (cmake/check_undefined.cmake).
#include "skeleton/examples.hpp"
#include "skeleton/kernels/skel_cuda.cuh"

namespace ex = tessera::skeleton::examples;
using tessera::skeleton::kernels::NoBoundaryFunction;

#define TS_SKEL_REAL_EXAMPLES(T)                           \
  TS_SKEL_CUDA_MAP(ex::Affine, T, T, 0)                    \
  TS_SKEL_CUDA_MAP(ex::Increment, T, T, 0)                 \
  TS_SKEL_CUDA_MAP_INDEX(ex::Wave, T, T, 1)                \
  TS_SKEL_CUDA_MAP_INDEX(ex::Wave, T, T, 2)                \
  TS_SKEL_CUDA_MAP_INDEX(ex::Wave, T, T, 3)                \
  TS_SKEL_CUDA_ZIP(ex::Axpy, T, T, T, 0)                   \
  TS_SKEL_CUDA_ZIP(ex::Add, T, T, T, 0)                    \
  TS_SKEL_CUDA_ZIP(ex::Max, T, T, T, 0)                    \
  TS_SKEL_CUDA_ZIP_INDEX(ex::AxpyAt, T, T, T, 3)           \
  TS_SKEL_CUDA_FOLD(ex::Add, T)                            \
  TS_SKEL_CUDA_FOLD(ex::Max, T)                            \
  TS_SKEL_CUDA_FOLD(ex::Axpy, T)                           \
  TS_SKEL_CUDA_STENCIL(ex::Jacobi5, T, NoBoundaryFunction) \
  TS_SKEL_CUDA_STENCIL(ex::Heat7, T, NoBoundaryFunction)   \
  TS_SKEL_CUDA_STENCIL(ex::Blur27, T, NoBoundaryFunction)  \
  TS_SKEL_CUDA_STENCIL(ex::Star1, T, NoBoundaryFunction)   \
  TS_SKEL_CUDA_STENCIL(ex::Star2, T, NoBoundaryFunction)   \
  TS_SKEL_CUDA_STENCIL(ex::Star3, T, NoBoundaryFunction)   \
  TS_SKEL_CUDA_STENCIL(ex::Star312, T, NoBoundaryFunction) \
  TS_SKEL_CUDA_STENCIL_BOUNDARY(ex::Jacobi5, T, ex::Ramp)  \
  TS_SKEL_CUDA_STENCIL_BOUNDARY(ex::Heat7, T, ex::Ramp)    \
  TS_SKEL_CUDA_STENCIL_BOUNDARY(ex::Blur27, T, ex::Ramp)   \
  TS_SKEL_CUDA_STENCIL_BOUNDARY(ex::Star1, T, ex::Ramp)    \
  TS_SKEL_CUDA_STENCIL_BOUNDARY(ex::Star2, T, ex::Ramp)    \
  TS_SKEL_CUDA_STENCIL_BOUNDARY(ex::Star3, T, ex::Ramp)    \
  TS_SKEL_CUDA_STENCIL_BOUNDARY(ex::Star312, T, ex::Ramp)

TS_SKEL_REAL_EXAMPLES(float)
TS_SKEL_REAL_EXAMPLES(double)

// The thesis's DA example (int) and element types of other sizes.
TS_SKEL_CUDA_MAP_INDEX(ex::DaSum, int, int, 1)
TS_SKEL_CUDA_ZIP(ex::DaProduct, int, int, int, 0)
TS_SKEL_CUDA_FOLD(ex::IntAdd, int)
TS_SKEL_CUDA_FOLD(ex::IntAdd, std::int64_t)
TS_SKEL_CUDA_MAP(ex::Increment, std::int8_t, std::int8_t, 0)
TS_SKEL_CUDA_MAP(ex::Increment, std::int16_t, std::int16_t, 0)
TS_SKEL_CUDA_MAP(ex::Increment, int, int, 0)
TS_SKEL_CUDA_MAP(ex::Increment, std::int64_t, std::int64_t, 0)
TS_SKEL_CUDA_MAP(ex::Vec3Rotate, ex::Vec3, ex::Vec3, 0)
