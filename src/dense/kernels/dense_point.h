/* The dense vector kernels: per-point mathematics and the kernels built on it
 * (C99 subset, shared by the CPU, OpenCL and CUDA; see core/kernels/portable.h
 * and core/kernels/kernel_args.h).
 *
 * Element-wise operations all have the form y_i = f(s, x_i, z_i), one kernel
 * for all of them; an operation that ignores x or z never loads it.
 * Reductions fold a term t(x_i, y_i) with a combine operation, in the
 * canonical order of portable.h or in a device-tuned order. */
#include "core/kernels/portable.h"
#include "dense/kernels/dense_params.h"

#ifndef TESSERA_DENSE_POINT_CONSTANTS
#define TESSERA_DENSE_POINT_CONSTANTS
/* Operation codes, shared with the host's enums (dense_kernels.hpp). */
#define TS_EW_FILL 0
#define TS_EW_COPY 1
#define TS_EW_SCALE 2
#define TS_EW_AXPY 3
#define TS_EW_ADD 4
#define TS_EW_TRIAD 5
#define TS_TERM_DOT 0
#define TS_TERM_SUMSQ 1
#define TS_TERM_VALUE 2
#define TS_COMBINE_SUM 0
#define TS_COMBINE_MIN 1
#define TS_COMBINE_MAX 2

/* The module's kernels (kernel_args.h): each backend expands this list. */
#define TS_DENSE_KERNELS(X)                                                        \
  X(each, ew, 0, 0, 0, TS_NO_VARIANTS)                                             \
  X(group, reduce_chunks, TS_REDUCE_THREADS, TS_REDUCE_THREADS, 0, TS_NO_VARIANTS) \
  X(group, reduce_device, TS_REDUCE_THREADS, TS_REDUCE_THREADS, 0, TS_NO_VARIANTS) \
  X(group, vecadd_global, TS_VA_GROUP, 1, 0, TS_NO_VARIANTS)                       \
  X(group, vecadd_local_static, TS_VA_GROUP, 2 * TS_VA_GROUP, 0, TS_NO_VARIANTS)   \
  X(group_dynamic, vecadd_local_dynamic, TS_VA_GROUP, 0, 0, TS_NO_VARIANTS)
/* Work-group size of the vector-add kernels of the lecture. */
#define TS_VA_GROUP 256
#endif

/* element-wise: y = f(s, x, z) */
TS_FN ts_real ts_ew_fill(ts_real s, ts_real x, ts_real z) {
  (void)x;
  (void)z;
  return s;
}
TS_FN ts_real ts_ew_copy(ts_real s, ts_real x, ts_real z) {
  (void)s;
  (void)z;
  return x;
}
TS_FN ts_real ts_ew_scale(ts_real s, ts_real x, ts_real z) {
  (void)z;
  return s * x;
}
/* axpy: z is the old y */
TS_FN ts_real ts_ew_axpy(ts_real s, ts_real x, ts_real z) { return s * x + z; }
TS_FN ts_real ts_ew_add(ts_real s, ts_real x, ts_real z) {
  (void)s;
  return x + z;
}
/* STREAM triad a = b + s*c with x = b, z = c */
TS_FN ts_real ts_ew_triad(ts_real s, ts_real x, ts_real z) { return x + s * z; }

TS_FN ts_real ts_ew_apply(int op, ts_real s, ts_real x, ts_real z) {
  switch (op) {
    case TS_EW_FILL:
      return ts_ew_fill(s, x, z);
    case TS_EW_COPY:
      return ts_ew_copy(s, x, z);
    case TS_EW_SCALE:
      return ts_ew_scale(s, x, z);
    case TS_EW_AXPY:
      return ts_ew_axpy(s, x, z);
    case TS_EW_ADD:
      return ts_ew_add(s, x, z);
    default:
      return ts_ew_triad(s, x, z);
  }
}

