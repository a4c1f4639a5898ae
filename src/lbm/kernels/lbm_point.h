/* Per-point mathematics of the lattice Boltzmann solver (C99 subset; see
 * core/kernels/portable.h), under the kernels of lbm_kernel_list.h.
 *
 * One pass per precision (ts_real) and variant (TS_VARIANT, lbm_params.h:
 * core/kernels/variant_pass.h in C++ and CUDA, one program per variant in
 * OpenCL), which selects
 *   TS_LBM_Q       9 (D2Q9), 19 (D3Q19) or 27 (D3Q27)
 *   TS_LBM_NARROW  storage ts_narrow (FP16S: range-shifted IEEE half, for
 *                  float), else ts_real (FP32, FP64)
 *   TS_LBM_IDX32   32-bit population offsets
 *
 * Populations are stored DDF-shifted (f_i - w_i, so that rho = 1 + sum) in
 * structure-of-arrays layout f[i*N + n] with ONE copy (esoteric pull,
 * Lehmann 2022): directions come in opposite pairs (i odd, i+1 = -c_i); for a
 * pair, cell n reads and writes exactly two slots per step, its own slot and
 * one of the +c_i neighbour, whose roles swap with the parity of the step.
 * No other cell touches them in that step, so the update is in place and
 * race-free. Halfway bounce-back is explicit: where the neighbour is a wall,
 * the cell reads the slot it wrote itself one step earlier.
 *
 * No division except 1/rho (correctly rounded on every backend: OpenCL gets
 * -cl-fp32-correctly-rounded-divide-sqrt), no contraction: CPU, OpenCL and
 * CUDA give identical bits. */
#include "core/kernels/portable.h"
#include "core/kernels/narrow.h"

#include "lbm_params.h"

#define TS_LBM_Q (TS_VARIANT % 100)
#define TS_LBM_IDX32 ((TS_VARIANT / 100) % 10)
#define TS_LBM_NARROW ((TS_VARIANT / 1000) % 10)

/* ---- velocity set: pairs of opposites (i odd, i+1) ---- */
#if TS_LBM_Q == 9
TS_FN int ts_lbm_cx(int i) {
  const int c[9] = {0, 1, -1, 0, 0, 1, -1, 1, -1};
  return c[i];
}
TS_FN int ts_lbm_cy(int i) {
  const int c[9] = {0, 0, 0, 1, -1, 1, -1, -1, 1};
  return c[i];
}
TS_FN int ts_lbm_cz(int i) { return 0 * i; }
#else
/* D3Q19 is the first 19 directions of D3Q27 */
TS_FN int ts_lbm_cx(int i) {
  const int c[27] = {0,  1, -1, 0, 0, 0, 0,  1, -1, 1, -1, 0,  0, 1,
                     -1, 1, -1, 0, 0, 1, -1, 1, -1, 1, -1, -1, 1};
  return c[i];
}
TS_FN int ts_lbm_cy(int i) {
  const int c[27] = {0, 0, 0, 1, -1, 0, 0,  1, -1, 0,  0, 1, -1, -1,
                     1, 0, 0, 1, -1, 1, -1, 1, -1, -1, 1, 1, -1};
  return c[i];
}
TS_FN int ts_lbm_cz(int i) {
  const int c[27] = {0, 0,  0, 0,  0, 1, -1, 0,  0, 1, -1, 1, -1, 0,
                     0, -1, 1, -1, 1, 1, -1, -1, 1, 1, -1, 1, -1};
  return c[i];
}
#endif
/* weights by |c|^2 (0, 1, 2, 3); the divisions of constants fold at compile
 * time to the correctly rounded value (no double literal in float programs) */
TS_FN ts_real ts_lbm_w(int i) {
  const int s =
      ts_lbm_cx(i) * ts_lbm_cx(i) + ts_lbm_cy(i) * ts_lbm_cy(i) + ts_lbm_cz(i) * ts_lbm_cz(i);
#if TS_LBM_Q == 9
  return s == 0   ? (ts_real)4 / (ts_real)9
         : s == 1 ? (ts_real)1 / (ts_real)9
                  : (ts_real)1 / (ts_real)36;
#elif TS_LBM_Q == 19
  return s == 0   ? (ts_real)1 / (ts_real)3
         : s == 1 ? (ts_real)1 / (ts_real)18
                  : (ts_real)1 / (ts_real)36;
#else
  return s == 0   ? (ts_real)8 / (ts_real)27
         : s == 1 ? (ts_real)2 / (ts_real)27
         : s == 2 ? (ts_real)1 / (ts_real)54
                  : (ts_real)1 / (ts_real)216;
#endif
}

/* ---- storage precision ---- */
#if TS_LBM_NARROW
typedef ts_narrow ts_lbm_store;
/* The kernels compute in storage units (below), so loads and stores are bare
 * conversions: scaling each of the 2Q values cost 38 of the FP16S kernel's
 * ~590 instructions per cell. */
