/* One variant's pass of a point header in C++ and CUDA, as OpenCL builds a
 * program once per -DTS_VARIANT=v: for a kernel whose variants differ in
 * more than a constant (a lattice's velocity set, a storage type), so that
 * the header selects with the preprocessor.
 *
 *   #define TS_VARIANT 19
 *   #define TS_VARIANT_HEADER "lbm/kernels/lbm_variant.h"
 *   #include "core/kernels/variant_pass.h"
 *
 * puts the header's definitions in namespace variant_19, makes them visible
 * to the enclosing namespace (using namespace), and tags its cell bodies
 * (TS_CELL, kernel_args.h) with ts_variant_tag<19>, so that the launcher of
 * variant 19 calls them and no other. Functions of several passes that have
 * the same signature are ambiguous outside their own pass: call them through
 * their namespace there. TS_VARIANT is undefined after. */
#ifndef TS_VARIANT
#error "define TS_VARIANT before including core/kernels/variant_pass.h"
#endif
#ifndef TS_VARIANT_HEADER
#error "define TS_VARIANT_HEADER before including core/kernels/variant_pass.h"
#endif
#define TS_VARIANT_NS_(v) variant_##v
#define TS_VARIANT_NS(v) TS_VARIANT_NS_(v)

#pragma push_macro("TS_CELL_TAG")
#undef TS_CELL_TAG
#define TS_CELL_TAG ts_variant_tag<TS_VARIANT>
namespace TS_VARIANT_NS(TS_VARIANT) {
#include TS_VARIANT_HEADER
}  // namespace TS_VARIANT_NS(TS_VARIANT)
using namespace TS_VARIANT_NS(TS_VARIANT);  // NOLINT: the pass's cell bodies join the overloads
#pragma pop_macro("TS_CELL_TAG")
#undef TS_VARIANT
