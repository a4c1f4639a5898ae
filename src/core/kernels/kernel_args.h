/* One argument list per kernel (C99 subset; OpenCL C, CUDA and C++).
 *
 * A kernel's arguments are written once, as an X-macro next to its body in the
 * module's per-point header:
 *
 *   #define TS_ARGS_ew(V, IN, OUT) V(ts_real, s) V(int, op) IN(ts_real, x) OUT(ts_real, y)
 *   TS_ITEM(ew, i) { y[i] = ts_ew_apply(op, s, x[i]); }
 *
 * V(type, name)   a value copied to the kernel: a scalar or a parameter
 *                 struct (TS_PARAMS_STRUCT below);
 * IN(elem, name)  a global array of elem the kernel only reads;
 * OUT(elem, name) a global array of elem the kernel writes (it may also read).
 *
 * Everything else is generated from that list: the item function's signature
 * (TS_ITEM), the OpenCL __kernel wrappers (TS_CL_KERNEL, below),
 * and the host launchers of every backend (core/launch/), whose
 * arguments are the list's values and Buffer<elem>s in the list's order.
 *
 * Two shapes of kernel:
 *   TS_ITEM(K, i)        body run once per item i of [0, n), in any order and
 *                        concurrently: the CPU's OpenMP loop, a grid-stride
 *                        loop on CUDA and OpenCL;
 *   TS_GROUP(K, g, s)    body run once per work-item of g.count work-groups of
 *                        a fixed size (GPUs only), with the group's local
 *                        scratch array s and TS_BARRIER(); for tiled kernels
 *                        and reduction trees. The CPU oracle of such a kernel
 *                        is the module's own loop.
 */
#ifndef TESSERA_KERNEL_ARGS_H
#define TESSERA_KERNEL_ARGS_H

#if defined(__OPENCL_VERSION__)
typedef ulong ts_size;
typedef uint ts_uint;
#else
#include <stdint.h>
typedef uint64_t ts_size;
typedef uint32_t ts_uint;
#endif

#if defined(__CUDACC__)
#define TS_RESTRICT __restrict__
#else
#define TS_RESTRICT
#endif

/* Where a work-item stands in a TS_GROUP kernel. */
typedef struct {
  ts_size id;    /* this group, 0 .. count-1 */
  ts_size count; /* groups launched */
  ts_uint lid;   /* this work-item in its group, 0 .. threads-1 */
} ts_group;

/* Parameter structs: scalars that travel together, declared once and usable
 * in per-point headers, OpenCL and CUDA. In C++ and CUDA a template on the
 * precision (TS_STRUCT(name) is name<ts_real>); in OpenCL a plain struct of
 * the program's precision. Declare them in a guarded header included at file
 * scope (before the per-precision passes), with fixed-size fields (ts_size,
 * int, ts_uint, ts_real), widest first, so that host and OpenCL device agree
 * on the layout (dense's ts_ew_params and ts_fold_params: the dense tests on
 * every OpenCL device would see a disagreement). */
#if defined(__OPENCL_VERSION__)
#define TS_PARAMS_STRUCT(name) \
  typedef struct name name;    \
  struct name
#define TS_STRUCT(name) name
#else
#define TS_PARAMS_STRUCT(name) \
  template <class ts_real>     \
  struct name
#define TS_STRUCT(name) name<ts_real>
#endif

/* The list, expanded as parameters and as names (each with a leading comma:
 * every generated signature starts with a fixed first parameter). */
#define TS_P_VALUE(type, name) , type name
#define TS_P_IN(elem, name) , TS_GLOBAL const elem* TS_RESTRICT name
#define TS_P_OUT(elem, name) , TS_GLOBAL elem* name
#define TS_P_NAME(type, name) , name
#define TS_PARAMS(K) TS_ARGS_##K(TS_P_VALUE, TS_P_IN, TS_P_OUT)
#define TS_NAMES(K) TS_ARGS_##K(TS_P_NAME, TS_P_NAME, TS_P_NAME)

#define TS_ITEM(K, i) TS_FN void K##_item(ts_size i TS_PARAMS(K))
#define TS_GROUP(K, g, s) TS_FN void K##_group(ts_group g, TS_LOCAL ts_real* s TS_PARAMS(K))

/* A module lists its kernels once, as X(kind, name, threads, scratch, occupancy):
 *   #define TS_DENSE_KERNELS(X) X(each, ew, 0, 0, 0) X(group, reduce_chunks, 256, 256, 0)
 * kind each:          a TS_ITEM kernel (threads, scratch: 0);
 * kind group:         a TS_GROUP kernel of `threads` work-items per group and
 *                     `scratch` (>= 1) elements of ts_real local memory;
 * kind group_dynamic: the same with the scratch size given at launch.
 * occupancy: 0, or the work-groups per compute unit a group kernel's register
 * budget is cut for (CUDA __launch_bounds__, NVIDIA OpenCL
 * -cl-nv-maxrregcount); an expression that may use ts_real.
 * Each backend expands the list with its own generator: in an OpenCL program
 * TS_DENSE_KERNELS(TS_CL_KERNEL); on the host core/launch/launch_*.hpp. */
#define TS_CL_KERNEL(kind, K, THREADS, SCRATCH, OCCUPANCY) TS_CL_##kind(K, THREADS, SCRATCH)

#if defined(__OPENCL_VERSION__)
#define TS_CL_each(K, THREADS, SCRATCH)                                          \
  __kernel void K(ulong ts_n TS_PARAMS(K)) {                                     \
    for (ulong ts_i = get_global_id(0); ts_i < ts_n; ts_i += get_global_size(0)) \
      K##_item(ts_i TS_NAMES(K));                                                \
  }
#define TS_CL_GROUP_BODY(K)            \
  ts_group ts_g;                       \
  ts_g.id = get_group_id(0);           \
  ts_g.count = ts_n;                   \
  ts_g.lid = (ts_uint)get_local_id(0); \
  K##_group(ts_g, ts_scratch TS_NAMES(K));
#define TS_CL_group(K, THREADS, SCRATCH)                                                          \
  __kernel __attribute__((reqd_work_group_size(THREADS, 1, 1))) void K(ulong ts_n TS_PARAMS(K)) { \
    __local ts_real ts_scratch[SCRATCH] __attribute__((aligned(16)));                             \
    TS_CL_GROUP_BODY(K)                                                                           \
  }
#define TS_CL_group_dynamic(K, THREADS, SCRATCH)                        \
  __kernel __attribute__((reqd_work_group_size(THREADS, 1, 1))) void K( \
      ulong ts_n, __local ts_real* ts_scratch TS_PARAMS(K)) {           \
    TS_CL_GROUP_BODY(K)                                                 \
  }
#endif

#endif /* TESSERA_KERNEL_ARGS_H */