TS_FN ts_real ts_lbm_load(TS_GLOBAL const ts_lbm_store* p, long k) { return ts_narrow_get(p, k); }
TS_FN void ts_lbm_save(TS_GLOBAL ts_lbm_store* p, long k, ts_real v) { ts_narrow_put(p, k, v); }
TS_FN ts_real ts_lbm_unit(void) { return (ts_real)TS_LBM_HALF_SCALE; }
/* a value in storage units as a real quantity: exact (a power of two) */
TS_FN ts_real ts_lbm_from_units(ts_real v) { return v * (ts_real)TS_LBM_HALF_UNSCALE; }
/* rho = 1 + (sum of the populations), from that sum in storage units */
TS_FN ts_real ts_lbm_rho_of(ts_real s) {
  return ts_fma(s, (ts_real)TS_LBM_HALF_UNSCALE, (ts_real)1);
}
#else
typedef ts_real ts_lbm_store;
TS_FN ts_real ts_lbm_load(TS_GLOBAL const ts_lbm_store* p, long k) { return p[k]; }
TS_FN void ts_lbm_save(TS_GLOBAL ts_lbm_store* p, long k, ts_real v) { p[k] = v; }
TS_FN ts_real ts_lbm_unit(void) { return (ts_real)1; }
TS_FN ts_real ts_lbm_from_units(ts_real v) { return v; }
TS_FN ts_real ts_lbm_rho_of(ts_real s) { return (ts_real)1 + s; }
#endif
/* Storage units: the populations f_i - w_i times ts_lbm_unit() (2^15 for
 * FP16S, 1 otherwise). Every population-valued quantity of a step (loads,
 * equilibria, wall and force terms, stores) is computed in these units from
 * weights in these units; velocities and rho are real. Scaling by a power of
 * two commutes with rounding, so each result has the bits of the same
 * computation in real units, scaled: FP16S stores the same halves as a
 * kernel that unscales every load and rescales every store. */
TS_FN ts_real ts_lbm_wu(int i) { return ts_lbm_w(i) * ts_lbm_unit(); }

/* ---- per-run constants (lbm_params.h) in this pass's precision ---- */
typedef TS_STRUCT(ts_lbm_step_params) ts_lbm_params;

/* Cell and population offsets: 32-bit where the includer guarantees that
 * Q * cells < 2^31 (TS_LBM_IDX32): fewer registers and no 64-bit index
 * arithmetic, which lets the GPU keep more cells in flight; 64-bit otherwise. */
#if TS_LBM_IDX32
typedef int ts_lbm_idx;
#else
typedef long ts_lbm_idx;
#endif

/* The periodic neighbourhood of (x,y,z): offsets of x-1, x, x+1 etc. */
typedef struct {
  ts_lbm_idx n, N;
  ts_lbm_idx xm, x0, xp, ym, y0, yp, zm, z0, zp;
} ts_lbm_nbhd;

TS_FN ts_lbm_nbhd ts_lbm_neighbourhood(long x, long y, long z, long nx, long ny, long nz) {
  ts_lbm_nbhd h;
  const ts_lbm_idx sxy = (ts_lbm_idx)(nx * ny);
  h.N = sxy * (ts_lbm_idx)nz;
  h.x0 = x;
  h.xp = x + 1 == nx ? 0 : x + 1;
  h.xm = x == 0 ? nx - 1 : x - 1;
  h.y0 = y * nx;
  h.yp = (y + 1 == ny ? 0 : y + 1) * nx;
  h.ym = (y == 0 ? ny - 1 : y - 1) * nx;
  h.z0 = z * sxy;
  h.zp = (z + 1 == nz ? 0 : z + 1) * sxy;
  h.zm = (z == 0 ? nz - 1 : z - 1) * sxy;
  h.n = h.x0 + h.y0 + h.z0;
  return h;
}
TS_FN ts_lbm_idx ts_lbm_pick(int c, ts_lbm_idx m, ts_lbm_idx o, ts_lbm_idx p) {
  return c > 0 ? p : (c < 0 ? m : o);
}
/* index of the neighbour at x + s*c_i (s = +1 or -1) */
TS_FN ts_lbm_idx ts_lbm_neighbour(const ts_lbm_nbhd* h, int i, int s) {
  return ts_lbm_pick(s * ts_lbm_cx(i), h->xm, h->x0, h->xp) +
         ts_lbm_pick(s * ts_lbm_cy(i), h->ym, h->y0, h->yp) +
         ts_lbm_pick(s * ts_lbm_cz(i), h->zm, h->z0, h->zp);
}
TS_FN int ts_lbm_is_wall(unsigned char flag) { return TS_LBM_IS_WALL(flag); }

/* The direction with velocity (cx, cy, cz) (a constant where the loops over
 * directions are unrolled). */
TS_FN int ts_lbm_direction(int cx, int cy, int cz) {
  int k = 0;
  TS_LBM_UNROLL
  for (int j = 1; j < TS_LBM_Q; ++j)
    if (ts_lbm_cx(j) == cx && ts_lbm_cy(j) == cy && ts_lbm_cz(j) == cz) k = j;
  return k;
}
/* c_i with its component along axis a reversed (a a constant too: with a
 * or i known only at run time, every lookup of c becomes a chain of Q
 * selects, which made the step kernel five times larger) */
TS_FN int ts_lbm_mirror(int i, int a) {
  return a == 0   ? ts_lbm_direction(-ts_lbm_cx(i), ts_lbm_cy(i), ts_lbm_cz(i))
         : a == 1 ? ts_lbm_direction(ts_lbm_cx(i), -ts_lbm_cy(i), ts_lbm_cz(i))
                  : ts_lbm_direction(ts_lbm_cx(i), ts_lbm_cy(i), -ts_lbm_cz(i));
}
/* Free slip: the population arriving at n along c_i from a free-slip wall
 * cell (flag fm) is the one n sent along m = c_i mirrored in the wall's
 * plane, where that one went into a free-slip wall of the same normal too
 * (returns the plane's axis a, m = ts_lbm_mirror(i, a); else -1:
 * bounce-back). Exact for flows uniform along the wall (the specular
 * partner of n's neighbour along the wall is replaced by n's own). Each
 * such population n sent is read once: the pairing i -> m is a bijection
 * between the directions it claims, and only n reads or writes the slots
 * of populations sent into walls, so the in-place step stays race-free.
 * The three axes are spelled out so that each mirror is a constant. */
