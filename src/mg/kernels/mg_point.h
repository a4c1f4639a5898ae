/* Per-point mathematics of the multigrid module (C99 subset; see
 * core/kernels/portable.h). Shared by mg_cpu.cpp, mg.cl and mg_cuda.cu.
 *
 * Thesis mode ("Realisierung eines Mehrgitterverfahrens in OpenCL"): the
 * unscaled 5-point system 4x - (four neighbours) = b, undamped Jacobi, the
 * 7-point restriction (eq. 2.4) with the thesis's sign and summation order,
 * the prolongation (2.5-2.8) with its halving order. Keeping these orders
 * makes every backend bitwise identical to the CPU.
 *
 * Modern mode: the same unscaled operator in 2D (diagonal 4) and 3D (7-point,
 * diagonal 6), damped Jacobi, red-black Gauss-Seidel, full weighting and
 * (bi/tri)linear interpolation. Neighbour sums have a fixed order too. */
#include "core/kernels/portable.h"
#include "mg_grid.h"

/* ---- thesis mode (2D) ---- */

/* eq. 2.2, summation order b + W + E + N + S as in cpu_smoothing_step */
TS_FN ts_real ts_mg_thesis_jacobi(ts_real b, ts_real w, ts_real e, ts_real n, ts_real s) {
  return (b + w + e + n + s) * (ts_real)0.25;
}
/* eq. 2.3: d = b + W + E + N + S - 4x */
TS_FN ts_real ts_mg_thesis_residual(ts_real b, ts_real x, ts_real w, ts_real e, ts_real n,
                                    ts_real s) {
  return b + w + e + n + s - x * (ts_real)4;
}
/* eq. 2.4 in the listing's order: -d[c] - (W + SW + S + E + NE + N) * 0.5 */
TS_FN ts_real ts_mg_thesis_restrict(ts_real c, ts_real w, ts_real sw, ts_real s, ts_real e,
                                    ts_real ne, ts_real n) {
  return -c - (w + sw + s + e + ne + n) * (ts_real)0.5;
}
/* eqs. 2.5-2.7: an edge midpoint gets -(a/2) - (b/2) (help4/help3/help2 order) */
TS_FN ts_real ts_mg_thesis_prolong_pair(ts_real a, ts_real b) { return -(a / 2) - (b / 2); }
/* eq. 2.8: a point coinciding with a coarse point gets -c */
TS_FN ts_real ts_mg_thesis_prolong_single(ts_real c) { return -c; }

/* ---- modern mode (2D / 3D) ---- */

TS_FN ts_real ts_mg_nsum2(ts_real w, ts_real e, ts_real s, ts_real n) { return ((w + e) + s) + n; }
TS_FN ts_real ts_mg_nsum3(ts_real w, ts_real e, ts_real s, ts_real n, ts_real d, ts_real u) {
  return ((((w + e) + s) + n) + d) + u;
}
/* r = b - A x with A x = diag*x - (sum of neighbours) */
TS_FN ts_real ts_mg_residual(ts_real b, ts_real x, ts_real nsum, ts_real diag) {
  return b - (diag * x - nsum);
}
/* Damped Jacobi: x + omega * ((b + nsum) * inv_diag - x). The inverse
 * diagonal is a multiplication, never a division: OpenCL's single-precision
 * division need not be correctly rounded, which would break bitwise equality
 * with the CPU (and the multiplication is cheaper). */
TS_FN ts_real ts_mg_jacobi(ts_real b, ts_real x, ts_real nsum, ts_real inv_diag, ts_real omega) {
  return x + omega * ((b + nsum) * inv_diag - x);
}
/* Gauss-Seidel point update (red-black ordering is the launcher's) */
TS_FN ts_real ts_mg_gauss_seidel(ts_real b, ts_real nsum, ts_real inv_diag) {
  return (b + nsum) * inv_diag;
}
/* 1/diag of the 2D (1/4) or 3D (1/6) operator, rounded once. Written as
 * constants (1/6 correctly rounded in each precision): NVIDIA's OpenCL
 * compiler kept 1 / (2 * 3) as a multiplication and a correctly rounded
 * reciprocal computed at every point of a sweep. */
