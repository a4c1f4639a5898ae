/* The one precision idiom of C++ and CUDA: a per-point header is included
 * once per precision, giving float and double overloads of every function
 * (ts_value, the element type of kernel_args.h, is ts_real there).
 *
 *   namespace tessera::dense::point {
 *   #define TS_POINT_HEADER "dense/kernels/dense_point.h"
 *   #include "core/kernels/each_precision.h"
 *   }
 *
 * The double pass defines TS_DOUBLE, as OpenCL's double programs do.
 * TS_POINT_HEADER2 and TS_POINT_HEADER3, where defined, follow it in each
 * precision (headers that build on the first one's functions).
 *
 * OpenCL builds a program once per precision instead, with the options of
 * core/launch/launch_opencl.hpp (-Dts_real=float -Dts_pack=float4 -DTS_PACK=4
 * or the double equivalents). CUDA translation units see 16-byte packs, C++
 * ones TS_PACK 1; the two sets live in different inline namespaces so that a
 * function of the same name and arguments never means two bodies. */
#ifndef TESSERA_PORTABLE_H
#error "include core/kernels/portable.h at file scope before core/kernels/each_precision.h"
#endif
#ifndef TS_POINT_HEADER
#error "define TS_POINT_HEADER before including core/kernels/each_precision.h"
#endif

/* ts_narrow: the storage at half the width of ts_real (binary16 bits for
 * float, float for double; core/kernels/narrow.h reads and writes it), for
 * arrays a kernel keeps compressed. The host's launchers name it too
 * (core/launch/launch.hpp), so its definition there is kept across the
 * passes. */
#pragma push_macro("ts_narrow")
#undef ts_narrow
#if defined(__CUDACC__)
inline namespace packs16 {
#define ts_real float
#define ts_value float
#define ts_pack float4
#define TS_PACK 4
#define ts_narrow unsigned short
#include "core/kernels/one_precision.h"
#define ts_real double
#define ts_value double
#define ts_pack double2
#define TS_PACK 2
#define ts_narrow float
#define TS_DOUBLE 1
#include "core/kernels/one_precision.h"
}  // namespace packs16
#else
inline namespace packs1 {
#define ts_real float
#define ts_value float
#define ts_pack float
#define TS_PACK 1
#define ts_narrow unsigned short
#include "core/kernels/one_precision.h"
#define ts_real double
#define ts_value double
#define ts_pack double
#define TS_PACK 1
#define ts_narrow float
#define TS_DOUBLE 1
#include "core/kernels/one_precision.h"
}  // namespace packs1
#endif

#pragma pop_macro("ts_narrow")
#undef TS_POINT_HEADER
#undef TS_POINT_HEADER2
#undef TS_POINT_HEADER3