TS_FN int ts_lbm_slip_axis(TS_GLOBAL const unsigned char* flags, const ts_lbm_nbhd* h, int i,
                           unsigned char fm) {
  const int t = fm & TS_LBM_TYPE_MASK;
  if (t < TS_LBM_SLIP_X) return -1;
  const ts_lbm_idx partner = t == TS_LBM_SLIP_X   ? ts_lbm_neighbour(h, ts_lbm_mirror(i, 0), 1)
                             : t == TS_LBM_SLIP_Y ? ts_lbm_neighbour(h, ts_lbm_mirror(i, 1), 1)
                                                  : ts_lbm_neighbour(h, ts_lbm_mirror(i, 2), 1);
  return (flags[partner] & TS_LBM_TYPE_MASK) == t ? t - TS_LBM_SLIP_X : -1;
}
/* ts_lbm_mirror(i, a) for a from ts_lbm_slip_axis (0, 1 or 2), a select
 * between three constants */
TS_FN int ts_lbm_slip_direction(int i, int a) {
  return a == 0 ? ts_lbm_mirror(i, 0) : a == 1 ? ts_lbm_mirror(i, 1) : ts_lbm_mirror(i, 2);
}
/* where the previous step's out_m of cell n is, at step parity `odd`
 * (ts_lbm_store_out of the other parity) */
TS_FN ts_lbm_idx ts_lbm_sent(const ts_lbm_nbhd* h, int m, int odd) {
  return (m & 1) ? (ts_lbm_idx)(odd ? m : m + 1) * h->N + ts_lbm_neighbour(h, m, 1)
                 : (ts_lbm_idx)(odd ? m : m - 1) * h->N + h->n;
}
/* The slot n reads its population i from when the cell behind it (flag
 * fm) is a wall: the mirrored population it sent (free slip) or `bounce`,
 * halfway bounce-back's. */
TS_FN ts_lbm_idx ts_lbm_wall_slot(TS_GLOBAL const unsigned char* flags, const ts_lbm_nbhd* h, int i,
                                  unsigned char fm, int odd, ts_lbm_idx bounce) {
  const int a = ts_lbm_slip_axis(flags, h, i, fm);
  return a < 0    ? bounce
         : a == 0 ? ts_lbm_sent(h, ts_lbm_mirror(i, 0), odd)
         : a == 1 ? ts_lbm_sent(h, ts_lbm_mirror(i, 1), odd)
                  : ts_lbm_sent(h, ts_lbm_mirror(i, 2), odd);
}
/* s + c v for c in {-1, 0, 1}, or c v where the sum has no term yet (`first`):
 * starting from 0 instead would cost an addition, since 0 + (-0) = +0 keeps
 * compilers from removing it. */
TS_FN ts_real ts_lbm_acc(int first, ts_real s, int c, ts_real v) {
  if (c == 0) return s;
  if (first) return c > 0 ? v : -v;
  return c > 0 ? s + v : s - v;
}
/* c_i . v in a fixed order (x, y, z), adding only the non-zero components */
TS_FN ts_real ts_lbm_dot(int i, ts_real vx, ts_real vy, ts_real vz) {
  const int cx = ts_lbm_cx(i), cy = ts_lbm_cy(i), cz = ts_lbm_cz(i);
  ts_real s = ts_lbm_acc(1, (ts_real)0, cx, vx);
  s = ts_lbm_acc(cx == 0, s, cy, vy);
  return ts_lbm_acc(cx == 0 && cy == 0, s, cz, vz);
}

/* the moving wall's momentum term 6 w_i rho_w (c_i . u_w), rho_w = 1, in
 * storage units */
TS_FN ts_real ts_lbm_wall_term(int i, const ts_lbm_params* p) {
  const ts_real cu = ts_lbm_dot(i, p->uwx, p->uwy, p->uwz);
  return (ts_real)6 * ts_lbm_wu(i) * cu;
}

/* Streaming, part 2 (incoming populations of cell n at step parity `odd`). */
TS_FN void ts_lbm_load_in(TS_GLOBAL const ts_lbm_store* f, TS_GLOBAL const unsigned char* flags,
                          unsigned char flag, const ts_lbm_nbhd* h, int odd, const ts_lbm_params* p,
                          ts_real* fin) {
  const ts_lbm_idx N = h->N, n = h->n;
  fin[0] = ts_lbm_load(f, n);
  if (!(flag & TS_LBM_NEAR_WALL)) {
    /* The common case, one branch per cell: with the wall test inside the
     * loop, each pair's loads ended a basic block and the GPU compilers
     * waited for them (and converted FP16S) before issuing the next pair's,
     * one memory latency per pair. */
    TS_LBM_UNROLL
    for (int i = 1; i < TS_LBM_Q; i += 2) {
      fin[i] = ts_lbm_load(f, (ts_lbm_idx)(odd ? i : i + 1) * N + n);
      fin[i + 1] = ts_lbm_load(f, (ts_lbm_idx)(odd ? i + 1 : i) * N + ts_lbm_neighbour(h, i, 1));
    }
    return;
  }
  TS_LBM_UNROLL
  for (int i = 1; i < TS_LBM_Q; i += 2) {
    const ts_lbm_idx jp = ts_lbm_neighbour(h, i, 1);
    const ts_lbm_idx own = (ts_lbm_idx)(odd ? i : i + 1) * N + n,
                     other = (ts_lbm_idx)(odd ? i + 1 : i) * N + n;
    const ts_lbm_idx nb = (ts_lbm_idx)(odd ? i + 1 : i) * N + jp,
                     nb_other = (ts_lbm_idx)(odd ? i : i + 1) * N + jp;
    const unsigned char fm = flags[ts_lbm_neighbour(h, i, -1)], fp = flags[jp];
    /* wall behind (x - c_i): what this cell sent towards it, reversed (a
     * free-slip wall: the mirrored population it sent); one load from the
     * chosen slot */
    fin[i] =
        ts_lbm_load(f, ts_lbm_is_wall(fm) ? ts_lbm_wall_slot(flags, h, i, fm, odd, other) : own);
    if ((fm & TS_LBM_TYPE_MASK) == TS_LBM_MOVING) fin[i] = fin[i] + ts_lbm_wall_term(i, p);
    fin[i + 1] = ts_lbm_load(
        f, ts_lbm_is_wall(fp) ? ts_lbm_wall_slot(flags, h, i + 1, fp, odd, nb_other) : nb);
    if ((fp & TS_LBM_TYPE_MASK) == TS_LBM_MOVING) fin[i + 1] = fin[i + 1] - ts_lbm_wall_term(i, p);
  }
}

