/* Per-point mathematics of the Krylov vector kernels (C99 subset, shared by
 * the CPU loops, krylov.cl and krylov_cuda.cu; see core/kernels/portable.h).
 *
 * Vectors are arrays of ts_real: real vectors one real per element, complex
 * vectors interleaved (re, im). Two operations cover every Krylov method:
 *   dots:    h_k = <v_k, w> = sum_i conj(v_k,i) * w_i   (Hermitian product;
 *            optionally with a second w in the same pass)
 *   combine: y_i = a * x_i + sum_k c_k * v_k,i         (axpy, scale, V*y, ...;
 *            optionally a second output in the same pass)
 *   block_diag: y_b = D_b x_b with dense bs x bs blocks (Jacobi, block Jacobi)
 *   tri_row/tri_group: a sparse triangular solve (ILU(0)'s L and U)
 * Each term of a complex product is formed here once, in a fixed order. */
#include "core/kernels/narrow.h"
#include "core/kernels/portable.h"
#include "krylov/kernels/krylov_constants.h"
#include "krylov/kernels/krylov_params.h"

#ifndef TESSERA_KRYLOV_KERNEL_LIST
#define TESSERA_KRYLOV_KERNEL_LIST
/* The kernels (bodies at the end of this file and in krylov_dcgs2.h), for
 * every backend (core/kernels/kernel_args.h). Reductions: one work-group of
 * TS_REDUCE_THREADS per (product, chunk); dots' variant 1 has a second
 * right-hand side, its scratch twice as large; the block kernels are
 * compiled per block width, so their arrays stay in registers. The float
 * dots run six groups per SM (40 registers instead of 48, occupancy 75%;
 * docs/krylov-history.md); the other dots instances keep the register
 * budget of one group per SM, which they use. */
#define TS_KRYLOV_KERNELS(X)                                                                \
  X(group, kry_dots, TS_REDUCE_THREADS, (2 + 2 * ts_variant) * TS_REDUCE_THREADS,           \
    TS_ON_CUDA(sizeof(ts_value) == 4 ? 6 : 1), TS_VARIANTS(0, 1))                           \
  X(group, kry_dots_narrow, TS_REDUCE_THREADS, (2 + 2 * ts_variant) * TS_REDUCE_THREADS,    \
    TS_ON_CUDA(1), TS_VARIANTS(0, 1))                                                       \
  X(each_one, kry_combine, 0, 0, 0, TS_NO_VARIANTS)                                         \
  X(each_one, kry_combine_narrow, 0, 0, 0, TS_NO_VARIANTS)                                  \
  X(group, kry_sum_chunks, TS_REDUCE_THREADS, 2 * TS_REDUCE_THREADS, 0, TS_NO_VARIANTS)     \
  X(group, kry_dcgs2_coef, 128, TS_KRY_DCGS2_SCRATCH, 0, TS_NO_VARIANTS)                    \
  X(group, kry_update, TS_REDUCE_THREADS, 3 * TS_REDUCE_THREADS, 0, TS_NO_VARIANTS)         \
  X(group, kry_dots_block, TS_REDUCE_THREADS, 2 * ts_variant * TS_REDUCE_THREADS, 0,        \
    TS_VARIANTS(1, 2, 3, 4, 5, 6, 7, 8))                                                    \
  X(group, kry_combine_block, TS_KRY_ITEM_GROUP, 1, 0, TS_VARIANTS(1, 2, 3, 4, 5, 6, 7, 8)) \
  X(each_one, kry_block_diag, 0, 0, 0, TS_NO_VARIANTS)                                      \
  X(group, kry_tri_group, TS_KRY_TRI_THREADS, TS_KRY_TRI_SCRATCH, 0, TS_NO_VARIANTS)        \
  X(each_one, kry_tri_rows, 0, 0, 0, TS_NO_VARIANTS)
/* dcgs2_coef's arguments (its body is in krylov_dcgs2.h, which OpenCL
 * compiles only with double precision) */
#define TS_ARGS_kry_dcgs2_coef(V, IN, OUT) \
  V(ts_kry_params, p) IN(ts_value, sums) OUT(ts_value, coef)
/* combine_block's work-items per group, one per element */
#define TS_KRY_ITEM_GROUP 256
/* group memory of the kernels that keep doubles or ints in it, counted in
 * elements of ts_value: dcgs2_coef's 3 LANES + 7 doubles; tri_group's s,
 * acc and xs (reals), then at and span (ints) */
#define TS_KRY_DCGS2_SCRATCH ((3 * TS_KRY_DCGS2_LANES + 8) * (8 / sizeof(ts_value)))
#define TS_KRY_TRI_SCRATCH                    \
  (2 * TS_KRY_TRI_CAP + 4 * TS_KRY_TRI_ROWS + \
   (TS_KRY_TRI_CAP + 3 * TS_KRY_TRI_ROWS) * 4 / sizeof(ts_value))
#endif

/* Unroll a loop over basis vectors by 4 on the GPUs: four independent loads
 * of each work-item in flight instead of one (the order of the sums is that
 * of the loop). */
#if defined(__OPENCL_VERSION__) || defined(__CUDA_ARCH__)
#define TS_KRY_UNROLL4 _Pragma("unroll 4")
#else
#define TS_KRY_UNROLL4
#endif

/* Hermitian inner-product term conj(v) * w: the conjugate is on v. */
TS_FN ts_real ts_kry_hdot_re(ts_real vr, ts_real vi, ts_real wr, ts_real wi) {
  return vr * wr + vi * wi;
}
TS_FN ts_real ts_kry_hdot_im(ts_real vr, ts_real vi, ts_real wr, ts_real wi) {
  return vr * wi - vi * wr;
}
/* Complex product c * v. */
TS_FN ts_real ts_kry_mul_re(ts_real cr, ts_real ci, ts_real vr, ts_real vi) {
  return cr * vr - ci * vi;
}
TS_FN ts_real ts_kry_mul_im(ts_real cr, ts_real ci, ts_real vr, ts_real vi) {
  return cr * vi + ci * vr;
}
/* Element i of an interleaved complex vector as one 2-wide access (8 or 16
 * bytes; the element offsets of every operand are even, so aligned): half
 * the load and store instructions of two scalar accesses, and each request
 * covers whole sectors. */