TS_FN ts_real ts_mg_inv_diag(ts_real dim) {
  const ts_real sixth =
      sizeof(ts_real) == 8 ? (ts_real)0x1.5555555555555p-3 : (ts_real)0x1.555556p-3f;
  return dim == (ts_real)3 ? sixth : (ts_real)0.25;
}
/* Full weighting of the residual, accumulated with weight w = wx*wy*wz
 * (1 or 2 per axis), then scaled: the weights sum to 4^dim, and the unscaled
 * coarse system needs a factor (2h/h)^2 = 4, so scale = 4 / 4^dim. */
TS_FN ts_real ts_mg_fw_accumulate(ts_real acc, ts_real r, ts_real w) { return acc + w * r; }
TS_FN ts_real ts_mg_fw_finish(ts_real acc, ts_real scale) { return acc * scale; }
/* (bi/tri)linear interpolation: correction accumulated with weight w
 * (1/2 per axis on which the fine point lies between coarse points). */
TS_FN ts_real ts_mg_interp_accumulate(ts_real acc, ts_real e, ts_real w) { return acc + w * e; }

/* ---- stencil gathers (arrays in the halo layout of mg_grid.h) ---- */

/* The six neighbours of a split point, summed in ts_mg_nsum3's order: all
 * are the other colour; q: the point's slot in the other colour's array,
 * s = (i + 1) & 1 (X = i + 1 is 2 m + s), so the x-neighbours X -+ 1 sit in
 * slots (X - 1) >> 1 = m - 1 + s and (X + 1) >> 1 = m + s of the same row. */
TS_FN ts_real ts_mg_nsum_other(TS_GLOBAL const ts_real* x, long q, long s, long sx, long sy) {
  return ts_mg_nsum3(x[q - 1 + s], x[q + s], x[q - sx], x[q + sx], x[q - sy], x[q + sy]);
}
/* ... of split point (i, j, k) at index p */
TS_FN ts_real ts_mg_nsum_split(TS_GLOBAL const ts_real* x, long i, long j, long k, long p, long sx,
                               long sy, long ph) {
  return ts_mg_nsum_other(x, p + (((i + j + k) & 1) ? -ph : ph), (i + 1) & 1, sx, sy);
}

TS_FN ts_real ts_mg_nsum_at(TS_GLOBAL const ts_real* x, long c, long sx, long sy, int dim) {
  return dim == 3 ? ts_mg_nsum3(x[c - 1], x[c + 1], x[c - sx], x[c + sx], x[c - sy], x[c + sy])
                  : ts_mg_nsum2(x[c - 1], x[c + 1], x[c - sx], x[c + sx]);
}

/* Damped-Jacobi update at natural-layout index c (2D or 3D) from x, written
 * elsewhere by the caller */
TS_FN ts_real ts_mg_jacobi_at(TS_GLOBAL const ts_real* b, TS_GLOBAL const ts_real* x, long c,
                              long sx, long sy, int dim, ts_real omega) {
  return ts_mg_jacobi(b[c], x[c], ts_mg_nsum_at(x, c, sx, sy, dim), ts_mg_inv_diag((ts_real)dim),
                      omega);
}

/* Gauss-Seidel update at natural-layout index c (2D or 3D); zero: x is known
 * to be 0, so the neighbour sum is +0 (the sum of zeros) and x is not read */
TS_FN ts_real ts_mg_gauss_seidel_at(TS_GLOBAL const ts_real* b, TS_GLOBAL const ts_real* x, long c,
                                    long sx, long sy, int dim, int zero) {
  return ts_mg_gauss_seidel(b[c], zero ? (ts_real)0 : ts_mg_nsum_at(x, c, sx, sy, dim),
                            ts_mg_inv_diag((ts_real)dim));
}

TS_FN ts_real ts_mg_residual_at(TS_GLOBAL const ts_real* b, TS_GLOBAL const ts_real* x, long c,
                                long sx, long sy, int dim) {
  return ts_mg_residual(b[c], x[c], ts_mg_nsum_at(x, c, sx, sy, dim), (ts_real)(2 * dim));
}