/* Streaming, part 1 (outgoing populations, into the slots just read). */
TS_FN void ts_lbm_store_out(TS_GLOBAL ts_lbm_store* f, const ts_lbm_nbhd* h, int odd,
                            const ts_real* fout) {
  const ts_lbm_idx N = h->N, n = h->n;
  ts_lbm_save(f, n, fout[0]);
  TS_LBM_UNROLL
  for (int i = 1; i < TS_LBM_Q; i += 2) {
    const ts_lbm_idx jp = ts_lbm_neighbour(h, i, 1);
    ts_lbm_save(f, (ts_lbm_idx)(odd ? i + 1 : i) * N + jp, fout[i]);
    ts_lbm_save(f, (ts_lbm_idx)(odd ? i : i + 1) * N + n, fout[i + 1]);
  }
}

/* The slots that ts_lbm_store_out fills for cell (x, y, z) with parity `odd`:
 * slot[i] receives out_i. Over all cells this is a permutation of the lattice,
 * which converts between the esoteric storage and the two-lattice pull
 * storage (out_i of cell n at i * N + n) of the same time step (checkpoints of
 * one solver restart on the other). */
TS_FN void ts_lbm_out_slots(long x, long y, long z, long nx, long ny, long nz, int odd,
                            ts_lbm_idx* slot) {
  const ts_lbm_nbhd h = ts_lbm_neighbourhood(x, y, z, nx, ny, nz);
  slot[0] = h.n;
  for (int i = 1; i < TS_LBM_Q; i += 2) {
    slot[i] = (ts_lbm_idx)(odd ? i + 1 : i) * h.N + ts_lbm_neighbour(&h, i, 1);
    slot[i + 1] = (ts_lbm_idx)(odd ? i : i + 1) * h.N + h.n;
  }
}

/* Density and momentum of shifted populations (storage units): rho = 1 + sum
 * (real), j = sum c_i f_i (storage units). */
TS_FN void ts_lbm_moments_of(const ts_real* fin, ts_real* rho, ts_real* jx, ts_real* jy,
                             ts_real* jz) {
  ts_real s = fin[0], ax = (ts_real)0, ay = (ts_real)0, az = (ts_real)0;
  int ex = 1, ey = 1, ez = 1; /* no term yet */
  TS_LBM_UNROLL
  for (int i = 1; i < TS_LBM_Q; ++i) s = s + fin[i];
  TS_LBM_UNROLL
  for (int i = 1; i < TS_LBM_Q; ++i) {
    ax = ts_lbm_acc(ex, ax, ts_lbm_cx(i), fin[i]);
    ay = ts_lbm_acc(ey, ay, ts_lbm_cy(i), fin[i]);
    az = ts_lbm_acc(ez, az, ts_lbm_cz(i), fin[i]);
    ex = ex && !ts_lbm_cx(i);
    ey = ey && !ts_lbm_cy(i);
    ez = ez && !ts_lbm_cz(i);
  }
  *rho = ts_lbm_rho_of(s);
  *jx = ax;
  *jy = ay;
  *jz = az;
}

/* 1.5 u.u, with fused multiply-adds (explicit ts_fma: correctly rounded on
 * every backend, so they still agree bitwise; contraction stays off) */
TS_FN ts_real ts_lbm_usq15(ts_real ux, ts_real uy, ts_real uz) {
  return (ts_real)1.5f * ts_fma(ux, ux, ts_fma(uy, uy, uz * uz));
}

/* Shifted equilibrium f_i^eq - w_i = w_i (rho - 1) + w_i rho (3 cu + 4.5 cu^2 - 1.5 u^2)
 * of the pair (i, i+1) (c_{i+1} = -c_i, i odd) from its even part
 * e = w_i (rho - 1) + w_i rho (4.5 cu^2 - 1.5 u^2) and odd part o = 3 w_i rho cu:
 * f_i = e + o, f_{i+1} = e - o. For i = 0 (cu = 0) *even is the rest population.
 * Fused, this is a third of the arithmetic of two separate equilibria, and the
 * FP16S kernel is bound by its instruction issue. */
