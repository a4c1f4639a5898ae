/* Constants shared by the per-point header krylov_point.h, the OpenCL
 * program and the C++ launchers (C99): the operand flags of the update
 * kernel (ts_kry_update_at, the fused steps of CG and BiCGStab) and the
 * shape of the grouped triangular solve (ts_kry_tri_group), and the dots' load
 * batch (ts_kry_dots_group). */
#ifndef TESSERA_KRYLOV_UPDATE_H
#define TESSERA_KRYLOV_UPDATE_H
#include "core/kernels/portable.h" /* TS_REDUCE_PER_THREAD */
#define TS_KRY_UP_X 1u
#define TS_KRY_UP_U 2u
#define TS_KRY_UP_W 4u
#define TS_KRY_UP_Y2 8u
#define TS_KRY_UP_X2 16u /* the y2 operands: y's flags shifted by 4 */
#define TS_KRY_UP_U2 32u
#define TS_KRY_UP_W2 64u
#define TS_KRY_UP_Z 128u
#define TS_KRY_UP_E 256u
#define TS_KRY_UP_NORM 512u
#define TS_KRY_UP_DOT 1024u /* the second product: <y, z> with Z, else <e, y> */
/* elements whose loads a dots work-item issues together: 4 is settled (1, 8, 16 slower, docs/krylov-history.md) */
#define TS_KRY_DOTS_BATCH 4
#if TS_REDUCE_PER_THREAD % TS_KRY_DOTS_BATCH != 0
#error "TS_KRY_DOTS_BATCH must divide TS_REDUCE_PER_THREAD"
#endif
#define TS_KRY_BLOCK_MAX \
  8 /* s-step GMRES: vectors of a block (right-hand sides of dots_block, outputs of combine_block) */
#define TS_KRY_TRI_THREADS 32 /* work-items per group of rows */
#define TS_KRY_TRI_CAP 512    /* entries of a group staged in group memory */
#define TS_KRY_TRI_ROWS 64    /* rows of a group kept in group memory */
/* DCGS2's coefficient kernel: lanes of its first reduction (fixed: the host
 * and every device must agree) */
#define TS_KRY_DCGS2_LANES 32
#endif