/* The 3D residual at interior (i, j, k) of a split level, and in either
 * storage (ts_mg_at3) */
TS_FN ts_real ts_mg_residual3_split(TS_GLOBAL const ts_real* b, TS_GLOBAL const ts_real* x, long i,
                                    long j, long k, long sx, long sy, long ph) {
  const long p = ts_mg_at3_split(i, j, k, sx, sy, ph);
  return ts_mg_residual(b[p], x[p], ts_mg_nsum_split(x, i, j, k, p, sx, sy, ph), (ts_real)6);
}
TS_FN ts_real ts_mg_residual3(TS_GLOBAL const ts_real* b, TS_GLOBAL const ts_real* x, long i,
                              long j, long k, long sx, long sy, long ph) {
  return ph ? ts_mg_residual3_split(b, x, i, j, k, sx, sy, ph)
            : ts_mg_residual_at(b, x, TS_MG_IDX(i, j, k, sx, sy, 1), sx, sy, 3);
}

/* The residual at interior (i, j, k) in its storage: 2D natural, 3D either */
TS_FN ts_real ts_mg_residual_any(TS_GLOBAL const ts_real* b, TS_GLOBAL const ts_real* x, long i,
                                 long j, long k, long sx, long sy, long ph, int dim) {
  return dim == 3 ? ts_mg_residual3(b, x, i, j, k, sx, sy, ph)
                  : ts_mg_residual_at(b, x, TS_MG_IDX(i, j, 0, sx, sy, 0), sx, sy, 2);
}

/* Full weighting of the residual around coarse point (I, J, K), computed on
 * the fly from the fine x and b (the fused residual+restriction); sx, sy,
 * ph: the fine level's storage pitches (ph > 0: split, 3D). red_only: the
 * black points' residuals are taken as zero and skipped. After a red-black
 * sweep that ends with black they are zero up to rounding (a black point
 * was just solved for with its red neighbours fixed), so only the red
 * points' residuals are computed: half the work. Skipping a term equals
 * adding +0: the sum starts at +0 and never becomes -0. */
TS_FN ts_real ts_mg_restrict_residual_at(TS_GLOBAL const ts_real* b, TS_GLOBAL const ts_real* x,
                                         long I, long J, long K, long sx, long sy, long ph, int dim,
                                         int red_only) {
  const int kr = dim == 3 ? 1 : 0;
  ts_real acc = 0;
  for (int dk = -kr; dk <= kr; ++dk)
    for (int dj = -1; dj <= 1; ++dj)
      for (int di = -1; di <= 1; ++di) {
        const long fi = 2 * I + 1 + di, fj = 2 * J + 1 + dj, fk = kr ? 2 * K + 1 + dk : 0;
        if (red_only && ((fi + fj + fk) & 1)) continue;
        const ts_real r = ts_mg_residual_any(b, x, fi, fj, fk, sx, sy, ph, dim);
        const ts_real w = (ts_real)((2 - di * di) * (2 - dj * dj) * (kr ? 2 - dk * dk : 1));
        acc = ts_mg_fw_accumulate(acc, r, w);
      }
  return ts_mg_fw_finish(acc, dim == 3 ? (ts_real)0.0625 : (ts_real)0.25);
}

/* (Bi/tri)linear interpolation of the coarse correction e at fine point
 * (i, j, k): per axis an odd fine index sits on coarse (i-1)/2 (weight 1), an
 * even one between coarse i/2-1 and i/2 (weight 1/2 each; the halo supplies
 * the zeros at -1 and nc). csx, csy, chalf: the coarse level's storage
 * pitches (chalf > 0: split, 3D). */
