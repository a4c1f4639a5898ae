/* OpenCL launchers of the shallow-water kernels (build options
 * -Dts_real=...). Dimension 0 is j (contiguous), dimension 1 is i, so that a
 * thesis work-group "A×B" (A rows of i, B contiguous j) is local size (B, A)
 * and consecutive work-items touch consecutive addresses, as in CUDA. */
#include "swe_tiles.h"
#include "core/kernels/ieee_check.h"
#include "swe_strip.h"
#include "swe_thesis_strip.h"

#define TS_THESIS_ARGS                                                                         \
  long nx, long ny, long w, ts_real k, __global const ts_real *Zs, __global const ts_real *Xs, \
      __global const ts_real *Ys, __global ts_real *Zd, __global ts_real *Xd, __global ts_real *Yd

__kernel void thesis_global(TS_THESIS_ARGS) {
  const long j = get_global_id(0) + 1, i = get_global_id(1) + 1;
  if (i > nx || j > ny) return;
  const long c = i * w + j;
  ts_real z, qx, qy;
  ts_swe_thesis_at(Zs, Xs, Ys, c, w, k, &z, &qx, &qy);
  Zd[c] = z;
  Xd[c] = qx;
  Yd[c] = qy;
}

__kernel void thesis_walls(TS_THESIS_ARGS) {
  const long j = get_global_id(0) + 1, i = get_global_id(1) + 1;
  if (i > nx || j > ny) return;
  const long c = i * w + j;
  ts_real z, qx, qy;
  ts_swe_thesis_at_walls(Zs, Xs, Ys, i, j, nx, ny, w, k, &z, &qx, &qy);
  Zd[c] = z;
  Xd[c] = qx;
  Yd[c] = qy;
}

__kernel void thesis_tile_halo(TS_THESIS_ARGS, __local ts_real* tz, __local ts_real* tx,
                               __local ts_real* ty) {
  ts_swe_thesis_tile_halo(Zs, Xs, Ys, Zd, Xd, Yd, nx, ny, w, k, get_global_id(1), get_global_id(0),
                          get_local_id(1), get_local_id(0), get_local_size(1), get_local_size(0),
                          tz, tx, ty);
}

__kernel void thesis_tile_edge(TS_THESIS_ARGS, __local ts_real* tz, __local ts_real* tx,
                               __local ts_real* ty) {
  ts_swe_thesis_tile_edge(Zs, Xs, Ys, Zd, Xd, Yd, nx, ny, w, k, get_global_id(1), get_global_id(0),
                          get_local_id(1), get_local_id(0), get_local_size(1), get_local_size(0),
                          tz, tx, ty);
}

/* strip-walls: groups of TS_SWE_BLOCK items overlapping by two columns, `strip` rows each */
__kernel __attribute__((reqd_work_group_size(TS_SWE_BLOCK, 1, 1))) void thesis_strip(TS_THESIS_ARGS,
                                                                                     long strip) {
  __local ts_real xch[2 * 5 * TS_SWE_BLOCK];
  const int t = (int)get_local_id(0);
  const long j = (long)get_group_id(0) * (TS_SWE_BLOCK - 2) + t,
             i0 = 1 + (long)get_group_id(1) * strip;
  ts_swe_thesis_strip(Zs, Xs, Ys, Zd, Xd, Yd, nx, ny, w, k, j, i0, min(i0 + strip, nx + 1), t,
                      TS_SWE_BLOCK, xch);
}

/* V7: global size = items (one per compute unit) */
__kernel void thesis_rows(TS_THESIS_ARGS, long items) {
  const long t = get_global_id(0);
  if (t < items) ts_swe_thesis_rows(Zs, Xs, Ys, Zd, Xd, Yd, nx, ny, w, k, t, items);
}

/* V6 (thesis §4.5.5): item (q, i) computes cells 4q .. 4q+3 of row i from
 * 4-vector loads (vload4: float4 / double4; rows padded to a multiple of 4),
 * the lanes by ts_swe_thesis_simd4; a vector wholly inside the interior is
 * stored as one, an edge vector lane by lane. */