TS_FN void ts_lbm_feq_pair(int i, ts_real rho, ts_real ux, ts_real uy, ts_real uz, ts_real usq15,
                           ts_real* even, ts_real* odd) {
  const ts_real w = ts_lbm_wu(i), cu = ts_lbm_dot(i, ux, uy, uz), wrho = w * rho;
  *even = ts_fma(wrho, ts_fma((ts_real)4.5f * cu, cu, -usq15), w * (rho - (ts_real)1));
  *odd = wrho * ((ts_real)3 * cu);
}

/* Guo forcing term without its (1 - omega/2) factor, split into the parts even
 * (S+) and odd (S-) under c -> -c: S+ = w (9 (c.u)(c.F) - 3 u.F), S- = 3 w c.F. */
TS_FN ts_real ts_lbm_force_even(int i, ts_real cu, ts_real uF, const ts_lbm_params* p) {
  return ts_lbm_wu(i) * ((ts_real)9 * cu * ts_lbm_dot(i, p->fx, p->fy, p->fz) - (ts_real)3 * uF);
}
TS_FN ts_real ts_lbm_force_odd(int i, const ts_lbm_params* p) {
  return (ts_real)3 * ts_lbm_wu(i) * ts_lbm_dot(i, p->fx, p->fy, p->fz);
}

/* Whether the run has a body force. Without one, the Guo terms are skipped
 * (a uniform branch): they would add zeros, and cost a third of the
 * collision's arithmetic. */
TS_FN int ts_lbm_forced(const ts_lbm_params* p) {
  return p->fx != (ts_real)0 || p->fy != (ts_real)0 || p->fz != (ts_real)0;
}

/* Velocity with half the body force (Guo): u = (j + F/2) / rho, from
 * populations in storage units. */
TS_FN void ts_lbm_velocity(const ts_real* fin, const ts_lbm_params* p, ts_real* rho, ts_real* ux,
                           ts_real* uy, ts_real* uz) {
  ts_real jx, jy, jz;
  ts_lbm_moments_of(fin, rho, &jx, &jy, &jz);
  const ts_real inv = ts_lbm_from_units((ts_real)1 / *rho); /* 1/rho per storage unit */
  if (ts_lbm_forced(p)) {
    jx = jx + (ts_real)0.5f * p->fx * ts_lbm_unit();
    jy = jy + (ts_real)0.5f * p->fy * ts_lbm_unit();
    jz = jz + (ts_real)0.5f * p->fz * ts_lbm_unit();
  }
  *ux = jx * inv;
  *uy = jy * inv;
  *uz = jz * inv;
}

/* BGK or TRT collision with Guo forcing, in place on fin: the source terms
 * are added last, and an unforced run skips them. */
TS_FN void ts_lbm_collide(ts_real* fin, ts_real rho, ts_real ux, ts_real uy, ts_real uz,
                          const ts_lbm_params* p) {
  const int forced = ts_lbm_forced(p);
  const ts_real usq15 = ts_lbm_usq15(ux, uy, uz);
  const ts_real uF = ux * p->fx + uy * p->fy + uz * p->fz;
  const ts_real cp = (ts_real)1 - (ts_real)0.5f * p->omega_p,
                cm = (ts_real)1 - (ts_real)0.5f * p->omega_m;
  ts_real e0, o0;
  ts_lbm_feq_pair(0, rho, ux, uy, uz, usq15, &e0, &o0);
  fin[0] = ts_fma(p->omega_p, e0 - fin[0], fin[0]);
  if (forced) fin[0] = fin[0] + cp * ts_lbm_force_even(0, (ts_real)0, uF, p);
  TS_LBM_UNROLL
  for (int i = 1; i < TS_LBM_Q; i += 2) {
    ts_real qe, qo; /* the equilibrium's even and odd parts */
    ts_lbm_feq_pair(i, rho, ux, uy, uz, usq15, &qe, &qo);
    const ts_real a = fin[i], b = fin[i + 1];
    if (p->trt) {
      const ts_real fe = (ts_real)0.5f * (a + b), fo = (ts_real)0.5f * (a - b);
      ts_real de = p->omega_p * (qe - fe), dodd = p->omega_m * (qo - fo);
      if (forced) {
        de = de + cp * ts_lbm_force_even(i, ts_lbm_dot(i, ux, uy, uz), uF, p);
        dodd = dodd + cm * ts_lbm_force_odd(i, p);
      }
      fin[i] = a + de + dodd;
      fin[i + 1] = b + de - dodd;
    } else {
      fin[i] = ts_fma(p->omega_p, (qe + qo) - a, a);
      fin[i + 1] = ts_fma(p->omega_p, (qe - qo) - b, b);
      if (forced) {
        const ts_real se = ts_lbm_force_even(i, ts_lbm_dot(i, ux, uy, uz), uF, p),
                      so = ts_lbm_force_odd(i, p);
        fin[i] = fin[i] + cp * (se + so);
        fin[i + 1] = fin[i + 1] + cp * (se - so);
      }
    }
  }
}

TS_FN void ts_lbm_equilibrium(ts_real* fout, ts_real rho, ts_real ux, ts_real uy, ts_real uz) {
  const ts_real usq15 = ts_lbm_usq15(ux, uy, uz);
  ts_real e, o;
  ts_lbm_feq_pair(0, rho, ux, uy, uz, usq15, &e, &o);
  fout[0] = e;
  TS_LBM_UNROLL
  for (int i = 1; i < TS_LBM_Q; i += 2) {
    ts_lbm_feq_pair(i, rho, ux, uy, uz, usq15, &e, &o);
    fout[i] = e + o;
    fout[i + 1] = e - o;
  }
}