TS_FN ts_real ts_mg_prolong_at(TS_GLOBAL const ts_real* e, long i, long j, long k, long csx,
                               long csy, long chalf, int dim) {
  const int three = dim == 3 ? 1 : 0;
  const long i0 = (i - 1) >> 1, j0 = (j - 1) >> 1, k0 = three ? (k - 1) >> 1 : 0;
  const int ni = (i & 1) ? 1 : 2, nj = (j & 1) ? 1 : 2, nk = three ? ((k & 1) ? 1 : 2) : 1;
  const ts_real w = ((i & 1) ? (ts_real)1 : (ts_real)0.5) * ((j & 1) ? (ts_real)1 : (ts_real)0.5) *
                    ((three && !(k & 1)) ? (ts_real)0.5 : (ts_real)1);
  /* fixed trip counts with predicates rather than data-dependent loop bounds,
   * so device compilers unroll to at most eight loads; the order of the terms
   * is (k, j, i) lexicographic either way */
  TS_GLOBAL const ts_real* base = e + TS_MG_IDX(i0, j0, k0, csx, csy, three);
  ts_real acc = 0;
  for (int c = 0; c < 2; ++c)
    for (int b = 0; b < 2; ++b)
      for (int a = 0; a < 2; ++a)
        if (c < nk && b < nj && a < ni)
          acc =
              ts_mg_interp_accumulate(acc,
                                      chalf ? e[ts_mg_at3(i0 + a, j0 + b, k0 + c, csx, csy, chalf)]
                                            : base[c * csy + b * csx + a],
                                      w);
  return acc;
}

/* Thesis restriction (eq. 2.4) of src around coarse point (I, J); (dcol,
 * drow) order W (-1,0), SW (-1,+1), S (0,+1), E (+1,0), NE (+1,-1), N (0,-1).
 * sx, sy: the fine level's pitches. */
TS_FN ts_real ts_mg_thesis_restrict_at(TS_GLOBAL const ts_real* s, long I, long J, long sx,
                                       long sy) {
  const long f = TS_MG_IDX(2 * I + 1, 2 * J + 1, 0, sx, sy, 0);
  return ts_mg_thesis_restrict(s[f], s[f - 1], s[f - 1 + sx], s[f + sx], s[f + 1], s[f + 1 - sx],
                               s[f - sx]);
}

/* Thesis prolongation (eqs. 2.5-2.8) at fine point (i, j) = (column, row)
 * from coarse values C(J, I) (I = i / 2, J = j / 2): the one body of the
 * whole-grid and the streamed-tile gathers, which differ only in C. */
#ifndef TS_MG_THESIS_PROLONG
#define TS_MG_THESIS_PROLONG(C, i, j)                                                       \
  (((j) % 2 == 0 && (i) % 2 == 0)                                                           \
       ? ts_mg_thesis_prolong_pair(C((j) / 2 - 1, (i) / 2), C((j) / 2, (i) / 2 - 1))        \
   : (j) % 2 == 0 ? ts_mg_thesis_prolong_pair(C((j) / 2 - 1, (i) / 2), C((j) / 2, (i) / 2)) \
   : (i) % 2 == 0 ? ts_mg_thesis_prolong_pair(C((j) / 2, (i) / 2 - 1), C((j) / 2, (i) / 2)) \
                  : ts_mg_thesis_prolong_single(C((j) / 2, (i) / 2)))
#endif

/* ... gathered from the coarse solution c through its zero halo */
TS_FN ts_real ts_mg_thesis_prolong_at(TS_GLOBAL const ts_real* c, long i, long j, long csx,
                                      long csy) {
#define TS_C(jj, ii) c[TS_MG_IDX((ii), (jj), 0, csx, csy, 0)]
  const ts_real v = TS_MG_THESIS_PROLONG(TS_C, i, j);
#undef TS_C
  return v;
}

/* ---- split levels (3D, storage by colour, mg_grid.h) ---- */

/* Colour c's Gauss-Seidel update of slot m of row (j, k) of a split level
 * (nx interior points per row; slots past the row's ends do nothing). It
 * reads only its own b and the other colour's x; zero: x is known to be 0
 * (the first sweep of a coarse level's cycle), so the neighbour sum is +0,
 * the sum of six zeros, and nothing but b is read. */