TS_FN void ts_swe_load_window(__global const ts_real* row, long q, ts_real* r) {
  __global const ts_real* v = row + 4 * q - 4; /* vector q-1 (offsets are unsigned) */
  vstore4(vload4(0, v), 0, r);
  vstore4(vload4(1, v), 1, r);
  vstore4(vload4(2, v), 2, r);
}
TS_FN void ts_swe_store4(__global ts_real* row, long q, const ts_real* v, int mask) {
  if (mask == 15) {
    vstore4(vload4(0, v), q, row);
    return;
  }
  for (int l = 0; l < 4; l++)
    if (mask & (1 << l)) row[4 * q + l] = v[l];
}
__kernel void thesis_simd4(TS_THESIS_ARGS) {
  const long q = get_global_id(0), i = get_global_id(1) + 1;
  if (i > nx || 4 * q > ny) return;
  ts_real zr[12], xr[12], yr[12], zn[4], xn[4], yn[4], zs[4], xs[4], ys[4], z4[4], x4[4], y4[4];
  const long row = i * w;
  ts_swe_load_window(Zs + row, q, zr);
  ts_swe_load_window(Xs + row, q, xr);
  ts_swe_load_window(Ys + row, q, yr);
  vstore4(vload4(q, Zs + row + w), 0, zn);
  vstore4(vload4(q, Xs + row + w), 0, xn);
  vstore4(vload4(q, Ys + row + w), 0, yn);
  vstore4(vload4(q, Zs + row - w), 0, zs);
  vstore4(vload4(q, Xs + row - w), 0, xs);
  vstore4(vload4(q, Ys + row - w), 0, ys);
  const int mask =
      ts_swe_thesis_simd4(k, zr, xr, yr, zn, xn, yn, zs, xs, ys, 4 * q, ny, z4, x4, y4);
  ts_swe_store4(Zd + row, q, z4, mask);
  ts_swe_store4(Xd + row, q, x4, mask);
  ts_swe_store4(Yd + row, q, y4, mask);
}

/* V1f4 (thesis §4.5.5): item q copies columns 4q..4q+3 of both ghost rows as
 * one 4-vector each (float4 / double4; rows padded to a multiple of 4), the
 * momentum normal to the wall negated; the columns follow in thesis_ghost_cols */
__kernel void thesis_ghost_rows4(long nx, long w, __global ts_real* Z, __global ts_real* X,
                                 __global ts_real* Y) {
  const long q = get_global_id(0);
  if (q >= w / 4) return;
  const long lo = q, hi = ((nx + 1) * w) / 4 + q, in_lo = w / 4 + q, in_hi = (nx * w) / 4 + q;
  vstore4(vload4(in_lo, Z), lo, Z);
  vstore4(vload4(in_hi, Z), hi, Z);
  vstore4(-vload4(in_lo, X), lo, X);
  vstore4(-vload4(in_hi, X), hi, X);
  vstore4(vload4(in_lo, Y), lo, Y);
  vstore4(vload4(in_hi, Y), hi, Y);
}
__kernel void thesis_ghost_cols(long nx, long ny, long w, __global ts_real* Z, __global ts_real* X,
                                __global ts_real* Y) {
  const long t = get_global_id(0);
  if (t < nx) ts_swe_thesis_ghost_col(Z, X, Y, ny, w, t + 1);
}

/* copyrow / copycolumn of the thesis fused into one launch: work-item t
 * fills the ghost rows at interior column t+1 and the ghost columns at
 * interior row t+1. The four corner cells, which the 5-point stencil never
 * reads, are left alone (the thesis's row-then-column order only decides
 * them), so no two work-items touch the same cell. */
__kernel void thesis_ghosts(long nx, long ny, long w, __global ts_real* Z, __global ts_real* X,
                            __global ts_real* Y) {
  const long t = get_global_id(0);
  if (t < ny) ts_swe_thesis_ghost_row(Z, X, Y, nx, w, t + 1);
  if (t < nx) ts_swe_thesis_ghost_col(Z, X, Y, ny, w, t + 1);
}

/* ---- physical model ---- */

#define TS_PHYS_PARAMS                                                                             \
  long nx, long ny, long w, ts_real g, ts_real hdry, ts_real dx, ts_real dy, ts_real n,            \
      ts_real cfl, ts_real fixed_dt, int bc0, int bc1, int bc2, int bc3, ts_real bv0, ts_real bv1, \
      ts_real bv2, ts_real bv3

__kernel void phys_ghosts(TS_PHYS_PARAMS, int bookkeeping, __global const ts_real* Z,
                          __global ts_real* H, __global ts_real* HU, __global ts_real* HV,
                          __global ts_real* sc, __global unsigned int* fl) {
  const long t = get_global_id(0);
  if (t < ny) ts_swe_ghosts_x(bc0, bc1, bv0, bv1, H, HU, HV, Z, nx, w, t);
  if (t < nx) ts_swe_ghosts_y(bc2, bc3, bv2, bv3, H, HU, HV, Z, ny, w, t);
  if (t == 0 && bookkeeping) ts_swe_bookkeeping(sc, fl, cfl, fixed_dt);
}

/* Block maximum of the rate bits and minimum of the bad cell, then one atomic
 * each per work-group (max/min: the result does not depend on the order). */
