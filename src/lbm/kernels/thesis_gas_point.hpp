// thesis_gas_point.h for C++ and CUDA (float only), and the kernels of
// thesis_gas_kernel_list.h once per layout variant.
#pragma once
#include <cstring>

#include "core/kernels/bits.h"  // before the namespaces: shared, guarded
#include "lbm/kernels/thesis_gas_params.h"
#include "core/kernels/portable.h"

namespace tessera::lbm::thesis_point {
#include "lbm/kernels/thesis_gas_point.h"
#define TS_VARIANT_HEADER "lbm/kernels/thesis_gas_kernel_list.h"
#define TS_VARIANT 0
#include "core/kernels/variant_pass.h"
#define TS_VARIANT 1
#include "core/kernels/variant_pass.h"
#undef TS_VARIANT_HEADER
}  // namespace tessera::lbm::thesis_point