TS_FN void ts_mg_gauss_seidel_split(TS_GLOBAL const ts_real* b, TS_GLOBAL ts_real* x, long m,
                                    long j, long k, int c, int zero, long nx, long sx, long sy,
                                    long ph) {
  const long i = ts_mg_split_i(m, j, k, c);
  if (i < 0 || i >= nx) return;
  const long p = ts_mg_slot(m, j, k, c, sx, sy, ph);
  const ts_real nsum =
      zero ? (ts_real)0
           : ts_mg_nsum_other(x, ts_mg_slot(m, j, k, 1 - c, sx, sy, ph), (i + 1) & 1, sx, sy);
  x[p] = ts_mg_gauss_seidel(b[p], nsum, ts_mg_inv_diag((ts_real)3));
}

/* ---- the coarse-grid correction read by the red sweep (split levels) ----
 * The post-smoothing's red-black sweep needs x + P e at black points only
 * (red ones are overwritten unread), and only its red half-sweep reads them:
 * the black half-sweep after it overwrites black x unread as well. So the
 * red sweep can add P e to the six black values it reads instead of a
 * prolongation kernel storing them (8 bytes per fine point read and written
 * in FP64). Black x stays uncorrected in memory; the black sweep's results
 * are the same bits as after a prolongation kernel, because each corrected
 * value below is ts_mg_prolong_at's sum, term for term, added to x as the
 * prolongation adds it.
 *
 * The coarse points per axis: ts_mg_near_first (mg_grid.h). For the fine
 * halo (c + d = -1 or n) they are the coarse halo's zeros, so the
 * "corrected" halo is 0 + 0 = +0, what the sweep reads without it. */

/* The coarse points (li + a, lj + b, lk + c), a, b, c in 0..2, that are
 * needed (above) by one point into v[9 c + 3 b + a], the rest 0, each
 * loaded once. (Two points two fine columns apart from one cube of width 4
 * were slower on both backends, H200 session 21, and were removed.) With
 * the parities constant (the callers' switches), device compilers keep v in
 * registers and load only the needed ones; the addressing takes the row
 * (lj, lk) once and per a the two colours' slots (split: colour
 * (I + J + K) & 1, slot (I + 1) >> 1; natural: ch == 0, slot I + 1). */
TS_FN void ts_mg_near_cube(TS_GLOBAL const ts_real* e, long li, long lj, long lk, int oi, int oj,
                           int ok, int own, long csx, long csy, long ch, ts_real* v) {
  /* the cube's first row in either colour's array (natural: both the same);
   * coordinates and offsets below are 32-bit: a pointer plus an int is one
   * instruction on GPUs, 64-bit products and sums several */
  TS_GLOBAL const ts_real* r0 = e + ((lk + 1) * csy + (lj + 1) * csx);
  TS_GLOBAL const ts_real* r1 = r0 + ch;
  const int ox = (int)csx, oy = (int)csy, parity = (int)((li + lj + lk) & 1);
  TS_UNROLL for (int a = 0; a < 3; ++a) {
    const int X = (int)li + a + 1; /* halo coordinate of coarse I = li + a */
    const int slot = ch ? X >> 1 : X, colour = (parity + a) & 1;
    TS_GLOBAL const ts_real* same = (colour ? r1 : r0) + slot;
    TS_GLOBAL const ts_real* flipped = (colour ? r0 : r1) + slot;
    TS_UNROLL for (int c = 0; c < 3; ++c) TS_UNROLL for (int b = 0; b < 3; ++b) {
      v[9 * c + 3 * b + a] = ts_mg_near_needed(oi, oj, ok, own, a, b, c)
                                 ? ((b + c) & 1 ? flipped : same)[b * ox + c * oy]
                                 : (ts_real)0;
    }
  }
}

/* P e at offset (di, dj, dk) from a point of parities (oi, oj, ok), from
 * its cube v: the terms in (k, j, i) order with ts_mg_prolong_at's weight,
 * so the sum is that function's, bit for bit. */
