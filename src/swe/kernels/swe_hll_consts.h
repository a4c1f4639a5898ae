/* Constants of the physical shallow-water kernels (guarded; see portable.h). */
#ifndef TESSERA_SWE_HLL_CONSTS_H
#define TESSERA_SWE_HLL_CONSTS_H
#include "core/kernels/bits.h"
#include "core/kernels/portable.h"
/* boundary kinds, as swe::Bc */
#define TS_SWE_BC_WALL 0
#define TS_SWE_BC_TRANSMISSIVE 1
#define TS_SWE_BC_PERIODIC 2
#define TS_SWE_BC_LEVEL 3
#define TS_SWE_BC_DISCHARGE 4
/* an internal face of a distributed grid: the halo exchange fills the ghosts */
#define TS_SWE_BC_EXCHANGE 5
/* free outflow at the normal depth: depth and velocities copied (as
 * transmissive), the bed extrapolated along the slope (physical.cpp), so the
 * surface keeps the bed's slope across the side */
#define TS_SWE_BC_NORMAL_DEPTH 6
/* slots of the uint32 flag buffer, as swe::slot */
#define TS_SWE_RATE0 0
#define TS_SWE_STEPS 2
#define TS_SWE_BAD_CELL 3
#define TS_SWE_BAD_STEP 4
#define TS_SWE_NONE 0xffffffffu
/* the strip kernel: TS_SWE_BLOCK work-items along j, each marching a strip
 * of rows: long strips on large grids (fewer re-read rows at strip edges,
 * fewer atomics), short ones on small grids (enough work-groups) */
#define TS_SWE_BLOCK 128
/* the shared-face update's work-group: 256 items in single precision, 128 in
 * double (measured, docs/swe-history.md) */
#define TS_SWE_SHARED_BLOCK_F 256
#define TS_SWE_SHARED_BLOCK_D 128
/* the second-order stage's tile (swe_rk_tile.h): 32 columns by 8 rows in
 * single precision (256 items), 4 in double (128: the same local memory) */
#define TS_SWE_RK_TX 32
#define TS_SWE_RK_TY_F 8
#define TS_SWE_RK_TY_D 4
#define TS_SWE_PREFETCH_ROWS 5 /* phys_prefetch_rows (swe_kernels.hpp); H100: docs/swe-history.md */
/* rows per strip (phys_strip_rows): settled, no length measured faster (docs/swe-history.md) */
#define TS_SWE_STRIP_LONG 128
#define TS_SWE_STRIP_SHORT 16
#define TS_SWE_STRIP_LONG_CELLS (1L << 24)
/* the shared-face update indexes storage with 32 bits: grids of fewer than
 * 2^32 stored values ((nx + 4) rows of w); larger ones take the one-column
 * update */
#define ts_swe_shared_fits(nx, w) ((long)((nx) + 4) * (long)(w) < 4294967296L)

/* The wave-rate maximum lives in a uint32 slot so that an integer atomic max
 * can reduce it (rates are >= 0, and non-negative floats order like their
 * bit patterns): ts_float_bits / ts_bits_float of core/kernels/bits.h. */
/* The interior cell a ghost copies: layer m (1: next to the interior, 2:
 * outer) of the low (hi = 0) or high side of an axis of n interior cells,
 * as an index along that axis in storage (two ghost layers). */
TS_FN long ts_swe_ghost_source(int bc, int hi, long n, long m) {
  if (bc == TS_SWE_BC_PERIODIC) return hi ? 1 + m : n + 2 - m;
  return hi ? n + 2 - m : 1 + m;
}

/* Whether water crosses a side of this kind (the boundary flow tally counts
 * it): transmissive, level and discharge sides */
TS_FN int ts_swe_open_side(int bc) {
  return bc == TS_SWE_BC_TRANSMISSIVE || bc == TS_SWE_BC_LEVEL || bc == TS_SWE_BC_DISCHARGE ||
         bc == TS_SWE_BC_NORMAL_DEPTH;
}

#endif /* TESSERA_SWE_HLL_CONSTS_H */