#if defined(__OPENCL_VERSION__)
#if defined(TS_DOUBLE)
#define TS_KRY_REAL2 double2
#else
#define TS_KRY_REAL2 float2
#endif
TS_FN void ts_kry_ld2(TS_GLOBAL const ts_real* p, long i, ts_real* re, ts_real* im) {
  const TS_KRY_REAL2 v = vload2(i, p);
  *re = v.x;
  *im = v.y;
}
TS_FN void ts_kry_st2(TS_GLOBAL ts_real* p, long i, ts_real re, ts_real im) {
  TS_KRY_REAL2 v;
  v.x = re;
  v.y = im;
  vstore2(v, i, p);
}
#else
TS_FN void ts_kry_ld2(const ts_real* p, long i, ts_real* re, ts_real* im) {
  const ts_real* q = (const ts_real*)__builtin_assume_aligned(p + 2 * i, 2 * sizeof(ts_real));
  *re = q[0];
  *im = q[1];
}
TS_FN void ts_kry_st2(ts_real* p, long i, ts_real re, ts_real im) {
  ts_real* q = (ts_real*)__builtin_assume_aligned(p + 2 * i, 2 * sizeof(ts_real));
  q[0] = re;
  q[1] = im;
}
#endif
/* Real versions (a real vector's element has no imaginary part to multiply). */
TS_FN ts_real ts_kry_rdot(ts_real v, ts_real w) { return v * w; }
TS_FN ts_real ts_kry_rmul(ts_real c, ts_real v) { return c * v; }

/* The Hermitian products' terms of one element (the conjugate on the basis
 * element) added to the running sums (re, im) and, with two = 1, (re2, im2). */
TS_FN void ts_kry_dots_add(int nc, int two, ts_real vr, ts_real vi, ts_real wr, ts_real wi,
                           ts_real xr, ts_real xi, ts_real* re, ts_real* im, ts_real* re2,
                           ts_real* im2) {
  if (nc == 1) {
    *re = *re + ts_kry_rdot(vr, wr);
    if (two) *re2 = *re2 + ts_kry_rdot(vr, xr);
    return;
  }
  *re = *re + ts_kry_hdot_re(vr, vi, wr, wi);
  *im = *im + ts_kry_hdot_im(vr, vi, wr, wi);
  if (two) {
    *re2 = *re2 + ts_kry_hdot_re(vr, vi, xr, xi);
    *im2 = *im2 + ts_kry_hdot_im(vr, vi, xr, xi);
  }
}
#define ts_vstore ts_real
#define TS_KRY_NARROW 0
#define TS_KRY_B(name) name
#include "krylov/kernels/krylov_basis.h"
#undef ts_vstore
#undef TS_KRY_NARROW
#undef TS_KRY_B
#define ts_vstore ts_narrow
#define TS_KRY_NARROW 1
#define TS_KRY_B(name) name##_narrow
#include "krylov/kernels/krylov_basis.h"
#undef ts_vstore
#undef TS_KRY_NARROW
#undef TS_KRY_B

/* s-step GMRES's block operations: a block of t <= TS_KRY_BLOCK_MAX vectors
 * y_0 .. y_{t-1} (ld apart) against k basis vectors v_0 .. v_{k-1} (ld
 * apart), each basis element read once for the whole block. GPU kernels pass
 * t as a compile-time constant, so the arrays below live in registers. */

/* Element i of the block's t vectors (ld apart): (yr[l], yi[l]), yi 0 for
 * real vectors. */
TS_FN void ts_kry_block_load(int nc, int t, long i, TS_GLOBAL const ts_real* y, long ld,
                             ts_real* yr, ts_real* yi) {
  TS_UNROLL for (int l = 0; l < t; ++l) {
    if (nc == 1) {
      yr[l] = y[(long)l * ld + i];
      yi[l] = 0;
    } else {
      ts_kry_ld2(y + (long)l * ld, i, &yr[l], &yi[l]);
    }
  }
}

/* dots_block's terms of element i for the basis vector v against the
 * block's nt vectors y (ld apart): acc[2r + {0,1}] += <v, y_r> (conjugate on
 * v) for r < nt, each product's terms exactly as dots forms them, so every
 * product has the bits of dots against y_r alone. */
TS_FN void ts_kry_dotsb_element(int nc, int nt, long i, TS_GLOBAL const ts_real* v, long ld,
                                TS_GLOBAL const ts_real* y, ts_real* acc) {
  ts_real yr[TS_KRY_BLOCK_MAX], yi[TS_KRY_BLOCK_MAX];
  ts_kry_block_load(nc, nt, i, y, ld, yr, yi);
  if (nc == 1) {
    const ts_real vr = v[i];
    TS_UNROLL for (int r = 0; r < nt; ++r) acc[2 * r] = acc[2 * r] + ts_kry_rdot(vr, yr[r]);
  } else {
    ts_real vr, vi;
    ts_kry_ld2(v, i, &vr, &vi);
    TS_UNROLL for (int r = 0; r < nt; ++r) {
      acc[2 * r] = acc[2 * r] + ts_kry_hdot_re(vr, vi, yr[r], yi[r]);
      acc[2 * r + 1] = acc[2 * r + 1] + ts_kry_hdot_im(vr, vi, yr[r], yi[r]);
    }
  }
}