void ts_swe_block_fold(unsigned int rmax, unsigned int bad, int rate, __local unsigned int* rm,
                       __local unsigned int* bd, __global unsigned int* fl, int nt) {
  const int t = get_local_id(0);
  rm[t] = rmax;
  bd[t] = bad;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int h = nt / 2; h > 0; h >>= 1) {
    if (t < h) {
      rm[t] = max(rm[t], rm[t + h]);
      bd[t] = min(bd[t], bd[t + h]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (t == 0) {
    if (rate) atomic_max(&fl[fl[TS_SWE_STEPS] & 1u], rm[0]);
    if (bd[0] != TS_SWE_NONE && fl[TS_SWE_BAD_STEP] == TS_SWE_NONE)
      atomic_min(&fl[TS_SWE_BAD_CELL], bd[0]);
  }
}

__kernel __attribute__((reqd_work_group_size(TS_SWE_BLOCK, 1, 1))) void phys_update(
    TS_PHYS_PARAMS, __global const ts_real* Z, __global const ts_real* H,
    __global const ts_real* HU, __global const ts_real* HV, __global ts_real* Hd,
    __global ts_real* HUd, __global ts_real* HVd, __global const ts_real* sc,
    __global unsigned int* fl, long strip) {
  __local unsigned int rm[TS_SWE_BLOCK], bd[TS_SWE_BLOCK];
  const long j = get_global_id(0), i0 = (long)get_group_id(1) * strip;
  const long i1 = min(i0 + strip, nx);
  unsigned int rmax = 0u, bad = TS_SWE_NONE;
  if (j < ny)
    ts_swe_strip1(g, hdry, dx, dy, n, sc[0], H, HU, HV, Z, Hd, HUd, HVd, nx, ny, w, j, i0, i1,
                  &rmax, &bad);
  ts_swe_block_fold(rmax, bad, 1, rm, bd, fl, TS_SWE_BLOCK);
}

/* one column per work-item, y-faces handed over in local memory; groups
 * overlap by two columns (their edge items own no cell) */
#if defined(TS_DOUBLE)
#define TS_SWE_SHARED_BLOCK TS_SWE_SHARED_BLOCK_D
#else
#define TS_SWE_SHARED_BLOCK TS_SWE_SHARED_BLOCK_F
#endif
__kernel __attribute__((reqd_work_group_size(TS_SWE_SHARED_BLOCK, 1, 1))) void phys_update_shared(
    TS_PHYS_PARAMS, __global const ts_real* Z, __global const ts_real* H,
    __global const ts_real* HU, __global const ts_real* HV, __global ts_real* Hd,
    __global ts_real* HUd, __global ts_real* HVd, __global const ts_real* sc,
    __global unsigned int* fl, long strip, int pf) {
  __local unsigned int rm[TS_SWE_SHARED_BLOCK], bd[TS_SWE_SHARED_BLOCK];
  __local ts_real xch[2 * 8 * TS_SWE_SHARED_BLOCK] __attribute__((aligned(16)));
  const int t = (int)get_local_id(0);
  const long j = (long)get_group_id(0) * (TS_SWE_SHARED_BLOCK - 2) + t - 1,
             i0 = (long)get_group_id(1) * strip;
  const long i1 = min(i0 + strip, nx);
  unsigned int rmax = 0u, bad = TS_SWE_NONE;
  ts_swe_strip_shared(g, hdry, dx, dy, n, sc[0], H, HU, HV, Z, Hd, HUd, HVd, nx, ny, w, j, i0, i1,
                      t, TS_SWE_SHARED_BLOCK, pf, xch, &rmax, &bad);
  ts_swe_block_fold(rmax, bad, 1, rm, bd, fl, TS_SWE_SHARED_BLOCK);
}

__kernel __attribute__((reqd_work_group_size(TS_SWE_BLOCK, 1, 1))) void phys_stage(
    TS_PHYS_PARAMS, int stage, __global const ts_real* Z, __global const ts_real* BH,
    __global const ts_real* BHU, __global const ts_real* BHV, __global const ts_real* H,
    __global const ts_real* HU, __global const ts_real* HV, __global ts_real* Hd,
    __global ts_real* HUd, __global ts_real* HVd, __global const ts_real* sc,
    __global unsigned int* fl) {
  __local unsigned int rm[TS_SWE_BLOCK], bd[TS_SWE_BLOCK];
  const long j = get_global_id(0), i = get_global_id(1);
  unsigned int rmax = 0u, bad = TS_SWE_NONE;
  if (j < ny) {
    const long c = (i + 2) * w + j + 2;
    ts_real h, hu, hv;
    if (ts_swe_stage(g, hdry, dx, dy, n, sc[0], stage, BH, BHU, BHV, H, HU, HV, Z, c, w, &h, &hu,
                     &hv))
      bad = (unsigned int)(i * ny + j);
    Hd[c] = h;
    HUd[c] = hu;
    HVd[c] = hv;
    rmax = ts_swe_rate_bits(ts_swe_rate(g, hdry, dx, dy, h, hu, hv));
  }
  ts_swe_block_fold(rmax, bad, stage == 1, rm, bd, fl, TS_SWE_BLOCK);
}

/* the self-check of ieee_fast.h: counts[4] as in ieee_check.h */
__kernel void ieee_check(ulong first, ulong count, __global unsigned int* out) {
  unsigned int c[4] = {0u, 0u, 0u, 0u};
  for (ulong s = get_global_id(0); s < count; s += get_global_size(0)) {
#if defined(TS_DOUBLE)
    ts_ieee_check_d(ts_ieee_sample_d(first + s), c);
#else
    ts_ieee_check_f(ts_ieee_sample_f(first + s), c);
#endif
  }
  for (int k = 0; k < 4; ++k) atomic_add(&out[k], c[k]);
}