/* reduction terms */
TS_FN ts_real ts_term_dot(ts_real x, ts_real y) { return x * y; }
TS_FN ts_real ts_term_sumsq(ts_real x, ts_real y) {
  (void)y;
  return x * x;
}
TS_FN ts_real ts_term_value(ts_real x, ts_real y) {
  (void)y;
  return x;
}

TS_FN ts_real ts_term(int t, ts_real x, ts_real y) {
  return t == TS_TERM_DOT     ? ts_term_dot(x, y)
         : t == TS_TERM_SUMSQ ? ts_term_sumsq(x, y)
                              : ts_term_value(x, y);
}

/* reduction combines (min/max follow IEEE fmin/fmax: NaN is ignored) */
TS_FN ts_real ts_combine_sum(ts_real a, ts_real b) { return a + b; }
TS_FN ts_real ts_combine_min(ts_real a, ts_real b) { return fmin(a, b); }
TS_FN ts_real ts_combine_max(ts_real a, ts_real b) { return fmax(a, b); }

TS_FN ts_real ts_combine(int c, ts_real a, ts_real b) {
  return c == TS_COMBINE_SUM   ? ts_combine_sum(a, b)
         : c == TS_COMBINE_MIN ? ts_combine_min(a, b)
                               : ts_combine_max(a, b);
}
/* The identity of combine c (zero only selects the precision). */
TS_FN ts_real ts_combine_identity(ts_real zero, int c) {
  return c == TS_COMBINE_SUM   ? zero
         : c == TS_COMBINE_MIN ? (ts_real)INFINITY
                               : (ts_real)(-INFINITY);
}

/* Item i < n / TS_PACK updates pack i (one 16-byte access per array on GPUs);
 * items from there on update the n % TS_PACK tail elements one each. Launched
 * over n / TS_PACK + n % TS_PACK items. x and z may alias y. */
#define TS_ARGS_ew(V, IN, OUT) \
  V(TS_STRUCT(ts_ew_params), p) IN(ts_value, x) IN(ts_value, z) OUT(ts_value, y)
TS_ITEM(ew, i) {
  const int op = p.op;
  const ts_real s = p.s;
  const int rx = op != TS_EW_FILL;
  const int rz = op == TS_EW_AXPY || op == TS_EW_ADD || op == TS_EW_TRIAD;
  const ts_size packs = p.n / TS_PACK;
  if (i < packs) {
    ts_pack a = TS_ZERO(ts_pack), b = TS_ZERO(ts_pack), r;
    if (rx) a = ((TS_GLOBAL const ts_pack*)x)[i];
    if (rz) b = ((TS_GLOBAL const ts_pack*)z)[i];
#define TS_EW_LANE(c, k) r c = ts_ew_apply(op, s, a c, b c);
    TS_PACK_EACH(TS_EW_LANE)
#undef TS_EW_LANE
    ((TS_GLOBAL ts_pack*)y)[i] = r;
  } else {
    const ts_size j = packs * TS_PACK + (i - packs);
    y[j] = ts_ew_apply(op, s, rx ? x[j] : (ts_real)0, rz ? z[j] : (ts_real)0);
  }
}

/* The canonical tree of portable.h over a group's TS_REDUCE_THREADS values;
 * work-item 0 writes the group's result to out[g.id]. */
TS_FN void ts_reduce_tree(ts_group g, TS_LOCAL ts_real* s, int combine, ts_real acc,
                          TS_GLOBAL ts_real* out) {
  s[g.lid] = acc;
  TS_BARRIER();
  for (ts_uint h = TS_REDUCE_THREADS / 2; h > 0; h >>= 1) {
    if (g.lid < h) s[g.lid] = ts_combine(combine, s[g.lid], s[g.lid + h]);
    TS_BARRIER();
  }
  if (g.lid == 0) out[g.id] = s[0];
}

/* Canonical order (portable.h): group g folds chunk g of x (and y). */
#define TS_ARGS_reduce_chunks(V, IN, OUT) \
  V(TS_STRUCT(ts_fold_params), p) IN(ts_value, x) IN(ts_value, y) OUT(ts_value, out)