/* The inlet's velocity at cell (x, y, z) (global coordinates) over its peak:
 * the product of the profile's parabolas (1: uniform). */
TS_FN ts_real ts_lbm_inlet_shape(long x, long y, long z, const ts_lbm_params* p) {
  const ts_real c[3] = {(ts_real)x, (ts_real)y, (ts_real)z};
  ts_real s = (ts_real)1;
  for (int a = 0; a < 3; ++a)
    if (p->profile & (1 << a)) s = s * (((c[a] - p->plo[a]) * (p->phi[a] - c[a])) * p->pinv[a]);
  return s;
}

/* The density of an inlet cell whose velocity has the component un along
 * its inward normal `normal` (+-(axis + 1)), from the populations that came
 * from the fluid (Zou and He 1997): mass balance across the face gives
 * rho (1 - un) = sum of f_i with c_i.n = 0 + 2 sum of f_i with c_i.n < 0.
 * The others came from the far side of the lattice (the outlet, by the
 * periodic wrap) and say nothing of this cell: their density in the
 * equilibrium made the inflow 7% short of the given one (a 2D channel). In
 * storage units (f - w, sum of w over the kept terms 1). */
TS_FN ts_real ts_lbm_inlet_density(const ts_real* fin, int normal, ts_real un) {
  const int axis = (normal < 0 ? -normal : normal) - 1, sign = normal < 0 ? -1 : 1;
  ts_real s = fin[0];
  TS_LBM_UNROLL
  for (int i = 1; i < TS_LBM_Q; ++i) {
    const int c = sign * (axis == 0 ? ts_lbm_cx(i) : axis == 1 ? ts_lbm_cy(i) : ts_lbm_cz(i));
    if (c == 0) s = s + fin[i];
    if (c < 0) s = s + (ts_real)2 * fin[i];
  }
  return ts_lbm_rho_of(s) / ((ts_real)1 - un);
}

/* Collision (or boundary equilibrium) of cell (x, y, z)'s incoming
 * populations, in place (z global: the inlet's profile). */
TS_FN void ts_lbm_update_cell(ts_real* fin, int type, long x, long y, long z,
                              const ts_lbm_params* p) {
  if (type == TS_LBM_FLUID) {
    ts_real rho, ux, uy, uz;
    ts_lbm_velocity(fin, p, &rho, &ux, &uy, &uz);
    ts_lbm_collide(fin, rho, ux, uy, uz, p);
  } else {
    ts_real rho, jx, jy, jz;
    ts_lbm_moments_of(fin, &rho, &jx, &jy, &jz);
    if (type == TS_LBM_INLET) {
      const ts_real s = p->profile ? ts_lbm_inlet_shape(x, y, z, p) : (ts_real)1;
      const ts_real ux = p->uix * s, uy = p->uiy * s, uz = p->uiz * s;
      if (p->inlet_normal) {
        const int n = p->inlet_normal, a = (n < 0 ? -n : n) - 1;
        const ts_real un = a == 0 ? ux : a == 1 ? uy : uz;
        rho = ts_lbm_inlet_density(fin, n, n < 0 ? -un : un);
      }
      ts_lbm_equilibrium(fin, rho, ux, uy, uz);
    } else {
      const ts_real inv = ts_lbm_from_units((ts_real)1 / rho);
      ts_lbm_equilibrium(fin, p->rho_out, jx * inv, jy * inv, jz * inv);
    }
  }
}

/* One time step of cell (x, y, z): stream (pull) and collide, in place. */
TS_FN void ts_lbm_stream_collide(TS_GLOBAL ts_lbm_store* f, TS_GLOBAL const unsigned char* flags,
                                 long x, long y, long z, long nx, long ny, long nz, int odd,
                                 const ts_lbm_params* p) {
  const ts_lbm_nbhd h = ts_lbm_neighbourhood(x, y, z, nx, ny, nz);
  const unsigned char flag = flags[h.n];
  const int type = flag & TS_LBM_TYPE_MASK;
  if (TS_LBM_IS_WALL(flag)) return;
  ts_real fin[TS_LBM_Q];
  ts_lbm_load_in(f, flags, flag, &h, odd, p, fin);
  ts_lbm_update_cell(fin, type, x, y, z, p);
  ts_lbm_store_out(f, &h, odd, fin);
}

/* The step with the parity as a constant in each branch (the GPU launchers'
 * entry): each branch computes its slot offsets as a constant times N plus
 * the neighbour's offset, without selecting between i and i+1 per population. */
TS_FN void ts_lbm_stream_collide_by_parity(TS_GLOBAL ts_lbm_store* f,
                                           TS_GLOBAL const unsigned char* flags, long x, long y,
                                           long z, long nx, long ny, long nz, int odd,
                                           const ts_lbm_params* p) {
  if (odd)
    ts_lbm_stream_collide(f, flags, x, y, z, nx, ny, nz, 1, p);
  else
    ts_lbm_stream_collide(f, flags, x, y, z, nx, ny, nz, 0, p);
}

/* ---- two-lattice (A-B) pull streaming on a padded part of a distributed
 * field (src/skeleton): x and y periodic within the part, z reaches into the
 * halo layers (filled by the exchange). The incoming values are the same
 * stored values the esoteric kernel reads, so both give identical bits. ---- */

/* x, y, z local (0 <= z < owned depth); sy, sz, cs: strides of y, z and of a
 * component; origin: offset of local (0, 0, 0) */
