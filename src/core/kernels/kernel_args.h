/* One argument list per kernel (C99 subset; OpenCL C, CUDA and C++).
 *
 * A kernel's arguments are written once, as an X-macro next to its body in the
 * module's per-point header:
 *
 *   #define TS_ARGS_ew(V, IN, OUT) V(ts_value, s) V(int, op) IN(ts_value, x) OUT(ts_value, y)
 *   TS_ITEM(ew, i) { y[i] = ts_ew_apply(op, s, x[i]); }
 *
 * ts_value is the element type a kernel is instantiated for: ts_real (float,
 * double) in most modules, a complex pair (members .x, .y) where a module
 * lists complex types too (sparse); ts_real is then its real part.
 *
 * V(type, name)   a value copied to the kernel: a scalar or a parameter
 *                 struct (TS_PARAMS_STRUCT below);
 * IN(elem, name)  a global array of elem the kernel only reads, and never
 *                 through memory the kernel writes (restrict);
 * IN(elem, name, TS_ALIASED)  one it only reads but that may be memory the
 *                 kernel also writes (an output updated in place reads its
 *                 old values here): not restrict;
 * OUT(elem, name) a global array of elem the kernel writes (it may also read).
 *
 * Everything else is generated from that list: the item function's signature
 * (TS_ITEM), the OpenCL __kernel wrappers (TS_CL_KERNEL, below),
 * and the host launchers of every backend (core/launch/), whose
 * arguments are the list's values and Buffer<elem>s in the list's order.
 *
 * Three shapes of kernel:
 *   TS_ITEM(K, i)        body run once per item i of [0, n), in any order and
 *                        concurrently: the CPU's OpenMP loop, a grid-stride
 *                        loop on CUDA and OpenCL;
 *   TS_CELL(K, i, j, k)  body run once per cell of an nx x ny x nz box, in
 *                        any order and concurrently (GPUs: 2D work-groups
 *                        over (i, j), one plane k each);
 *   TS_GROUP(K, g, s)    body run once per work-item of g.count work-groups of
 *                        a fixed size (GPUs only), with the group's local
 *                        scratch array s and TS_BARRIER(); for tiled kernels
 *                        and reduction trees. The CPU oracle of such a kernel
 *                        is the module's own loop.
 */
#ifndef TESSERA_KERNEL_ARGS_H
#define TESSERA_KERNEL_ARGS_H

#include "core/kernels/portable.h"

#if defined(__OPENCL_VERSION__)
typedef ulong ts_size;
typedef uint ts_uint;
#else
#include <stdint.h>
typedef uint64_t ts_size;
typedef uint32_t ts_uint;
#endif

/* A kernel's read-only arrays (IN) are never the array it writes: their
 * loads may move past its stores and take the read-only path. OpenCL
 * programs built with -DTS_CL_NO_RESTRICT (TESSERA_CL_OPTIONS) go without,
 * to time the difference. */
#if defined(__CUDACC__)
#define TS_RESTRICT __restrict__
#elif defined(__OPENCL_VERSION__) && !defined(TS_CL_NO_RESTRICT)
#define TS_RESTRICT restrict
#else
#define TS_RESTRICT
#endif

#define TS_ALIASED

/* A kernel list's occupancy that caps a cells kernel's registers at n. */
#define TS_MAX_REGISTERS(n) (-(n))

/* x where CUDA compiles, 0 elsewhere: an occupancy a module gives its CUDA
 * kernels only (kernel lists, below). */
#if defined(__CUDACC__)
#define TS_ON_CUDA(x) (x)
#else
#define TS_ON_CUDA(x) 0
#endif

/* Where a work-item stands in a TS_GROUP kernel. */
typedef struct {
  ts_size id;    /* this group, 0 .. count-1 */
  ts_size count; /* groups launched (along x) */
  ts_size id_y;  /* this group along y and z, where a launch spans them */
  ts_size id_z;  /*   (launch::Groups::count_y, count_z; else 0) */
  ts_uint lid;   /* this work-item in its group, 0 .. size-1 */
  ts_uint lx;    /* ... in a group of kind group_xy: its x and y, lid = lx + ly * x size; */
  ts_uint ly;    /*   (else lx = lid, ly = 0) */
  ts_uint size;  /* work-items per group */
  ts_uint sx;    /* ... of them along x and y (size and 1 for a 1D group) */
  ts_uint sy;
  int variant; /* the compile-time variant (below), 0 for a kernel without */
} ts_group;