TS_FN ts_real ts_mg_prolong_cube(const ts_real* v, int oi, int oj, int ok, int di, int dj, int dk) {
  const int fi = ts_mg_near_first(oi, di), fj = ts_mg_near_first(oj, dj),
            fk = ts_mg_near_first(ok, dk);
  const int ni = ts_mg_near_count(oi, di), nj = ts_mg_near_count(oj, dj),
            nk = ts_mg_near_count(ok, dk);
  const ts_real wt = (ni == 2 ? (ts_real)0.5 : (ts_real)1) * (nj == 2 ? (ts_real)0.5 : (ts_real)1) *
                     (nk == 2 ? (ts_real)0.5 : (ts_real)1);
  ts_real acc = 0;
  TS_UNROLL for (int c = 0; c < 2; ++c) TS_UNROLL for (int b = 0; b < 2; ++b)
      TS_UNROLL for (int a = 0; a < 2; ++a) if (c < nk && b < nj && a < ni) acc =
          ts_mg_interp_accumulate(acc, v[9 * (fk + c) + 3 * (fj + b) + fi + a], wt);
  return acc;
}

/* The red update at interior (i, j, k) (i + j + k even, so i & 1 is
 * (j + k) & 1) from its cube v, parities oi, oj, ok. p, q: the point's slot
 * and that of the same place in the black array; sx, sy: the level's split
 * pitches. */
TS_FN void ts_mg_red_from_cube(TS_GLOBAL const ts_real* b, TS_GLOBAL ts_real* x, const ts_real* v,
                               long i, long p, long q, long sx, long sy, int oi, int oj, int ok) {
  const long s = (i + 1) & 1;
#define TS_NEAR(di, dj, dk) ts_mg_prolong_cube(v, oi, oj, ok, di, dj, dk)
  const ts_real west = x[q - 1 + s] + TS_NEAR(-1, 0, 0), east = x[q + s] + TS_NEAR(1, 0, 0);
  const ts_real south = x[q - sx] + TS_NEAR(0, -1, 0), north = x[q + sx] + TS_NEAR(0, 1, 0);
  const ts_real down = x[q - sy] + TS_NEAR(0, 0, -1), up = x[q + sy] + TS_NEAR(0, 0, 1);
#undef TS_NEAR
  x[p] = ts_mg_gauss_seidel(b[p], ts_mg_nsum3(west, east, south, north, down, up),
                            ts_mg_inv_diag((ts_real)3));
}

/* The red point i in slot p, with parities oi, oj, ok passed as constants
 * by the caller below: each row class loads its 8 (all even) or 10 coarse
 * points. */
TS_FN void ts_mg_red_prolonged_at(TS_GLOBAL const ts_real* b, TS_GLOBAL ts_real* x,
                                  TS_GLOBAL const ts_real* e, long i, long j, long k, long p,
                                  long q, long sx, long sy, long csx, long csy, long ch, int oi,
                                  int oj, int ok) {
  ts_real v[27];
  ts_mg_near_cube(e, (i >> 1) - 1, (j >> 1) - 1, (k >> 1) - 1, oi, oj, ok, 0, csx, csy, ch, v);
  ts_mg_red_from_cube(b, x, v, i, p, q, sx, sy, oi, oj, ok);
}

/* The red Gauss-Seidel update of slot m of row (j, k) of a split level
 * reading x + P e at its black neighbours (e: the coarse level's solution,
 * either storage, pitches csx, csy, ch). A slot without a point (past a
 * row's ends) does nothing. */
TS_FN void ts_mg_gauss_seidel_red_prolonged(TS_GLOBAL const ts_real* b, TS_GLOBAL ts_real* x,
                                            TS_GLOBAL const ts_real* e, long m, long j, long k,
                                            long nx, long sx, long sy, long ph, long csx, long csy,
                                            long ch) {
  const long i = ts_mg_split_i(m, j, k, 0);
  if (i < 0 || i >= nx) return;
  const long p = ts_mg_slot(m, j, k, 0, sx, sy, ph), q = p + ph;
  switch ((int)(((j & 1) << 1) | (k & 1))) {
    case 0:
      ts_mg_red_prolonged_at(b, x, e, i, j, k, p, q, sx, sy, csx, csy, ch, 0, 0, 0);
      break;
    case 1:
      ts_mg_red_prolonged_at(b, x, e, i, j, k, p, q, sx, sy, csx, csy, ch, 1, 0, 1);
      break;
    case 2:
      ts_mg_red_prolonged_at(b, x, e, i, j, k, p, q, sx, sy, csx, csy, ch, 1, 1, 0);
      break;
    default:
      ts_mg_red_prolonged_at(b, x, e, i, j, k, p, q, sx, sy, csx, csy, ch, 0, 1, 1);
      break;
  }
}

