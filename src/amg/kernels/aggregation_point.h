/* AMG aggregation on a device: the passes of the host's MIS(2) aggregation
 * (amg/aggregation.cpp, the oracle) as kernels over the nodes of the strength
 * graph (C99 subset, shared by the CPU, OpenCL and CUDA; see
 * core/kernels/portable.h and core/kernels/kernel_args.h). Every pass reads
 * only the previous pass's arrays and writes its node's own entries, so the
 * aggregates do not depend on the order the work-items run in; flags are
 * set by an atomic maximum (the same value from any writer). The node
 * priority (ts_amg_key) is the one the host's passes use. The strength
 * graph's kernels come first: its threshold on the node graph's weights
 * (ts_value, one set per precision pass; launched in double), then the graph's symmetric union,
 * which like the aggregation holds no value of the element type and is
 * defined once (guarded) however often a pass includes the header. */
#include "core/kernels/group_fold.h"
#include "core/kernels/portable.h"

/* Guarded: these hold no value of the element type (a kernel that takes one
 * must sit outside the guards, or it gets no double overload). */
#ifndef TESSERA_AMG_AGGREGATION_CONSTANTS
#define TESSERA_AMG_AGGREGATION_CONSTANTS
/* MIS(2) states, the top two bits of a key: selected nodes dominate, removed
 * ones never do. */
#define TS_AMG_OUT 0
#define TS_AMG_UNDECIDED 1
#define TS_AMG_IN 2

/* The module's kernels (kernel_args.h): each backend expands this list.
 * Passes over rows of uneven length take a work-item per row (each_one),
 * the others a grid-stride loop. */
#define TS_AMG_KERNELS(X)                                  \
  X(each_one, amg_free_nodes, 0, 0, 0, TS_NO_VARIANTS)     \
  X(each, amg_mis_keys, 0, 0, 0, TS_NO_VARIANTS)           \
  X(each_one, amg_mis_max, 0, 0, 0, TS_NO_VARIANTS)        \
  X(each, amg_mis_decide, 0, 0, 0, TS_NO_VARIANTS)         \
  X(each, amg_take_roots, 0, 0, 0, TS_NO_VARIANTS)         \
  X(each_one, amg_join, 0, 0, 0, TS_NO_VARIANTS)           \
  X(each_one, amg_node_scalars, 0, 0, 0, TS_NO_VARIANTS)   \
  X(each_one, amg_strong_count, 0, 0, 0, TS_NO_VARIANTS)   \
  X(each_one, amg_strong_fill, 0, 0, 0, TS_NO_VARIANTS)    \
  X(each_one, amg_column_counts, 0, 0, 0, TS_NO_VARIANTS)  \
  X(each_one, amg_transpose_fill, 0, 0, 0, TS_NO_VARIANTS) \
  X(each_one, amg_sort_rows, 0, 0, 0, TS_NO_VARIANTS)      \
  X(each_one, amg_union, 0, 0, 0, TS_NO_VARIANTS)

/* Wang's 32-bit integer hash: neighbours get unrelated priorities. */
TS_FN ts_uint ts_amg_node_hash(ts_uint i) {
  i = (i ^ 61u) ^ (i >> 16);
  i *= 9u;
  i ^= i >> 4;
  i *= 0x27d4eb2du;
  i ^= i >> 15;
  return i;
}
/* A node's key in MIS(2)'s order: state, then 31 bits of the hash, then the
 * index (below 2^31), so that keys are distinct. */
TS_FN ts_size ts_amg_key(ts_uint state, long i) {
  return (ts_size)state << 62 | (ts_size)(ts_amg_node_hash((ts_uint)i) >> 1) << 31 | (ts_size)i;
}
TS_FN long ts_amg_key_index(ts_size key) { return (long)(key & 0x7fffffffu); }
TS_FN ts_uint ts_amg_key_state(ts_size key) { return (ts_uint)(key >> 62); }

/* in[i]: node i has no aggregate and at least `need` neighbours without one
 * (a candidate of this round's MIS(2), which starts undecided; the others
 * are out); flag[0] = 1 where any is. */
#define TS_ARGS_amg_free_nodes(V, IN, OUT) \
  V(int, need)                             \
  IN(int, ptr) IN(int, col) IN(int, agg) OUT(int, in) OUT(int, state) OUT(ts_uint, flag)
TS_ITEM(amg_free_nodes, node) {
  const long i = (long)node;
  int candidate = 0;
  if (agg[i] < 0) {
    int free = 0;
    for (int p = ptr[i]; p < ptr[i + 1]; ++p) free += agg[col[p]] < 0;
    candidate = free >= need;
  }
  in[i] = candidate;
  state[i] = candidate ? TS_AMG_UNDECIDED : TS_AMG_OUT;
  if (candidate) ts_atomic_set_flag(flag);
}

/* key[i] for the node's state: undecided candidates, the others out. */
#define TS_ARGS_amg_mis_keys(V, IN, OUT) IN(int, state) OUT(ts_size, key)
TS_ITEM(amg_mis_keys, node) { key[node] = ts_amg_key((ts_uint)state[node], (long)node); }