/* Parameter structs: scalars that travel together, declared once and usable
 * in per-point headers, OpenCL and CUDA. In C++ and CUDA a template on the
 * precision (TS_STRUCT(name) is name<ts_value>, the kernel's element type); in OpenCL a plain struct of
 * the program's precision. Declare them in a guarded header included at file
 * scope (before the per-precision passes), with fixed-size fields (ts_size,
 * int, ts_uint, ts_real), widest first, so that host and OpenCL device agree
 * on the layout (dense's ts_ew_params and ts_fold_params: the dense tests on
 * every OpenCL device would see a disagreement). A struct without ts_real
 * fields is a plain C typedef instead, the same type for every element type
 * (sparse's ts_spmv_params). */
#if defined(__OPENCL_VERSION__)
#define TS_PARAMS_STRUCT(name) \
  typedef struct name name;    \
  struct name
#define TS_STRUCT(name) name
#else
#define TS_PARAMS_STRUCT(name) \
  template <class ts_real>     \
  struct name
#define TS_STRUCT(name) name<ts_value>
#endif

/* The list, expanded as parameters and as names (each with a leading comma:
 * every generated signature starts with a fixed first parameter). */
/* IN takes an optional third argument (TS_ALIASED: no restrict), so its
 * generators are variadic: TS_IN_(M, elem, name, qualifier) hands M the
 * qualifier given or TS_RESTRICT. */
#define TS_IN_ARGS(M, elem, ...) TS_IN_PICK(M, elem, __VA_ARGS__, TS_RESTRICT, ~)
#define TS_IN_PICK(M, elem, name, qualifier, ...) M(elem, name, qualifier)
#define TS_P_VALUE(type, name) , type name
#define TS_P_IN(elem, ...) TS_IN_ARGS(TS_P_IN_, elem, __VA_ARGS__)
#define TS_P_IN_(elem, name, qualifier) , TS_GLOBAL const elem* qualifier name
#define TS_P_OUT(elem, name) , TS_GLOBAL elem* name
#define TS_P_NAME(type, name) , name
#define TS_P_IN_NAME(elem, ...) TS_IN_ARGS(TS_P_IN_NAME_, elem, __VA_ARGS__)
#define TS_P_IN_NAME_(elem, name, qualifier) , name
#define TS_PARAMS(K) TS_ARGS_##K(TS_P_VALUE, TS_P_IN, TS_P_OUT)
#define TS_NAMES(K) TS_ARGS_##K(TS_P_NAME, TS_P_IN_NAME, TS_P_NAME)

/* An OpenCL __kernel wrapper takes each array as its buffer and hands the
 * kernel's body the array. A launch whose arrays include a tile of a larger
 * buffer (launch::In, Out from an offset) builds the program with
 * -DTS_CL_OFFSETS=1: then each array also takes its offset in elements, and
 * the body gets the array from there. Other launches go without: an offset
 * costs every work-item a parameter load and a 64-bit address add per array
 * (8% of the thesis stencil's time on NVIDIA's OpenCL). */
#if defined(TS_CL_OFFSETS)
#define TS_CL_P_IN_(elem, name, qualifier) \
  , TS_GLOBAL const elem *qualifier name##_base, ulong name##_off
#define TS_CL_P_OUT(elem, name) , TS_GLOBAL elem *name##_base, ulong name##_off
#define TS_CL_P_FROM(elem, name) , name##_base + name##_off
#define TS_CL_P_IN_FROM_(elem, name, qualifier) , name##_base + name##_off
#else
#define TS_CL_P_IN_(elem, name, qualifier) , TS_GLOBAL const elem* qualifier name##_base
#define TS_CL_P_OUT(elem, name) , TS_GLOBAL elem* name##_base
#define TS_CL_P_FROM(elem, name) , name##_base
#define TS_CL_P_IN_FROM_(elem, name, qualifier) , name##_base
#endif
#define TS_CL_P_IN(elem, ...) TS_IN_ARGS(TS_CL_P_IN_, elem, __VA_ARGS__)
#define TS_CL_P_IN_FROM(elem, ...) TS_IN_ARGS(TS_CL_P_IN_FROM_, elem, __VA_ARGS__)
#define TS_CL_PARAMS(K) TS_ARGS_##K(TS_P_VALUE, TS_CL_P_IN, TS_CL_P_OUT)
#define TS_CL_NAMES(K) TS_ARGS_##K(TS_P_NAME, TS_CL_P_IN_FROM, TS_CL_P_FROM)

