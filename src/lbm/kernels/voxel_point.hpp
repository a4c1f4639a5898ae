// voxel_point.h for C++ and CUDA (no precision of its own: integers and
// double), with the kernel list's scalars at file scope.
#pragma once
#include <cmath>

#include "core/kernels/portable.h"
#include "lbm/kernels/voxel_params.h"

namespace tessera::lbm::voxel_point {
#include "lbm/kernels/voxel_point.h"
}  // namespace tessera::lbm::voxel_point