/* ---- the prolongation by slots (split levels) ----
 * x += P e at the colour-c point of slot m of row (j, k): one work-item per
 * slot, as the sweeps; the points of a row share their parities, so each row
 * class loads its 1 (all odd), 2, 4 or 8 coarse points through the cube
 * above (the same terms as ts_mg_prolong_at). */
TS_FN void ts_mg_prolong_slot_at(TS_GLOBAL ts_real* x, TS_GLOBAL const ts_real* e, long i, long j,
                                 long k, long p, long csx, long csy, long ch, int oi, int oj,
                                 int ok) {
  ts_real v[27];
  ts_mg_near_cube(e, (i >> 1) - 1, (j >> 1) - 1, (k >> 1) - 1, oi, oj, ok, 1, csx, csy, ch, v);
  x[p] = x[p] + ts_mg_prolong_cube(v, oi, oj, ok, 0, 0, 0);
}
TS_FN void ts_mg_prolong_slot(TS_GLOBAL ts_real* x, TS_GLOBAL const ts_real* e, long m, long j,
                              long k, int c, long nx, long sx, long sy, long ph, long csx, long csy,
                              long ch) {
  const long i = ts_mg_split_i(m, j, k, c);
  if (i < 0 || i >= nx) return;
  const long p = ts_mg_slot(m, j, k, c, sx, sy, ph);
  switch ((int)(((i & 1) << 2) | ((j & 1) << 1) | (k & 1))) {
    case 0:
      ts_mg_prolong_slot_at(x, e, i, j, k, p, csx, csy, ch, 0, 0, 0);
      break;
    case 1:
      ts_mg_prolong_slot_at(x, e, i, j, k, p, csx, csy, ch, 0, 0, 1);
      break;
    case 2:
      ts_mg_prolong_slot_at(x, e, i, j, k, p, csx, csy, ch, 0, 1, 0);
      break;
    case 3:
      ts_mg_prolong_slot_at(x, e, i, j, k, p, csx, csy, ch, 0, 1, 1);
      break;
    case 4:
      ts_mg_prolong_slot_at(x, e, i, j, k, p, csx, csy, ch, 1, 0, 0);
      break;
    case 5:
      ts_mg_prolong_slot_at(x, e, i, j, k, p, csx, csy, ch, 1, 0, 1);
      break;
    case 6:
      ts_mg_prolong_slot_at(x, e, i, j, k, p, csx, csy, ch, 1, 1, 0);
      break;
    default:
      ts_mg_prolong_slot_at(x, e, i, j, k, p, csx, csy, ch, 1, 1, 1);
      break;
  }
}

/* ---- the prolongation by coarse cells (3D, either storage) ----
 * Coarse cell (I, J, K), I = -1 .. cnx - 1 (likewise J, K), holds the fine
 * points (2I + 1 + a, 2J + 1 + b, 2K + 1 + c), a, b, c in {0, 1}. Its eight
 * corners, coarse (I + a, J + b, K + c) (the halo's zeros outside), are all
 * their interpolation reads: ts_mg_prolong_at of such a point sums the
 * corners a' <= a, b' <= b, c' <= c in (c', b', a') order with weight 1/2
 * per axis where the point's offset is 1, so the sums below are its, term
 * for term. A work-item marching K loads the four corners of one coarse
 * plane per cell (the per-point gather loads up to eight per fine point and
 * spent ~250 instructions on each, issue-bound at 44-55% of copy). */

