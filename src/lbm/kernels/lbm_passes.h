/* One precision's pass (core/kernels/each_precision.h) of the lattice
 * Boltzmann point code for C++ and CUDA: lbm_variant.h once per compiled
 * variant (lbm_params.h, lbm_kernel_list.h), in namespace f32 or f64. The
 * narrow (FP16S) variants are compiled for float only. */
#if defined(TS_DOUBLE)
namespace f64 {
#else
namespace f32 {
#endif
#define TS_VARIANT_HEADER "lbm/kernels/lbm_variant.h"
#define TS_VARIANT 9
#include "core/kernels/variant_pass.h"
#define TS_VARIANT 19
#include "core/kernels/variant_pass.h"
#define TS_VARIANT 27
#include "core/kernels/variant_pass.h"
#define TS_VARIANT 109
#include "core/kernels/variant_pass.h"
#define TS_VARIANT 119
#include "core/kernels/variant_pass.h"
#define TS_VARIANT 127
#include "core/kernels/variant_pass.h"
#if !defined(TS_DOUBLE)
#define TS_VARIANT 1009
#include "core/kernels/variant_pass.h"
#define TS_VARIANT 1019
#include "core/kernels/variant_pass.h"
#define TS_VARIANT 1027
#include "core/kernels/variant_pass.h"
#define TS_VARIANT 1109
#include "core/kernels/variant_pass.h"
#define TS_VARIANT 1119
#include "core/kernels/variant_pass.h"
#define TS_VARIANT 1127
#include "core/kernels/variant_pass.h"
#define TS_VARIANT 11019
#include "core/kernels/variant_pass.h"
#define TS_VARIANT 11119
#include "core/kernels/variant_pass.h"
#define TS_VARIANT 21019
#include "core/kernels/variant_pass.h"
#define TS_VARIANT 21119
#include "core/kernels/variant_pass.h"
#endif
#undef TS_VARIANT_HEADER
}  // namespace f32 / f64
#if defined(TS_DOUBLE)
using namespace f64;  // NOLINT: the passes' cell bodies join the overloads
#else
using namespace f32;  // NOLINT
#endif