/* combine_block at element i, in place:
 *   y_r = sum_{l < t} a_{r,l} y_l + sum_{kk < k} c_{r,kk} v_kk     (r < t)
 * with output r's coefficients at coef + r (t + k) nc: [a_{r,0..t-1},
 * c_{r,0..k-1}], terms added in that order from 0. Every y_l,i is read
 * before any y_r,i is written. */
TS_FN void ts_kry_combb_at(int nc, int t, long i, int k, TS_GLOBAL const ts_real* coef,
                           TS_GLOBAL const ts_real* v, TS_GLOBAL ts_real* y, long ld) {
  ts_real yr[TS_KRY_BLOCK_MAX], yi[TS_KRY_BLOCK_MAX], ar[TS_KRY_BLOCK_MAX], ai[TS_KRY_BLOCK_MAX];
  const long cs = (long)(t + k) * nc; /* reals of one output's list */
  ts_kry_block_load(nc, t, i, y, ld, yr, yi);
  TS_UNROLL for (int r = 0; r < t; ++r) {
    ar[r] = 0;
    ai[r] = 0;
    TS_UNROLL for (int l = 0; l < t; ++l) {
      TS_GLOBAL const ts_real* c = coef + r * cs + l * nc;
      if (nc == 1) {
        ar[r] = ar[r] + ts_kry_rmul(c[0], yr[l]);
      } else {
        ar[r] = ar[r] + ts_kry_mul_re(c[0], c[1], yr[l], yi[l]);
        ai[r] = ai[r] + ts_kry_mul_im(c[0], c[1], yr[l], yi[l]);
      }
    }
  }
  TS_KRY_UNROLL4
  for (int kk = 0; kk < k; ++kk) {
    ts_real vr, vi = 0;
    if (nc == 1)
      vr = v[(long)kk * ld + i];
    else
      ts_kry_ld2(v + (long)kk * ld, i, &vr, &vi);
    TS_UNROLL for (int r = 0; r < t; ++r) {
      TS_GLOBAL const ts_real* c = coef + r * cs + (t + kk) * nc;
      if (nc == 1) {
        ar[r] = ar[r] + ts_kry_rmul(c[0], vr);
      } else {
        ar[r] = ar[r] + ts_kry_mul_re(c[0], c[1], vr, vi);
        ai[r] = ai[r] + ts_kry_mul_im(c[0], c[1], vr, vi);
      }
    }
  }
  TS_UNROLL for (int r = 0; r < t; ++r) {
    if (nc == 1)
      y[(long)r * ld + i] = ar[r];
    else
      ts_kry_st2(y + (long)r * ld, i, ar[r], ai[r]);
  }
}

/* block_diag at row i: y_i = sum_c D_b(r, c) x_b(c) for the dense bs x bs
 * block b = i / bs (row-major blocks, nc as above), columns in order. */
TS_FN void ts_kry_block_diag_at(int nc, long i, int bs, TS_GLOBAL const ts_real* d,
                                TS_GLOBAL const ts_real* x, TS_GLOBAL ts_real* y) {
  const long b = (long)bs, blk = i / b, r = i % b;
  TS_GLOBAL const ts_real* drow = d + (blk * b * b + r * b) * (long)nc;
  TS_GLOBAL const ts_real* xb = x + blk * b * (long)nc;
  ts_real ar = 0, ai = 0;
  for (long c = 0; c < b; ++c) {
    if (nc == 1) {
      ar = ar + ts_kry_rmul(drow[c], xb[c]);
    } else {
      ar = ar + ts_kry_mul_re(drow[2 * c], drow[2 * c + 1], xb[2 * c], xb[2 * c + 1]);
      ai = ai + ts_kry_mul_im(drow[2 * c], drow[2 * c + 1], xb[2 * c], xb[2 * c + 1]);
    }
  }
  if (nc == 1) {
    y[i] = ar;
  } else {
    y[2 * i] = ar;
    y[2 * i + 1] = ai;
  }
}

/* A triangular solve (ILU(0)'s L and U; strictly lower or strictly upper CSR
 * part, columns ascending) runs on groups of consecutive rows r0 .. r1-1
 * (group size 1: single rows). Row i of a group:
 *   x_i = (b_i - sum_outside val_p x_col_p - sum_inside val_p x_col_p) d_i
 * the entries whose columns lie outside the group first, then those inside
 * it (one contiguous run, the columns ascending), each part in stored order;
 * d_i is inv_d[i] (the inverted diagonal: a product, not a division, so
 * every backend rounds alike) or 1 (has_d = 0, unit diagonal). The outside
 * terms read rows of earlier levels of the schedule, so the GPUs form them
 * for all rows of a group at once; only the inside terms are sequential. */

/* (ar, ai) -= v x: one term (nc = 1: real parts only) */
TS_FN void ts_kry_tri_term(int nc, ts_real vr, ts_real vi, ts_real xr, ts_real xi, ts_real* ar,
                           ts_real* ai) {
  if (nc == 1) {
    *ar = *ar - ts_kry_rmul(vr, xr);
  } else {
    *ar = *ar - ts_kry_mul_re(vr, vi, xr, xi);
    *ai = *ai - ts_kry_mul_im(vr, vi, xr, xi);
  }
}

/* the terms of entries p0 .. p1-1 in order, x in global memory */
TS_FN void ts_kry_tri_terms(int nc, long p0, long p1, TS_GLOBAL const int* col,
                            TS_GLOBAL const ts_real* val, TS_GLOBAL const ts_real* x, ts_real* ar,
                            ts_real* ai) {
  for (long p = p0; p < p1; ++p) {
    const long c = col[p];
    ts_kry_tri_term(nc, val[nc * p], nc == 1 ? (ts_real)0 : val[2 * p + 1], x[nc * c],
                    nc == 1 ? (ts_real)0 : x[2 * c + 1], ar, ai);
  }
}

