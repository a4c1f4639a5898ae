/* C = A B on a device: the kernels of sparse::multiply(device, ...)
 * (device_product.cpp), in the order of the host's Gustavson product
 * (product.hpp), so that every backend gives the host's bits. Included by
 * spmv_point.h once per value type (no include guard); its arithmetic
 * (ts_spmv_mul, ts_spmv_add) is that header's.
 *
 * The host counts each row's products sum_k |row k of B| over A's entries
 * of the row and gives every row of a batch two regions of scratch: off[r]
 * .. off[r + 1] of (column, value) slots, toff[r] .. toff[r + 1] of a hash
 * table (a power of two, at least twice the row's products). Rows are
 * numbered from the batch's first row `first`; off and toff from the
 * batch's own start. */

/* Row first + r: its products a_ik b_kj in the order of A's entries and
 * then B's, each added to its column's sum (the first assigned, so -0 stays
 * -0, as on the host), the distinct columns found through the row's table
 * (open addressing) in the order they appear; then sorted by column
 * (heapsort in place: the columns are distinct, so every sort gives the one
 * order). cnt[r]: the row's distinct columns. */
/* (clang-format does not settle on this list: kept as written) */
/* clang-format off */
#define TS_ARGS_spgemm_rows(V, IN, OUT)                                        \
  V(long, first) IN(int, arp) IN(int, acol) IN(ts_value, aval)                 \
  IN(int, brp) IN(int, bcol) IN(ts_value, bval) IN(long, off) IN(long, toff)   \
  OUT(int, table) OUT(int, scol) OUT(ts_value, sval) OUT(int, cnt)
/* clang-format on */

/* one sift-down of the heap c[0 .. n) (values v moved with their columns) */
TS_FN void ts_spgemm_sift(TS_GLOBAL int* c, TS_GLOBAL ts_value* v, long root, long n) {
  for (;;) {
    long child = 2 * root + 1;
    if (child >= n) return;
    if (child + 1 < n && c[child + 1] > c[child]) ++child;
    if (c[root] >= c[child]) return;
    const int tc = c[root];
    c[root] = c[child];
    c[child] = tc;
    const ts_value tv = v[root];
    v[root] = v[child];
    v[child] = tv;
    root = child;
  }
}

TS_ITEM(spgemm_rows, r) {
  const long i = first + (long)r, b0 = off[r], t0 = toff[r];
  const long size = toff[r + 1] - t0; /* 0 for a row without products */
  TS_GLOBAL int* tab = table + t0;
  TS_GLOBAL int* c = scol + b0;
  TS_GLOBAL ts_value* v = sval + b0;
  for (long h = 0; h < size; ++h) tab[h] = -1;
  long nd = 0;
  for (int p = arp[i]; p < arp[i + 1]; ++p) {
    const int k = acol[p];
    const ts_value a = aval[p];
    for (int q = brp[k]; q < brp[k + 1]; ++q) {
      const int j = bcol[q];
      const ts_value prod = ts_spmv_mul(a, bval[q]);
      long h = (long)(((unsigned)j * 0x9e3779b1u) & (unsigned)(size - 1));
      while (tab[h] >= 0 && c[tab[h]] != j) h = (h + 1) & (size - 1);
      if (tab[h] < 0) {
        tab[h] = (int)nd;
        c[nd] = j;
        v[nd] = prod;
        ++nd;
      } else {
        v[tab[h]] = ts_spmv_add(v[tab[h]], prod);
      }
    }
  }
  for (long s = nd / 2 - 1; s >= 0; --s) ts_spgemm_sift(c, v, s, nd);
  for (long e = nd - 1; e > 0; --e) {
    const int tc = c[0];
    c[0] = c[e];
    c[e] = tc;
    const ts_value tv = v[0];
    v[0] = v[e];
    v[e] = tv;
    ts_spgemm_sift(c, v, 0, e);
  }
  cnt[r] = (int)nd;
}

/* Row r of the batch's sorted entries (at off[r]) to its place in C's
 * batch (at crp[r], counted from the batch's first entry). */
#define TS_ARGS_spgemm_copy(V, IN, OUT) \
  IN(long, off) IN(long, crp) IN(int, scol) IN(ts_value, sval) OUT(int, ccol) OUT(ts_value, cval)
TS_ITEM(spgemm_copy, r) {
  const long from = off[r], to = crp[r], n = crp[r + 1] - to;
  for (long e = 0; e < n; ++e) {
    ccol[to + e] = scol[from + e];
    cval[to + e] = sval[from + e];
  }
}
