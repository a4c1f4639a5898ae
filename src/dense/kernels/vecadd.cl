/* OpenCL vector add of the lecture (built with -Dts_real=float|double and
 * -DTS_VA_GROUP, the work-group size). The addition itself is dense_point.h's
 * ts_ew_add; these kernels differ only in how a and b reach it. */
#include "dense_point.h"

/* One work-item per element, straight from global memory. */
__kernel void vecadd_global(ulong n, __global const ts_real* a, __global const ts_real* b,
                            __global ts_real* c) {
  const ulong i = get_global_id(0);
  if (i < n) c[i] = ts_ew_add((ts_real)0, a[i], b[i]);
}

/* The lecture's local-memory kernel: the work-group copies its slice of a and b
 * into local memory, waits for the whole group, then adds from local memory.
 * Nothing is reused, so this can only cost time; it is here to measure that.
 * Every work-item reaches the barrier (the bounds test only guards accesses). */
static inline void vecadd_staged(ulong n, __global const ts_real* a, __global const ts_real* b,
                                 __global ts_real* c, __local ts_real* la, __local ts_real* lb) {
  const ulong i = get_global_id(0);
  const uint l = get_local_id(0);
  if (i < n) {
    la[l] = a[i];
    lb[l] = b[i];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (i < n) c[i] = ts_ew_add((ts_real)0, la[l], lb[l]);
}

/* Local arrays of a compile-time size (the work-group size is fixed to match). */
__kernel __attribute__((reqd_work_group_size(TS_VA_GROUP, 1, 1))) void vecadd_local_static(
    ulong n, __global const ts_real* a, __global const ts_real* b, __global ts_real* c) {
  __local ts_real la[TS_VA_GROUP];
  __local ts_real lb[TS_VA_GROUP];
  vecadd_staged(n, a, b, c, la, lb);
}

/* Local arrays sized by the host (clSetKernelArg with a size and no value). */
__kernel void vecadd_local_dynamic(ulong n, __global const ts_real* a, __global const ts_real* b,
                                   __global ts_real* c, __local ts_real* la, __local ts_real* lb) {
  vecadd_staged(n, a, b, c, la, lb);
}