/* [*pa, *pb): the entries of row i whose columns lie in [r0, r1) (no ts_real
 * argument: defined once however often this header is included) */
#ifndef TS_KRY_TRI_INSIDE_DEFINED
#define TS_KRY_TRI_INSIDE_DEFINED
TS_FN void ts_kry_tri_inside(long i, long r0, long r1, TS_GLOBAL const int* ptr,
                             TS_GLOBAL const int* col, long* pa, long* pb) {
  long p = ptr[i];
  const long e = ptr[i + 1];
  while (p < e && col[p] < r0) ++p;
  *pa = p;
  while (p < e && col[p] < r1) ++p;
  *pb = p;
}
#endif

/* x_i = d_i (ar, ai) */
TS_FN void ts_kry_tri_store(int nc, long i, int has_d, TS_GLOBAL const ts_real* inv_d, ts_real ar,
                            ts_real ai, TS_GLOBAL ts_real* x) {
  if (nc == 1) {
    x[i] = has_d ? ts_kry_rmul(inv_d[i], ar) : ar;
  } else if (has_d) {
    x[2 * i] = ts_kry_mul_re(inv_d[2 * i], inv_d[2 * i + 1], ar, ai);
    x[2 * i + 1] = ts_kry_mul_im(inv_d[2 * i], inv_d[2 * i + 1], ar, ai);
  } else {
    x[2 * i] = ar;
    x[2 * i + 1] = ai;
  }
}

/* row i of the group [r0, r1), sequentially (the CPU and the host reference) */
TS_FN void ts_kry_tri_row(int nc, long i, long r0, long r1, TS_GLOBAL const int* ptr,
                          TS_GLOBAL const int* col, TS_GLOBAL const ts_real* val, int has_d,
                          TS_GLOBAL const ts_real* inv_d, TS_GLOBAL const ts_real* b,
                          TS_GLOBAL ts_real* x) {
  long pa, pb;
  ts_kry_tri_inside(i, r0, r1, ptr, col, &pa, &pb);
  ts_real ar = b[nc * i], ai = nc == 1 ? (ts_real)0 : b[2 * i + 1];
  ts_kry_tri_terms(nc, ptr[i], pa, col, val, x, &ar, &ai);
  ts_kry_tri_terms(nc, pb, ptr[i + 1], col, val, x, &ar, &ai);
  ts_kry_tri_terms(nc, pa, pb, col, val, x, &ar, &ai);
  ts_kry_tri_store(nc, i, has_d, inv_d, ar, ai, x);
}

/* The fused steps of CG and BiCGStab (Mode::fused) at element i. Flags
 * (TS_KRY_UP_*, krylov_constants.h) say which operands exist:
 *   y  = a  x  + b  u  + c  w     (terms in this order; no x: the sum starts at 0)
 *   y2 = a2 x2 + b2 u2 + c2 w2    (TS_KRY_UP_Y2: a second output)
 *   z  = d y                      (TS_KRY_UP_Z: a point diagonal, e.g. Jacobi)
 * coef = [a, b, c, a2, b2, c2], nc reals each. The dot terms of the new y
 * are added to dot[0..2]: dot[0] += <y, y> (TS_KRY_UP_NORM, real part only:
 * the imaginary part is exactly 0); with TS_KRY_UP_DOT (dot[1], dot[2]) +=
 * <y, z> with z, else <e, y> (TS_KRY_UP_E; conjugate on the left). Each value is formed as
 * combine, block_diag and dots form it, in their order, so a fused step has
 * the bits of the separate kernels. Every input of element i is read before
 * its outputs are written (y may be x, u or w; y2 may be x2, u2 or w2). */
/* (re, im) = c v_i (first = 1) or += c v_i: one term of a combination */
TS_FN void ts_kry_term(int nc, long i, int first, TS_GLOBAL const ts_real* c,
                       TS_GLOBAL const ts_real* v, ts_real* re, ts_real* im) {
  ts_real tr, ti = 0;
  if (nc == 1) {
    tr = ts_kry_rmul(c[0], v[i]);
  } else {
    ts_real vr, vi;
    ts_kry_ld2(v, i, &vr, &vi);
    tr = ts_kry_mul_re(c[0], c[1], vr, vi);
    ti = ts_kry_mul_im(c[0], c[1], vr, vi);
  }
  *re = first ? tr : *re + tr;
  *im = first ? ti : *im + ti;
}

/* a x + b u + c w at element i over the operands flagged in f (bits X, U, W) */
TS_FN void ts_kry_lin3(int nc, long i, unsigned f, TS_GLOBAL const ts_real* coef,
                       TS_GLOBAL const ts_real* x, TS_GLOBAL const ts_real* u,
                       TS_GLOBAL const ts_real* w, ts_real* re, ts_real* im) {
  *re = 0;
  *im = 0;
  if (f & TS_KRY_UP_X) ts_kry_term(nc, i, 1, coef, x, re, im);
  if (f & TS_KRY_UP_U) ts_kry_term(nc, i, 0, coef + nc, u, re, im);
  if (f & TS_KRY_UP_W) ts_kry_term(nc, i, 0, coef + 2 * nc, w, re, im);
}

TS_FN void ts_kry_put(int nc, TS_GLOBAL ts_real* y, long i, ts_real re, ts_real im) {
  if (nc == 1)
    y[i] = re;
  else
    ts_kry_st2(y, i, re, im);
}