TS_FN ts_lbm_nbhd ts_lbm_neighbourhood_padded(long x, long y, long z, long nx, long ny, long sy,
                                              long sz, long cs, long origin) {
  ts_lbm_nbhd h;
  h.N = (ts_lbm_idx)cs;
  h.x0 = (ts_lbm_idx)(origin + x);
  h.xp = (ts_lbm_idx)(origin + (x + 1 == nx ? 0 : x + 1));
  h.xm = (ts_lbm_idx)(origin + (x == 0 ? nx - 1 : x - 1));
  h.y0 = (ts_lbm_idx)(y * sy);
  h.yp = (ts_lbm_idx)((y + 1 == ny ? 0 : y + 1) * sy);
  h.ym = (ts_lbm_idx)((y == 0 ? ny - 1 : y - 1) * sy);
  h.z0 = (ts_lbm_idx)(z * sz);
  h.zp = (ts_lbm_idx)((z + 1) * sz);
  h.zm = (ts_lbm_idx)((z - 1) * sz);
  h.n = h.x0 + h.y0 + h.z0;
  return h;
}

TS_FN int ts_lbm_opposite(int i) { return i == 0 ? 0 : ((i & 1) ? i + 1 : i - 1); }

/* in_i(x) = out_i(x - c_i), or, behind a wall, out_opp(i)(x) + 6 w_i c_i.u_w */
TS_FN void ts_lbm_load_in_pull(TS_GLOBAL const ts_lbm_store* src,
                               TS_GLOBAL const unsigned char* flags, unsigned char flag,
                               const ts_lbm_nbhd* h, const ts_lbm_params* p, ts_real* fin) {
  const ts_lbm_idx N = h->N, n = h->n;
  fin[0] = ts_lbm_load(src, n);
  if (!(flag & TS_LBM_NEAR_WALL)) { /* one branch per cell, as in ts_lbm_load_in */
    TS_LBM_UNROLL
    for (int i = 1; i < TS_LBM_Q; ++i)
      fin[i] = ts_lbm_load(src, (ts_lbm_idx)i * N + ts_lbm_neighbour(h, i, -1));
    return;
  }
  TS_LBM_UNROLL
  for (int i = 1; i < TS_LBM_Q; ++i) {
    const ts_lbm_idx jm = ts_lbm_neighbour(h, i, -1);
    const unsigned char fm = flags[jm];
    const int a = ts_lbm_slip_axis(flags, h, i, fm);
    const int back = a < 0 ? ts_lbm_opposite(i) : ts_lbm_slip_direction(i, a);
    fin[i] =
        ts_lbm_load(src, ts_lbm_is_wall(fm) ? (ts_lbm_idx)back * N + n : (ts_lbm_idx)i * N + jm);
    if ((fm & TS_LBM_TYPE_MASK) == TS_LBM_MOVING) fin[i] = fin[i] + ts_lbm_wall_term(i, p);
  }
}

TS_FN void ts_lbm_stream_collide_pull(TS_GLOBAL const ts_lbm_store* src,
                                      TS_GLOBAL ts_lbm_store* dst,
                                      TS_GLOBAL const unsigned char* flags, long x, long y, long z,
                                      long nx, long ny, long sy, long sz, long cs, long origin,
                                      long zg, const ts_lbm_params* p) {
  const ts_lbm_nbhd h = ts_lbm_neighbourhood_padded(x, y, z, nx, ny, sy, sz, cs, origin);
  const unsigned char flag = flags[h.n];
  const int type = flag & TS_LBM_TYPE_MASK;
  if (TS_LBM_IS_WALL(flag)) return;
  ts_real fin[TS_LBM_Q];
  ts_lbm_load_in_pull(src, flags, flag, &h, p, fin);
  ts_lbm_update_cell(fin, type, x, y, zg, p);
  TS_LBM_UNROLL
  for (int i = 0; i < TS_LBM_Q; ++i) ts_lbm_save(dst, (ts_lbm_idx)i * h.N + h.n, fin[i]);
}

/* the equilibrium as the outgoing populations of step -1, at the cell itself */
TS_FN void ts_lbm_init_pull(TS_GLOBAL ts_lbm_store* f, long n, long cs, ts_real rho, ts_real ux,
                            ts_real uy, ts_real uz) {
  ts_real fout[TS_LBM_Q];
  ts_lbm_equilibrium(fout, rho, ux, uy, uz);
  TS_LBM_UNROLL
  for (int i = 0; i < TS_LBM_Q; ++i) ts_lbm_save(f, (long)i * cs + n, fout[i]);
}

/* Initial state: equilibrium of (rho, u), stored as the outgoing populations
 * of step -1 (odd parity), so that step 0 streams them. Walls store too: the
 * stores of all cells cover every slot once, so no slot keeps stale memory
 * (checkpoints and bitwise comparisons see defined bytes only). */
TS_FN void ts_lbm_init_point(TS_GLOBAL ts_lbm_store* f, TS_GLOBAL const unsigned char* flags,
                             long x, long y, long z, long nx, long ny, long nz, ts_real rho,
                             ts_real ux, ts_real uy, ts_real uz) {
  const ts_lbm_nbhd h = ts_lbm_neighbourhood(x, y, z, nx, ny, nz);
  ts_real fout[TS_LBM_Q];
  (void)flags;
  ts_lbm_equilibrium(fout, rho, ux, uy, uz);
  ts_lbm_store_out(f, &h, 1, fout);
}

/* Density and velocity (with half the body force) of cell (x, y, z) at the
 * start of the step of parity `odd`, into out[n], out[N+n], out[2N+n],
 * out[3N+n]; walls report rho = 0 and u = 0. */