#define TS_ITEM(K, i) TS_FN void K##_item(ts_size i TS_PARAMS(K))
#if defined(__OPENCL_VERSION__)
#define TS_CELL(K, i, j, k) TS_FN void K##_cell(long i, long j, long k TS_PARAMS(K))
#else
/* In C++ and CUDA a cell body's first parameter says which variants it
 * serves: any (ts_any_variant, the default), or the one of the pass that
 * defines it (core/kernels/variant_pass.h: a point header compiled once per
 * variant, as OpenCL builds its program once per -DTS_VARIANT). The
 * launchers pass ts_variant_tag<v> for the variant launched, so overload
 * resolution picks that pass's body. */
template <int V>
struct ts_variant_tag {};
struct ts_any_variant {
  template <int V>
  TS_FN constexpr ts_any_variant(ts_variant_tag<V>) {}  // NOLINT: every variant converts
};
#define TS_CELL_TAG ts_any_variant
#define TS_CELL(K, i, j, k) TS_FN void K##_cell(TS_CELL_TAG, long i, long j, long k TS_PARAMS(K))
#endif
#define TS_GROUP(K, g, s) TS_FN void K##_group(ts_group g, TS_LOCAL ts_value* s TS_PARAMS(K))

/* A module lists its kernels once, as X(kind, name, threads, scratch, occupancy, variants):
 *   #define TS_DENSE_KERNELS(X) X(each, ew, 0, 0, 0, TS_NO_VARIANTS) ...
 * kind each:          a TS_ITEM kernel, a grid-stride loop over the items
 *                     (threads, scratch: 0);
 * kind each_one:      a TS_ITEM kernel, one work-item per item (for items of
 *                     uneven cost, such as sparse rows: the GPU's scheduler
 *                     balances many short-lived groups better than a fixed
 *                     stride);
 * kind group:         a TS_GROUP kernel of `threads` work-items per group and
 *                     `scratch` (>= 1) elements of ts_value local memory;
 * kind group_dynamic: the same with the scratch size given at launch;
 * kind group_sized:   threads and scratch both given at launch (threads 0);
 * kind group_sized_xy: the same with 2D groups, threads (x, y) given at
 *                     launch (launch::Groups::threads, threads_y): tiles
 *                     of a shape the user chooses;
 * kind group_xy:      a TS_GROUP kernel whose groups are 2D, threads written
 *                     (x, y): work-items find their (g.lx, g.ly) without a
 *                     division (which costs registers a tile kernel needs);
 * kind cells:         a TS_CELL kernel over a box given at launch with its
 *                     work-group shape (threads: the most work-items of a
 *                     group, for CUDA's __launch_bounds__; scratch 0).
 * occupancy: 0, or the work-groups per compute unit a group or cells kernel's
 * register budget is cut for (CUDA __launch_bounds__, NVIDIA OpenCL
 * -cl-nv-maxrregcount), or for a cells kernel TS_MAX_REGISTERS(n), a cap of
 * n registers a work-item (__maxnreg__); an expression that may use ts_value
 * and ts_variant (TS_ON_CUDA(x): for CUDA only). A cells kernel of threads
 * 0 and occupancy 0 has no bound at all (the compiler's register choice).
 * variants: TS_NO_VARIANTS, or TS_VARIANTS(v1, v2, ...) for a group or cells
 * kernel compiled once per value of ts_variant (a CUDA template argument, an
 * OpenCL -DTS_VARIANT=v; a group body sees it as g.variant), so that a loop
 * bound or block size in it is a constant; the launch picks one
 * (launch::Groups::variant, launch::Cells::variant).
 * Each backend expands the list with its own generator: in an OpenCL program
 * TS_DENSE_KERNELS(TS_CL_KERNEL); on the host core/launch/launch_*.hpp. */
#define TS_CL_KERNEL(kind, K, THREADS, SCRATCH, OCCUPANCY, VARIANTS) \
  TS_CL_##kind(K, THREADS, SCRATCH)
/* The x and y of a group_xy kernel's threads (x, y). */
#define TS_XY_X(xy) TS_XY_X_ xy
#define TS_XY_X_(x, y) (x)
#define TS_XY_Y(xy) TS_XY_Y_ xy
#define TS_XY_Y_(x, y) (y)

#if defined(__OPENCL_VERSION__)
#ifndef TS_VARIANT
#define TS_VARIANT 0
#endif
/* the variant as the list's scratch and occupancy expressions name it */
#define ts_variant TS_VARIANT
#define TS_CL_each(K, THREADS, SCRATCH)                                          \
  __kernel void K(ulong ts_n TS_CL_PARAMS(K)) {                                  \
    for (ulong ts_i = get_global_id(0); ts_i < ts_n; ts_i += get_global_size(0)) \
      K##_item(ts_i TS_CL_NAMES(K));                                             \
  }