TS_FN void ts_kry_update_at(int nc, long i, unsigned f, TS_GLOBAL const ts_real* coef,
                            TS_GLOBAL const ts_real* x, TS_GLOBAL const ts_real* u,
                            TS_GLOBAL const ts_real* w, TS_GLOBAL ts_real* y,
                            TS_GLOBAL const ts_real* x2, TS_GLOBAL const ts_real* u2,
                            TS_GLOBAL const ts_real* w2, TS_GLOBAL ts_real* y2,
                            TS_GLOBAL const ts_real* d, TS_GLOBAL ts_real* z,
                            TS_GLOBAL const ts_real* e, ts_real* dot) {
  ts_real yr, yi, br = 0, bi = 0, zr = 0, zi = 0, er = 0, ei = 0;
  ts_kry_lin3(nc, i, f, coef, x, u, w, &yr, &yi);
  if (f & TS_KRY_UP_Y2) ts_kry_lin3(nc, i, f >> 4, coef + 3 * nc, x2, u2, w2, &br, &bi);
  if (f & TS_KRY_UP_Z) { /* block_diag with 1 x 1 blocks: 0 + d y */
    if (nc == 1) {
      zr = (ts_real)0 + ts_kry_rmul(d[i], yr);
    } else {
      zr = (ts_real)0 + ts_kry_mul_re(d[2 * i], d[2 * i + 1], yr, yi);
      zi = (ts_real)0 + ts_kry_mul_im(d[2 * i], d[2 * i + 1], yr, yi);
    }
  }
  if (f & TS_KRY_UP_E) {
    if (nc == 1)
      er = e[i];
    else
      ts_kry_ld2(e, i, &er, &ei);
  }
  ts_kry_put(nc, y, i, yr, yi);
  if (f & TS_KRY_UP_Y2) ts_kry_put(nc, y2, i, br, bi);
  if (f & TS_KRY_UP_Z) ts_kry_put(nc, z, i, zr, zi);
  if (f & TS_KRY_UP_NORM)
    dot[0] = dot[0] + (nc == 1 ? ts_kry_rdot(yr, yr) : ts_kry_hdot_re(yr, yi, yr, yi));
  if (!(f & TS_KRY_UP_DOT)) return;
  if (f & TS_KRY_UP_Z) {
    if (nc == 1) {
      dot[1] = dot[1] + ts_kry_rdot(yr, zr);
    } else {
      dot[1] = dot[1] + ts_kry_hdot_re(yr, yi, zr, zi);
      dot[2] = dot[2] + ts_kry_hdot_im(yr, yi, zr, zi);
    }
  } else if (f & TS_KRY_UP_E) {
    if (nc == 1) {
      dot[1] = dot[1] + ts_kry_rdot(er, yr);
    } else {
      dot[1] = dot[1] + ts_kry_hdot_re(er, ei, yr, yi);
      dot[2] = dot[2] + ts_kry_hdot_im(er, ei, yr, yi);
    }
  }
}

#if defined(TS_BARRIER)
/* A group of rows r0 .. r1-1 of a triangular solve (see ts_kry_tri_row) by a
 * work-group of TS_KRY_TRI_THREADS, in three phases:
 *  1. the work-items stage the group's entries t, t + THREADS, ... (loads of
 *     all entries in flight at once): an entry outside the group as its
 *     product val_p x_col_p (x of earlier levels), one inside as val_p with
 *     its column's place in the group (at >= 0); and each row's end offset;
 *  2. work-item m subtracts row m's outside terms from b_i in stored order
 *     (all rows at once, from group memory) and notes its inside run;
 *  3. work-item 0 subtracts the inside terms row by row in order (backward:
 *     descending) from the values it has just computed (xs).
 * Every term and sum is ts_kry_tri_row's, so the rows get its bits. Groups of
 * more than TS_KRY_TRI_CAP entries or TS_KRY_TRI_ROWS rows are solved by
 * work-item 0 alone. Group memory: s 2 * TS_KRY_TRI_CAP reals, at
 * TS_KRY_TRI_CAP ints, acc and xs 2 * TS_KRY_TRI_ROWS reals, span
 * 3 * TS_KRY_TRI_ROWS ints. GPU launchers only. */