/* One step of the largest key within distance 2: next[i] = the largest of
 * key[i] and its candidate neighbours' keys. The second step is read for
 * undecided nodes only (undecided_only: the others are skipped). */
#define TS_ARGS_amg_mis_max(V, IN, OUT) \
  V(int, undecided_only)                \
  IN(int, ptr) IN(int, col) IN(int, in) IN(int, state) IN(ts_size, key) OUT(ts_size, next)
TS_ITEM(amg_mis_max, node) {
  const long i = (long)node;
  if (undecided_only && state[i] != TS_AMG_UNDECIDED) return;
  ts_size m = key[i];
  if (in[i])
    for (int p = ptr[i]; p < ptr[i + 1]; ++p) {
      const int j = col[p];
      if (in[j] && key[j] > m) m = key[j];
    }
  next[i] = m;
}

/* An undecided node whose own key is the largest within distance 2 is
 * selected; one that sees a selected node's key is out; flag[0] = 1 where
 * a node stays undecided. */
#define TS_ARGS_amg_mis_decide(V, IN, OUT) IN(ts_size, key) OUT(int, state) OUT(ts_uint, flag)
TS_ITEM(amg_mis_decide, node) {
  const long i = (long)node;
  if (state[i] != TS_AMG_UNDECIDED) return;
  if (ts_amg_key_index(key[i]) == i)
    state[i] = TS_AMG_IN;
  else if (ts_amg_key_state(key[i]) == TS_AMG_IN)
    state[i] = TS_AMG_OUT;
  else
    ts_atomic_set_flag(flag);
}

/* The selected nodes' aggregates (numbered on the host in index order):
 * roots[i] >= 0 starts aggregate roots[i] at node i. */
#define TS_ARGS_amg_take_roots(V, IN, OUT) IN(int, roots) OUT(int, agg)
TS_ITEM(amg_take_roots, node) {
  if (roots[node] >= 0) agg[node] = roots[node];
}

/* A node without an aggregate (and with ok[i] set, or every node where
 * all_ok) that has a neighbour j in an aggregate from[j] >= 0 joins the
 * smallest of those aggregates (size[from[j]]; with_size 0: all alike),
 * ties to the neighbour with the largest key. */
#define TS_ARGS_amg_join(V, IN, OUT) \
  V(int, all_ok)                     \
  V(int, with_size) IN(int, ptr) IN(int, col) IN(int, ok) IN(int, from) IN(int, size) OUT(int, agg)
TS_ITEM(amg_join, node) {
  const long i = (long)node;
  if (agg[i] >= 0 || (!all_ok && !ok[i])) return;
  int best_size = 0x7fffffff;
  ts_size best = 0;
  for (int p = ptr[i]; p < ptr[i + 1]; ++p) {
    const int j = col[p], a = from[j];
    if (a < 0) continue;
    const int sz = with_size ? size[a] : 0;
    const ts_size k = ts_amg_key(TS_AMG_IN, (long)j);
    if (sz < best_size || (sz == best_size && k > best)) {
      best_size = sz;
      best = k;
    }
  }
  if (best_size != 0x7fffffff) agg[i] = from[ts_amg_key_index(best)];
}
#endif /* TESSERA_AMG_AGGREGATION_CONSTANTS */

/* ---- strength of connection (amg/aggregation.cpp's strength_graph) ---- */
/* The diagonal weight of node i and its largest off-diagonal one. */
#define TS_ARGS_amg_node_scalars(V, IN, OUT) \
  IN(int, ptr) IN(int, col) IN(ts_value, w) OUT(ts_value, diag) OUT(ts_value, row_max)
TS_ITEM(amg_node_scalars, node) {
  const long i = (long)node;
  ts_value d = 0, m = 0;
  for (int p = ptr[i]; p < ptr[i + 1]; ++p) {
    if ((long)col[p] == i)
      d = w[p];
    else if (m < w[p])
      m = w[p];
  }
  diag[i] = d;
  row_max[i] = m;
}
/* Whether i -> j of weight w is strong: symmetric w >= theta sqrt(d_i d_j),
 * else (classical) w >= theta max_k w_ik; never the diagonal or a zero. */
TS_FN int ts_amg_strong(int symmetric, ts_value theta, long i, long j, ts_value w,
                        TS_GLOBAL const ts_value* diag, TS_GLOBAL const ts_value* row_max) {
  if (i == j || !(w > 0)) return 0;
  return symmetric ? w >= theta * sqrt(diag[i] * diag[j]) : w >= theta * row_max[i];
}
#define TS_AMG_STRENGTH_ARGS(V, IN) \
  V(int, symmetric)                 \
  V(ts_value, theta)                \
  IN(int, ptr) IN(int, col) IN(ts_value, w) IN(ts_value, diag) IN(ts_value, row_max)