#define TS_CL_each_one(K, THREADS, SCRATCH)         \
  __kernel void K(ulong ts_n TS_CL_PARAMS(K)) {     \
    const ulong ts_i = get_global_id(0);            \
    if (ts_i < ts_n) K##_item(ts_i TS_CL_NAMES(K)); \
  }
/* The range's z is the box's (groups are one plane deep), so only x and y
 * are checked, as CUDA does. */
#define TS_CL_cells(K, THREADS, SCRATCH)                                                  \
  __kernel void K(long ts_nx, long ts_ny, long ts_nz TS_CL_PARAMS(K)) {                   \
    const long ts_i = get_global_id(0), ts_j = get_global_id(1), ts_k = get_global_id(2); \
    if (ts_i < ts_nx && ts_j < ts_ny) K##_cell(ts_i, ts_j, ts_k TS_CL_NAMES(K));          \
  }
/* The work-item's place (ts_group) and the call of the group body: LX, LY
 * its x and y in the group, LID its index (it may name ts_g.lx, ts_g.ly),
 * SIZE the group's work-items. */
#define TS_CL_GROUP_CALL(K, LX, LY, LID, SIZE) \
  ts_group ts_g;                               \
  ts_g.id = get_group_id(0);                   \
  ts_g.count = ts_n;                           \
  ts_g.id_y = get_group_id(1);                 \
  ts_g.id_z = get_group_id(2);                 \
  ts_g.lx = LX;                                \
  ts_g.ly = LY;                                \
  ts_g.lid = LID;                              \
  ts_g.size = SIZE;                            \
  ts_g.sx = (ts_uint)get_local_size(0);        \
  ts_g.sy = (ts_uint)get_local_size(1);        \
  ts_g.variant = TS_VARIANT;                   \
  K##_group(ts_g, ts_scratch TS_CL_NAMES(K));
/* SIZE: the group's work-items, a constant where the list fixes it (loops
 * over the group unroll) */
#define TS_CL_GROUP_BODY(K, SIZE) \
  TS_CL_GROUP_CALL(K, (ts_uint)get_local_id(0), 0, (ts_uint)get_local_id(0), (ts_uint)(SIZE))
/* A kernel of WX x WY work-items per group with a static scratch array. */
#define TS_CL_STATIC_GROUP(K, WX, WY, SCRATCH, CALL)                                             \
  __kernel __attribute__((reqd_work_group_size(WX, WY, 1))) void K(ulong ts_n TS_CL_PARAMS(K)) { \
    __local ts_value ts_scratch[SCRATCH] __attribute__((aligned(16)));                           \
    CALL                                                                                         \
  }
#define TS_CL_group(K, THREADS, SCRATCH) \
  TS_CL_STATIC_GROUP(K, THREADS, 1, SCRATCH, TS_CL_GROUP_BODY(K, THREADS))
#define TS_CL_group_xy(K, THREADS, SCRATCH)                                   \
  TS_CL_STATIC_GROUP(                                                         \
      K, TS_XY_X(THREADS), TS_XY_Y(THREADS), SCRATCH,                         \
      TS_CL_GROUP_CALL(K, (ts_uint)get_local_id(0), (ts_uint)get_local_id(1), \
                       ts_g.lx + ts_g.ly * TS_XY_X(THREADS), TS_XY_X(THREADS) * TS_XY_Y(THREADS)))
#define TS_CL_group_dynamic(K, THREADS, SCRATCH)                        \
  __kernel __attribute__((reqd_work_group_size(THREADS, 1, 1))) void K( \
      ulong ts_n, __local ts_value* ts_scratch TS_CL_PARAMS(K)) {       \
    TS_CL_GROUP_BODY(K, THREADS)                                        \
  }
#define TS_CL_group_sized(K, THREADS, SCRATCH)                                \
  __kernel void K(ulong ts_n, __local ts_value* ts_scratch TS_CL_PARAMS(K)) { \
    TS_CL_GROUP_BODY(K, get_local_size(0))                                    \
  }
#define TS_CL_group_sized_xy(K, THREADS, SCRATCH)                             \
  __kernel void K(ulong ts_n, __local ts_value* ts_scratch TS_CL_PARAMS(K)) { \
    TS_CL_GROUP_CALL(K, (ts_uint)get_local_id(0), (ts_uint)get_local_id(1),   \
                     ts_g.lx + ts_g.ly * (ts_uint)get_local_size(0),          \
                     (ts_uint)(get_local_size(0) * get_local_size(1)))        \
  }
#endif

#endif /* TESSERA_KERNEL_ARGS_H */