TS_FN void ts_kry_tri_group(int nc, long r0, long r1, int backward, unsigned t,
                            TS_GLOBAL const int* ptr, TS_GLOBAL const int* col,
                            TS_GLOBAL const ts_real* val, int has_d, TS_GLOBAL const ts_real* inv_d,
                            TS_GLOBAL const ts_real* b, TS_GLOBAL ts_real* x, TS_LOCAL ts_real* s,
                            TS_LOCAL int* at, TS_LOCAL ts_real* acc, TS_LOCAL ts_real* xs,
                            TS_LOCAL int* span) {
  const long rows = r1 - r0, e0 = ptr[r0], e = (long)ptr[r1] - e0;
  if (rows > TS_KRY_TRI_ROWS || e > TS_KRY_TRI_CAP) {
    if (t == 0)
      for (long k = 0; k < rows; ++k)
        ts_kry_tri_row(nc, backward ? r1 - 1 - k : r0 + k, r0, r1, ptr, col, val, has_d, inv_d, b,
                       x);
    return;
  }
  TS_KRY_UNROLL4
  for (long q = t; q < e; q += TS_KRY_TRI_THREADS) {
    const long p = e0 + q, c = col[p];
    const int inside = c >= r0 && c < r1;
    at[q] = inside ? (int)(c - r0) : -1;
    const ts_real vr = val[nc * p], vi = nc == 1 ? (ts_real)0 : val[2 * p + 1];
    if (inside) {
      s[2 * q] = vr;
      s[2 * q + 1] = vi;
    } else if (nc == 1) {
      s[2 * q] = ts_kry_rmul(vr, x[c]);
    } else {
      s[2 * q] = ts_kry_mul_re(vr, vi, x[2 * c], x[2 * c + 1]);
      s[2 * q + 1] = ts_kry_mul_im(vr, vi, x[2 * c], x[2 * c + 1]);
    }
  }
  for (long m = t; m < rows; m += TS_KRY_TRI_THREADS) {
    span[3 * m] = (int)(ptr[r0 + m] - e0);
    span[3 * m + 1] = (int)(ptr[r0 + m + 1] - e0);
    acc[2 * m] = b[nc * (r0 + m)];
    acc[2 * m + 1] = nc == 1 ? (ts_real)0 : b[2 * (r0 + m) + 1];
  }
  TS_BARRIER();
  for (long m = t; m < rows; m += TS_KRY_TRI_THREADS) {
    ts_real ar = acc[2 * m], ai = acc[2 * m + 1];
    long first = -1;
    TS_KRY_UNROLL4
    for (long q = span[3 * m]; q < span[3 * m + 1]; ++q) {
      if (at[q] >= 0) {
        if (first < 0) first = q;
        continue;
      }
      ar = ar - s[2 * q];
      if (nc == 2) ai = ai - s[2 * q + 1];
    }
    acc[2 * m] = ar;
    acc[2 * m + 1] = ai;
    span[3 * m + 2] = first < 0 ? span[3 * m + 1] : (int)first; /* the inside run starts here */
  }
  TS_BARRIER();
  if (t != 0) return;
  for (long k = 0; k < rows; ++k) {
    const long i = backward ? r1 - 1 - k : r0 + k, m = i - r0;
    ts_real ar = acc[2 * m], ai = acc[2 * m + 1];
    for (long q = span[3 * m + 2]; q < span[3 * m + 1] && at[q] >= 0; ++q) {
      const long j = at[q];
      ts_kry_tri_term(nc, s[2 * q], s[2 * q + 1], xs[2 * j], xs[2 * j + 1], &ar, &ai);
    }
    ts_kry_tri_store(nc, i, has_d, inv_d, ar, ai, x);
    xs[2 * m] = nc == 1 ? x[i] : x[2 * i];
    xs[2 * m + 1] = nc == 1 ? (ts_real)0 : x[2 * i + 1];
  }
}

/* One work-group's job of the GPU update kernels (ts_kry_update_at over
 * chunk c, work-item t of TS_REDUCE_THREADS, elements in the dots' order so
 * that its products have their bits), then its products' canonical tree in
 * s (3 * TS_REDUCE_THREADS: <y,y>, then the second product's re and im) and
 * chunk c's partials. products == 0 is the same for the whole group. */
TS_FN void ts_kry_update_group(unsigned long c, unsigned t, int nc, unsigned long n,
                               unsigned long nch, unsigned f, int products,
                               TS_GLOBAL const ts_real* coef, TS_GLOBAL const ts_real* x,
                               TS_GLOBAL const ts_real* u, TS_GLOBAL const ts_real* w,
                               TS_GLOBAL ts_real* y, TS_GLOBAL const ts_real* x2,
                               TS_GLOBAL const ts_real* u2, TS_GLOBAL const ts_real* w2,
                               TS_GLOBAL ts_real* y2, TS_GLOBAL const ts_real* d,
                               TS_GLOBAL ts_real* z, TS_GLOBAL const ts_real* e,
                               TS_LOCAL ts_real* s, TS_GLOBAL ts_real* partials) {
  ts_real dot[3] = {0, 0, 0};
  TS_UNROLL for (unsigned p = 0; p < TS_REDUCE_PER_THREAD; ++p) {
    const unsigned long i = c * TS_REDUCE_CHUNK + (unsigned long)p * TS_REDUCE_THREADS + t;
    if (i < n) ts_kry_update_at(nc, (long)i, f, coef, x, u, w, y, x2, u2, w2, y2, d, z, e, dot);
  }
  if (products == 0) return;
  for (int q = 0; q < 3; ++q) s[q * TS_REDUCE_THREADS + t] = dot[q];
  TS_BARRIER();
  for (unsigned h = TS_REDUCE_THREADS / 2; h > 0; h >>= 1) {
    if (t < h)
      for (int q = 0; q < 3; ++q)
        s[q * TS_REDUCE_THREADS + t] =
            s[q * TS_REDUCE_THREADS + t] + s[q * TS_REDUCE_THREADS + t + h];
    TS_BARRIER();
  }
  if (t == 0) {
    unsigned long q = 0;
    if (f & TS_KRY_UP_NORM) {
      partials[2 * c] = s[0];
      partials[2 * c + 1] = 0;
      ++q;
    }
    if (f & TS_KRY_UP_DOT) {
      partials[2 * (q * nch + c)] = s[TS_REDUCE_THREADS];
      partials[2 * (q * nch + c) + 1] = s[2 * TS_REDUCE_THREADS];
    }
  }
}

/* The chunk partials of product q (dots' layout: partials[2 (q chunks + c) +
 * {0,1}]) summed by a group of TS_REDUCE_THREADS work-items t in the canonical
 * order: t takes chunks t, t + THREADS, ... in sequence, then the halving tree
 * (krylov_cpu.cpp's sum_chunks does the same sequentially). s: 2 * THREADS
 * reals of group memory. GPU launchers only. */
TS_FN void ts_kry_sum_chunks_group(unsigned long chunks, unsigned long q, unsigned t,
                                   TS_GLOBAL const ts_real* partials, TS_LOCAL ts_real* s,
                                   TS_GLOBAL ts_real* out) {
  ts_real re = 0, im = 0;
  for (unsigned long c = t; c < chunks; c += TS_REDUCE_THREADS) {
    re = re + partials[2 * (q * chunks + c)];
    im = im + partials[2 * (q * chunks + c) + 1];
  }
  s[t] = re;
  s[TS_REDUCE_THREADS + t] = im;
  TS_BARRIER();
  for (unsigned h = TS_REDUCE_THREADS / 2; h > 0; h >>= 1) {
    if (t < h) {
      s[t] = s[t] + s[t + h];
      s[TS_REDUCE_THREADS + t] = s[TS_REDUCE_THREADS + t] + s[TS_REDUCE_THREADS + t + h];
    }
    TS_BARRIER();
  }
  if (t == 0) {
    out[2 * q] = s[0];
    out[2 * q + 1] = s[TS_REDUCE_THREADS];
  }
}