/* cnt[i]: node i's strong edges; then their columns from sptr[i] on. */
#define TS_ARGS_amg_strong_count(V, IN, OUT) TS_AMG_STRENGTH_ARGS(V, IN) OUT(int, cnt)
TS_ITEM(amg_strong_count, node) {
  const long i = (long)node;
  int k = 0;
  for (int p = ptr[i]; p < ptr[i + 1]; ++p)
    k += ts_amg_strong(symmetric, theta, i, (long)col[p], w[p], diag, row_max);
  cnt[i] = k;
}
#define TS_ARGS_amg_strong_fill(V, IN, OUT) TS_AMG_STRENGTH_ARGS(V, IN) IN(int, sptr) OUT(int, scol)
TS_ITEM(amg_strong_fill, node) {
  const long i = (long)node;
  int k = sptr[i];
  for (int p = ptr[i]; p < ptr[i + 1]; ++p)
    if (ts_amg_strong(symmetric, theta, i, (long)col[p], w[p], diag, row_max)) scol[k++] = col[p];
}

#ifndef TESSERA_AMG_AGGREGATION_GRAPH
#define TESSERA_AMG_AGGREGATION_GRAPH
/* ---- the symmetric union of the strong edges and their transpose ---- */
/* cnt[j] += 1 for every edge i -> j (the transpose's row lengths). */
#define TS_ARGS_amg_column_counts(V, IN, OUT) IN(int, ptr) IN(int, col) OUT(ts_uint, cnt)
TS_ITEM(amg_column_counts, node) {
  for (int p = ptr[node]; p < ptr[node + 1]; ++p) ts_atomic_add_uint(&cnt[col[p]], 1u);
}
/* Edge i -> j into row j of the transpose at the next free slot (pos[j],
 * from the row's start): rows in any order, sorted next. */
#define TS_ARGS_amg_transpose_fill(V, IN, OUT) \
  IN(int, ptr) IN(int, col) OUT(ts_uint, pos) OUT(int, tcol)
TS_ITEM(amg_transpose_fill, node) {
  for (int p = ptr[node]; p < ptr[node + 1]; ++p)
    tcol[ts_atomic_fetch_add_uint(&pos[col[p]], 1u)] = (int)node;
}
/* Row i's columns in ascending order: insertion sort for short rows, an
 * in-place heapsort for long ones (a hub's transposed row: O(d log d), not
 * O(d^2) on one work-item). Distinct columns, so any sort gives the same. */
TS_FN void ts_amg_sift_down(TS_GLOBAL int* a, int root, int end) {
  for (int child = 2 * root + 1; child < end; child = 2 * root + 1) {
    if (child + 1 < end && a[child] < a[child + 1]) ++child;
    if (!(a[root] < a[child])) return;
    const int t = a[root];
    a[root] = a[child];
    a[child] = t;
    root = child;
  }
}
#define TS_ARGS_amg_sort_rows(V, IN, OUT) IN(int, ptr) OUT(int, col)
TS_ITEM(amg_sort_rows, node) {
  TS_GLOBAL int* a = col + ptr[node];
  const int d = ptr[node + 1] - ptr[node];
  if (d <= 32) {
    for (int p = 1; p < d; ++p) {
      const int c = a[p];
      int q = p;
      for (; q > 0 && a[q - 1] > c; --q) a[q] = a[q - 1];
      a[q] = c;
    }
    return;
  }
  for (int r = d / 2 - 1; r >= 0; --r) ts_amg_sift_down(a, r, d);
  for (int end = d - 1; end > 0; --end) {
    const int t = a[0];
    a[0] = a[end];
    a[end] = t;
    ts_amg_sift_down(a, 0, end);
  }
}
/* The sorted union of col[p, pe) and tcol[q, qe) (both ascending): its
 * length, and its columns into out where out is not null. The host's
 * strength graph (amg/aggregation.cpp) merges its rows with it too. */
TS_FN int ts_amg_union_row(TS_GLOBAL const int* col, int p, int pe, TS_GLOBAL const int* tcol,
                           int q, int qe, TS_GLOBAL int* out) {
  int k = 0;
  while (p < pe || q < qe) {
    int c;
    if (q >= qe || (p < pe && col[p] < tcol[q]))
      c = col[p++];
    else if (p >= pe || tcol[q] < col[p])
      c = tcol[q++];
    else {
      c = col[p++];
      ++q;
    }
    if (out) out[k] = c;
    ++k;
  }
  return k;
}
/* Row i of the union of (ptr, col) and (tptr, tcol), both sorted: its
 * length into cnt[i] (fill 0), or its columns from uptr[i] on (fill 1). */
#define TS_ARGS_amg_union(V, IN, OUT) \
  V(int, fill)                        \
  IN(int, ptr) IN(int, col) IN(int, tptr) IN(int, tcol) IN(int, uptr) OUT(int, ucol) OUT(int, cnt)
TS_ITEM(amg_union, node) {
  const int k = ts_amg_union_row(col, ptr[node], ptr[node + 1], tcol, tptr[node], tptr[node + 1],
                                 fill ? ucol + uptr[node] : 0);
  if (!fill) cnt[node] = k;
}
#endif /* TESSERA_AMG_AGGREGATION_GRAPH */