TS_GROUP(reduce_chunks, g, s) {
  const ts_size n = p.n;
  const int term = p.term, combine = p.combine;
  const ts_size base = g.id * TS_REDUCE_CHUNK;
  ts_real acc = ts_combine_identity((ts_real)0, combine);
  TS_UNROLL for (int k = 0; k < TS_REDUCE_PER_THREAD; ++k) {
    const ts_size i = base + (ts_size)k * TS_REDUCE_THREADS + g.lid;
    if (i < n) acc = ts_combine(combine, acc, ts_term(term, x[i], y[i]));
  }
  ts_reduce_tree(g, s, combine, acc, out);
}

/* Device order: packs in a grid-stride loop, one partial per group. */
#define TS_ARGS_reduce_device(V, IN, OUT) \
  V(TS_STRUCT(ts_fold_params), p) IN(ts_value, x) IN(ts_value, y) OUT(ts_value, out)
TS_GROUP(reduce_device, g, s) {
  const ts_size n = p.n;
  const int term = p.term, combine = p.combine;
  const ts_size packs = n / TS_PACK, stride = g.count * TS_REDUCE_THREADS;
  const ts_size gid = g.id * TS_REDUCE_THREADS + g.lid;
  TS_GLOBAL const ts_pack* xv = (TS_GLOBAL const ts_pack*)x;
  TS_GLOBAL const ts_pack* yv = (TS_GLOBAL const ts_pack*)y;
  ts_real acc = ts_combine_identity((ts_real)0, combine);
  for (ts_size p = gid; p < packs; p += stride) {
    const ts_pack a = xv[p], b = yv[p];
#define TS_FOLD_LANE(c, k) acc = ts_combine(combine, acc, ts_term(term, a c, b c));
    TS_PACK_EACH(TS_FOLD_LANE)
#undef TS_FOLD_LANE
  }
  const ts_size i = packs * TS_PACK + gid;
  if (i < n) acc = ts_combine(combine, acc, ts_term(term, x[i], y[i]));
  ts_reduce_tree(g, s, combine, acc, out);
}

/* The vector add of the lecture, c = a + b, one work-item per element, in
 * three stagings: straight from global memory (vecadd_global); through local
 * memory of a compile-time size (vecadd_local_static) or of a size set at
 * launch (vecadd_local_dynamic). Nothing is reused, so staging can only cost
 * time; the benchmark measures that. Every work-item reaches the barrier (the
 * bounds test only guards the accesses). */
#define TS_ARGS_vecadd_global(V, IN, OUT) \
  V(ts_size, n) IN(ts_value, a) IN(ts_value, b) OUT(ts_value, c)
TS_GROUP(vecadd_global, g, s) {
  (void)s;
  const ts_size i = g.id * TS_VA_GROUP + g.lid;
  if (i < n) c[i] = ts_ew_add((ts_real)0, a[i], b[i]);
}

TS_FN void ts_vecadd_staged(ts_group g, TS_LOCAL ts_real* s, ts_size n, TS_GLOBAL const ts_real* a,
                            TS_GLOBAL const ts_real* b, TS_GLOBAL ts_real* c) {
  const ts_size i = g.id * TS_VA_GROUP + g.lid;
  TS_LOCAL ts_real* la = s;
  TS_LOCAL ts_real* lb = s + TS_VA_GROUP;
  if (i < n) {
    la[g.lid] = a[i];
    lb[g.lid] = b[i];
  }
  TS_BARRIER();
  if (i < n) c[i] = ts_ew_add((ts_real)0, la[g.lid], lb[g.lid]);
}
#define TS_ARGS_vecadd_local_static(V, IN, OUT) TS_ARGS_vecadd_global(V, IN, OUT)
TS_GROUP(vecadd_local_static, g, s) { ts_vecadd_staged(g, s, n, a, b, c); }
#define TS_ARGS_vecadd_local_dynamic(V, IN, OUT) TS_ARGS_vecadd_global(V, IN, OUT)
TS_GROUP(vecadd_local_dynamic, g, s) { ts_vecadd_staged(g, s, n, a, b, c); }