TS_FN void ts_lbm_moments_point(TS_GLOBAL const ts_lbm_store* f,
                                TS_GLOBAL const unsigned char* flags, long x, long y, long z,
                                long nx, long ny, long nz, int odd, const ts_lbm_params* p,
                                TS_GLOBAL ts_real* out) {
  const ts_lbm_nbhd h = ts_lbm_neighbourhood(x, y, z, nx, ny, nz);
  const unsigned char flag = flags[h.n];
  ts_real rho = (ts_real)0, ux = (ts_real)0, uy = (ts_real)0, uz = (ts_real)0;
  if (!ts_lbm_is_wall(flag)) {
    ts_real fin[TS_LBM_Q];
    ts_lbm_load_in(f, flags, flag, &h, odd, p, fin);
    ts_lbm_velocity(fin, p, &rho, &ux, &uy, &uz);
  }
  out[h.n] = rho;
  out[h.N + h.n] = ux;
  out[2 * h.N + h.n] = uy;
  out[3 * h.N + h.n] = uz;
}

/* ---- interpolated bounce-back on curved walls (Bouzidi, Firdaouss and
 * Lallemand 2001), a pass after each esoteric-pull step over the links of
 * fluid cells into bodies whose surface is known. Link (n, d): the wall
 * lies at q |c_d| from n along c_d (0 < q <= 1). The population bounced back
 * into n is, from the post-collision values f* of the step just done,
 *   q <  1/2:  2q f*_d(n) + (1 - 2q) f*_d(n - c_d)
 *   q >= 1/2:  f*_d(n) / (2q) + (1 - 1/(2q)) f*_dbar(n)
 * (halfway bounce-back is q = 1/2: f*_d(n) alone), linear in f - w as in f
 * since the weights sum to 1, so storage units serve.
 *
 * The value goes where the next step's ts_lbm_load_in reads it: the slot of
 * f*_d(n) (halfway bounce-back reads its own population there). Race-free
 * in place: a slot written is read by no other link. The links' second
 * values come from n - c_d (the population it sent into n) or n itself
 * (f*_dbar: sent towards n - c_d); the host (lbm/links.cpp) keeps only
 * links whose n - c_d is no wall, so n - c_d holds a value of this step
 * and no link writes the slot of f*_dbar(n) (that would need a wall at
 * n - c_d). ---- */

/* where the previous step's out_d of the cell at n - c_d is, at parity
 * `odd` (ts_lbm_sent of that cell: out_d streams into n) */
TS_FN ts_lbm_idx ts_lbm_sent_from_behind(const ts_lbm_nbhd* h, int d, int odd) {
  return (d & 1) ? (ts_lbm_idx)(odd ? d : d + 1) * h->N + h->n
                 : (ts_lbm_idx)(odd ? d : d - 1) * h->N + ts_lbm_neighbour(h, d, -1);
}

/* The interpolation of one link from the slots of f*_d(n) (`own`, where
 * the result goes) and of the second value; returns f*_d(n) (the momentum
 * exchange needs both; storage units). */
TS_FN ts_real ts_lbm_bounce_link(TS_GLOBAL ts_lbm_store* f, ts_lbm_idx own, ts_lbm_idx second,
                                 ts_real c1, ts_real c2) {
  const ts_real a = ts_lbm_load(f, own), b = ts_lbm_load(f, second);
  ts_lbm_save(f, own, ts_fma(c1, a, c2 * b));
  return a;
}

/* One link: code = 64 n + 2 d + (q < 1/2), c1 and c2 the weights of f*_d(n)
 * and of the second value (2q, 1 - 2q or 1/(2q), 1 - 1/(2q)); `odd` the
 * parity of the next step. */
TS_FN ts_real ts_lbm_interpolate_link(TS_GLOBAL ts_lbm_store* f, long code, ts_real c1, ts_real c2,
                                      long nx, long ny, long nz, int odd) {
  const long n = code >> 6;
  const int d = (int)((code >> 1) & 31), near_half = (int)(code & 1);
  const ts_lbm_nbhd h = ts_lbm_neighbourhood(n % nx, (n / nx) % ny, n / (nx * ny), nx, ny, nz);
  return ts_lbm_bounce_link(
      f, ts_lbm_sent(&h, d, odd),
      near_half ? ts_lbm_sent_from_behind(&h, d, odd) : ts_lbm_sent(&h, ts_lbm_opposite(d), odd),
      c1, c2);
}

/* The same in a padded part's two-lattice storage (lbm_pull: out_i of cell
 * n at i cs + n), n in the code the owned cell x + nx (y + ny z), after the
 * step and the halo exchange (n - c_d may lie in a halo). */
TS_FN ts_real ts_lbm_interpolate_link_pull(TS_GLOBAL ts_lbm_store* f, long code, ts_real c1,
                                           ts_real c2, long nx, long ny, long sy, long sz, long cs,
                                           long origin) {
  const long n = code >> 6;
  const int d = (int)((code >> 1) & 31), near_half = (int)(code & 1);
  const ts_lbm_nbhd h =
      ts_lbm_neighbourhood_padded(n % nx, (n / nx) % ny, n / (nx * ny), nx, ny, sy, sz, cs, origin);
  return ts_lbm_bounce_link(f, (ts_lbm_idx)d * h.N + h.n,
                            near_half ? (ts_lbm_idx)d * h.N + ts_lbm_neighbour(&h, d, -1)
                                      : (ts_lbm_idx)ts_lbm_opposite(d) * h.N + h.n,
                            c1, c2);
}