/* corners (., ., K + c) of cell (I, J, K) into v[4 c + 2 b + a] */
TS_FN void ts_mg_cell_corners(TS_GLOBAL const ts_real* e, long I, long J, long K, int c, long csx,
                              long csy, long ch, ts_real* v) {
  TS_UNROLL for (int b = 0; b < 2; ++b) TS_UNROLL for (int a = 0; a < 2; ++a) v[4 * c + 2 * b + a] =
      e[ts_mg_at3(I + a, J + b, K + c, csx, csy, ch)];
}

/* x += P e at the cell's fine points inside the level whose colour is in
 * `colours` (bit 0 red, bit 1 black); v: its corners; f: the index of its
 * point (0, 0, 0); inside: bit a + 2b set where (2I + 1 + a, 2J + 1 + b) is
 * an interior column; k0 = 2K + 1 (the points k0 + c in 0 .. nz - 1 are
 * inside); sx, sy, ph: the fine level's
 * storage pitches. A fine point's colour is (1 + a + b + c) & 1 (the cell's
 * origin is odd on every axis); in the split layout all eight share slot
 * I + 1 of their rows. */
TS_FN void ts_mg_prolong_cell(TS_GLOBAL ts_real* x, const ts_real* v, long f, int inside, long k0,
                              long nz, int colours, long sx, long sy, long ph) {
  TS_UNROLL for (int c = 0; c < 2; ++c) TS_UNROLL for (int b = 0; b < 2; ++b)
      TS_UNROLL for (int a = 0; a < 2; ++a) {
    const int colour = (1 + a + b + c) & 1;
    if (!((colours >> colour) & 1) || !((inside >> (a + 2 * b)) & 1) || k0 + c < 0 || k0 + c >= nz)
      continue;
    const ts_real w = (a ? (ts_real)0.5 : (ts_real)1) * (b ? (ts_real)0.5 : (ts_real)1) *
                      (c ? (ts_real)0.5 : (ts_real)1);
    ts_real acc = 0;
    TS_UNROLL for (int cc = 0; cc < 2; ++cc) TS_UNROLL for (int bb = 0; bb < 2; ++bb)
        TS_UNROLL for (int aa = 0; aa < 2; ++aa) if (cc <= c && bb <= b && aa <= a) acc =
            ts_mg_interp_accumulate(acc, v[4 * cc + 2 * bb + aa], w);
    const long p = f + c * sy + b * sx + (ph ? colour * ph : a);
    x[p] = x[p] + acc;
  }
}

/* The cells (I, J, K0 .. K1 - 1) of one work-item, marching K: each cell
 * loads the corners of its upper coarse plane and hands them down; the
 * cell's fine points move two planes (same colours) per cell. */
TS_FN void ts_mg_prolong_cells(TS_GLOBAL ts_real* x, TS_GLOBAL const ts_real* e, long I, long J,
                               long K0, long K1, int colours, long nx, long ny, long nz, long sx,
                               long sy, long ph, long csx, long csy, long ch) {
  int inside = 0;
  TS_UNROLL for (int b = 0; b < 2; ++b) TS_UNROLL for (int a = 0; a < 2; ++a) {
    const long i = 2 * I + 1 + a, j = 2 * J + 1 + b;
    if (i >= 0 && j >= 0 && i < nx && j < ny) inside |= 1 << (a + 2 * b);
  }
  /* index of fine (2I + 1, 2J + 1, 2K0 + 1) without its colour's offset: the
   * (k + 1, j + 1) row, slot I + 1 (split) or column 2I + 2 (natural) */
  long f = (2 * K0 + 2) * sy + (2 * J + 2) * sx + (ph ? I + 1 : 2 * I + 2);
  ts_real v[8];
  ts_mg_cell_corners(e, I, J, K0, 0, csx, csy, ch, v);
  for (long K = K0; K < K1; ++K, f += 2 * sy) {
    ts_mg_cell_corners(e, I, J, K, 1, csx, csy, ch, v);
    ts_mg_prolong_cell(x, v, f, inside, 2 * K + 1, nz, colours, sx, sy, ph);
    TS_UNROLL for (int q = 0; q < 4; ++q) v[q] = v[q + 4];
  }
}
