// dense_point.h for C++ and CUDA, once per precision (core/kernels/each_precision.h).
#pragma once
#include "core/kernels/portable.h"
#include "dense/kernels/dense_params.h"  // at file scope: its structs are templates

namespace tessera::dense::point {
#define TS_POINT_HEADER "dense/kernels/dense_point.h"
#include "core/kernels/each_precision.h"
}  // namespace tessera::dense::point
