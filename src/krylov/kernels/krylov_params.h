/* The scalars of every Krylov kernel (core/kernels/kernel_args.h): one
 * struct for C++, CUDA and OpenCL, filled per launch by krylov_steps.hpp;
 * each kernel reads the fields its comment names. A plain struct (no
 * ts_real field): the same type for float and double. Fields of fixed size,
 * widest first, so that host and device agree on the layout. */
#ifndef TESSERA_KRYLOV_PARAMS_H
#define TESSERA_KRYLOV_PARAMS_H
#include "core/kernels/kernel_args.h"

typedef struct {
  ts_size n;     /* values of a vector (a complex value counts once) */
  ts_size nch;   /* canonical chunks of n: the reductions' partials per product */
  ts_size k;     /* basis vectors: dots, dots_block, combine, combine_block */
  ts_size ld;    /* reals from one basis vector to the next */
  int nc;        /* reals per value: 1 real, 2 complex (interleaved) */
  int k2;        /* combine's second output: its basis vectors (<= k) */
  int two;       /* combine: a second output y2 */
  int has_x;     /* combine: an x term in the first output */
  int has_x2;    /* combine: an x2 term in the second output */
  int y_real;    /* combine over a narrow basis: y is the working vector yw */
  ts_uint flags; /* update: its operands and products (TS_KRY_UP_*) */
  int products;  /* update: products formed (0, 1 or 2) */
  int bs;        /* block_diag: block size */
  int group;     /* tri_group: rows per group */
  int backward;  /* tri_group: rows in descending order (U) */
  int has_d;     /* tri_group: inv_d given (else a unit diagonal) */
  int j;         /* dcgs2_coef: the step */
  int pad;       /* keeps the size a multiple of 8 bytes on every compiler */
} ts_kry_params;

#endif /* TESSERA_KRYLOV_PARAMS_H */