/* One work-group's job of the GPU dots_block kernels: chunk c of basis
 * vector kk (at v) against the block's nt vectors y (ld apart), each product
 * in dots' order (work-item t takes elements t, t + THREADS, ..., then the
 * halving tree). Product (r, kk)'s chunk partial goes to partials[2 ((r k +
 * kk) nch + c) + {0,1}]. s: 2 nt TS_REDUCE_THREADS reals of group memory.
 * One basis vector per group: several per group, the block loaded once for
 * them, were slower (docs/krylov-history.md). */
TS_FN void ts_kry_dotsb_group(int nc, int nt, unsigned long n, unsigned long nch, unsigned long k,
                              unsigned long kk, unsigned long c, unsigned t,
                              TS_GLOBAL const ts_real* v, TS_GLOBAL const ts_real* y, long ld,
                              TS_LOCAL ts_real* s, TS_GLOBAL ts_real* partials) {
  ts_real acc[2 * TS_KRY_BLOCK_MAX];
  TS_UNROLL for (int q = 0; q < 2 * TS_KRY_BLOCK_MAX; ++q) acc[q] = 0;
  if ((c + 1) * TS_REDUCE_CHUNK <= n) {
    TS_UNROLL for (unsigned p = 0; p < TS_REDUCE_PER_THREAD; ++p) ts_kry_dotsb_element(
        nc, nt, (long)(c * TS_REDUCE_CHUNK + (unsigned long)p * TS_REDUCE_THREADS + t), v, ld, y,
        acc);
  } else {
    for (unsigned p = 0; p < TS_REDUCE_PER_THREAD; ++p) {
      const unsigned long i = c * TS_REDUCE_CHUNK + (unsigned long)p * TS_REDUCE_THREADS + t;
      if (i < n) ts_kry_dotsb_element(nc, nt, (long)i, v, ld, y, acc);
    }
  }
  TS_UNROLL for (int q = 0; q < 2 * nt; ++q) s[q * TS_REDUCE_THREADS + t] = acc[q];
  TS_BARRIER();
  for (unsigned h = TS_REDUCE_THREADS / 2; h > 0; h >>= 1) {
    if (t < h) {
      TS_UNROLL for (int q = 0; q < 2 * nt; ++q) s[q * TS_REDUCE_THREADS + t] =
          s[q * TS_REDUCE_THREADS + t] + s[q * TS_REDUCE_THREADS + t + h];
    }
    TS_BARRIER();
  }
  if (t < (unsigned)(2 * nt)) { /* work-item q writes sum q (product q / 2, its re or im) */
    const unsigned long r = t / 2;
    partials[2 * ((r * k + kk) * nch + c) + t % 2] = s[t * TS_REDUCE_THREADS];
  }
}
#endif

/* ---- the kernels (list at the top) ----
 * Arrays marked TS_ALIASED may be memory the kernel writes (a basis slot or
 * a vector updated in place: every input of element i is read before its
 * outputs are written). */

/* dots: the chunk partials of <v_kk, w> and, with variant 1, of <v_kk, w2>
 * (ts_kry_dots_group), over a basis of ts_real or a narrow one */
#define TS_ARGS_kry_dots(V, IN, OUT) \
  V(ts_kry_params, p) IN(ts_value, v) IN(ts_value, w) IN(ts_value, w2) OUT(ts_value, partials)
TS_GROUP(kry_dots, g, s) { ts_kry_dots_group(p, g.id, g.lid, v, w, g.variant, w2, s, partials); }
#define TS_ARGS_kry_dots_narrow(V, IN, OUT) \
  V(ts_kry_params, p) IN(ts_narrow, v) IN(ts_narrow, w) IN(ts_value, w2) OUT(ts_value, partials)
TS_GROUP(kry_dots_narrow, g, s) {
  ts_kry_dots_group_narrow(p, g.id, g.lid, v, w, g.variant, w2, s, partials);
}

/* combine: y = a x + sum_k c_k v_k (coef), and with p.two y2 = a2 x2 +
 * sum_{k < k2} c2_k v_k (coef2), one work-item per element. */
/* (clang-format 14 does not settle on a layout for three-argument IN entries) */
/* clang-format off */
#define TS_ARGS_kry_combine(V, IN, OUT)                                                \
  V(ts_kry_params, p) IN(ts_value, coef) IN(ts_value, coef2)                           \
  IN(ts_value, x, TS_ALIASED) IN(ts_value, v, TS_ALIASED) OUT(ts_value, y)             \
  IN(ts_value, x2, TS_ALIASED) OUT(ts_value, y2)
/* clang-format on */
TS_ITEM(kry_combine, i) {
  ts_kry_combine2_at(p.nc, (long)i, (int)p.k, coef, p.has_x, x, v, (long)p.ld, y, y, 0, p.two, p.k2,
                     coef2, p.has_x2, x2, y2);
}
/* over a narrow basis: v, x2, y2 and y narrow, or with p.y_real the working
 * vector yw in y's stead */
/* (clang-format 14 does not settle on a layout for three-argument IN entries) */
/* clang-format off */
#define TS_ARGS_kry_combine_narrow(V, IN, OUT)                                         \
  V(ts_kry_params, p) IN(ts_value, coef) IN(ts_value, coef2)                           \
  IN(ts_value, x, TS_ALIASED) IN(ts_narrow, v, TS_ALIASED) OUT(ts_narrow, y)           \
  OUT(ts_value, yw) IN(ts_narrow, x2, TS_ALIASED) OUT(ts_narrow, y2)
