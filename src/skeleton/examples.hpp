// The built-in user functions of the examples, tests and benchmarks: the C99
// per-point functions of kernels/skel_examples_*.h as C++ functors (CPU and
// CUDA; instantiated for CUDA in kernels/skel_examples_cuda.cu) and, from the
// very same text, as OpenCL C source (ClFunction). portable_*() pair them.
#pragma once
#include <cstdint>

#include "core/embedded_sources.hpp"
#include "core/kernels/portable.h"
#include "skeleton/extents.hpp"
#include "skeleton/kernels/skel_ops.hpp"
#include "skeleton/user_function.hpp"

namespace tessera::skeleton::examples {

namespace point {
#define ts_real float
#include "skeleton/kernels/skel_examples_point.h"
#undef ts_real
#define ts_real double
#include "skeleton/kernels/skel_examples_point.h"
#undef ts_real
#include "skeleton/kernels/skel_da_example.h"
}  // namespace point

namespace stencil {
#include "skeleton/kernels/skel_access.h"
#define ts_real typename TsStencil::value_type
#include "skeleton/kernels/skel_examples_stencil.h"
#undef ts_real
}  // namespace stencil

// ---- C++ functors (TS_FN: host and device) ----
struct Affine {
  template <class T>
  TS_FN T operator()(T v) const {
    return point::ts_skel_affine(v);
  }
};
struct Wave {
  template <class T>
  TS_FN T operator()(index_t x, T v) const {
    return point::ts_skel_wave1(x, v);
  }
  template <class T>
  TS_FN T operator()(index_t x, index_t y, T v) const {
    return point::ts_skel_wave2(x, y, v);
  }
  template <class T>
  TS_FN T operator()(index_t x, index_t y, index_t z, T v) const {
    return point::ts_skel_wave3(x, y, z, v);
  }
};
struct Axpy {
  template <class T>
  TS_FN T operator()(T a, T b) const {
    return point::ts_skel_axpy(a, b);
  }
};
struct AxpyAt {
  template <class T>
  TS_FN T operator()(index_t x, index_t y, index_t z, T a, T b) const {
    return point::ts_skel_axpy_at(x, y, z, a, b);
  }
};
struct Add {
  template <class T>
  TS_FN T operator()(T a, T b) const {
    return point::ts_skel_add(a, b);
  }
};
struct Max {
  template <class T>
  TS_FN T operator()(T a, T b) const {
    return point::ts_skel_max(a, b);
  }
};
struct Ramp {
  template <class T>
  TS_FN T operator()(index_t x, index_t y, index_t z, T neutral) const {
    return point::ts_skel_ramp(x, y, z, neutral);
  }
};
/// Muesli listing 2.2: Sum (mapIndex) and Product (zipInPlace) on int.
struct DaSum {
  TS_FN int operator()(index_t i, int v) const { return point::ts_skel_da_sum(i, v); }
};
struct DaProduct {
  TS_FN int operator()(int a, int b) const { return point::ts_skel_da_product(a, b); }
};
/// Integer sum for exact folds.
struct IntAdd {
  template <class T>
  TS_FN T operator()(T a, T b) const {
    return T(a + b);
  }
};
/// v + 1 for any arithmetic type (element types of different sizes).
struct Increment {
  template <class T>
  TS_FN T operator()(T v) const {
    return T(v + T(1));
  }
};
/// A 12-byte element type (structure) and a map on it (C++ backends only).
struct Vec3 {
  float x, y, z;
};
struct Vec3Rotate {
  TS_FN Vec3 operator()(Vec3 v) const { return Vec3{v.y, v.z, v.x * 2.0f}; }
};

#define TS_SKEL_STENCIL_FUNCTOR(Name, fn)                       \
  struct Name {                                                 \
    template <class S>                                          \
    TS_FN typename S::value_type operator()(const S& s) const { \
      return stencil::fn(s);                                    \
    }                                                           \
  };
TS_SKEL_STENCIL_FUNCTOR(Jacobi5, ts_skel_jacobi5)
TS_SKEL_STENCIL_FUNCTOR(Heat7, ts_skel_heat7)
TS_SKEL_STENCIL_FUNCTOR(Blur27, ts_skel_blur27)
TS_SKEL_STENCIL_FUNCTOR(Star1, ts_skel_star1)
TS_SKEL_STENCIL_FUNCTOR(Star2, ts_skel_star2)
TS_SKEL_STENCIL_FUNCTOR(Star3, ts_skel_star3)
TS_SKEL_STENCIL_FUNCTOR(Star312, ts_skel_star312)
#undef TS_SKEL_STENCIL_FUNCTOR

}  // namespace tessera::skeleton::examples

// Instantiated for CUDA in kernels/skel_examples_cuda.cu.
TS_SKEL_CUDA_ENABLE(tessera::skeleton::examples::Affine)
TS_SKEL_CUDA_ENABLE(tessera::skeleton::examples::Wave)
TS_SKEL_CUDA_ENABLE(tessera::skeleton::examples::Axpy)
TS_SKEL_CUDA_ENABLE(tessera::skeleton::examples::AxpyAt)
TS_SKEL_CUDA_ENABLE(tessera::skeleton::examples::Add)
TS_SKEL_CUDA_ENABLE(tessera::skeleton::examples::Max)
TS_SKEL_CUDA_ENABLE(tessera::skeleton::examples::Ramp)
TS_SKEL_CUDA_ENABLE(tessera::skeleton::examples::DaSum)
TS_SKEL_CUDA_ENABLE(tessera::skeleton::examples::DaProduct)
TS_SKEL_CUDA_ENABLE(tessera::skeleton::examples::IntAdd)
TS_SKEL_CUDA_ENABLE(tessera::skeleton::examples::Increment)
TS_SKEL_CUDA_ENABLE(tessera::skeleton::examples::Vec3Rotate)
TS_SKEL_CUDA_ENABLE(tessera::skeleton::examples::Jacobi5)
TS_SKEL_CUDA_ENABLE(tessera::skeleton::examples::Heat7)
TS_SKEL_CUDA_ENABLE(tessera::skeleton::examples::Blur27)
TS_SKEL_CUDA_ENABLE(tessera::skeleton::examples::Star1)
TS_SKEL_CUDA_ENABLE(tessera::skeleton::examples::Star2)
TS_SKEL_CUDA_ENABLE(tessera::skeleton::examples::Star3)
TS_SKEL_CUDA_ENABLE(tessera::skeleton::examples::Star312)

namespace tessera::skeleton::examples {

// ---- the same functions as OpenCL C source (the embedded header text) ----
inline ClFunction cl_point(const char* name) {
  return {std::string(embedded_source("skeleton/kernels/skel_examples_point.h")), name,
          "skeleton/kernels/skel_examples_point.h"};
}
inline ClFunction cl_stencil(const char* name) {
  return {std::string(embedded_source("skeleton/kernels/skel_examples_stencil.h")), name,
          "skeleton/kernels/skel_examples_stencil.h"};
}
inline ClFunction cl_da(const char* name) {
  return {std::string(embedded_source("skeleton/kernels/skel_da_example.h")), name,
          "skeleton/kernels/skel_da_example.h"};
}

}  // namespace tessera::skeleton::examples