/* clang-format on */
TS_ITEM(kry_combine_narrow, i) {
  ts_kry_combine2_at_narrow(p.nc, (long)i, (int)p.k, coef, p.has_x, x, v, (long)p.ld, y, yw,
                            p.y_real, p.two, p.k2, coef2, p.has_x2, x2, y2);
}

/* sum_chunks: product g.id's chunk partials summed in the canonical order */
#define TS_ARGS_kry_sum_chunks(V, IN, OUT) \
  V(ts_kry_params, p) IN(ts_value, partials) OUT(ts_value, out)
TS_GROUP(kry_sum_chunks, g, s) { ts_kry_sum_chunks_group(p.nch, g.id, g.lid, partials, s, out); }

/* update: the fused steps of CG and BiCGStab over chunk g.id */
/* (clang-format 14 does not settle on a layout for three-argument IN entries) */
/* clang-format off */
#define TS_ARGS_kry_update(V, IN, OUT)                                                 \
  V(ts_kry_params, p) IN(ts_value, coef)                                               \
  IN(ts_value, x, TS_ALIASED) IN(ts_value, u, TS_ALIASED)                              \
  IN(ts_value, w, TS_ALIASED) OUT(ts_value, y)                                         \
  IN(ts_value, x2, TS_ALIASED) IN(ts_value, u2, TS_ALIASED)                            \
  IN(ts_value, w2, TS_ALIASED) OUT(ts_value, y2)                                       \
  IN(ts_value, d) OUT(ts_value, z) IN(ts_value, e, TS_ALIASED) OUT(ts_value, partials)
/* clang-format on */
TS_GROUP(kry_update, g, s) {
  ts_kry_update_group(g.id, g.lid, p.nc, p.n, p.nch, p.flags, p.products, coef, x, u, w, y, x2, u2,
                      w2, y2, d, z, e, s, partials);
}

/* dots_block: chunk c = g.id / k of basis vector kk = g.id % k against the
 * block's g.variant vectors y */
#define TS_ARGS_kry_dots_block(V, IN, OUT) \
  V(ts_kry_params, p) IN(ts_value, v) IN(ts_value, y) OUT(ts_value, partials)
TS_GROUP(kry_dots_block, g, s) {
  const ts_size kk = g.id % p.k, c = g.id / p.k;
  ts_kry_dotsb_group(p.nc, g.variant, p.n, p.nch, p.k, kk, c, g.lid, v + kk * p.ld, y, (long)p.ld,
                     s, partials);
}
/* combine_block: the block of g.variant vectors y in place, one work-item
 * per element (its groups TS_KRY_ITEM_GROUP work-items; no group memory) */
#define TS_ARGS_kry_combine_block(V, IN, OUT) \
  V(ts_kry_params, p) IN(ts_value, coef) IN(ts_value, v, TS_ALIASED) OUT(ts_value, y)
TS_GROUP(kry_combine_block, g, s) {
  const ts_size i = g.id * TS_KRY_ITEM_GROUP + g.lid;
  (void)s;
  if (i < p.n) ts_kry_combb_at(p.nc, g.variant, (long)i, (int)p.k, coef, v, y, (long)p.ld);
}

/* block_diag: y = blockdiag(d) x, one work-item per row */
#define TS_ARGS_kry_block_diag(V, IN, OUT) \
  V(ts_kry_params, p) IN(ts_value, d) IN(ts_value, x) OUT(ts_value, y)
TS_ITEM(kry_block_diag, i) { ts_kry_block_diag_at(p.nc, (long)i, p.bs, d, x, y); }

/* tri_rows: the rows rows[k] of one level, one work-item each (groups of a
 * single row whose entries all lie outside it, such as a colour of
 * multicolour Gauss-Seidel: ts_kry_tri_row, terms in stored order) */
/* (clang-format 14 does not settle on a layout for three-argument IN entries) */
/* clang-format off */
#define TS_ARGS_kry_tri_rows(V, IN, OUT)                                               \
  V(ts_kry_params, p) IN(int, rows) IN(int, ptr) IN(int, col) IN(ts_value, val)        \
  IN(ts_value, inv_d) IN(ts_value, b, TS_ALIASED) OUT(ts_value, x)
/* clang-format on */
TS_ITEM(kry_tri_rows, k) {
  const long i = rows[k];
  ts_kry_tri_row(p.nc, i, i, i + 1, ptr, col, val, p.has_d, inv_d, b, x);
}

/* tri_group: the group of rows groups[g.id] of one level (ts_kry_tri_group) */
/* (clang-format 14 does not settle on a layout for three-argument IN entries) */
/* clang-format off */
#define TS_ARGS_kry_tri_group(V, IN, OUT)                                              \
  V(ts_kry_params, p) IN(int, groups) IN(int, ptr) IN(int, col) IN(ts_value, val)      \
  IN(ts_value, inv_d) IN(ts_value, b, TS_ALIASED) OUT(ts_value, x)
/* clang-format on */
TS_GROUP(kry_tri_group, g, s) {
  TS_LOCAL ts_value* acc = s + 2 * TS_KRY_TRI_CAP;
  TS_LOCAL ts_value* xs = acc + 2 * TS_KRY_TRI_ROWS;
  TS_LOCAL int* at = (TS_LOCAL int*)(xs + 2 * TS_KRY_TRI_ROWS);
  TS_LOCAL int* span = at + TS_KRY_TRI_CAP;
  const long n = (long)p.n, r0 = (long)groups[g.id] * p.group;
  const long r1 = r0 + p.group < n ? r0 + p.group : n;
  ts_kry_tri_group(p.nc, r0, r1, p.backward, g.lid, ptr, col, val, p.has_d, inv_d, b, x, s, at, acc,
                   xs, span);
}
